"""``GreedyAgent``: legal and reproducible in every configuration, its evaluation exact at the
end of the game, sensible in a few positions, and far stronger than random play."""

import numpy as np
import pytest

from tests.tiny_york.scenario import bidding_round, deal_cards, give_character, pass_until, rec, resume
from tiny_york_env.agents.base import choose_action
from tiny_york_env.agents.random_agent import RandomAgent
from tiny_york_env.games.tiny_york import (
    GameConfig,
    apply_action,
    current_player,
    final_scores,
    is_terminal,
    legal_mask,
    new_game,
    winner,
)
from tiny_york_env.games.tiny_york.actions import BID_CARD, BID_DONE, END_TURN, NUM_ACTIONS, USE_CHARACTER
from tiny_york_env.games.tiny_york.components import DOLLARS, ELEVATOR, PRESS, PRESTIGE, SKYSCRAPERS, WILD
from tiny_york_env.games.tiny_york.greedy import GreedyAgent
from tiny_york_env.games.tiny_york.heuristic import NEG_INF, evaluate_view
from tiny_york_env.games.tiny_york.state import DEC_DECLARE_BID_LAST, DEC_NONE, DEC_PHASE3, STAGE_BID_START

CONFIGS = [GameConfig(2), GameConfig(3), GameConfig(4), GameConfig(1, toms=(5,)),
           GameConfig(2, toms=(1,)), GameConfig(3, toms=("C5",))]
GAMES_PER_CONFIG = 3
MIN_DECISIONS = 250  # a few hundred decisions per configuration
STRENGTH_GAMES = 40
STRENGTH_THRESHOLD = 0.9  # the bar against RandomAgent
THREE_POINTS = 25  # character 25: +3 points in Phase III for 1 dollar
BID_LAST = 18


def play(config, seed, agents):
    """Play one game; every action is checked legal; returns (state, actions)."""
    state = new_game(config, seed=seed)
    rng = np.random.default_rng(seed)
    actions = []
    while not is_terminal(state):
        seat = current_player(state)
        action = choose_action(agents[seat], state, rng)
        assert legal_mask(state)[action], f"seat {seat} chose illegal action {action}"
        actions.append(action)
        apply_action(state, action)
    return state, actions


def mixed_seats(config, seed):
    """GreedyAgent on even seats, RandomAgent on odd ones (one agent: GreedyAgent)."""
    return [GreedyAgent(seed + k) if k % 2 == 0 else RandomAgent(seed + k)
            for k in range(config.num_agents)]


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_legal_in_every_configuration(config):
    """Whole games, 2-4 agents, with and without Toms: every action legal."""
    decisions = 0
    for seed in range(GAMES_PER_CONFIG):
        state, actions = play(config, seed, mixed_seats(config, seed))
        decisions += len(actions)
        assert len(final_scores(state)) == config.num_participants
    assert decisions >= MIN_DECISIONS


def test_reproducible_with_a_seed():
    """The same seeds give the same game, action for action."""
    config = GameConfig(3, toms=(2,))
    _, first = play(config, 5, [GreedyAgent(1), GreedyAgent(2), GreedyAgent(3)])
    _, second = play(config, 5, [GreedyAgent(1), GreedyAgent(2), GreedyAgent(3)])
    assert first == second


def test_act_without_the_engine_view_is_a_clear_error():
    """act() cannot look ahead from an observation: it names choose_action."""
    with pytest.raises(ValueError, match="choose_action"):
        GreedyAgent(0).act(np.zeros(10, np.float32), np.ones(NUM_ACTIONS, bool))


def test_act_state_rejects_a_finished_game():
    """act_state on a game that is over is a ValueError that says so."""
    state, _ = play(GameConfig(2), 0, [RandomAgent(0), RandomAgent(1)])
    with pytest.raises(ValueError, match="game is over"):
        GreedyAgent(0).act_state(state, 0)


def test_values_cover_exactly_the_legal_actions():
    """Every legal action gets a finite score, every other one NEG_INF."""
    state = new_game(GameConfig(2, toms=(3,)), seed=4)
    agent, rng = GreedyAgent(0), np.random.default_rng(0)
    for _ in range(60):
        seat = current_player(state)
        values = agent.action_values(state.copy(), seat)
        mask = legal_mask(state)
        assert np.all(np.isfinite(values[mask])) and np.all(values[~mask] == NEG_INF)
        apply_action(state, choose_action(agent, state, rng))


