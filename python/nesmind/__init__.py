"""nesmind: a cycle-accurate NES emulator for game AI.

The machine
    Machine(rom)            one NES; step(), ram (NumPy view), picture(), clone(),
                            save_state()/load_state(), state_hash()
    VecMachine(rom, n)      n machines stepped in parallel into caller-provided arrays

Plug-ins and players
    run(rom, plugin=..., window=False, frames=N)
                            a session with a Python or in-tree plug-in, headless or
                            in the SDL window
    lua(script, unsafe=False, **args)
                            an FCEUX or BizHawk Lua bot script as the plug-in of run()
    Viewer()                a window showing the pictures a loop of yours hands it
                            (what Gymnasium's render_mode="human" uses)
    plugins.spot(...), plugins.hatris(...)
                            the in-tree players; plugins.demo_rom(name) their carts

Environments (optional dependencies)
    nesmind.gym             Gymnasium: NesEnv, NesVectorEnv, "nesmind/Nes-v0"
    nesmind.pettingzoo      PettingZoo: spot_env(players=2..4), spot_parallel_env(...),
                            on the DOTS cart in the emulator (or backend="rules")
    SpotCart(players)       a DOTS game on the emulated cart, moves entered on its pads
    SpotGame(players)       the same game on the rules model (fast)
    nesmind.ray             Ray: arena, sim and demo batches across workers
    nesmind.retro           stable-retro's NES integrations with its calls: make(game, state);
                            parallel_env(game, players=2): PettingZoo, one agent per pad
    nesmind.specs           declarative RAM-variable specs for rewards and episode ends

Errors are NesError subclasses: RomError, StateError, JamError, PluginError.
"""

from . import _nesmind
from ._nesmind import (
    JamError,
    Machine,
    NesError,
    PluginError,
    RomError,
    RomInfo,
    SpotCart,
    SpotGame,
    StateError,
    VecMachine,
    Viewer,
    palette,
    run,
)
from . import plugins, specs

#: Button bits by name: {"A": 1, "B": 2, "Select": 4, "Start": 8, "Up": 16, "Down": 32,
#: "Left": 64, "Right": 128}. Masks combine them with |.
BUTTONS = dict(_nesmind.BUTTONS)

__all__ = [
    "BUTTONS",
    "JamError",
    "Machine",
    "NesError",
    "PluginError",
    "RomError",
    "RomInfo",
    "SpotCart",
    "SpotGame",
    "StateError",
    "VecMachine",
    "Viewer",
    "lua",
    "palette",
    "plugins",
    "run",
    "specs",
]


def _register_gym() -> None:
    """Registers "nesmind/Nes-v0" with Gymnasium when it is installed."""
    try:
        import gymnasium
    except ImportError:
        return
    if "nesmind/Nes-v0" not in gymnasium.registry:
        gymnasium.register(
            id="nesmind/Nes-v0",
            entry_point="nesmind.gym:NesEnv",
            vector_entry_point="nesmind.gym:NesVectorEnv",
        )


def lua(script, unsafe: bool = False, **args) -> "_nesmind.LuaScript":
    """An FCEUX or BizHawk Lua script as a plug-in for `run` (what `nesmind run ROM --lua
    SCRIPT` runs; docs/lua.md): `args` are its `--lua-arg` pairs (the script's `arg` table,
    and budget=, memory_mb=, seed=, dialect=, on_error=, pads=); `unsafe=True` lets it touch
    files outside its folder. Each object drives one run.

        nesmind.run("game.nes", plugin=nesmind.lua("bot.lua", seed=3), frames=3600)
    """
    # Python names for nesmind's own settings; the script's arguments keep theirs.
    names = {"memory_mb": "memory-mb", "on_error": "on-error"}
    options = {names.get(k, k): text for k, text in plugins._texts(args).items()}
    if unsafe:
        options["unsafe"] = "true"
    return _nesmind.lua(str(script), options)


_register_gym()
