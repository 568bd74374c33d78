#!/usr/bin/env python3
"""Broken agent for tests/external/main.rs: never answers the handshake."""
import sys

for line in sys.stdin:
    pass
