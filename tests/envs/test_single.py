"""The Gymnasium single-agent env: seeding, opponents, rewards, errors, the observation bounds,
rendering, and a short MaskablePPO run. The checkers run in test_checkers.py, illegal actions in
test_illegal_action.py."""

import gymnasium
import numpy as np
import pytest
import torch
from gymnasium.utils import env_checker as gym_checker
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

from tests.envs.test_rewards import expected_rewards
from tiny_york_env.agents.random_agent import RandomAgent
from tiny_york_env.envs.rewards import REWARD_KINDS
from tiny_york_env.envs.single import ENV_ID, SEED_LIMIT, SEED_STRIDE, TinyYorkEnv, next_seed
from tiny_york_env.games.tiny_york import (
    NUM_ACTIONS,
    current_player,
    final_scores,
    is_terminal,
    legal_mask,
    render_text,
    winner,
)
from tiny_york_env.games.tiny_york.observation import OBS_SIZE, OBS_SLICES, OBSERVATION_HIGH, encode


@pytest.fixture(scope="module")
def env_id():
    """TinyYork-v0 as ``import tiny_york_env`` registers it (the tests never register it)."""
    assert ENV_ID == "TinyYork-v0" and ENV_ID in gymnasium.registry
    assert gymnasium.spec(ENV_ID).entry_point == "tiny_york_env.envs.single:TinyYorkEnv"
    return ENV_ID


class CheckingOpponent(RandomAgent):
    """A seeded random opponent that checks it is asked only on its own turn, with its own view."""

    def __init__(self, env, seed):
        super().__init__(seed)
        self.env = env
        self.seat = None
        self.turns = 0

    def act(self, observation, action_mask):
        state = self.env._state  # the test peeks; the opponent's choice uses only obs and mask
        seat = current_player(state)
        assert seat != self.env.seat
        assert self.env._opponent_of_seat[seat] is self
        assert self.seat in (None, seat)
        self.seat = seat
        np.testing.assert_array_equal(observation, encode(state, seat))
        np.testing.assert_array_equal(action_mask, legal_mask(state))
        action = super().act(observation, action_mask)
        assert action_mask[action]
        self.turns += 1
        return action


def random_step(env, rng):
    """Step ``env`` with a uniformly random legal action; returns step's five values."""
    return env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))


