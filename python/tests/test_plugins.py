"""Python plug-ins, nesmind.run and the in-tree players."""

import os
import pathlib

import numpy as np
import pytest

import nesmind


class StartPresser:
    """Taps Start every other second; watches writes to $4016 (the pad strobe)."""

    name = "start-presser"

    def __init__(self):
        self.frames, self.hits, self.forked = 0, 0, None
        self.kept = None

    def on_attach(self, rom_info, setup):
        assert rom_info.mapper == 1
        setup.watch("write", 0x4016)
        setup.use_pads(2)

    def on_frame(self, frame):
        self.frames += 1
        self.hits += len(frame.watch_hits())
        frame.set_buttons(0, "Start" if self.frames % 120 < 5 else 0)
        assert frame.ram().shape == (2048,) and frame.peek(0x0700) == frame.ram()[0x700]
        if self.frames == 100:
            fork = frame.fork()
            fork.step(frames=10)
            self.forked = fork.frame_number - frame.frame_number
            self.kept = frame

    def result(self):
        return f"frames {self.frames}"


def test_a_python_plugin_sees_frames_watches_and_forks(dots):
    p = StartPresser()
    out = nesmind.run(dots, plugin=p, frames=300)
    assert out["frames"] == 300 and out["result"] == "frames 300"
    assert p.frames == 300 and p.hits > 0 and p.forked == 10
    with pytest.raises(nesmind.NesError, match="valid only during the call"):
        p.kept.peek(0)


def test_runs_are_deterministic(dots):
    a = nesmind.run(dots, plugin=StartPresser(), frames=200)
    b = nesmind.run(dots, plugin=StartPresser(), frames=200)
    assert a["state_hash"] == b["state_hash"]


def test_a_raising_plugin_stops_the_run_with_its_exception_as_cause(dots):
    class Broken:
        def on_frame(self, frame):
            if frame.frame_number > 10:
                raise KeyError("boom")

    with pytest.raises(nesmind.PluginError, match="stopped after .* frames: plug-in 'Broken' failed: raised KeyError") as e:
        nesmind.run(dots, plugin=Broken(), frames=100)
    assert isinstance(e.value.__cause__, KeyError)


def test_refusals_and_quit_requests(dots):
    class Picky:
        def on_attach(self, rom_info, setup):
            return "not my game"

        def on_frame(self, frame):
            pass

    with pytest.raises(nesmind.PluginError, match="refused '<bytes>': not my game"):
        nesmind.run(dots, plugin=Picky(), frames=10)

    class Quitter:
        seen = 0

        def on_frame(self, frame):
            self.seen += 1
            if self.seen == 20:
                frame.request_quit(3, "done")

    out = nesmind.run(dots, plugin=Quitter(), frames=100)
    assert (out["frames"], out["quit_code"], out["quit_message"]) == (20, 3, "done")
    with pytest.raises(TypeError, match="on_frame"):
        nesmind.run(dots, plugin=object(), frames=1)


def test_the_in_tree_spot_player_plays_its_demo_cart(dots):
    names = [n for n, _ in nesmind.plugins.names()]
    assert names == ["spot", "hatris"]
    player = nesmind.plugins.spot()
    out = nesmind.run(dots, plugin=player, frames=1200)
    assert out["frames"] == 1200 and out["result"]
    with pytest.raises(nesmind.NesError, match="already ran"):
        nesmind.run(dots, plugin=player, frames=1)
    with pytest.raises(nesmind.PluginError, match="unknown plug-in 'nope'"):
        nesmind.plugins.create("nope")


def test_the_window_opens_with_a_python_player(dots, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    p = StartPresser()
    out = nesmind.run(dots, plugin=p, window=True, frames=60, speed="max")
    assert out["frames"] == 60 and p.frames == 60


def test_spot_game_model_moves_and_planes():
    g = nesmind._nesmind.SpotGame(2, 0, 1)
    acts = g.legal_actions()
    assert acts and all(0 <= a < nesmind._nesmind.SPOT_ACTIONS for a in acts)
    planes = g.planes(0)
    assert planes.shape == (7, 7, 3) and planes[..., 0].sum() == 2 and planes[..., 1].sum() == 2
    g.play(g.best_action("nes-ai:5", 3))
    assert g.to_move == 1 and g.plies == 1 and sum(g.counts()) >= 5
    with pytest.raises(ValueError, match="not legal"):
        g.play(0)


LUA = pathlib.Path(__file__).resolve().parents[2] / "tests" / "lua"


def test_a_lua_script_is_a_plugin_as_with_nesmind_run_lua(dots, tmp_path):
    """nesmind.lua(): the FCEUX bot of tests/lua plays the DOTS cart as `nesmind run --lua`
    does (a game in play at frame 11, the run ended by the script's emu.exit()); a script
    object runs once; a missing script and a script error are named."""
    out = nesmind.run(dots, plugin=nesmind.lua(LUA / "fceux_bot.lua"), frames=600)
    assert (out["frames"], out["quit_code"]) == (12, 0)
    # The script's arguments reach its `arg` table; nesmind's settings are checked.
    script = tmp_path / "args.lua"
    script.write_text('assert(arg.level == "3", arg.level)\nemu.exit()\n')
    out = nesmind.run(dots, plugin=nesmind.lua(script, level=3, seed=7), frames=10)
    assert out["frames"] == 1
    with pytest.raises(nesmind.PluginError, match="on-error"):
        nesmind.run(dots, plugin=nesmind.lua(script, on_error="sometimes"), frames=10)
    once = nesmind.lua(LUA / "fceux_bot.lua")
    nesmind.run(dots, plugin=once, frames=600)
    with pytest.raises(nesmind.PluginError, match="already ran"):
        nesmind.run(dots, plugin=once, frames=600)
    with pytest.raises(nesmind.PluginError, match="no Lua script"):
        nesmind.lua(tmp_path / "missing.lua")
    with pytest.raises(nesmind.PluginError, match="error.lua"):
        nesmind.run(dots, plugin=nesmind.lua(LUA / "error.lua"), frames=60)
