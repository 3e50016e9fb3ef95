"""Shared fixtures. Optional packages (gymnasium, pettingzoo, ray) skip their tests when
missing, except under CI=true, where a missing piece fails (the project's rule)."""

import importlib
import os

import pytest

import nesmind


def need(module: str):
    """Imports `module`; skips without it, fails without it under CI=true."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{module} is needed under CI=true and is missing: {e}")
        pytest.skip(f"{module} is not installed")


@pytest.fixture(scope="session")
def dots() -> bytes:
    return nesmind.plugins.demo_rom("spot")


@pytest.fixture(scope="session")
def hatris() -> bytes:
    return nesmind.plugins.demo_rom("hatris")


def nrom(program: bytes, mapper: int = 0) -> bytes:
    """A 16 KiB NROM image running `program` from $C000."""
    header = bytes([0x4E, 0x45, 0x53, 0x1A, 1, 1, (mapper & 0xF) << 4, mapper & 0xF0]) + bytes(8)
    prg = bytearray(16384)
    prg[: len(program)] = program
    prg[0x3FFC:0x3FFE] = bytes([0x00, 0xC0])  # reset vector -> $C000
    return header + bytes(prg) + bytes(8192)