def play_game(env, seed, check=None):
    """Reset with ``seed`` and play to the end with random legal actions; returns the rewards,
    the last step's info and the number of steps. ``check(obs, info)`` runs on every result."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    if check:
        check(obs, info)
    rewards, terminated = [], False
    while not terminated:
        obs, reward, terminated, truncated, info = random_step(env, rng)
        assert truncated is False
        rewards.append(reward)
        if check:
            check(obs, info)
    return rewards, info, len(rewards)


def test_spaces():
    env = TinyYorkEnv()
    assert env.action_space.n == NUM_ACTIONS
    assert env.observation_space.shape == (OBS_SIZE,)
    assert env.observation_space.dtype == np.float32
    assert np.all(env.observation_space.low == 0)
    assert np.isfinite(env.observation_space.high).all()
    assert np.all(env.observation_space.high == OBSERVATION_HIGH)
    assert np.all(OBSERVATION_HIGH[OBS_SLICES["decision"]] == 1)


def test_same_seed_same_game():
    """reset(seed) fixes the whole game: observations, masks, rewards, for the same actions;
    another seed lays out another game and shows the learner another first observation."""
    runs = []
    for _ in range(2):
        seen = []
        rewards, info, _ = play_game(TinyYorkEnv(), 11, lambda obs, info, seen=seen: seen.append(
            (obs.copy(), info["action_mask"].copy())))
        runs.append((seen, rewards, info["final_scores"]))
    (seen_a, rewards_a, scores_a), (seen_b, rewards_b, scores_b) = runs
    assert len(seen_a) == len(seen_b)
    for (obs_a, mask_a), (obs_b, mask_b) in zip(seen_a, seen_b, strict=True):
        np.testing.assert_array_equal(obs_a, obs_b)
        np.testing.assert_array_equal(mask_a, mask_b)
    assert rewards_a == rewards_b
    np.testing.assert_array_equal(scores_a, scores_b)
    env_a, env_b = TinyYorkEnv(), TinyYorkEnv()
    env_a.reset(seed=11)
    env_b.reset(seed=12)
    state_a, state_b = env_a.state, env_b.state
    state_a["rng"] = state_b["rng"] = 0  # what the seed laid out, not only the generator words
    assert state_a.tobytes() != state_b.tobytes()
    assert not np.array_equal(state_a["draw_pile"], state_b["draw_pile"])
    assert not np.array_equal(TinyYorkEnv().reset(seed=11)[0], TinyYorkEnv().reset(seed=12)[0])


def test_reset_without_seed_follows_the_seed_chain():
    env = TinyYorkEnv()
    env.reset(seed=5)
    assert env.game_seed == 5
    obs, _ = env.reset()
    assert env.game_seed == next_seed(5) == 5 + SEED_STRIDE
    np.testing.assert_array_equal(obs, TinyYorkEnv().reset(seed=5 + SEED_STRIDE)[0])
    assert next_seed(SEED_LIMIT - 1) == (SEED_LIMIT - 1 + SEED_STRIDE) % SEED_LIMIT
    plain = getattr(next_seed, "py_func", next_seed)  # the Python function behind the compiled one
    assert plain(SEED_LIMIT - 1) == next_seed(SEED_LIMIT - 1)
    fresh = TinyYorkEnv()
    fresh.reset()  # unseeded: a seed from the env's generator, valid for the engine
    assert 0 <= fresh.game_seed < SEED_LIMIT


def test_reset_options_set_toms_and_seat():
    env = TinyYorkEnv(toms=(5,), opponents=(RandomAgent(0),))
    env.reset(seed=1, options={"toms": (3, "C2"), "seat": 1})
    rec = env.state.reshape(1)[0]
    assert int(rec["num_seats"]) == 4 and env.seat == 1
    assert list(rec["is_tom"][:4]) == [0, 0, 1, 1]
    assert current_player(env.state) == 1
    env.reset(seed=2)  # the options stay in force
    assert int(env.state.reshape(1)[0]["num_seats"]) == 4 and env.seat == 1
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(options={"players": 3})
    with pytest.raises(ValueError, match="seat"):
        env.reset(options={"seat": 2})
    with pytest.raises(ValueError):
        env.reset(options={"toms": (1, 2, 3)})  # 2 agents + 3 Toms: too many participants


@pytest.mark.parametrize("setup", [
    {"toms": (5,), "opponents": 1, "seat": 1},
    {"toms": (), "opponents": 2, "seat": 1},
    {"toms": ("B4",), "opponents": 2, "seat": 2},
    {"toms": (), "opponents": 3, "seat": 0},
])
def test_opponents_act_legally_and_only_own_turns_reach_the_learner(setup):
    opponents = tuple(CheckingOpponent(None, seed=k) for k in range(setup["opponents"]))
    env = TinyYorkEnv(toms=setup["toms"], opponents=opponents, seat=setup["seat"])
    for opponent in opponents:
        opponent.env = env

    def only_own_turns(obs, info):
        state = env.state
        if is_terminal(state):
            assert not info["action_mask"].any()
        else:
            assert current_player(state) == env.seat
            np.testing.assert_array_equal(info["action_mask"], legal_mask(state))
        np.testing.assert_array_equal(obs, encode(state, env.seat))

    for seed in range(2):
        play_game(env, seed, only_own_turns)
    assert all(opponent.turns > 0 for opponent in opponents)
    assert sorted(opponent.seat for opponent in opponents) == [
        s for s in range(setup["opponents"] + 1) if s != setup["seat"]]


def test_an_opponents_illegal_action_is_reported():
    class Stubborn:
        def act(self, observation, action_mask):
            return int(np.flatnonzero(~action_mask)[0])

    env = TinyYorkEnv(toms=(), opponents=(Stubborn(),), seat=1)
    with pytest.raises(ValueError, match="opponent in seat 0"):
        env.reset(seed=0)
    with pytest.raises(ValueError, match="act"):
        TinyYorkEnv(opponents=(object(),))


@pytest.mark.parametrize("kind", REWARD_KINDS)
def test_rewards_only_at_the_end(kind):
    env = TinyYorkEnv(toms=(12, 2), reward=kind)
    rewards, info, steps = play_game(env, 3)
    assert steps > 10
    assert all(r == 0.0 for r in rewards[:-1])
    state = env.state
    assert rewards[-1] == pytest.approx(expected_rewards(state, kind)[env.seat])
    np.testing.assert_array_equal(info["final_scores"], final_scores(state))
    assert info["winner"] == winner(state)
    if kind == "win":
        assert rewards[-1] == (1.0 if winner(state) == env.seat else -0.5)


@pytest.mark.parametrize("kind", REWARD_KINDS)
def test_rewards_by_hand_for_the_learning_seat_in_several_games(kind):
    """Seat 1 of three against two random opponents: the last reward is the hand-computed one
    for the learning seat (not seat 0's), game after game, wins and losses both met."""
    env = TinyYorkEnv(toms=(), opponents=(RandomAgent(4), RandomAgent(5)), seat=1, reward=kind)
    won = set()
    for seed in range(8):
        rewards, info, _ = play_game(env, seed)
        assert rewards[-1] == pytest.approx(expected_rewards(env.state, kind)[1])
        won.add(info["winner"] == 1)
    assert won == {True, False}


def test_observations_stay_in_the_space_and_masks_agree():
    setups = [TinyYorkEnv(), TinyYorkEnv(toms=(1, 12, "C2")),
              TinyYorkEnv(toms=(), opponents=(RandomAgent(1), RandomAgent(2), RandomAgent(3)))]
    for k, env in enumerate(setups):
        def check(obs, info, env=env):
            assert obs.dtype == np.float32
            assert env.observation_space.contains(obs)
            np.testing.assert_array_equal(info["action_mask"], env.action_masks())
        for seed in range(4):
            play_game(env, 100 * k + seed, check)


def test_illegal_actions_and_misuse_raise_and_change_nothing():
    """With illegal_action="raise" an illegal action, like anything outside the space, is a
    ValueError that changes nothing; so is a step after the end in either mode."""
    env = TinyYorkEnv(illegal_action="raise")
    with pytest.raises(ValueError, match="reset"):
        env.step(0)
    env.reset(seed=4)
    before = env.state
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    for bad in (illegal, -1, NUM_ACTIONS, 1.5, "3"):
        with pytest.raises(ValueError):
            env.step(bad)
        assert env.state.tobytes() == before.tobytes()
    legal = int(np.flatnonzero(env.action_masks())[0])
    env.step(np.array(legal))  # numpy 0-d and 1-element arrays are accepted, as SB3 passes them
    rng = np.random.default_rng(0)
    terminated = False
    while not terminated:
        _, _, terminated, _, _ = random_step(env, rng)
    with pytest.raises(ValueError, match=r"over; call reset\(\)"):
        env.step(0)
    ended = TinyYorkEnv()  # "terminate" (the default) also refuses a step after the end
    play_game(ended, 4)
    with pytest.raises(ValueError, match=r"over; call reset\(\)"):
        ended.step(0)
    with pytest.raises(ValueError):
        TinyYorkEnv(reward="points")
    with pytest.raises(ValueError, match="render_mode must be None or one of"):
        TinyYorkEnv(render_mode="video")


def test_action_space_samples_legal_actions():
    env = TinyYorkEnv()
    env.reset(seed=8)
    env.action_space.seed(0)
    for _ in range(50):
        action = env.action_space.sample()
        assert env.action_masks()[action]
        env.step(action)
    only = np.zeros(NUM_ACTIONS, dtype=np.int8)
    only[7] = 1
    assert env.action_space.sample(mask=only) == 7  # an explicit mask is Discrete's


def test_returned_data_is_fresh():
    env = TinyYorkEnv()
    obs_a, info_a = env.reset(seed=0)
    obs_b, _, _, _, info_b = random_step(env, np.random.default_rng(0))
    assert not np.shares_memory(obs_a, obs_b)
    assert not np.shares_memory(info_a["action_mask"], info_b["action_mask"])
    mask = env.action_masks()
    mask[:] = True
    assert not env.action_masks().all()


def test_render_ansi():
    env = TinyYorkEnv(render_mode="ansi")
    assert env.render() is None  # nothing before the first reset
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and text
    gym_checker.env_render_passive_checker(env)


def test_render_human_prints_the_board_after_reset_and_step(capsys):
    """"human" prints the text board (no window, no pygame) after every reset and step, as
    Gymnasium expects, and render() returns None."""
    assert TinyYorkEnv.metadata["render_modes"][:2] == ["human", "ansi"]
    env = TinyYorkEnv(render_mode="human")
    assert env.render() is None and capsys.readouterr().out == ""  # nothing before the first reset
    env.reset(seed=0)
    assert capsys.readouterr().out.strip() == render_text(env.state)
    random_step(env, np.random.default_rng(0))
    assert capsys.readouterr().out.strip() == render_text(env.state)
    assert env.render() is None
    assert capsys.readouterr().out.strip() == render_text(env.state)
    gym_checker.env_render_passive_checker(env)
    assert capsys.readouterr().out.strip() == render_text(env.state)
    made = gymnasium.make(ENV_ID, render_mode="human")
    made.reset(seed=1)
    assert capsys.readouterr().out.strip() == render_text(made.unwrapped.state)


def test_render_rgb_array():
    assert "rgb_array" in TinyYorkEnv.metadata["render_modes"]
    env = TinyYorkEnv(render_mode="rgb_array")
    env.reset(seed=0)
    image = env.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3


@pytest.fixture
def one_torch_thread():
    """Tiny networks: extra torch threads only wait on each other, badly so on a busy machine."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def test_maskable_ppo_learns_on_the_single_env(env_id, one_torch_thread):
    """MaskablePPO finds action_masks() on the env itself (no ActionMasker) and trains."""
    env = gymnasium.make(env_id)
    assert is_masking_supported(env)
    model = MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=64, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [32]}, device="cpu")
    model.learn(total_timesteps=2_000)
    assert model.num_timesteps >= 2_000
    obs, _ = env.reset(seed=0)
    masks = get_action_masks(env)
    action, _ = model.predict(obs, action_masks=masks, deterministic=True)
    assert masks[int(action)]


def test_a_planning_opponent_plays_on_a_seat_safe_view():
    """An opponent with ``act_state`` gets a determinized copy: its own hand as it is, the
    learning seat's hidden hand resampled."""
    from tiny_york_env.games.tiny_york.greedy import GreedyAgent

    seen = []  # (view, real game) at each of the opponent's decisions

    class Recorder(GreedyAgent):
        def act_state(self, view, seat):
            seen.append((view.copy(), env.state))
            return super().act_state(view, seat)

    env = TinyYorkEnv(toms=(), opponents=(Recorder(seed=1),), seat=0)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(60):
        _, _, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        if terminated:
            break
    assert len(seen) >= 5
    assert all(np.array_equal(view["hand"][1], real["hand"][1]) for view, real in seen)
    assert any(not np.array_equal(view["hand"][0], real["hand"][0]) for view, real in seen)
