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
    """The same agents observe the same vectors and masks (float32)."""
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


def episode_key(episode):
    """What a sampled episode chunk holds, comparable between runners."""
    return (episode.t_started, len(episode), episode.is_done, tuple(episode.get_actions().tolist()),
            tuple(episode.get_rewards().tolist()))


def test_the_compiled_runner_samples_the_episodes_rllibs_runner_samples():
    """With the same module and seed, deterministic play: the same episode chunks (observations,
    actions, rewards, ends, continuations across calls) and the same logits and log-probabilities
    as RLlib's own single-agent runner on the same compiled env."""
    from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner

    from tiny_york_env.training.rllib_train import build_algorithm_config
    from tiny_york_env.training.rllib_vector import CompiledSingleAgentEnvRunner
    config, _, _ = build_algorithm_config({"game": "construction_yard", "num_players": 2,
                                           "bots": ["greedy"]}, num_env_runners=0, envs_per_runner=8,
                                          hidden=(32, 32))
    ours, theirs = CompiledSingleAgentEnvRunner(config=config), SingleAgentEnvRunner(config=config)
    ours.module.set_state(theirs.module.get_state())
    finished = 0
    for _ in range(3):  # the second and third calls continue the chunks the first cut
        mine = sorted(ours.sample(num_timesteps=300, explore=False), key=episode_key)
        rllibs = sorted(theirs.sample(num_timesteps=300, explore=False), key=episode_key)
        assert [episode_key(e) for e in mine] == [episode_key(e) for e in rllibs]
        for a, b in zip(mine, rllibs, strict=True):
            for key, view in b.get_observations().items():
                np.testing.assert_array_equal(a.get_observations()[key], view)
            for column in ("action_logp", "action_dist_inputs"):
                np.testing.assert_allclose(a.get_extra_model_outputs(column),
                                           b.get_extra_model_outputs(column), rtol=1e-5, atol=1e-5)
        finished += sum(e.is_done for e in mine)
    assert finished > 0
    mean_return = [runner.get_metrics()["episode_return_mean"].peek() for runner in (ours, theirs)]
    assert mean_return[0] == mean_return[1]


def test_exploring_draws_follow_the_masked_policy():
    import torch

    from tiny_york_env.training.rllib_vector import draw_actions
    torch.manual_seed(0)
    probabilities = np.array([0.5, 0.3, 0.2, 0.0])
    logits = torch.log(torch.tensor(probabilities[:3], dtype=torch.float32))
    batch = torch.cat([logits, torch.tensor([-3.4e38])]).repeat(40000, 1)  # the last is masked
    actions, logp = draw_actions(batch, explore=True)
    counts = np.bincount(actions.numpy(), minlength=4) / len(actions)
    assert counts[3] == 0 and np.abs(counts - probabilities).max() < 0.01  # 5 standard errors
    np.testing.assert_allclose(logp.numpy(), np.log(probabilities[actions.numpy()]), rtol=1e-5)
    greedy, certain = draw_actions(batch[:5], explore=False)
    assert greedy.tolist() == [0] * 5 and certain.tolist() == [0.0] * 5


def test_the_compiled_runner_hands_over_to_rllibs_loop_and_back():
    """Sampling by episodes or with random actions goes through RLlib's loop on games started
    afresh; timestep sampling then starts its own games again: every chunk is whole."""
    from tiny_york_env.training.rllib_train import build_algorithm_config
    from tiny_york_env.training.rllib_vector import CompiledSingleAgentEnvRunner
    config, _, _ = build_algorithm_config({"game": "fifth_avenue", "num_players": 2, "bots": ["greedy"]},
                                          num_env_runners=0, envs_per_runner=4, hidden=(16,))
    runner = CompiledSingleAgentEnvRunner(config=config)
    samples = [runner.sample(num_timesteps=100, explore=True),
               runner.sample(num_episodes=2, explore=True),
               runner.sample(num_timesteps=100, random_actions=True),
               runner.sample(num_timesteps=100, explore=False)]
    for episodes in samples:
        assert episodes and all(len(e) > 0 for e in episodes)
        for episode in episodes:
            episode.validate()
            assert len(episode.get_observations()[OBS_KEY]) == len(episode) + 1
    assert sum(e.is_done for e in samples[1]) >= 2
