"""Gymnasium, PettingZoo and Ray, and the RAM specs."""

import warnings

import numpy as np
import pytest

import nesmind
from conftest import need
from nesmind.specs import RamSpec


def test_specs_parse_ron_and_json_alike_and_name_their_errors():
    ron = '(variables: {"score": (address: 0x10, type: "bcd", size: 2, endian: "big")}, reward: "score - prev.score")'
    js = '{"variables": {"score": {"address": 16, "type": "bcd", "size": 2, "endian": "big"}}, "reward": "score - prev.score"}'
    a, b = RamSpec.parse(ron, "ron"), RamSpec.parse(js, "json")
    mem = {0x10: 0x12, 0x11: 0x34}
    assert a.read_peek(mem.get) == b.read_peek(mem.get) == {"score": 1234}
    assert a.reward({"score": 1300}, {"score": 1234}) == 66
    for text, why in [
        ('{"variables": {"x": {"address": 1, "type": "f32"}}}', "unknown type 'f32'"),
        ('{"variables": {"x": {"address": 1, "type": "digits"}}}', "needs a size"),
        ('{"variables": {"x": {"address": 1}}, "done": "y == 1"}', "unknown variable 'y'"),
        ('{"variables": {"x": {"address": 1}}, "done": "__import__(1)"}', "only abs, min and max"),
        ('{"variables": {"x": {"adress": 1}}}', "unknown field"),
    ]:
        with pytest.raises(nesmind.NesError, match=why):
            RamSpec.parse(text, "json")


def test_signed_and_digit_variables():
    spec = RamSpec({"variables": {
        "s": {"address": 0, "type": "i16", "endian": "little"},
        "d": {"address": 2, "type": "digits", "size": 3, "endian": "little"}}})
    mem = [0xFE, 0xFF, 7, 2, 1]
    assert spec.read_peek(mem.__getitem__) == {"s": -2, "d": 127}


def test_shipped_specs_score_their_demo_carts(hatris):
    spec = RamSpec.load("hatris-like")
    env_cls = need("gymnasium") and __import__("nesmind.gym", fromlist=["NesEnv"]).NesEnv
    env = env_cls(ram_spec="hatris-like", obs="ram", frame_skip=4)
    env.reset(seed=3)
    total, ended = 0.0, False
    for _ in range(3000):
        _, r, term, trunc, info = env.step(env.action_space.sample())
        total += r
        if term:
            ended = True
            assert info["state"] == 7
            break
    assert ended, "random play tops out"
    assert spec.read(env.machine)["cash"] == total


@pytest.mark.parametrize("spec", ["dots", "hatris-like"])
@pytest.mark.parametrize("obs", ["rgb", "ram", "both"])
def test_nes_env_passes_check_env_without_warnings(spec, obs, monkeypatch):
    gym = need("gymnasium")
    # check_env also makes the env in each declared render mode: "human" opens a window.
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from gymnasium.utils.env_checker import check_env
    env = gym.make("nesmind/Nes-v0", ram_spec=spec, obs=obs, render_mode="rgb_array")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


def test_the_vector_env_is_deterministic_and_autoresets():
    need("gymnasium")
    from nesmind.gym import NesVectorEnv
    runs = []
    for _ in range(2):
        env = NesVectorEnv(3, ram_spec="hatris-like", obs="ram", threads=2)
        obs, _ = env.reset(seed=11)
        rng = np.random.default_rng(0)
        trace, ends = [obs.copy()], 0
        for _ in range(400):
            obs, rew, term, trunc, _ = env.step(rng.integers(0, 8, size=3))
            trace.append(obs.copy())
            ends += int(term.sum())
        runs.append((np.array(trace), ends))
    assert np.array_equal(runs[0][0], runs[1][0]) and runs[0][1] == runs[1][1] > 0
    assert env.observation_space.shape == (3, 2048)


