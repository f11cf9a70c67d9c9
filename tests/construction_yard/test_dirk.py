"""Dirk, the imaginary third player of two-player games (rules: Special rules for 2 players;
ruling Y7): 72 money cards, his six buildings at setup, six more after scoring A and a third of
the deck after scoring B, keep-or-give on every purchase, his ranks in every scoring, his points
recorded, never a winner and never a receiver of the display at the end."""

import numpy as np
import pytest

from tests.construction_yard.scenario import (
    CHURCH,
    MUSEUM,
    PARK,
    SKYSCRAPER,
    STATION,
    THEATER,
    building,
    building_deck_draws,
    buy,
    pay,
    position,
    rec,
    take,
)
from tiny_york_env.core.rng import seed_rng
from tiny_york_env.games.construction_yard import (
    GameConfig,
    apply_action,
    dirk_score,
    final_scores,
    legal_actions,
    new_game,
    new_games,
    winners,
)
from tiny_york_env.games.construction_yard.actions import BUY, GIVE_TO_DIRK, KEEP, PAY_DONE
from tiny_york_env.games.construction_yard.batch import play_random_kernel
from tiny_york_env.games.construction_yard.data import BUILDING_TYPE, DIRK_SETUP_CARDS
from tiny_york_env.games.construction_yard.scoring import distribute_display, score, set_winners
from tiny_york_env.games.construction_yard.state import DEC_CHOOSE, DEC_DIRK, DEC_GAME_OVER, DEC_PAY, DIRK_ROW

SCORING_A_INDEX, SCORING_B_INDEX, SCORING_C_INDEX = range(3)
FULL_DISPLAY = [("green", 1), ("green", 2), ("red", 3), ("yellow", 4)]


def money_counts(r):
    """Every money card of the game as counts per currency-value code (36)."""
    n = int(r["num_players"])
    deck = r["money_deck"][:r["money_count"]]
    codes = [int(c) for c in deck if c < 36] + [int(c) for c in r["discard"][:r["discard_count"]]]
    codes += [int(c) for c in r["money_display"] if c >= 0]
    in_hands = r["hand"][:n].reshape(n, 36).sum(axis=0)
    return np.bincount(np.array(codes, dtype=np.int64), minlength=36) + in_hands


def types_of(cards):
    return np.bincount(BUILDING_TYPE[list(cards)], minlength=6).tolist()


def test_two_players_use_72_money_cards_one_of_each_sorted_out():
    for seed in range(20):
        counts = money_counts(rec(new_game(GameConfig(num_players=2), seed=seed)))
        assert (counts == 2).all() and counts.sum() == 72
    for n in (3, 6):
        counts = money_counts(rec(new_game(GameConfig(num_players=n), seed=3)))
        assert (counts == 3).all() and counts.sum() == 108


def test_dirk_gets_the_six_buildings_drawn_after_the_display_face_up():
    """Y7: the four display cards are drawn first, then Dirk's six, all from the top of the
    shuffled deck (drawn cards stay above ``building_count`` in the record's deck array)."""
    for seed in range(30):
        r = rec(new_game(GameConfig(num_players=2), seed=seed))
        deck = r["building_deck"].tolist()
        assert sorted(deck) == list(range(54)) and r["building_count"] == 54 - 4 - DIRK_SETUP_CARDS
        assert r["building_display"].tolist() == deck[53:49:-1]
        assert r["buildings"][DIRK_ROW].tolist() == types_of(deck[44:50])
        assert r["buildings"][:2].sum() == 0
    for n in range(3, 7):
        r = rec(new_game(GameConfig(num_players=n), seed=1))
        assert r["buildings"][DIRK_ROW].sum() == 0 and r["building_count"] == 50 and not r["has_dirk"]


