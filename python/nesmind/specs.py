"""Declarative RAM-variable specs: rewards and episode ends from named RAM variables.

A spec (RON or JSON) names variables by address and type and gives expressions over them:

    {
      "game": "DOTS",
      "variables": {"mine": {"address": 1224}, "theirs": {"address": 1225},
                    "phase": {"address": 1792}},
      "reward": "(mine - prev.mine) - (theirs - prev.theirs)",
      "done": "phase == 2",
      "start": {"buttons": "Start", "until": "phase == 1"},
      "actions": ["", "A", "B", "Up", "Down", "Left", "Right"]
    }

Types: u8, i8, u16, i16, u24, u32 (binary, "endian": "little" by default), bcd (two
decimal digits a byte) and digits (one decimal digit a byte), the last two with "size".
Expressions use the variables, `prev.NAME` (the value one step earlier), numbers,
arithmetic, comparisons, and/or/not, `x if c else y`, abs, min and max; nothing else.

Shipped specs: "dots" (the Spot demo cart) and "hatris-like" (the Hatris demo cart).
"""

import ast
import json
import os
from typing import Any, Dict, List, Optional, Union

from . import _nesmind

_HERE = os.path.join(os.path.dirname(__file__), "specs")
#: The specs that ship with the package, by name, and the demo cart each is for.
BUILTIN = {"dots": "spot", "hatris-like": "hatris"}

_NODES = (
    ast.Expression, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp,
    ast.Name, ast.Constant, ast.Attribute, ast.Call, ast.Load,
    ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod,
    ast.USub, ast.UAdd, ast.Not, ast.And, ast.Or,
    ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE,
)
_FUNCTIONS = {"abs": abs, "min": min, "max": max}


class _Prev:
    """`prev.NAME` in expressions."""

    __slots__ = ("_values",)

    def __init__(self, values: Dict[str, int]):
        self._values = values

    def __getattr__(self, name: str) -> int:
        try:
            return self._values[name]
        except KeyError:
            raise NameError(f"prev.{name} is not a variable of this spec") from None


def _compile(text: str, names: List[str], what: str):
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as e:
        raise _nesmind.NesError(f"bad RAM spec: {what} '{text}': {e.msg}") from None
    for node in ast.walk(tree):
        if not isinstance(node, _NODES):
            raise _nesmind.NesError(
                f"bad RAM spec: {what} '{text}' uses {type(node).__name__}, which specs do not allow"
            )
        if isinstance(node, ast.Name) and node.id not in names and node.id not in _FUNCTIONS \
                and node.id != "prev":
            raise _nesmind.NesError(f"bad RAM spec: {what} '{text}' names unknown variable '{node.id}'")
        if isinstance(node, ast.Attribute) and not (
                isinstance(node.value, ast.Name) and node.value.id == "prev" and node.attr in names):
            raise _nesmind.NesError(f"bad RAM spec: {what} '{text}': only prev.VARIABLE may use a dot")
        if isinstance(node, ast.Call) and not (
                isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS and not node.keywords):
            raise _nesmind.NesError(f"bad RAM spec: {what} '{text}': only abs, min and max may be called")
        if isinstance(node, ast.Constant) and not isinstance(node.value, (int, float)):
            raise _nesmind.NesError(f"bad RAM spec: {what} '{text}': only numbers may be constants")
    return compile(tree, f"<spec {what}>", "eval")


class RamSpec:
    """A checked spec: `read(machine)` gives the variables, `reward(now, prev)` and
    `done(now)` evaluate the expressions."""

    def __init__(self, spec: Dict[str, Any]):
        self.game: str = spec.get("game", "")
        self.variables: Dict[str, Dict[str, Any]] = spec["variables"]
        names = list(self.variables)
        self.reward_text: Optional[str] = spec.get("reward")
        self.done_text: Optional[str] = spec.get("done")
        self._reward = _compile(self.reward_text, names, "reward") if self.reward_text else None
        self._done = _compile(self.done_text, names, "done") if self.done_text else None
        start = spec.get("start")
        self.start_buttons: str = start["buttons"] if start else ""
        self.start_max_frames: int = start["max_frames"] if start else 0
        self._until = _compile(start["until"], names, "start.until") if start else None
        self.actions: Optional[List[str]] = spec.get("actions")
        self._readers = [(name, _reader(v)) for name, v in self.variables.items()]

    @classmethod
    def parse(cls, text: str, format: str = "json") -> "RamSpec":
        """A spec from RON or JSON text."""
        return cls(json.loads(_nesmind.parse_spec(text, format)))

    @classmethod
    def load(cls, source: Union[str, os.PathLike, "RamSpec", Dict[str, Any]]) -> "RamSpec":
        """A spec from a shipped name ("dots", "hatris-like"), a .ron/.json file, a dict
        or a RamSpec (returned as is)."""
        if isinstance(source, RamSpec):
            return source
        if isinstance(source, dict):
            return cls.parse(json.dumps(source), "json")
        path = os.fspath(source)
        if path in BUILTIN:
            path = os.path.join(_HERE, path + ".ron")
        fmt = "ron" if path.endswith(".ron") else "json"
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise _nesmind.NesError(f"cannot read RAM spec '{path}': {e.strerror}") from None
        return cls.parse(text, fmt)

    def read(self, machine) -> Dict[str, int]:
        """The variables' current values on `machine` (a Machine or plug-in Frame)."""
        return self.read_peek(machine.peek)

    def read_peek(self, peek) -> Dict[str, int]:
        """The variables' values through `peek(address) -> int`."""
        return {name: read(peek) for name, read in self._readers}

    def reward(self, now: Dict[str, int], prev: Dict[str, int]) -> float:
        """The reward expression (0.0 without one)."""
        if self._reward is None:
            return 0.0
        return float(self._eval(self._reward, now, prev))

    def done(self, now: Dict[str, int]) -> bool:
        """The done expression (never done without one)."""
        return bool(self._done is not None and self._eval(self._done, now, now))

    def started(self, now: Dict[str, int]) -> bool:
        """Whether `start.until` holds (always, without a start section)."""
        return self._until is None or bool(self._eval(self._until, now, now))

    @staticmethod
    def _eval(code, now, prev):
        scope = dict(now)
        scope["prev"] = _Prev(prev)
        scope.update(_FUNCTIONS)
        return eval(code, {"__builtins__": {}}, scope)

    def __repr__(self) -> str:
        return f"<RamSpec {self.game!r}: {', '.join(self.variables)}>"


def _reader(v: Dict[str, Any]):
    """A function peek -> value for one variable."""
    kind, addr = v["type"], v["address"]
    size = {"u8": 1, "i8": 1, "u16": 2, "i16": 2, "u24": 3, "u32": 4}.get(kind) or v["size"]
    order = list(range(size))
    if v["endian"] == "little":
        order.reverse()  # most significant byte first for the loop below
    addrs = [(addr + i) & 0xFFFF for i in order]
    if kind in ("bcd", "digits"):
        base = 100 if kind == "bcd" else 10

        def read(peek):
            value = 0
            for a in addrs:
                b = peek(a)
                value = value * base + ((b >> 4) * 10 + (b & 15) if kind == "bcd" else b)
            return value
        return read
    signed = kind.startswith("i")
    top = 1 << (8 * size)

    def read(peek):
        value = 0
        for a in addrs:
            value = (value << 8) | peek(a)
        return value - top if signed and value >= top // 2 else value
    return read