def test_one_env_and_the_vector_env_observe_alike_by_default():
    need("gymnasium")
    from nesmind.gym import NesEnv, NesVectorEnv
    one = NesEnv(ram_spec="hatris-like")
    vec = NesVectorEnv(2, ram_spec="hatris-like")
    assert one.observation_space == vec.single_observation_space
    obs, _ = vec.reset(seed=1)
    assert obs.shape == (2, 240, 256, 3) and obs[0].shape == one.reset(seed=1)[0].shape


def test_episodes_start_from_a_savestate_given_to_make_or_to_reset(hatris, tmp_path):
    gym = need("gymnasium")
    from nesmind.gym import NesEnv, NesVectorEnv
    m = nesmind.Machine(hatris)
    m.step(0, frames=300)
    early, early_frame = m.save_state(), m.frame_number
    m.step(nesmind.BUTTONS["Start"], frames=2)
    m.step(0, frames=200)
    late, late_frame = m.save_state(), m.frame_number
    path = tmp_path / "late.state"
    path.write_bytes(late)
    assert not np.array_equal(_ram_of(hatris, early), _ram_of(hatris, late))

    env = gym.make("nesmind/Nes-v0", ram_spec="hatris-like", obs="ram", state=early)
    for seed in (1, 2):
        obs, info = env.reset(seed=seed)
        assert info["frame"] == early_frame and np.array_equal(obs, _ram_of(hatris, early))
    obs, info = env.reset(options={"state": str(path)})
    assert info["frame"] == late_frame and np.array_equal(obs, _ram_of(hatris, late))
    obs, info = env.reset()  # the option held for one episode only
    assert info["frame"] == early_frame

    # Without a state an episode starts from power-on, with the option from the state.
    plain = NesEnv(ram_spec="hatris-like", obs="ram")
    assert plain.reset(seed=3)[1]["frame"] < early_frame
    assert plain.reset(options={"state": path})[1]["frame"] == late_frame

    vec = NesVectorEnv(2, ram_spec="hatris-like", obs="ram", state=late)
    obs, _ = vec.reset(seed=4)
    assert all(np.array_equal(row, _ram_of(hatris, late)) for row in obs)
    obs, _ = vec.reset(seed=4, options={"state": early})
    assert all(np.array_equal(row, _ram_of(hatris, early)) for row in obs)

    with pytest.raises(nesmind.NesError, match="episode start state"):
        NesEnv(ram_spec="hatris-like", state=b"not a savestate")
    with pytest.raises(nesmind.NesError, match="cannot read the savestate"):
        NesEnv(ram_spec="hatris-like", state=str(tmp_path / "missing.state"))
    dots_state = nesmind.Machine(nesmind.plugins.demo_rom("spot")).save_state()
    with pytest.raises(nesmind.NesError, match="episode start state"):
        NesEnv(ram_spec="hatris-like", state=dots_state)


def _ram_of(rom: bytes, state: bytes) -> np.ndarray:
    m = nesmind.Machine(rom)
    m.load_state(state)
    return m.ram.copy()


@pytest.mark.parametrize("players,backend", [(2, "cart"), (3, "cart"), (4, "cart"), (3, "rules")])
def test_spot_envs_pass_the_pettingzoo_api_tests(players, backend):
    need("pettingzoo")
    from pettingzoo.test import api_test, parallel_api_test
    import nesmind.pettingzoo as pz
    api_test(pz.spot_env(players=players, backend=backend), num_cycles=300)
    parallel_api_test(pz.spot_parallel_env(players=players, backend=backend), num_cycles=300)