def dirk_scoring_position(card, deck_size, owned):
    """Two players; the building deck holds ``deck_size`` known cards; the scoring ``card`` is the
    next money card; seat 0 ends her turn by taking money."""
    cards = ((MUSEUM, 2), (MUSEUM, 3), (THEATER, 3), (THEATER, 4), (STATION, 4), (STATION, 5), (CHURCH, 5),
             (CHURCH, 6), (PARK, 6), (PARK, 7), (SKYSCRAPER, 7), (SKYSCRAPER, 8), (PARK, 8), (PARK, 9),
             (SKYSCRAPER, 9), (SKYSCRAPER, 10), (STATION, 6), (CHURCH, 7), (MUSEUM, 4), (THEATER, 5))
    draws = [building(t, p) for t, p in cards][:deck_size]
    state = position(num_players=2, owned=owned, money_display=FULL_DISPLAY,
                     money_draws=[card, ("red", 5), ("red", 6)], building_draws=draws)
    r = rec(state)
    r["score_lines"][:] = 0
    if card == "B":
        r["scorings_done"][SCORING_A_INDEX] = 1
    return state, draws


def test_dirk_gets_six_more_after_scoring_a_after_the_points():
    owned = {(0, PARK): 1, (DIRK_ROW, SKYSCRAPER): 1}
    state, draws = dirk_scoring_position("A", 10, owned)
    take(state, 0)
    r = rec(state)
    assert r["scorings_done"].tolist() == [1, 0, 0]
    # Scored with what Dirk had before his six: Park (i = 4) 5 for seat 0, Skyscraper 6 for Dirk.
    assert r["score_lines"][[0, 1, DIRK_ROW], SCORING_A_INDEX].tolist() == [5, 0, 6]
    expected = types_of(draws[:6])
    expected[SKYSCRAPER] += 1
    assert r["buildings"][DIRK_ROW].tolist() == expected
    assert building_deck_draws(state) == draws[6:]
    assert r["actor"] == 1 and r["decision"] == DEC_CHOOSE


def test_fewer_than_six_after_scoring_a_when_the_deck_runs_short():
    state, draws = dirk_scoring_position("A", 2, {})
    take(state, 0)
    r = rec(state)
    assert r["buildings"][DIRK_ROW].tolist() == types_of(draws) and r["building_count"] == 0
    assert r["decision"] == DEC_CHOOSE  # the display is full: the game goes on until a gap


@pytest.mark.parametrize("deck_size, share", [(20, 6), (17, 5), (2, 0), (3, 1)])
def test_dirk_gets_a_third_of_the_face_down_deck_rounded_down_after_scoring_b(deck_size, share):
    owned = {(0, SKYSCRAPER): 3, (1, SKYSCRAPER): 2, (DIRK_ROW, SKYSCRAPER): 1}
    state, draws = dirk_scoring_position("B", deck_size, owned)
    take(state, 0)
    r = rec(state)
    assert r["scorings_done"].tolist() == [1, 1, 0]
    assert r["score_lines"][[0, 1, DIRK_ROW], SCORING_B_INDEX].tolist() == [13, 6, 0]
    expected = types_of(draws[:share])
    expected[SKYSCRAPER] += 1
    assert r["buildings"][DIRK_ROW].tolist() == expected
    assert building_deck_draws(state) == draws[share:]


def dirk_purchase(pay_values, choice):
    """Seat 0 of two buys the Park priced 10 in the green slot with ``pay_values``."""
    state = position(num_players=2, owned={}, hands={0: [("green", v) for v in pay_values]},
                     money_display=FULL_DISPLAY,
                     buildings=[building(MUSEUM, 2), building(PARK, 10), building(STATION, 4),
                                building(CHURCH, 5)])
    apply_action(state, BUY + 1)
    pay(state, *pay_values)
    assert KEEP not in legal_actions(state) and GIVE_TO_DIRK not in legal_actions(state)
    apply_action(state, PAY_DONE)
    r = rec(state)
    assert r["decision"] == DEC_DIRK and r["actor"] == 0
    assert legal_actions(state).tolist() == [KEEP, GIVE_TO_DIRK]
    assert r["building_display"][1] == -1 and r["buildings"].sum() == 0  # in nobody's row yet
    apply_action(state, choice)
    return r


