"""Invariants over thousands of random Construction Yard games (2-6 players and the Dirk game):
every card accounted for in every state, masks never empty before the end, the same seed the
same game, every game ends, winners hold the highest total."""

import numpy as np
import pytest

from tiny_york_env.construction_yard import GameConfig, new_game, new_games
from tiny_york_env.construction_yard.data import NUM_BUILDINGS
from tiny_york_env.construction_yard.kernels import legal_mask_kernel, play_random_kernel
from tiny_york_env.construction_yard.rules import apply_unchecked
from tiny_york_env.construction_yard.state import DEC_GAME_OVER, NO_CARD, SCORING_A, SCORING_B
from tiny_york_env.core.rng import seed_rng

MAX_DECISIONS = 100_000


def card_totals(rec):
    """(money cards per code (36), scoring cards still to come, buildings accounted for)."""
    n = int(rec["num_players"])
    deck = rec["money_deck"][:rec["money_count"]]
    codes = [int(c) for c in deck if c < SCORING_A] + [int(c) for c in rec["discard"][:rec["discard_count"]]]
    codes += [int(c) for c in rec["money_display"] if c != NO_CARD]
    counts = np.bincount(np.array(codes, dtype=np.int64), minlength=36)
    counts += rec["hand"][:n].reshape(n, 36).sum(axis=0)
    if rec["decision"] == 1:  # paying: the payment has left the hand
        counts[rec["buy_slot"] * 9:rec["buy_slot"] * 9 + 9] += rec["payment"]
    scoring = int(np.sum((deck == SCORING_A) | (deck == SCORING_B)))
    buildings = (int(rec["building_count"]) + int(np.sum(rec["building_display"] != NO_CARD))
                 + int(rec["buildings"].sum()) + int(rec["removed"])
                 + int(rec["pending_building"] != NO_CARD))
    return counts, scoring, buildings


@pytest.mark.parametrize("num_players", range(2, 7))
def test_cards_are_conserved_and_masks_never_empty(num_players):
    copies = 2 if num_players == 2 else 3
    rng = np.random.default_rng(num_players)
    mask = np.zeros(32, np.bool_)
    for seed in range(40):
        states = new_games(GameConfig(num_players=num_players), [seed])
        rec = states[0]
        steps = 0
        while rec["decision"] != DEC_GAME_OVER:
            counts, scoring, buildings = card_totals(rec)
            assert (counts == copies).all()
            assert scoring == 2 - int(rec["scorings_done"][:2].sum())
            assert buildings == NUM_BUILDINGS
            legal_mask_kernel(states, 0, mask)
            assert mask.any()
            apply_unchecked(rec, int(rng.choice(np.flatnonzero(mask))))
            steps += 1
            assert steps < MAX_DECISIONS
        legal_mask_kernel(states, 0, mask)
        assert not mask.any() and rec["scorings_done"].all()
        totals = rec["score_lines"][:num_players].sum(axis=1)
        winners = [s for s in range(num_players) if rec["winner_mask"] >> s & 1]
        assert winners and all(totals[w] == totals.max() for w in winners)


@pytest.mark.parametrize("config", [GameConfig(num_players=2), GameConfig(num_players=4),
                                    GameConfig(num_players=6, bots=("greedy", "random"))])
def test_thousands_of_compiled_games_end_and_repeat_with_their_seed(config):
    states = new_games(config, range(1000))
    again = new_games(config, range(1000))
    words, words_again = np.zeros(4, np.int64), np.zeros(4, np.int64)
    seed_rng(words, 9)
    seed_rng(words_again, 9)
    for i in range(states.shape[0]):
        assert play_random_kernel(states, i, words, MAX_DECISIONS) < MAX_DECISIONS
        play_random_kernel(again, i, words_again, MAX_DECISIONS)
    assert (states["decision"] == DEC_GAME_OVER).all()
    assert states.tobytes() == again.tobytes()
    assert len({s.tobytes() for s in new_games(config, range(50))}) == 50


def test_same_seed_same_setup_different_seed_different_setup():
    a, b = new_game(GameConfig(3), seed=77), new_game(GameConfig(3), seed=77)
    assert a.tobytes() == b.tobytes()
    assert a.tobytes() != new_game(GameConfig(3), seed=78).tobytes()