@pytest.mark.parametrize("backend", ["rules", "cart"])
def test_illegal_actions_can_be_replaced_or_lose_instead_of_raising(backend):
    need("pettingzoo")
    from pettingzoo.test import parallel_seed_test, seed_test
    import nesmind.pettingzoo as pz
    # PettingZoo's seed tests sample the whole action space, masks ignored.
    parallel_seed_test(lambda: pz.spot_parallel_env(backend=backend, illegal="random"))
    if backend == "rules":
        seed_test(lambda: pz.spot_env(backend=backend, illegal="random"))

    env = pz.spot_parallel_env(backend=backend)
    obs, _ = env.reset(seed=5)
    mover = next(a for a in env.agents if obs[a]["action_mask"].sum() > 1)
    bad = int(np.flatnonzero(obs[mover]["action_mask"] == 0)[0])
    with pytest.raises(Exception):
        env.step({a: (bad if a == mover else pz.PASS) for a in env.agents})

    env = pz.spot_parallel_env(backend=backend, illegal="random")
    env.reset(seed=5)
    _, rewards, terms, _, infos = env.step({a: (bad if a == mover else pz.PASS) for a in env.agents})
    assert infos[mover] == {"illegal_action": True} and not any(terms.values())
    assert env.possible_agents[env._g.game.to_move] != mover, "a legal move was played instead"

    env = pz.spot_parallel_env(backend=backend, illegal="lose")
    env.reset(seed=5)
    _, rewards, terms, truncs, infos = env.step({a: (bad if a == mover else pz.PASS) for a in env.agents})
    assert rewards[mover] == -1 and all(r == 0 for a, r in rewards.items() if a != mover)
    assert all(terms.values()) and not any(truncs.values()) and env.agents == []

    aec = pz.spot_env(backend=backend, illegal="lose")
    aec.reset(seed=5)
    agent = aec.agent_selection
    mask = aec.observe(agent)["action_mask"]
    aec.step(int(np.flatnonzero(mask == 0)[0]))
    assert aec.terminations[agent] and aec.rewards[agent] == -1
    assert aec.infos[agent] == {"illegal_action": True}


def test_the_cart_envs_board_is_the_rules_models_after_the_same_moves():
    need("pettingzoo")
    import nesmind.pettingzoo as pz
    env = pz.spot_env(players=3)
    env.reset(seed=4)
    cart = env.unwrapped._g.game
    assert isinstance(cart, nesmind.SpotCart) and cart.layout in nesmind.SpotCart.layouts()
    # The same seed powers on to the same game; the model starts from the cart's position.
    again = pz.spot_env(players=3)
    again.reset(seed=4)
    assert again.unwrapped._g.game.fen == cart.fen
    model = nesmind.SpotGame.from_fen(cart.fen, 3)
    rng = np.random.default_rng(4)
    passes = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        assert seat == model.to_move
        assert np.array_equal(obs["observation"], model.planes(seat))
        assert np.flatnonzero(obs["action_mask"]).tolist() == sorted(model.legal_actions())
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        passes += action == pz.PASS
        env.step(action)
        model.play(action)
        assert cart.fen == model.fen, f"after {model.plies} plies"
    assert cart.is_over and model.is_over and cart.scores() == model.scores()
    assert cart.plies > 100 and passes >= 1, "this game has a player the cart passed"


def test_the_cart_env_renders_the_cart_and_names_bad_settings():
    need("pettingzoo")
    import nesmind.pettingzoo as pz
    env = pz.spot_parallel_env(players=2, layout=4, render_mode="rgb_array")
    env.reset(seed=0)
    picture = env.render()
    assert picture.shape == (240, 256, 3) and picture.dtype == np.uint8
    assert len(np.unique(picture.reshape(-1, 3), axis=0)) > 3, "the board is drawn"
    assert env._g.game.layout == 4
    for kwargs, why in [
        ({"backend": "rules", "render_mode": "rgb_array"}, "needs the cart"),
        ({"backend": "emulator"}, "backend must be"),
        ({"layout": 3}, "not among the cart's layouts"),
        ({"players": 5}, "2-4 players"),
    ]:
        with pytest.raises(ValueError, match=why):
            pz.spot_parallel_env(**kwargs)


def test_spot_aec_games_end_with_the_model_scores():
    need("pettingzoo")
    import nesmind.pettingzoo as pz
    env = pz.spot_env(players=2)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for agent in env.agent_iter():
        obs, rew, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(rng.choice(np.flatnonzero(obs["action_mask"])))
    assert sorted(env.unwrapped._g.final_rewards()) in ([-1.0, 1.0], [0.0, 0.0])

