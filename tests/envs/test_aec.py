"""The PettingZoo AEC env: agents and turns, rewards, errors, seeding, copies, views, state().
PettingZoo's own checkers run in test_checkers.py, illegal actions in test_illegal_action.py."""

import copy
import pickle
import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

import tiny_york_env
from tests.envs.test_rewards import expected_rewards
from tiny_york_env.envs import aec
from tiny_york_env.envs.aec import env, raw_env
from tiny_york_env.envs.rewards import REWARD_KINDS
from tiny_york_env.games.tiny_york import (
    NUM_ACTIONS,
    GameConfig,
    current_player,
    final_scores,
    legal_mask,
    new_game,
    render_text,
    winner,
)
from tiny_york_env.games.tiny_york.global_state import GLOBAL_STATE_SIZE, encode_global_state
from tiny_york_env.games.tiny_york.observation import OBS_SIZE, encode

SETUPS = {
    "2 agents": {"num_agents": 2},
    "3 agents": {"num_agents": 3},
    "4 agents": {"num_agents": 4},
    "solo vs Tom 5": {"num_agents": 1, "toms": (5,)},
    "2 agents + Tom C5": {"num_agents": 2, "toms": ("C5",)},
    "1 agent + 3 Toms": {"num_agents": 1, "toms": (1, 12, "B4")},
}
AGENT_ONLY = ("2 agents", "3 agents", "4 agents")
ROOT = Path(__file__).resolve().parents[2]



def _random_action(obs, rng):
    legal = np.flatnonzero(obs["action_mask"])
    return int(legal[rng.integers(legal.size)])


def play_to_end(aec_env, seed, check=None):
    """Play a whole game with random legal actions, dead steps included; returns the live steps.

    ``check(aec_env)`` runs before every live step."""
    rng = np.random.default_rng(seed)
    aec_env.reset(seed=seed)
    steps = 0
    for _agent in aec_env.agent_iter():
        obs, _, terminated, truncated, _ = aec_env.last()
        if terminated or truncated:
            aec_env.step(None)
            continue
        if check is not None:
            check(aec_env)
        aec_env.step(_random_action(obs, rng))
        steps += 1
    return steps


@pytest.mark.parametrize("name", SETUPS)
def test_agents_are_the_agent_seats_and_turns_follow_the_engine(name):
    """player_i is seat i; Toms are never agents; agent_selection is current_player's seat."""
    kwargs = SETUPS[name]
    e = raw_env(**kwargs)
    assert e.possible_agents == [f"player_{i}" for i in range(kwargs["num_agents"])]

    def check(e):
        seat = current_player(e.game_state)
        assert 0 <= seat < kwargs["num_agents"]
        assert e.agent_selection == f"player_{seat}"

    assert play_to_end(e, seed=11, check=check) > 0


@pytest.mark.parametrize("name", SETUPS)
def test_full_random_game_terminates_every_agent(name):
    """A random game ends with every agent terminated, stepped once more with None and removed."""
    e = env(**SETUPS[name])
    terminated = set()
    rng = np.random.default_rng(3)
    e.reset(seed=3)
    for agent in e.agent_iter():
        obs, _, term, trunc, info = e.last()
        assert not trunc
        if term:
            terminated.add(agent)
            state = e.unwrapped.game_state
            seat = int(agent.split("_")[1])
            assert info == {"final_score": int(final_scores(state)[seat]),
                            "winner": winner(state) == seat}
            assert not obs["action_mask"].any()
            e.step(None)
        else:
            e.step(_random_action(obs, rng))
    assert e.agents == [] and terminated == set(e.possible_agents)


@pytest.mark.parametrize("kind", REWARD_KINDS)
@pytest.mark.parametrize("name", SETUPS)
def test_rewards_zero_until_the_end_then_final_rewards(kind, name):
    """No reward before the end; at the end each agent gets, once, its seat's reward worked out
    by hand from the totals, the winner and the press order (tests/envs/test_rewards.py)."""
    kwargs = SETUPS[name]
    e = raw_env(reward=kind, **kwargs)
    e.reset(seed=21)
    rng = np.random.default_rng(21)
    collected = {}
    for agent in e.agent_iter():
        obs, reward, terminated, _, _ = e.last()
        if terminated:
            collected[agent] = reward
            e.step(None)
        else:
            assert reward == 0 and all(r == 0 for r in e.rewards.values())
            e.step(_random_action(obs, rng))
    expected = expected_rewards(e.game_state, kind)
    assert collected == {f"player_{s}": pytest.approx(expected[s]) for s in range(kwargs["num_agents"])}
    if kind in ("win", "rank") and name in AGENT_ONLY:
        assert sum(collected.values()) == pytest.approx(0.0)


