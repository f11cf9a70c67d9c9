"""Dirk, the imaginary third player of two-player games (rules: Special rules for 2 players;
ruling Y7)."""

import numpy as np

from tests.construction_yard.scenario import building, buy, position
from tiny_york_env.construction_yard import (
    GameConfig,
    dirk_score,
    final_scores,
    legal_actions,
    new_game,
    winners,
)
from tiny_york_env.construction_yard.actions import BUY, GIVE_TO_DIRK, KEEP, PAY, PAY_DONE
from tiny_york_env.construction_yard.api import apply_action
from tiny_york_env.construction_yard.data import (
    DIRK_CARDS_AFTER_A,
    DIRK_SETUP_CARDS,
    DIRK_SHARE_AFTER_B,
    NUM_BUILDINGS,
)
from tiny_york_env.construction_yard.rules import scoring_card_drawn
from tiny_york_env.construction_yard.scoring import distribute_display, score
from tiny_york_env.construction_yard.state import DEC_DIRK, DIRK_ROW, SCORING_A, SCORING_B

PARK, SKYSCRAPER = 4, 5


def rec_of(state):
    return state.reshape(1)[0]


def money_cards(rec):
    """Every money card in the game, as counts per currency-value code."""
    n = int(rec["num_players"])
    deck = rec["money_deck"][:rec["money_count"]]
    codes = list(deck[deck < SCORING_A]) + list(rec["discard"][:rec["discard_count"]])
    codes += [int(c) for c in rec["money_display"] if c >= 0]
    counts = np.bincount(np.array(codes, dtype=np.int64), minlength=36)
    return counts + rec["hand"][:n].reshape(n, 36).sum(axis=0)


def test_two_players_use_72_money_cards_one_of_each_sorted_out():
    rec = rec_of(new_game(GameConfig(num_players=2), seed=3))
    assert (money_cards(rec) == 2).all() and money_cards(rec).sum() == 72
    rec3 = rec_of(new_game(GameConfig(num_players=3), seed=3))
    assert (money_cards(rec3) == 3).all()


def test_dirk_gets_six_face_up_buildings_at_setup_after_the_display():
    for seed in range(20):
        rec = rec_of(new_game(GameConfig(num_players=2), seed=seed))
        assert rec["buildings"][DIRK_ROW].sum() == DIRK_SETUP_CARDS
        assert rec["building_count"] == NUM_BUILDINGS - 4 - DIRK_SETUP_CARDS
    assert rec_of(new_game(GameConfig(num_players=3), seed=1))["buildings"][DIRK_ROW].sum() == 0


def test_dirk_gets_six_after_scoring_a_and_a_third_after_scoring_b():
    rec = rec_of(new_game(GameConfig(num_players=2), seed=4))
    before, deck = rec["buildings"][DIRK_ROW].sum(), int(rec["building_count"])
    scoring_card_drawn(rec, SCORING_A)
    assert rec["buildings"][DIRK_ROW].sum() == before + DIRK_CARDS_AFTER_A
    deck -= DIRK_CARDS_AFTER_A
    rec["building_count"] = 10
    before = rec["buildings"][DIRK_ROW].sum()
    scoring_card_drawn(rec, SCORING_B)
    assert rec["buildings"][DIRK_ROW].sum() == before + 10 // DIRK_SHARE_AFTER_B
    assert rec["building_count"] == 10 - 10 // DIRK_SHARE_AFTER_B


def test_fewer_than_six_when_the_deck_runs_short():
    rec = rec_of(new_game(GameConfig(num_players=2), seed=4))
    rec["building_count"] = 2
    before = rec["buildings"][DIRK_ROW].sum()
    scoring_card_drawn(rec, SCORING_A)
    assert rec["buildings"][DIRK_ROW].sum() == before + 2 and rec["building_count"] == 0


def dirk_purchase(choice):
    park = building(PARK, 10)
    state = position(num_players=2, hands={0: [("green", 4), ("green", 6)]},
                     buildings=[building(0, 2), park, building(2, 4), building(3, 5)])
    rec = rec_of(state)
    rec["buildings"][:] = 0
    apply_action(state, BUY + 1)
    apply_action(state, PAY + 3)
    apply_action(state, PAY + 5)
    apply_action(state, PAY_DONE)
    assert rec["decision"] == DEC_DIRK and legal_actions(state).tolist() == [KEEP, GIVE_TO_DIRK]
    apply_action(state, choice)
    return rec


def test_every_purchase_is_kept_or_given_to_dirk():
    rec = dirk_purchase(KEEP)
    assert rec["buildings"][0, PARK] == 1 and rec["buildings"][DIRK_ROW, PARK] == 0
    assert rec["actor"] == 0  # paid sharp: the turn goes on after the choice
    rec = dirk_purchase(GIVE_TO_DIRK)
    assert rec["buildings"][0, PARK] == 0 and rec["buildings"][DIRK_ROW, PARK] == 1


def test_keep_or_give_is_only_offered_with_two_players():
    state = position(num_players=3, hands={0: [("green", 4), ("green", 6)]},
                     buildings=[building(0, 2), building(PARK, 10), None, None])
    buy(state, 1, (4, 6))
    assert rec_of(state)["buildings"][0, PARK] == 1
    assert KEEP not in legal_actions(state) and GIVE_TO_DIRK not in legal_actions(state)


def test_dirk_takes_ranks_in_scoring_and_pushes_players_down():
    rec = rec_of(new_game(GameConfig(num_players=2), seed=1))
    rec["buildings"][:] = 0
    rec["score_lines"][:] = 0
    rec["buildings"][DIRK_ROW, SKYSCRAPER] = 3
    rec["buildings"][0, SKYSCRAPER] = 2
    score(rec, 1)  # B: Dirk first (13), seat 0 second (6)
    assert rec["score_lines"][DIRK_ROW, 1] == 13 and rec["score_lines"][0, 1] == 6


def test_dirk_never_wins_and_never_receives_the_display():
    state = position(num_players=2, hands={0: [("blue", 1)]},
                     buildings=[building(0, 2), None, None, None])
    rec = rec_of(state)
    rec["buildings"][:] = 0
    rec["buildings"][DIRK_ROW, SKYSCRAPER] = 11
    distribute_display(rec)
    assert rec["buildings"][0, 0] == 1 and rec["buildings"][DIRK_ROW, 0] == 0
    for seed in range(10):
        game = new_game(GameConfig(num_players=2, bots=("greedy",)), seed=seed)
        rng = np.random.default_rng(seed)
        while not rec_of(game)["decision"] == 3:
            apply_action(game, int(rng.choice(legal_actions(game))))
        assert set(winners(game)) <= {0, 1}
        scores = final_scores(game)
        assert all(scores[w] == scores.max() for w in winners(game))
        assert dirk_score(game) is not None