def test_every_purchase_is_kept_or_given_to_dirk_and_sharp_payment_still_continues():
    r = dirk_purchase((4, 6), KEEP)
    assert r["buildings"][0, PARK] == 1 and r["buildings"][DIRK_ROW, PARK] == 0
    assert r["actor"] == 0 and r["decision"] == DEC_CHOOSE and r["actions_in_turn"] == 1
    r = dirk_purchase((4, 6), GIVE_TO_DIRK)
    assert r["buildings"][0, PARK] == 0 and r["buildings"][DIRK_ROW, PARK] == 1
    assert r["actor"] == 0 and r["decision"] == DEC_CHOOSE  # giving it away changes nothing else


def test_an_overpaid_purchase_ends_the_turn_after_the_choice():
    r = dirk_purchase((5, 6), GIVE_TO_DIRK)
    assert r["buildings"][DIRK_ROW, PARK] == 1 and r["actor"] == 1 and r["decision"] == DEC_CHOOSE
    assert r["building_display"][1] != -1  # replenished after the turn


def test_keep_or_give_is_offered_only_after_a_purchase_and_only_with_two_players():
    state = position(num_players=2, money_display=FULL_DISPLAY)
    for a in (KEEP, GIVE_TO_DIRK):
        before = state.tobytes()
        with pytest.raises(ValueError, match="illegal action"):
            apply_action(state, a)
        assert state.tobytes() == before
    state = position(num_players=3, hands={0: [("green", 4), ("green", 6)]},
                     buildings=[building(MUSEUM, 2), building(PARK, 10), None, None])
    buy(state, 1, (4, 6))
    r = rec(state)
    assert r["buildings"][0, PARK] == 1 and r["decision"] == DEC_CHOOSE
    assert KEEP not in legal_actions(state) and GIVE_TO_DIRK not in legal_actions(state)


def test_dirk_takes_ranks_in_scoring_and_pushes_players_down():
    state = position(num_players=2, owned={(DIRK_ROW, SKYSCRAPER): 3, (0, SKYSCRAPER): 2, (1, SKYSCRAPER): 1})
    r = rec(state)
    r["score_lines"][:] = 0
    score(r, SCORING_B_INDEX)  # Dirk first (13), seat 0 second (6), seat 1 third: nothing in B
    assert r["score_lines"][[0, 1, DIRK_ROW], SCORING_B_INDEX].tolist() == [6, 0, 13]
    score(r, SCORING_A_INDEX)  # A: only Dirk's first rank pays
    assert r["score_lines"][[0, 1, DIRK_ROW], SCORING_A_INDEX].tolist() == [0, 0, 6]
    score(r, SCORING_C_INDEX)
    assert r["score_lines"][[0, 1, DIRK_ROW], SCORING_C_INDEX].tolist() == [13, 6, 21]


def test_dirk_shares_a_tie_like_a_player():
    state = position(num_players=2, owned={(DIRK_ROW, PARK): 3, (0, PARK): 3, (1, PARK): 2})
    r = rec(state)
    r["score_lines"][:] = 0
    score(r, SCORING_C_INDEX)  # Park: (20 + 12) / 2 each, seat 1 third: 5
    assert r["score_lines"][[0, 1, DIRK_ROW], SCORING_C_INDEX].tolist() == [16, 5, 16]


def test_dirk_never_wins_even_with_the_most_points():
    state = position(num_players=2, owned={(DIRK_ROW, SKYSCRAPER): 5, (0, PARK): 1, (1, MUSEUM): 1})
    r = rec(state)
    r["score_lines"][:] = 0
    score(r, SCORING_C_INDEX)
    set_winners(r)
    r["decision"] = DEC_GAME_OVER
    assert dirk_score(state) == 21 and final_scores(state).tolist() == [20, 16]
    assert winners(state) == (0,) and r["winner_mask"] == 0b01