def test_unknown_reward_and_bad_settings_raise_value_error():
    """Bad constructor arguments say what is allowed."""
    with pytest.raises(ValueError, match="reward must be one of"):
        raw_env(reward="x")
    with pytest.raises(ValueError, match="num_agents"):
        raw_env(num_agents=0)
    with pytest.raises(ValueError, match="num_agents"):
        env(num_agents=5)
    with pytest.raises(ValueError, match="participants"):
        raw_env(num_agents=1)
    with pytest.raises(ValueError, match="Tom"):
        raw_env(num_agents=1, toms=(13,))
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="video")
    with pytest.raises(ValueError, match="seed"):
        raw_env().reset(seed=-1)


@pytest.mark.parametrize("make", [raw_env, lambda **kw: env(illegal_action="raise", **kw)],
                         ids=["raw_env", "env(illegal_action='raise')"])
def test_illegal_action_raises_the_engine_error_and_changes_nothing(make):
    """With "raise" (raw_env's default) an illegal action or one outside the space is a
    ValueError, no penalty; the game is left as it was."""
    e = make(num_agents=3)
    e.reset(seed=5)
    e.step(_random_action(e.last()[0], np.random.default_rng(0)))
    state = e.unwrapped.game_state
    before, agent = state.tobytes(), e.agent_selection
    illegal = int(np.flatnonzero(~legal_mask(state))[0])
    for action in (illegal, np.int64(illegal), NUM_ACTIONS, -1, 2.0, True, "3"):
        with pytest.raises(ValueError, match="illegal action|action must be an int|outside the action space"):
            e.step(action)
        assert state.tobytes() == before and e.agent_selection == agent
        assert not any(e.terminations.values()) and all(r == 0 for r in e.rewards.values())
    e.step(_random_action(e.last()[0], np.random.default_rng(1)))  # the game goes on


def test_numpy_integer_actions_are_accepted():
    """Actions sampled from the space (numpy ints) play like Python ints."""
    a, b = raw_env(), raw_env()
    a.reset(seed=4)
    b.reset(seed=4)
    action = _random_action(a.last()[0], np.random.default_rng(0))
    a.step(action)
    b.step(np.int32(action))
    assert a.game_state.tobytes() == b.game_state.tobytes()


def test_dead_agent_must_step_none():
    """After the end, a dead agent's only valid action is None (PettingZoo's _was_dead_step)."""
    e = raw_env()
    play_to_end(e, seed=8)
    e.reset(seed=8)
    rng = np.random.default_rng(8)
    while not e.terminations[e.agent_selection]:
        e.step(_random_action(e.last()[0], rng))
    with pytest.raises(ValueError, match="None"):
        e.step(0)
    e.step(None)
    assert len(e.agents) == 1


def test_observation_is_the_seats_view_and_the_mask_only_on_its_turn():
    """observe(): encode(state, seat) for every agent; the legal mask for the selected one only."""
    e = raw_env(num_agents=3)
    e.reset(seed=9)
    rng = np.random.default_rng(9)
    for _ in range(40):
        state = e.game_state
        for seat, agent in enumerate(e.agents):
            obs = e.observe(agent)
            assert obs["observation"].dtype == np.float32 and obs["observation"].shape == (OBS_SIZE,)
            assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (NUM_ACTIONS,)
            np.testing.assert_array_equal(obs["observation"], encode(state, seat))
            expected = legal_mask(state) if agent == e.agent_selection else np.zeros(NUM_ACTIONS, bool)
            np.testing.assert_array_equal(obs["action_mask"], expected.astype(np.int8))
            assert e.observation_space(agent).contains(obs)
        e.step(_random_action(e.last()[0], rng))


def test_reset_seeds_are_reproducible():
    """Same seed, same game; the constructor seed is the first reset's; seedless resets after a
    seeded one follow from it."""
    a, b = raw_env(seed=5), raw_env()
    a.reset()
    b.reset(seed=5)
    assert a.game_state.tobytes() == b.game_state.tobytes()
    assert a.game_state.tobytes() == new_game(GameConfig(num_agents=2), 5).tobytes()
    a.reset()
    b.reset()
    assert a.game_state.tobytes() == b.game_state.tobytes()
    b.reset(seed=6)
    assert _without_generator(a.game_state) != _without_generator(b.game_state)
    assert not np.array_equal(a.game_state["draw_pile"], b.game_state["draw_pile"])
    c = raw_env(seed=6)
    c.reset()
    assert c.game_state.tobytes() == b.game_state.tobytes()


def _without_generator(state):
    """The record's bytes with the random generator's words zeroed: what the seed laid out."""
    record = state.copy()
    record["rng"] = 0
    return record.tobytes()


def test_another_seed_gives_another_game():
    """Different seeds lay out different games (cards, tiles, the start stack), not only a
    different generator state, and play on differently."""
    games = []
    for seed in range(6):
        e = raw_env(num_agents=3)
        e.reset(seed=seed)
        games.append(_without_generator(e.game_state))
    assert len(set(games)) == len(games)
    ends = []
    for seed in (1, 2):
        e = raw_env(num_agents=3)
        play_to_end(e, seed=seed)
        ends.append(_without_generator(e.game_state))
    assert ends[0] != ends[1]


