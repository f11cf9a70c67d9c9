"""Smoke test of the Construction Yard engine: random games for 2-6 players, and games with
bots, run through the public verbs to the end; the end state and the final scores are sane
(every card accounted for, winners = the highest totals, Dirk only with two players, bots
never asked to decide). The thorough checks are in test_invariants.py."""

import numpy as np
import pytest

from tiny_york_env.core.rng import seed_rng
from tiny_york_env.games.construction_yard import (
    GameConfig,
    apply_action,
    current_player,
    dirk_score,
    final_scores,
    is_terminal,
    legal_actions,
    new_game,
    new_games,
    render_text,
    score_breakdown,
    winners,
)
from tiny_york_env.games.construction_yard.batch import play_random_kernel
from tiny_york_env.games.construction_yard.data import (
    COPIES,
    COPIES_TWO_PLAYERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_BUILDINGS,
    NUM_CURRENCIES,
    NUM_VALUES,
)
from tiny_york_env.games.construction_yard.state import DIRK_ROW, NO_CARD, SCORING_A

PLAYER_COUNTS = range(MIN_PLAYERS, MAX_PLAYERS + 1)
GAMES_PER_COUNT = 3
MAX_DECISIONS = 5000  # random games take a few hundred; a loop that never ends fails here


def money_cards_at_end(rec) -> int:
    """Money cards in hands, deck, discard and display (scoring cards and the payment excluded:
    the game is over, nothing is being paid)."""
    deck = rec["money_deck"][:rec["money_count"]]
    shown = rec["money_display"]
    return (int(rec["hand"].sum()) + int(np.sum(deck < SCORING_A)) + int(rec["discard_count"])
            + int(np.sum((shown != NO_CARD) & (shown < SCORING_A))))


def play_to_end(config: GameConfig, seed: int) -> np.ndarray:
    """Play one game with uniformly random legal actions for the agent seats."""
    state = new_game(config, seed=seed)
    chooser = np.random.default_rng(seed)
    for _ in range(MAX_DECISIONS):
        if is_terminal(state):
            return state
        seat = current_player(state)
        assert 0 <= seat < config.num_agents  # bots are played by the engine
        legal = legal_actions(state)
        assert legal.size > 0  # a mask is never empty before the end
        apply_action(state, int(chooser.choice(legal)))
    raise AssertionError(f"game {config} seed {seed} did not end in {MAX_DECISIONS} decisions")


def check_end(state: np.ndarray, config: GameConfig) -> None:
    """The end state is a finished game with sane scores."""
    n = config.num_players
    rec = state.reshape(1)[0]
    assert current_player(state) == -1 and legal_actions(state).size == 0
    scores = final_scores(state)
    assert scores.shape == (n,) and (scores >= 0).all()
    assert sorted(winners(state)) == [s for s in range(n) if scores[s] == scores.max()]
    breakdown = score_breakdown(state)
    assert [line["total"] for line in breakdown] == list(scores)
    assert rec["scorings_done"][2] == 1  # scoring C happened
    assert (rec["building_display"] == NO_CARD).all()  # the display was given away or removed (Y9)
    rows = rec["buildings"].sum(axis=1)
    assert (rows[n:DIRK_ROW] == 0).all()  # no buildings in unused seats
    assert (dirk_score(state) is not None) == (n == 2)
    if n != 2:
        assert rows[DIRK_ROW] == 0 and rec["score_lines"][DIRK_ROW].sum() == 0
    assert rows.sum() + int(rec["removed"]) + int(rec["building_count"]) == NUM_BUILDINGS
    copies = COPIES_TWO_PLAYERS if n == 2 else COPIES
    assert money_cards_at_end(rec) == NUM_CURRENCIES * NUM_VALUES * copies
    assert "Dirk" in render_text(state) if n == 2 else "Dirk" not in render_text(state)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_random_games_end_sanely(n):
    config = GameConfig(num_players=n)
    for seed in range(GAMES_PER_COUNT):
        check_end(play_to_end(config, seed), config)


@pytest.mark.parametrize("n, bots", [
    (2, ("greedy",)), (2, ("random",)), (3, ("greedy", "random")), (4, ("greedy",) * 3),
    (6, ("random", "greedy") * 2 + ("greedy",)),
])
def test_games_with_bots_end_sanely(n, bots):
    config = GameConfig(num_players=n, bots=bots)
    for seed in range(GAMES_PER_COUNT):
        check_end(play_to_end(config, seed), config)


def test_same_seed_same_game():
    config = GameConfig(num_players=4, bots=("greedy",))
    assert play_to_end(config, 11).tobytes() == play_to_end(config, 11).tobytes()
    assert play_to_end(config, 11).tobytes() != play_to_end(config, 12).tobytes()


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_compiled_random_play_ends(n):
    config = GameConfig(num_players=n)
    states = new_games(config, range(50))
    words = np.zeros(4, dtype=np.int64)
    seed_rng(words, n)
    for i in range(states.shape[0]):
        decisions = play_random_kernel(states, i, words, MAX_DECISIONS)
        assert 0 < decisions < MAX_DECISIONS
        check_end(states[i:i + 1].reshape(()), config)


def test_the_text_names_a_currency_with_no_cards_in_hand():
    from tiny_york_env.games.construction_yard.api import as_batch
    state = new_game(GameConfig(num_players=2), seed=1)
    as_batch(state)[0]["hand"][0, 2, :] = 0  # seat 0 holds no yellow money
    assert "yellow none (=0)" in render_text(state, 0)
