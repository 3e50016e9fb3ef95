"""NesVectorEnv under RLlib's env runners: `python/test.sh --rllib` (a venv of its own with
ray[rllib] and torch, which RLlib's env runners need; not part of the default suite, as
PyPI's torch brings several GB of CUDA libraries)."""

import sys

import numpy as np
import pytest
import ray
import ray.cloudpickle
from gymnasium.wrappers.vector import DtypeObservation
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner
from ray.tune.registry import register_env

import nesmind.gym


def make_envs(ctx):
    """RLlib asks its vector entry point for ctx["num_envs"] environments; its default
    networks take float observations, so the RAM bytes are cast."""
    envs = nesmind.gym.NesVectorEnv(ctx.get("num_envs", 1), ram_spec="hatris-like", obs="ram",
                                    max_episode_steps=40)
    return DtypeObservation(envs, np.float32)


# Remote env runners cannot import this test file: send make_envs itself.
ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
register_env("nesmind-hatris-ram", make_envs)


def config(runners: int) -> PPOConfig:
    return (PPOConfig()
            .environment("nesmind-hatris-ram")
            .env_runners(num_env_runners=runners, num_envs_per_env_runner=3,
                         gym_env_vectorize_mode="vector_entry_point")
            .training(train_batch_size_per_learner=240, minibatch_size=60, num_epochs=1))


def test_an_env_runner_samples_from_the_vector_env():
    runner = SingleAgentEnvRunner(config=config(0))
    assert isinstance(runner.env.unwrapped, nesmind.gym.NesVectorEnv)
    assert runner.env.num_envs == 3
    episodes = runner.sample(num_timesteps=240)
    assert sum(len(e) for e in episodes) == 240
    # Three envs, 80 steps each: two whole 40-step episodes apiece, ended by truncation.
    done = [e for e in episodes if e.is_done]
    assert len(done) == 6 and all(len(e) == 40 and e.is_truncated for e in done)
    obs = episodes[0].get_observations()
    assert obs.dtype == np.float32 and obs.shape[1:] == (2048,)
    runner.stop()


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_ppo_trains_on_remote_env_runners(local_ray):
    algo = config(1).build_algo()
    try:
        result = algo.train()
    finally:
        algo.stop()
    assert result["env_runners"]["num_env_steps_sampled"] >= 240