def test_ids_are_registered_by_the_package():
    """``import tiny_york_env`` registers the Gymnasium id (no test registers it) and exposes the
    PettingZoo env under its versioned name."""
    code = ("import gymnasium, tiny_york_env; spec = gymnasium.spec('TinyYork-v0'); "
            "print(spec.entry_point); print(type(gymnasium.make('TinyYork-v0').unwrapped).__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ROOT).stdout.split()
    assert out == ["tiny_york_env.envs.single:TinyYorkEnv", "TinyYorkEnv"]
    assert tiny_york_env.ENV_ID == "TinyYork-v0" and tiny_york_env.ENV_ID in gymnasium.registry
    assert raw_env.metadata["name"] == "tiny_york_v0" == tiny_york_env.get_game("tiny_york").aec_name
    assert tiny_york_env.env is env and tiny_york_env.raw_env is raw_env


def test_deepcopy_and_pickle_play_on_independently():
    """A copied env continues the same game, and stepping it leaves the original alone."""
    e = raw_env(num_agents=2)
    e.reset(seed=12)
    rng = np.random.default_rng(12)
    for _ in range(30):
        e.step(_random_action(e.last()[0], rng))
    for clone in (copy.deepcopy(e), pickle.loads(pickle.dumps(e))):
        before = e.game_state.tobytes()
        assert clone.game_state.tobytes() == before and clone.agent_selection == e.agent_selection
        for _ in range(20):
            clone.step(_random_action(clone.last()[0], rng))
            assert clone.agent_selection == f"player_{current_player(clone.game_state)}"
        assert e.game_state.tobytes() == before


def test_env_is_order_enforcing():
    """env() refuses use before reset, as PettingZoo's OrderEnforcingWrapper does."""
    e = env()
    assert isinstance(e, OrderEnforcingWrapper) and isinstance(e.unwrapped, raw_env)
    with pytest.raises(AttributeError, match="before reset"):
        _ = e.agent_selection
    with pytest.raises(AttributeError, match="before reset"):
        e.last()
    with pytest.raises(AssertionError, match="reset"):
        e.step(0)
    e.reset(seed=1)
    assert e.num_agents == 2 and e.agent_selection == "player_0"


def test_render_modes(capsys):
    """ansi is render_text; human prints it; rgb_array is a picture; no mode returns None."""
    e = raw_env(render_mode="ansi")
    e.reset(seed=2)
    assert e.render() == render_text(e.game_state)
    h = raw_env(render_mode="human")
    h.reset(seed=2)
    assert capsys.readouterr().out.strip() == render_text(h.game_state)
    p = env(render_mode="rgb_array")
    p.reset(seed=2)
    picture = p.render()
    assert picture.dtype == np.uint8 and picture.shape == (600, 900, 3)
    n = raw_env()
    n.reset(seed=2)
    with pytest.warns(UserWarning, match="render_mode"):
        assert n.render() is None


def test_module_opens_with_a_spec_table_that_matches_the_code():
    """The spec table names the current action and observation sizes and the env's version."""
    doc = aec.__doc__
    assert doc.splitlines()[2].startswith("| |")
    for fact in (f"Discrete({NUM_ACTIONS})", f"({OBS_SIZE},)", f"({NUM_ACTIONS},)", f"({GLOBAL_STATE_SIZE},)",
                 raw_env.metadata["name"], "Agents", "Rewards", "Version", "Import", "Illegal action",
                 f'default "{aec.RAW_ENV_ILLEGAL_ACTION}"', f'default "{aec.ENV_ILLEGAL_ACTION}"'):
        assert fact in doc


def test_state_is_the_global_state_and_the_wrapper_forwards_it():
    """state() is encode_global_state of the game, in state_space (there before reset, as
    turn_based_aec_to_parallel reads it); env() forwards both and refuses state() before reset."""
    raw = raw_env(num_agents=3)
    assert raw.state_space.shape == (GLOBAL_STATE_SIZE,) and raw.state_space.dtype == np.float32
    with pytest.raises(ValueError, match=r"call reset\(\) before state\(\)"):
        raw.state()
    wrapped = env(num_agents=3)
    assert wrapped.state_space is wrapped.unwrapped.state_space
    with pytest.raises(AssertionError, match="reset"):
        wrapped.state()
    rng = np.random.default_rng(0)
    for e in (raw, wrapped):
        e.reset(seed=4)
        for _ in range(20):
            state = e.state()
            assert e.state_space.contains(state)
            np.testing.assert_array_equal(state, encode_global_state(e.unwrapped.game_state))
            e.step(_random_action(e.last()[0], rng))