def test_dirk_never_receives_the_display_at_the_end():
    """Y9: the display goes to the richest player; Dirk holds no money and gets no choice."""
    state = position(num_players=2, hands={0: [("blue", 1)]}, owned={(DIRK_ROW, SKYSCRAPER): 11},
                     buildings=[building(MUSEUM, 2), building(PARK, 10), None, None])
    r = rec(state)
    r["removed"] = 0
    distribute_display(r)
    assert r["buildings"][0].tolist() == [1, 0, 0, 0, 0, 0]
    assert r["buildings"][DIRK_ROW].tolist() == [0, 0, 0, 0, 0, 11] and r["removed"] == 1


def test_the_end_of_a_two_player_game_needs_no_keep_or_give():
    state = position(num_players=2, owned={}, hands={0: [("blue", 2)], 1: [("green", 3)]},
                     money_display=FULL_DISPLAY,
                     buildings=[building(MUSEUM, 2), building(PARK, 10), building(STATION, 4),
                                building(CHURCH, 5)], building_draws=[])
    buy(state, 0, (2,), keep=False)  # sharp, given to Dirk; the turn goes on
    take(state, 3)  # yellow 4: the turn ends, the Museum's slot stays empty
    r = rec(state)
    assert r["decision"] == DEC_GAME_OVER and legal_actions(state).tolist() == []
    assert r["buildings"][DIRK_ROW].tolist() == [1, 0, 0, 0, 0, 0]
    assert r["buildings"][1].tolist() == [0, 0, 0, 0, 1, 0]  # green: seat 1
    assert r["buildings"][0].tolist() == [0, 0, 1, 0, 0, 0]  # yellow: seat 0's 4
    assert r["removed"] == 1  # red: nobody
    assert dirk_score(state) == int(r["score_lines"][DIRK_ROW].sum()) == 16  # Museum C first: 16


def test_dirk_score_is_none_without_dirk():
    assert dirk_score(new_game(GameConfig(num_players=3), seed=0)) is None
    assert dirk_score(new_game(GameConfig(num_players=2), seed=0)) == 0


def test_whole_two_player_games_dirk_is_scored_and_never_among_the_winners():
    states = new_games(GameConfig(num_players=2), range(300))
    words = np.zeros(4, np.int64)
    seed_rng(words, 11)
    dirk_totals, dirk_best, all_three = [], 0, 0
    for i in range(len(states)):
        play_random_kernel(states, i, words, 100_000)
        r = states[i]
        assert r["decision"] == DEC_GAME_OVER and r["scorings_done"][SCORING_C_INDEX]
        all_three += bool(r["scorings_done"].all())
        totals = r["score_lines"][:2].sum(axis=1)
        dirk = int(r["score_lines"][DIRK_ROW].sum())
        dirk_totals.append(dirk)
        dirk_best += dirk > totals.max()
        assert r["winner_mask"] in (1, 2, 3)
        best = list(np.flatnonzero(totals == totals.max()))
        assert [s for s in range(2) if r["winner_mask"] >> s & 1] == best
        # Dirk holds his 6 from setup, 6 after A (the deck still holds them then) and the gifts.
        assert r["buildings"][DIRK_ROW].sum() >= 6 + 6 * int(r["scorings_done"][SCORING_A_INDEX])
    assert min(dirk_totals) > 0 and dirk_best > 0  # he scores, and sometimes outscores both players
    assert all_three > 0.9 * len(states)  # A and B are nearly always drawn before the buildings run out


def test_dirk_decisions_happen_only_after_a_payment():
    """Over random two-player games: KEEP/GIVE_TO_DIRK are legal exactly in DEC_DIRK, which only
    follows PAY_DONE."""
    rng = np.random.default_rng(5)
    for seed in range(15):
        state = new_game(GameConfig(num_players=2), seed=seed)
        r = rec(state)
        while r["decision"] != DEC_GAME_OVER:
            legal = legal_actions(state)
            dirk_legal = KEEP in legal or GIVE_TO_DIRK in legal
            assert dirk_legal == (r["decision"] == DEC_DIRK)
            if dirk_legal:
                assert legal.tolist() == [KEEP, GIVE_TO_DIRK]
            before = int(r["decision"])
            action = int(rng.choice(legal))
            apply_action(state, action)
            if r["decision"] == DEC_DIRK:
                assert before == DEC_PAY and action == PAY_DONE
