"""RLlib's runners on compiled batches of games: the multi-agent vector env equals RLlib's own
vectorization of the single env game for game (every game, through ends, autoresets and illegal
actions), and the single-agent entry point gives the masked Dict observation of the native
vector env."""

import numpy as np
import pytest

pytest.importorskip("ray", reason="ray[rllib] is the ray extra that make test installs")

from ray.rllib.env.vector.sync_vector_multi_agent_env import SyncVectorMultiAgentEnv  # noqa: E402

from tiny_york_env.training.rllib_env import MASK_KEY, OBS_KEY, GameMultiAgentEnv  # noqa: E402
from tiny_york_env.training.rllib_vector import GameSeats, GameVectorMultiAgentEnv, masked_vector_env  # noqa: E402

SETUPS = [
    {"game": "tiny_york", "num_agents": 2, "toms": [5]},
    {"game": "tiny_york", "num_agents": 3, "toms": [], "reward": "rank"},
    {"game": "construction_yard", "num_players": 3, "bots": ["greedy"]},
    {"game": "fifth_avenue", "num_players": 2, "reward": "score"},
]
GAMES = 5
STEPS = 700
ILLEGAL_EVERY = 97  # now and then an action the mask forbids, or one outside the action space


def assert_same_observations(ours, theirs):
    assert list(ours) == list(theirs)
    for agent, view in theirs.items():
        assert ours[agent].keys() == view.keys()
        np.testing.assert_array_equal(ours[agent][OBS_KEY], view[OBS_KEY])
        np.testing.assert_array_equal(ours[agent][MASK_KEY], view[MASK_KEY])
        assert ours[agent][OBS_KEY].dtype == view[OBS_KEY].dtype == np.float32


def choose(observations, rng, step, num_actions):
    """One action per game for its seat to move: legal, or now and then not (none for a game that
    ended, whose every seat observed its end: the step restarts it)."""
    actions = []
    for i, observation in enumerate(observations):
        if len(observation) > 1:
            actions.append({})
            continue
        (agent, view), = observation.items()
        legal = np.flatnonzero(view[MASK_KEY])
        action = int(rng.choice(legal)) if legal.size else 0
        if (step + i) % ILLEGAL_EVERY == 0:
            forbidden = np.flatnonzero(view[MASK_KEY] == 0)
            action = num_actions + 3 if step % 2 or not forbidden.size else int(forbidden[0])
        actions.append({agent: action})
    return actions


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: f"{s['game']}-{len(s)}")
def test_the_compiled_vector_env_equals_rllibs_vectorized_single_envs(setup):
    ours = GameVectorMultiAgentEnv({**setup, "num_envs": GAMES})
    theirs = SyncVectorMultiAgentEnv([lambda: GameMultiAgentEnv(setup)] * GAMES)
    obs_ours, infos_ours = ours.reset(seed=40)
    obs_theirs, infos_theirs = theirs.reset(seed=40)
    assert list(infos_ours) == list(infos_theirs)
    rng = np.random.default_rng(1)
    ends = restarts = illegal = 0
    for step in range(STEPS):
        for a, b in zip(obs_ours, obs_theirs, strict=True):
            assert_same_observations(a, b)
        actions = choose(obs_theirs, rng, step, ours.game.num_actions)
        obs_ours, *rest_ours = ours.step(actions)
        obs_theirs, *rest_theirs = theirs.step(actions)
        for ours_part, theirs_part in zip(rest_ours, rest_theirs, strict=True):
            assert list(ours_part) == list(theirs_part)  # rewards, terminations, truncations, infos
        terminated = [t["__all__"] for t in rest_theirs[1]]
        ends += sum(terminated)
        restarts += sum(len(r) == len(ours.possible_agents) and not t["__all__"]
                        for r, t in zip(rest_theirs[0], rest_theirs[1], strict=True))
        illegal += sum(any("illegal_action" in v for v in info.values()) for info in rest_theirs[3])
    assert ends > GAMES and illegal > 0 and restarts > 0  # the test went through each case
    assert ours.game_seeds == [env.game_seed for env in theirs.envs]


def test_its_spaces_and_sub_envs_are_what_rllibs_runner_reads():
    env = GameVectorMultiAgentEnv({"game": "tiny_york", "num_agents": 2, "toms": [5], "num_envs": 3})
    single = GameMultiAgentEnv({"game": "tiny_york", "num_agents": 2, "toms": [5]})
    assert env.num_envs == len(env.envs) == 3
    assert env.single_observation_spaces == single.observation_spaces
    assert env.single_action_spaces == single.action_spaces
    seats = env.envs[0].unwrapped
    assert isinstance(seats, GameSeats) and seats.possible_agents == single.possible_agents
    assert seats.get_observation_space("seat_1") == single.observation_spaces["seat_1"]
    with pytest.raises(TypeError, match="step the vector env"):
        seats.step({"seat_0": 0})


def test_bad_calls_are_refused_with_what_is_allowed():
    env = GameVectorMultiAgentEnv({"game": "fifth_avenue", "num_players": 2, "num_envs": 2})
    with pytest.raises(ValueError, match="call reset"):
        env.step([{}, {}])
    with pytest.raises(ValueError, match="num_envs must be"):
        GameVectorMultiAgentEnv({"game": "fifth_avenue", "num_envs": 0})
    with pytest.raises(ValueError, match="seed must be"):
        env.reset(seed="x")
    observations, _ = env.reset(seed=1)
    with pytest.raises(ValueError, match="list of 2 dicts"):
        env.step([{}])
    with pytest.raises(ValueError, match="it is seat_0's turn"):
        env.step([{"seat_1": 0}, {"seat_1": 0}])
    assert env.step([{agent: int(np.flatnonzero(view[MASK_KEY])[0]) for agent, view in o.items()}
                     for o in observations])[2][0] == {"__all__": False}


def test_the_single_agent_entry_point_is_the_native_vector_env_with_the_mask():
    env = masked_vector_env({"game": "construction_yard", "num_players": 2, "bots": ["greedy"],
                             "num_envs": 4})
    obs, infos = env.reset(seed=5)
    assert env.single_observation_space.contains({k: v[0] for k, v in obs.items()})
    np.testing.assert_array_equal(obs[MASK_KEY], infos["action_mask"].astype(np.float32))
    rng = np.random.default_rng(0)
    for _ in range(300):
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in obs[MASK_KEY]])
        obs, rewards, terminated, truncated, infos = env.step(actions)
        np.testing.assert_array_equal(obs[MASK_KEY], infos["action_mask"].astype(np.float32))
        assert not obs[MASK_KEY][terminated].any()  # an ended game has no legal action
    assert obs[OBS_KEY].shape == (4, env.unwrapped.game.obs_size)
