#!/usr/bin/env bash
# Browser test of report.html: builds hoyito (as `cargo test` does), makes a
# small run that records its moves, and checks the page in headless Chromium
# through chromedriver (tests/browser/check_report.py, Python 3 standard
# library only). Installs Chromium and chromedriver from Debian's packages
# when they are missing; if they cannot be installed, says so on one line and
# exits 0.
set -euo pipefail
cd "$(dirname "$0")/../.."
have() { command -v "$1" >/dev/null 2>&1; }
if ! have chromium || ! have chromedriver; then
  if [ "$(id -u)" = 0 ] && have apt-get; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq chromium chromium-driver; } >/dev/null 2>&1 || true
  fi
fi
if ! have chromium || ! have chromedriver || ! have python3; then
  echo "browser test skipped: Chromium, chromedriver or python3 is missing and could not be installed"
  exit 0
fi
# The binary `cargo test` builds for the integration tests (test profile), not
# `cargo build`, which would compile the crate again under the dev profile.
cargo test --quiet --no-run --test integration
hoyito="$PWD/target/debug/hoyito"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat >"$work/browser.toml" <<'TOML'
name = "browser"
seed = 14
games = 4
threads = 2
[rules]
variants = ["i", "ii"]
holes = [6]
no_capture_limit = 60
[openings]
random_plies = 2
[tournament]
format = "round-robin"
agents = ["random", "greedy"]
self_play = true
[record]
moves = true
TOML
"$hoyito" run "$work/browser.toml" --out "$work/run" --report-every 0 >/dev/null 2>&1
"$hoyito" replay "$work/run" 1 --html "$work/game1.html" >/dev/null
# Screenshots go to the scratch directory, so that CI leaves the checkout as
# it found it; HOYITO_SCREENSHOTS=reports/screenshots refreshes the README's.
shots="${HOYITO_SCREENSHOTS:-$work/screenshots}"
mkdir -p "$shots"
python3 tests/browser/check_report.py "$hoyito" "$work/run" "$work/game1.html" "$shots"
