"""nesmind.Viewer and Gymnasium's render_mode="human": the SDL window shown by a loop the
caller drives. SDL's dummy video driver stands in for a screen (the window code runs the
same; nothing is drawn where a person could see it)."""

import time
import warnings

import numpy as np
import pytest

import nesmind
from conftest import need


@pytest.fixture
def dummy_screen(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")


@pytest.fixture
def no_screen(monkeypatch):
    for var in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(var, raising=False)


def test_a_viewer_shows_machines_and_index_arrays_until_closed(dots, dummy_screen):
    m = nesmind.Machine(dots)
    m.step(frames=30)
    with nesmind.Viewer("test", speed=None) as v:
        assert v.is_open
        assert v.show(m, status="frame 30")
        assert v.show(m.palette_indices(), frames=2)
        assert v.shown == 2
        with pytest.raises(ValueError, match="240, 256"):
            v.show(np.zeros((10, 10), np.uint16))
        with pytest.raises(ValueError, match="Machine or a uint16"):
            v.show("picture")
        v.close()
        assert not v.is_open
        assert not v.show(m)
        assert v.shown == 2


def test_a_viewer_paces_pictures_to_the_games_speed(dots, dummy_screen):
    m = nesmind.Machine(dots)
    with nesmind.Viewer(speed=1.0) as v:
        start = time.monotonic()
        for _ in range(6):
            m.step(frames=6)
            v.show(m, frames=6)
        # Five gaps of six frames at 60.1 Hz: at least half a second (a lower bound only).
        assert time.monotonic() - start >= 5 * 6 / 60.1 - 0.01
    with pytest.raises(nesmind.NesError, match="not a positive number"):
        nesmind.Viewer(speed=0.0)


def test_without_a_screen_the_viewer_says_why(no_screen):
    with pytest.raises(nesmind.NesError, match="cannot open a window: no display"):
        nesmind.Viewer()


def test_human_render_mode_shows_every_reset_and_step(hatris, dummy_screen):
    need("gymnasium")
    from nesmind.gym import NesEnv

    env = NesEnv(hatris, ram_spec="hatris-like", render_mode="human", frame_skip=4)
    assert env.metadata["render_fps"] == 15
    env.reset(seed=1)
    for _ in range(5):
        env.step(env.action_space.sample())
    assert env.render() is None
    viewer = env._window.viewer
    assert viewer.shown == 6
    # A window the person closes: the environment goes on, with one warning.
    viewer.close()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env.step(0)
        env.step(0)
    assert [str(w.message) for w in caught] == [
        "the window was closed; the environment goes on without it"
    ]
    env.close()


def test_human_render_mode_through_make_and_the_vector_env(hatris, dummy_screen):
    gym = need("gymnasium")
    from nesmind.gym import NesVectorEnv

    env = gym.make("nesmind/Nes-v0", ram_spec="hatris-like", render_mode="human")
    env.reset(seed=0)
    env.step(0)
    assert env.unwrapped._window.viewer.shown == 2
    env.close()
    assert env.unwrapped._window.viewer is None

    venv = NesVectorEnv(2, ram_spec="hatris-like", obs="ram", render_mode="human")
    venv.reset(seed=0)
    venv.step(np.zeros(2, np.int64))
    assert venv._window.viewer.shown == 2
    venv.close()
    with pytest.raises(ValueError, match="human, rgb_array"):
        NesVectorEnv(2, ram_spec="hatris-like", render_mode="window")


def test_human_render_mode_without_a_screen_fails_at_once(no_screen):
    need("gymnasium")
    from nesmind.gym import NesEnv

    with pytest.raises(nesmind.NesError, match="cannot open a window"):
        NesEnv(ram_spec="hatris-like", render_mode="human")
