#!/usr/bin/env bash
# The Python package's tests: builds nesmind into python/.venv (created on first use, with
# maturin, numpy, gymnasium, pettingzoo, ray, pytest and ataxx, the UAI client of test_uai.py)
# and runs python/tests.
# Without python3-venv or a package index the tests are not run, which fails under CI=true.
set -euo pipefail
cd "$(dirname "$0")"

unavailable() {
  if [ "${CI:-}" = "true" ]; then
    echo "python tests cannot run: $1" >&2
    exit 1
  fi
  echo "python tests not run: $1 (CI=true makes this an error)" >&2
  exit 0
}

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv 2>/dev/null || unavailable "python3 -m venv failed (install python3-venv)"
fi
if ! .venv/bin/python -c "import maturin, numpy, gymnasium, pettingzoo, ray, pytest, ataxx" 2>/dev/null; then
  .venv/bin/pip install -q maturin numpy gymnasium pettingzoo "ray[default]" pytest ataxx \
    || unavailable "pip could not install maturin, numpy, gymnasium, pettingzoo, ray, pytest, ataxx"
fi
# Builds with the workspace's `quick` profile (see pyproject.toml): optimised, no LTO.
.venv/bin/maturin develop -q
exec .venv/bin/python -m pytest -q tests "$@"
