#!/usr/bin/env bash
# The Python package's tests: builds nesmind into python/.venv (created on first use, with
# maturin, numpy, gymnasium, pettingzoo, ray, pytest and ataxx, the UAI client of test_uai.py)
# and runs python/tests.
# Without python3-venv or a package index the tests are not run, which fails under CI=true.
#
# `python/test.sh --rllib` runs python/tests_rllib instead (the vector env under RLlib's env
# runners) in python/.venv-rllib, with ray[rllib] and torch: several GB from PyPI (torch's
# CUDA libraries), so the default suite and CI leave it out.
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

venv=.venv tests=tests
needs=(maturin numpy gymnasium pettingzoo "ray[default]" pytest ataxx)
imports="maturin, numpy, gymnasium, pettingzoo, ray, pytest, ataxx"
if [ "${1:-}" = "--rllib" ]; then
  shift
  venv=.venv-rllib tests=tests_rllib
  needs=(maturin numpy "ray[rllib]" torch pytest)
  imports="maturin, numpy, ray.rllib, torch, pytest"
fi
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv" 2>/dev/null || unavailable "python3 -m venv failed (install python3-venv)"
fi
if ! "$venv/bin/python" -c "import $imports" 2>/dev/null; then
  "$venv/bin/pip" install -q "${needs[@]}" \
    || unavailable "pip could not install ${needs[*]}"
fi
# Builds with the workspace's `quick` profile (see pyproject.toml): optimised, no LTO.
# (Not cargo test's profile: `cargo rustc --profile test`, which maturin runs, builds the
# crate's test harness instead of the extension module.)
VIRTUAL_ENV="$PWD/$venv" "$venv/bin/maturin" develop -q
exec "$venv/bin/python" -m pytest -q "$tests" "$@"
