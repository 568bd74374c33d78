#!/usr/bin/env python3
"""Broken agent for tests/external/main.rs: dies before it answers the
handshake."""
import sys

sys.stderr.write("dead_at_start: giving up\n")
sys.exit(2)
