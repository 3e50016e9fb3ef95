#!/usr/bin/env bash
# Installs stable-retro 1.0.1 (its NES integrations, savestates and FCEUmm core) into
# python/.venv, where crates/retro's tests look for it:
#   tests/fetch-retro-data.sh && cargo test -p nesmind-retro
# Nothing from the package is copied into the repository. Does nothing when the venv
# already imports stable_retro, or when $NESMIND_RETRO_DATA is set (the tests then read
# the data from there; the comparison with stable-retro's own evaluation still needs a
# Python with stable_retro, found through $PYTHON). Without python3-venv or a package
# index it says so and stops; under CI=true that is an error.
set -euo pipefail
cd "$(dirname "$0")/../python"

unavailable() {
  if [ "${CI:-}" = "true" ]; then
    echo "stable-retro cannot be installed: $1" >&2
    exit 1
  fi
  echo "stable-retro not installed: $1 (the retro tests will say SKIPPED; CI=true fails)" >&2
  exit 0
}

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv 2>/dev/null || unavailable "python3 -m venv failed (install python3-venv)"
fi
if .venv/bin/python -c "import importlib.util as u; assert u.find_spec('stable_retro')" 2>/dev/null; then
  echo "stable-retro already in python/.venv"
  exit 0
fi
.venv/bin/pip install -q "stable-retro==1.0.1" || unavailable "pip could not install stable-retro==1.0.1"
echo "stable-retro 1.0.1 installed in python/.venv"