def test_evaluation_at_the_end_is_the_score_difference():
    """After the final scoring the evaluation is the seat's total minus the best other total."""
    state, _ = play(GameConfig(3), 2, [RandomAgent(0), RandomAgent(1), RandomAgent(2)])
    scores = final_scores(state)
    for seat in range(3):
        assert evaluate_view(state, seat) == scores[seat] - np.delete(scores, seat).max()


def test_uses_a_cheap_phase_three_character():
    """Character 25 turns 1 dollar into 3 points: the greedy agent uses it before ending."""
    state = bidding_round(2, SKYSCRAPERS, seed=2)
    give_character(state, 0, THREE_POINTS)
    rec(state)["dollars"][0] = 2
    pass_until(state, lambda r: r["decision"] == DEC_PHASE3 and r["actor"] == 0)
    action = choose_action(GreedyAgent(0), state, np.random.default_rng(0))
    assert action == USE_CHARACTER + THREE_POINTS - 1 != END_TURN


def test_last_prestige_bid_plays_its_cards():
    """Last to bid in the prestige round, with nobody bidding before: every prestige card is a
    point and wins the tile, so the agent plays them all (the wild it may keep for the
    skyscraper round)."""
    state = bidding_round(2, PRESTIGE, seed=6, start_seat=1)
    deal_cards(state, 1, hand={})
    apply_action(state, BID_DONE)
    deal_cards(state, 0, hand={PRESTIGE: 2, WILD: 1})
    agent, rng, parts = GreedyAgent(0), np.random.default_rng(0), []
    while not parts or parts[-1] != BID_DONE:
        parts.append(choose_action(agent, state, rng))
        apply_action(state, parts[-1])
    assert parts.count(BID_CARD) == 2 and parts[-1] == BID_DONE


def test_beats_random_play():
    """2-agent games, seats alternated: GreedyAgent wins at least 90% against RandomAgent."""
    wins = 0
    for game in range(STRENGTH_GAMES):
        seat = game % 2
        agents = [GreedyAgent(game), RandomAgent(game)]
        if seat:
            agents.reverse()
        state, _ = play(GameConfig(2), 200 + game, agents)
        wins += winner(state) == seat
    assert wins / STRENGTH_GAMES >= STRENGTH_THRESHOLD


def _declaration(hand):
    """Seat 0 holds character 18 and 1 dollar at the start of the dollars round, with ``hand``;
    the engine asks it to declare 18 (R11)."""
    state = bidding_round(2, DOLLARS, seed=1, start_seat=0)
    give_character(state, 0, BID_LAST)
    r = rec(state)
    r["dollars"][0] = 1
    deal_cards(state, 0, hand=hand)
    r["stage"] = STAGE_BID_START
    r["decision"] = DEC_NONE
    resume(state)
    assert r["decision"] == DEC_DECLARE_BID_LAST and r["actor"] == 0
    return state


@pytest.mark.parametrize("hand, uses", [
    ({DOLLARS: 2}, True),  # cards of the round
    ({PRESS: 2}, True),  # a pair of another type is a substitute (R10)
    ({WILD: 1, ELEVATOR: 1}, True),  # a wild with another card
    ({PRESS: 1, ELEVATOR: 1}, False),  # no bid possible: keep 18 for a later bidding round
    ({}, False),
])
def test_declares_18_when_its_hand_can_bid(hand, uses):
    """The rule at 18's declaration (module docstring): bid last when a bid is possible this
    round, otherwise keep the tile; both answers score finitely, the preferred one higher."""
    state = _declaration(hand)
    agent = GreedyAgent(0)
    values = agent.action_values(state.copy(), 0)
    use = USE_CHARACTER + BID_LAST - 1
    assert np.isfinite(values[use]) and np.isfinite(values[END_TURN])
    action = choose_action(agent, state, np.random.default_rng(0))
    assert action == (use if uses else END_TURN)
