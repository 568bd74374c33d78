#!/usr/bin/env bash
# Builds, installs and tests the Python package from a clean checkout:
# a fresh virtual environment, `pip install ./python` (the README's
# command), then `pytest python/tests`. Says what it skipped.
#
#   python/ci.sh            # venv in $HOYITO_VENV or python/.venv
#
# Needs Python 3.9+ with venv, a Rust toolchain, and network access to PyPI
# and crates.io (or their caches).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
venv="${HOYITO_VENV:-$here/.venv}"
python="${PYTHON:-python3}"

"$python" -m venv "$venv"
pip="$venv/bin/python -m pip"
$pip install --quiet --upgrade pip
# pygame: PettingZoo's connect_four_v3, which bench.py runs beside hoyito's
# AEC loop, imports it.
$pip install --quiet maturin pytest numpy pettingzoo gymnasium pygame
skipped=()
if ! $pip install --quiet open_spiel; then
    skipped+=("OpenSpiel tests: the open_spiel package does not install here (no wheel for $("$venv/bin/python" -V) on $(uname -sm))")
fi
# The README's install command, from the repository root.
(cd "$root" && CARGO_INCREMENTAL=0 $pip install --quiet ./python)
# The CLI, for the test that runs one experiment by both roads.
(cd "$root" && cargo build --quiet)
export HOYITO_BIN="$root/target/debug/hoyito"
(cd "$root" && "$venv/bin/python" -m pytest python/tests -q -rs)
# The speed script as the README runs it, briefly: it must run against the
# installed package (not the source folder beside it) and reach
# connect_four_v3.
(cd "$root" && "$venv/bin/python" python/bench.py --steps 5 --repeat 1 --games 200 \
    --aec-steps 200 --batch 64) | tee "$venv/bench.txt"
grep -q "connect_four_v3 [0-9]" "$venv/bench.txt"
if [ ${#skipped[@]} -gt 0 ]; then
    printf 'skipped: %s\n' "${skipped[@]}"
else
    echo "skipped: nothing (open_spiel installed; pytest lists any other skip above)"
fi
