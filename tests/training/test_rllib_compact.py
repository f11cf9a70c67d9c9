"""RLlib's envs and runners with compact observations (``env_config["obs_dtype"] = "uint8"``): the
bytes of the float32 observations, game for game, and the masked module learns from them."""

import numpy as np
import pytest

pytest.importorskip("ray", reason="ray[rllib] is the ray extra that make test installs")

from ray.rllib.env.vector.sync_vector_multi_agent_env import SyncVectorMultiAgentEnv  # noqa: E402

from tiny_york_env.envs.compact import compact_observation  # noqa: E402
from tiny_york_env.registry import get_game  # noqa: E402
from tiny_york_env.training.rllib_env import MASK_KEY, OBS_KEY, GameMultiAgentEnv  # noqa: E402
from tiny_york_env.training.rllib_vector import GameVectorMultiAgentEnv, masked_vector_env  # noqa: E402

SETUPS = [
    {"game": "tiny_york", "num_agents": 2, "toms": [5]},
    {"game": "construction_yard", "num_players": 3, "bots": ["greedy"]},
    {"game": "fifth_avenue", "num_players": 2},
]
GAMES = 3
STEPS = 300
COMPACT = {"obs_dtype": "uint8"}
SAMPLES = 6


def legal_choices(observations, rng):
    """A legal action for each game's seat to move (none for a game whose seats saw its end)."""
    actions = []
    for observation in observations:
        if len(observation) > 1:
            actions.append({})
            continue
        (agent, view), = observation.items()
        actions.append({agent: int(rng.choice(np.flatnonzero(view[MASK_KEY])))})
    return actions


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: s["game"])
def test_the_multi_agent_envs_observe_the_float_envs_bytes(setup):
    """The compiled multi-agent vector env and RLlib's vectorized single envs, both compact,
    observe the float32 env's observations quantised, through ends and autoresets."""
    game = get_game(setup["game"])
    floats = GameVectorMultiAgentEnv({**setup, "num_envs": GAMES})
    compact = GameVectorMultiAgentEnv({**setup, **COMPACT, "num_envs": GAMES})
    theirs = SyncVectorMultiAgentEnv([lambda: GameMultiAgentEnv({**setup, **COMPACT})] * GAMES)
    assert compact.single_observation_space == theirs.single_observation_space
    views = [env.reset(seed=8)[0] for env in (floats, compact, theirs)]
    rng = np.random.default_rng(8)
    ended = 0
    for _ in range(STEPS):
        for float_game, compact_game, their_game in zip(*views, strict=True):
            assert list(float_game) == list(compact_game) == list(their_game)
            for agent, view in float_game.items():
                expected = compact_observation(game, view[OBS_KEY])
                for other in (compact_game, their_game):
                    np.testing.assert_array_equal(other[agent][OBS_KEY], expected)
                    np.testing.assert_array_equal(other[agent][MASK_KEY], view[MASK_KEY])
                assert compact.single_observation_space[agent].contains(compact_game[agent])
            ended += len(float_game) > 1
        actions = legal_choices(views[0], rng)
        views = [env.step(actions)[0] for env in (floats, compact, theirs)]
    assert ended > 0


def test_the_single_agent_entry_point_and_the_compiled_runner_on_bytes():
    """``masked_vector_env`` gives uint8 observations in its space, and the compiled single-agent
    runner samples whole episodes with the masked module reading them."""
    from tiny_york_env.training.rllib_train import build_algorithm_config
    from tiny_york_env.training.rllib_vector import CompiledSingleAgentEnvRunner

    setup = {"game": "construction_yard", "num_players": 2, "bots": ["greedy"], **COMPACT}
    env = masked_vector_env({**setup, "num_envs": 2})
    obs, _ = env.reset(seed=1)
    assert obs[OBS_KEY].dtype == np.uint8
    assert env.single_observation_space.contains({key: value[0] for key, value in obs.items()})
    config, _, _ = build_algorithm_config(setup, num_env_runners=0, envs_per_runner=2, hidden=(16,))
    runner = CompiledSingleAgentEnvRunner(config=config)
    episodes = []
    for _ in range(SAMPLES):  # until a game ends (a game takes a few hundred decisions)
        episodes += runner.sample(num_timesteps=300, explore=True)
        if any(episode.is_done for episode in episodes):
            break
    assert any(episode.is_done for episode in episodes)
    assert all(episode.get_observations()[OBS_KEY].dtype == np.uint8 for episode in episodes)
