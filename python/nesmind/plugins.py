"""The in-tree players, callable from Python.

    nesmind.run(nesmind.plugins.demo_rom("spot"), plugin=nesmind.plugins.spot(), frames=3600)

Each call makes a fresh player for one run. Options are the `--plugin-opt key=value` pairs
of `nesmind run --plugin NAME` (values are given as Python values and passed as text).
"""

from typing import Any, Dict, List, Tuple

from . import _nesmind

InTreePlugin = _nesmind.InTreePlugin


def names() -> List[Tuple[str, str]]:
    """The in-tree plug-ins as (name, description), in `nesmind plugins` order."""
    return list(_nesmind.plugin_names())


def create(name: str, **options: Any) -> "_nesmind.InTreePlugin":
    """An in-tree player by name with plug-in options."""
    return _nesmind.create_plugin(name, _texts(options))


def spot(**options: Any) -> "_nesmind.InTreePlugin":
    """The Spot (Ataxx) player; plays Spot: The Video Game and the DOTS demo cart."""
    return create("spot", **options)


def hatris(**options: Any) -> "_nesmind.InTreePlugin":
    """The Hatris player; plays Hatris and the Hatris-like demo cart."""
    return create("hatris", **options)


def demo_rom(name: str) -> bytes:
    """The open demo cartridge an in-tree plug-in plays ("spot": DOTS, "hatris":
    the Hatris-like cart), as iNES bytes for Machine() or run()."""
    return _nesmind.demo_rom(name)


def _texts(options: Dict[str, Any]) -> Dict[str, str]:
    out = {}
    for key, value in options.items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        out[key] = str(value)
    return out
