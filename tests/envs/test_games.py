"""The game contract's checks, one parametrized suite over every registered game: the registry,
the ecosystem checkers (Gymnasium, SB3, PettingZoo), seeding, purity, illegal actions, and the
batched envs equal to single envs step for step."""

import re
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from pettingzoo.test import api_test, seed_test
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from tests.envs.test_checkers import DICT_OBSERVATION_WARNINGS, WRAPPED_WARNING, _messages, _unexpected
from tiny_york_env import make_aec
from tiny_york_env.contract import Game
from tiny_york_env.core.rng import seed_rng
from tiny_york_env.envs.batch import batch_kernels
from tiny_york_env.envs.rewards import final_rewards
from tiny_york_env.registry import BUILTIN_GAMES, game_names, game_of_state, get_game, register_game

GAMES = game_names()


def example_setup(game, agents_only):
    """The first of the record's example setups with agents in every seat (``agents_only``) or
    with one agent seat."""
    for setup in game.example_setups:
        config = game.make_config(**setup)
        agents = game.num_agents(config)
        if (agents == game.num_participants(config) and agents > 1) if agents_only else agents == 1:
            return setup
    wanted = "only agents" if agents_only else "one agent"
    raise AssertionError(f"{game.name} names no example setup with {wanted}")


# A small setup of each game for the AEC env (all seats agents) and the single-agent env (its
# setup keywords without the agent count, which the env sets).
AEC_SETUPS = {name: example_setup(get_game(name), True) for name in GAMES}
ENV_KWARGS = {name: {k: v for k, v in example_setup(get_game(name), False).items() if k != "num_agents"}
              for name in GAMES}
ILLEGAL_WARNING = "for the learning seat 0: the episode ends with reward"
NOT_RESET = r"call reset\(\) before action_masks\(\): there is no game yet"
RANDOM_GAMES = 100  # random games per example setup: a few hundred per game, all agents deciding
RNG_WORDS = 4  # the compiled generator's state (core/rng.py)
SHORT_SEAT = re.compile(r"\bP\d\b")  # "P1", which the texts no longer write for a seat
ONE_OF_MANY = re.compile(r"(?<![\d.])1 (?:money )?(?:cards|points|decisions|skyscrapers|bots)\b")


def first_legal(mask):
    """The lowest legal action of a mask (bool or int8)."""
    return int(np.flatnonzero(mask)[0])


def play_single(env, seed, policy=first_legal):
    """(observations, rewards, final info) of one whole episode of a single-agent env."""
    obs, info = env.reset(seed=seed)
    observations, rewards = [obs], []
    done = False
    while not done:
        obs, reward, done, truncated, info = env.step(policy(info["action_mask"]))
        assert not truncated
        observations.append(obs)
        rewards.append(reward)
    return observations, rewards, info


def test_the_registry_names_both_games_and_refuses_others():
    assert GAMES[:3] == ["tiny_york", "construction_yard", "fifth_avenue"]
    for name in GAMES:
        game = get_game(name)
        assert isinstance(game, Game) and game.name == name and get_game(game) is game
    with pytest.raises(ValueError, match="unknown game 'chess'; the games are"):
        get_game("chess")
    with pytest.raises(ValueError, match="already registered"):
        register_game(get_game("tiny_york"))


@pytest.mark.parametrize("name", GAMES)
def test_game_of_state_finds_each_records_game(name):
    game = get_game(name)
    assert game_of_state(game.new_game(seed=1)) is game
    with pytest.raises(ValueError, match="not a game record"):
        game_of_state(np.zeros(3))


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_check_env(name):
    game = get_game(name)
    messages = _messages(gym_check_env, gymnasium.make(game.env_id))
    assert _unexpected(messages, ILLEGAL_WARNING, WRAPPED_WARNING) == []


@pytest.mark.parametrize("name", GAMES)
def test_stable_baselines3_check_env(name):
    assert _messages(sb3_check_env, gymnasium.make(get_game(name).env_id).unwrapped, warn=True) == []


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_and_seed_tests(name):
    messages = _messages(api_test, make_aec(name, **AEC_SETUPS[name]), num_cycles=2000)
    assert _unexpected(messages, *DICT_OBSERVATION_WARNINGS, "Passed") == []
    assert _messages(seed_test, lambda: make_aec(name, **AEC_SETUPS[name]), num_cycles=2000) == []


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_same_episode_and_observations_in_the_space(name):
    game = get_game(name)
    env = gymnasium.make(game.env_id, **ENV_KWARGS[name])
    first = play_single(env, 11)
    second = play_single(env, 11)
    assert all(np.array_equal(a, b) for a, b in zip(first[0], second[0], strict=True))
    assert first[1] == second[1]
    assert all(env.observation_space.contains(o) for o in first[0])
    other = play_single(env, 12)
    assert len(other[0]) != len(first[0]) or any(
        not np.array_equal(a, b) for a, b in zip(first[0], other[0], strict=True))


