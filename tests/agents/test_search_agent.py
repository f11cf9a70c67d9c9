"""The registry's ``search`` in Tiny York (``GameSearchAgent`` of Tiny York, its compiled search):
legal, reproducible, blind to hidden cards, and far stronger than random play; the deprecated
``agents.search_agent.SearchAgent`` is the same agent."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tiny_york_env.agents.base import choose_action
from tiny_york_env.agents.game_search import GameSearchAgent
from tiny_york_env.agents.random_agent import RandomAgent
from tiny_york_env.core.jit import JIT_ENABLED
from tiny_york_env.games.tiny_york import (
    GameConfig,
    apply_action,
    current_player,
    determinize,
    is_terminal,
    legal_actions,
    legal_mask,
    new_game,
    winner,
)
from tiny_york_env.games.tiny_york.observation import OBS_SIZE, encode


def SearchAgent(simulations=64, seed=None, **options):  # noqa: N802  (the name the tests read best)
    """Tiny York's search with ``simulations`` playouts, as the registry's ``search:N`` makes it."""
    return GameSearchAgent("tiny_york", simulations, seed, **options)


REPO_ROOT = Path(__file__).resolve().parents[2]

CONFIGS = (
    GameConfig(num_agents=2), GameConfig(num_agents=3), GameConfig(num_agents=4),
    GameConfig(num_agents=1, toms=(5,)), GameConfig(num_agents=2, toms=("C9", 12)),
)
# Under TINY_YORK_JIT=0 (debugging, coverage) every playout is a plain-Python game: search less.
CHEAP = 4 if JIT_ENABLED else 1  # playouts per decision where only legality matters
SEEDS = (1, 2) if JIT_ENABLED else (1,)
DECISION_LIMIT = None if JIT_ENABLED else 20  # plain Python: the first decisions of each game
HIDDEN_CHECKS = 6 if JIT_ENABLED else 2
compiled_only = pytest.mark.skipif(
    not JIT_ENABLED, reason="thousands of plain-Python playouts; the compiled run checks strength")
MODEST = 32  # playouts per decision for the strength test (about 2.5 ms a decision)
STRONG = 64
STRENGTH_GAMES = 40
MIN_WIN_RATE = 0.9
MIN_STRONG_WIN_RATE = 0.95
MIN_GAME_DECISIONS = 50  # a whole game, even solo against a Tom, takes more


def play(config, seed, agents, limit=None):
    """Play one game with ``agents`` (one per agent seat) through ``choose_action``, to the end or
    ``limit`` decisions; return the state and the actions taken, each checked against the legal
    mask first."""
    state = new_game(config, seed=seed)
    rng = np.random.default_rng(seed)
    actions = []
    while not is_terminal(state) and (limit is None or len(actions) < limit):
        mask = legal_mask(state)
        action = choose_action(agents[current_player(state)], state, rng)
        assert mask[action], f"illegal action {action}"
        apply_action(state, action)
        actions.append(action)
    return state, actions


def mid_game(config, seed, decisions):
    """A random game ``decisions`` decisions in."""
    state = new_game(config, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(decisions):
        apply_action(state, int(rng.choice(legal_actions(state))))
    return state


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.num_agents}agents-{len(c.toms)}toms")
def test_only_legal_actions_to_the_end_of_the_game(config):
    for seed in SEEDS:
        agents = [SearchAgent(simulations=CHEAP, seed=seed * 10 + k) for k in range(config.num_agents)]
        state, actions = play(config, seed, agents, DECISION_LIMIT)
        if DECISION_LIMIT is None:
            assert is_terminal(state) and len(actions) > MIN_GAME_DECISIONS


def test_the_same_seed_plays_the_same_game():
    config = GameConfig(num_agents=2)
    games = [play(config, 3, [SearchAgent(CHEAP, seed=7), SearchAgent(CHEAP, seed=8)], DECISION_LIMIT)
             for _ in range(2)]
    assert games[0][0].tobytes() == games[1][0].tobytes()
    assert games[0][1] == games[1][1]
    other = play(config, 3, [SearchAgent(CHEAP, seed=70), SearchAgent(CHEAP, seed=80)], DECISION_LIMIT)
    assert other[1] != games[0][1]


def test_the_search_never_reads_hidden_cards():
    # Two views that differ only in what the seat cannot know: the same agent seed must give
    # the same statistics, since every playout redraws the hidden parts from the view.
    for seed in range(HIDDEN_CHECKS):
        state = mid_game(GameConfig(num_agents=3), seed, 40 + 17 * seed)
        seat = current_player(state)
        view_a, view_b = determinize(state, seat, 1), determinize(state, seat, 2)
        assert view_a.tobytes() != view_b.tobytes()
        stats_a = SearchAgent(4 * CHEAP, seed=5).search(view_a, seat)
        stats_b = SearchAgent(4 * CHEAP, seed=5).search(view_b, seat)
        for a, b in zip(stats_a, stats_b, strict=True):
            assert np.array_equal(a, b)


def test_every_playout_is_counted_and_every_action_tried():
    state = mid_game(GameConfig(num_agents=2), 4, 30)
    simulations = 2 * legal_actions(state).size + 1  # every action once, then UCB1
    agent = SearchAgent(simulations=simulations, seed=0, margin_weight=0.1)
    seat = current_player(state)
    view = determinize(state, seat, 0)
    legal, visits, means = agent.search(view, seat)
    assert np.array_equal(legal, legal_actions(state))
    assert visits.sum() == simulations and (visits >= 1).all()
    assert ((means >= -0.1) & (means <= 1.1)).all()
    assert agent.act_state(view, seat) in legal


def test_a_single_legal_action_is_played_without_a_search():
    state = new_game(GameConfig(num_agents=2), seed=0)
    rng = np.random.default_rng(0)
    while legal_actions(state).size != 1:
        apply_action(state, int(rng.choice(legal_actions(state))))
    agent = SearchAgent(simulations=10_000, seed=0)
    before = agent.rng.bit_generator.state
    seat = current_player(state)
    assert agent.act_state(determinize(state, seat, 0), seat) == int(legal_actions(state)[0])
    assert agent.rng.bit_generator.state == before


def test_act_asks_for_the_engine_view():
    state = new_game(GameConfig(num_agents=2), seed=0)
    with pytest.raises(ValueError, match="choose_action"):
        SearchAgent().act(encode(state, 0), legal_mask(state))
    assert encode(state, 0).shape == (OBS_SIZE,)


def test_act_state_checks_its_view():
    state = new_game(GameConfig(num_agents=2), seed=0)
    seat = current_player(state)
    agent = SearchAgent(CHEAP, seed=0)
    with pytest.raises(ValueError, match=f"seat {1 - seat} is not to move"):
        agent.act_state(determinize(state, seat, 0), 1 - seat)
    with pytest.raises(ValueError, match="single Tiny York record"):
        agent.act_state(state.reshape(1), seat)
    finished, _ = play(GameConfig(num_agents=2), 0, [RandomAgent(0), RandomAgent(1)])
    with pytest.raises(ValueError, match="game is over"):
        agent.act_state(finished, winner(finished))


@pytest.mark.parametrize("kwargs, message", [
    ({"simulations": 0}, "simulations must be a positive int"),
    ({"simulations": 2.5}, "simulations must be a positive int"),
    ({"simulations": True}, "simulations must be a positive int"),
    ({"exploration": -1.0}, "exploration must be a finite number >= 0"),
    ({"margin_weight": float("nan")}, "margin_weight must be a finite number >= 0"),
])
def test_bad_settings_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        SearchAgent(**kwargs)


# The same searches run by the plain-Python engine (TINY_YORK_JIT=0) in a subprocess.
PLAIN_SEARCH = r'''
import json, sys
import numpy as np
from tiny_york_env.agents.game_search import GameSearchAgent
from tiny_york_env.games.tiny_york.search import search_kernel
from tiny_york_env.games.tiny_york import (
    GameConfig,
    apply_action,
    current_player,
    determinize,
    legal_actions,
    new_game,
)
out = []
for agents, seed, decisions in json.loads(sys.argv[1]):
    state = new_game(GameConfig(num_agents=agents), seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(decisions):
        apply_action(state, int(rng.choice(legal_actions(state))))
    seat = current_player(state)
    legal, visits, means = GameSearchAgent("tiny_york", 6, seed).search(determinize(state, seat, seed), seat)
    out.append([legal.tolist(), visits.tolist(), means.tolist()])
print(json.dumps({"compiled": hasattr(search_kernel, "py_func"), "searches": out}))
'''
PLAIN_CASES = [(2, 1, 0), (3, 2, 60), (4, 3, 150)]


@pytest.mark.skipif(not JIT_ENABLED, reason="compares against the compiled search")
def test_compiled_and_plain_python_searches_agree():
    env = dict(os.environ, TINY_YORK_JIT="0")
    env["PYTHONPATH"] = str(REPO_ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-c", PLAIN_SEARCH, json.dumps(PLAIN_CASES)], cwd=REPO_ROOT,
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-4000:]
    plain = json.loads(proc.stdout.strip().splitlines()[-1])
    assert plain["compiled"] is False
    for (agents, seed, decisions), want in zip(PLAIN_CASES, plain["searches"], strict=True):
        state = mid_game(GameConfig(num_agents=agents), seed, decisions)
        seat = current_player(state)
        legal, visits, means = SearchAgent(6, seed=seed).search(determinize(state, seat, seed), seat)
        assert legal.tolist() == want[0] and visits.tolist() == want[1]
        assert np.allclose(means, want[2], rtol=0, atol=1e-12)


def win_rate_against_random(simulations, games, first_seed):
    """The share of 2-agent games SearchAgent wins against RandomAgent, seats alternated."""
    wins = 0
    for g in range(games):
        seat = g % 2
        agents = [None, None]
        agents[seat] = SearchAgent(simulations, seed=first_seed + g)
        agents[1 - seat] = RandomAgent(seed=first_seed + g)
        state, _ = play(GameConfig(num_agents=2), first_seed + g, agents)
        wins += winner(state) == seat
    return wins / games


@compiled_only
def test_a_modest_search_beats_random_play():
    # measured: 98% over 100 games at 32 playouts, 100% over 40 at 64 (about 0.3 s a game)
    assert win_rate_against_random(MODEST, STRENGTH_GAMES, first_seed=100) >= MIN_WIN_RATE


@pytest.mark.slow
@compiled_only
def test_a_stronger_search_beats_random_play_almost_always():
    assert win_rate_against_random(STRONG, 5 * STRENGTH_GAMES, first_seed=10_000) >= MIN_STRONG_WIN_RATE


def test_the_deprecated_search_agent_is_tiny_yorks_game_search():
    import importlib
    import sys
    sys.modules.pop("tiny_york_env.agents.search_agent", None)
    with pytest.warns(DeprecationWarning, match="search_agent is deprecated"):
        old = importlib.import_module("tiny_york_env.agents.search_agent")
    agent = old.SearchAgent(8, seed=1)
    assert isinstance(agent, GameSearchAgent) and agent.game.name == "tiny_york" and agent.simulations == 8