@pytest.mark.parametrize("name", GAMES)
def test_step_is_pure_and_an_illegal_action_changes_nothing(name):
    game = get_game(name)
    state = game.new_game(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(60):
        if game.is_terminal(state):
            break
        before = state.copy()
        legal = np.flatnonzero(game.legal_mask(state))
        illegal = np.flatnonzero(~game.legal_mask(state))
        if len(illegal):
            with pytest.raises(ValueError, match="illegal action"):
                game.apply_action(state, int(illegal[0]))
            assert state.tobytes() == before.tobytes()
        after = game.step(state, int(rng.choice(legal)))
        assert state.tobytes() == before.tobytes()
        state = after


@pytest.mark.parametrize("name", GAMES)
def test_terminate_mode_ends_the_episode_on_an_illegal_action(name):
    env = gymnasium.make(get_game(name).env_id, **ENV_KWARGS[name]).unwrapped
    raising = gymnasium.make(get_game(name).env_id, illegal_action="raise", **ENV_KWARGS[name]).unwrapped
    _, info = env.reset(seed=3)
    raising.reset(seed=3)
    while info["action_mask"].all():  # on to a decision where some action is illegal
        action = first_legal(info["action_mask"])
        _, _, _, _, info = env.step(action)
        raising.step(action)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    with pytest.warns(UserWarning, match="illegal action"):
        _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0 and info["illegal_action"] == illegal
    with pytest.raises(ValueError, match="illegal action"):
        raising.step(illegal)


@pytest.mark.parametrize("name", GAMES)
def test_rewards_are_zero_sum_and_follow_the_winners(name):
    game = get_game(name)
    for seed in range(3):
        state = game.new_game(seed=seed)
        rng = np.random.default_rng(seed)
        while not game.is_terminal(state):
            game.apply_action(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
        for kind in ("win", "rank"):
            assert abs(final_rewards(state, kind).sum()) < 1e-9
        win = final_rewards(state, "win")
        assert set(np.flatnonzero(win == win.max())) == set(game.winners(state))


@pytest.mark.parametrize("name", GAMES)
def test_sb3_vec_env_equals_single_envs(name):
    """The compiled VecEnv and B single envs seeded s + i agree on every step through resets."""
    from tiny_york_env.envs.vector import vec_env_class

    vec_class = vec_env_class(name)
    game, b = get_game(name), 3
    vec = vec_class(b, **ENV_KWARGS[name], seed=40)
    singles = [gymnasium.make(game.env_id, **ENV_KWARGS[name]) for _ in range(b)]
    obs = vec.reset()
    infos = [env.reset(seed=40 + i)[1] for i, env in enumerate(singles)]
    for i in range(b):
        assert np.array_equal(obs[i], singles[i].unwrapped._observe())
    ended = 0
    for _ in range(400):
        actions = np.array([first_legal(info["action_mask"]) for info in infos])
        assert np.array_equal(vec.action_masks(), np.array([info["action_mask"] for info in infos]))
        obs, rewards, dones, vec_infos = vec.step(actions)
        for i, env in enumerate(singles):
            o, r, done, _, infos[i] = env.step(int(actions[i]))
            assert done == dones[i] and r == rewards[i]
            if done:
                ended += 1
                assert np.array_equal(vec_infos[i]["terminal_observation"], o)
                assert np.array_equal(vec_infos[i]["final_scores"], infos[i]["final_scores"])
                o, infos[i] = env.reset()
            assert np.array_equal(obs[i], o)
    assert ended >= 1 or name == "tiny_york"


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_vector_env_equals_sync_vector_env(name):
    game, b = get_game(name), 3
    native = gymnasium.make_vec(game.env_id, num_envs=b, **ENV_KWARGS[name])
    sync = gymnasium.make_vec(game.env_id, num_envs=b, vectorization_mode="sync", **ENV_KWARGS[name])
    obs_n, info_n = native.reset(seed=7)
    obs_s, info_s = sync.reset(seed=7)
    assert np.array_equal(obs_n, obs_s)
    for _ in range(300):
        masks = info_n["action_mask"]
        assert np.array_equal(masks, info_s["action_mask"])
        actions = np.array([first_legal(m) if m.any() else 0 for m in masks])
        obs_n, r_n, t_n, _, info_n = native.step(actions)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            obs_s, r_s, t_s, _, info_s = sync.step(actions)
        assert np.array_equal(obs_n, obs_s) and np.array_equal(r_n, r_s) and np.array_equal(t_n, t_s)


@pytest.mark.parametrize("name", GAMES)
def test_masks_before_the_first_reset_are_the_envs_reset_error(name):
    """``action_masks()`` of the single env, the native vector env and the SB3 VecEnv (its
    ``env_method`` too), and the AEC env's ``observe``, refuse before the first reset with the
    envs' one message instead of answering all False; after it they give the legal actions."""
    from tiny_york_env.envs.vector import vec_env_class

    game = get_game(name)
    single = gymnasium.make(game.env_id, **ENV_KWARGS[name]).unwrapped
    native = gymnasium.make_vec(game.env_id, num_envs=2, **ENV_KWARGS[name]).unwrapped
    vec = vec_env_class(name)(2, **ENV_KWARGS[name])
    for ask in (single.action_masks, native.action_masks, vec.action_masks,
                lambda: vec.env_method("action_masks")):
        with pytest.raises(ValueError, match=NOT_RESET):
            ask()
    aec = make_aec(name, **AEC_SETUPS[name]).unwrapped
    with pytest.raises(ValueError, match=r"call reset\(\) before observe\(\): there is no game yet"):
        aec.observe(aec.possible_agents[0])
    single.reset(seed=1)
    native.reset(seed=1)
    vec.reset()
    assert single.action_masks().any() and native.action_masks().any(axis=1).all()
    assert vec.action_masks().any(axis=1).all()


@pytest.mark.parametrize("name", GAMES)
def test_random_games_end_below_the_registered_episode_limit(name):
    """The Gymnasium id's ``max_episode_steps`` is the record's ``max_decisions`` (the bound on
    every agent seat's decisions together, plus OpenSpiel's deal), and a few hundred uniformly
    random games of each example setup, every agent seat deciding, end below it: gym.make's
    TimeLimit never truncates a game."""
    game = get_game(name)
    bound = game.max_decisions
    assert bound is not None and gymnasium.spec(game.env_id).max_episode_steps == bound
    kernels = batch_kernels(game)
    words = np.zeros(RNG_WORDS, np.int64)
    seed_rng(words, 0)
    for setup in game.example_setups:
        config = game.make_config(**setup)
        states = np.concatenate([game.new_game(config, seed).reshape(1) for seed in range(RANDOM_GAMES)])
        lengths = [kernels.play_random_kernel(states, i, words, bound) for i in range(RANDOM_GAMES)]
        assert all(kernels.actor_at(states, i) < 0 for i in range(RANDOM_GAMES)), setup
        assert max(lengths) < bound, setup


@pytest.mark.parametrize("name", GAMES)
def test_gym_make_limits_episodes_without_truncating_a_game(name):
    """gym.make wraps the env in a TimeLimit of ``max_decisions`` steps that whole episodes never
    meet; the native vector env takes that limit from make_vec and refuses a shorter one, which
    it could not apply (its games are never truncated)."""
    game = get_game(name)
    env = gymnasium.make(game.env_id, **ENV_KWARGS[name])
    assert isinstance(env, gymnasium.wrappers.TimeLimit) and env.spec.max_episode_steps == game.max_decisions
    rng = np.random.default_rng(0)
    for seed in range(3):
        _, info = env.reset(seed=seed)
        steps, terminated, truncated = 0, False, False
        while not (terminated or truncated):
            _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            steps += 1
        assert terminated and not truncated and steps < game.max_decisions
    native = gymnasium.make_vec(game.env_id, num_envs=2, **ENV_KWARGS[name])
    assert native.unwrapped.max_episode_steps == game.max_decisions
    with pytest.raises(ValueError, match="max_episode_steps must be None or an int of at least"):
        gymnasium.make_vec(game.env_id, num_envs=2, max_episode_steps=game.max_decisions - 1,
                           **ENV_KWARGS[name])


@pytest.mark.parametrize("name", sorted(BUILTIN_GAMES))
def test_texts_name_seats_seat_n_and_count_one_in_the_singular(name):
    """Every built-in game's ``render_text`` (the whole table and a seat's view, from the start to
    the final scoring) names seats "seat 2", never "P2", and never writes "1 cards" or "1 points"."""
    game = get_game(name)
    rng = np.random.default_rng(0)
    seen_seat = False
    for k, setup in enumerate(game.example_setups):
        state = game.new_game(game.make_config(**setup), seed=k)
        while True:
            for text in (game.render_text(state), game.render_text(state, 0)):
                assert not SHORT_SEAT.search(text), text
                assert not ONE_OF_MANY.search(text), text
                seen_seat = seen_seat or "seat 1" in text
            if game.is_terminal(state):
                break
            for _ in range(int(rng.integers(1, 40))):  # a sample of the positions, the end always
                if not game.is_terminal(state):
                    game.apply_action(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
    assert seen_seat and game.seat_name(2) == "seat 2"


@pytest.mark.parametrize("name", GAMES)
def test_every_env_of_a_game_renders_at_one_frame_rate(name):
    game = get_game(name)
    rates = {make_aec(name).unwrapped.metadata["render_fps"],
             gymnasium.make(game.env_id).unwrapped.metadata["render_fps"],
             gymnasium.make_vec(game.env_id, num_envs=2).metadata["render_fps"]}
    assert len(rates) == 1 and rates.pop() > 0
