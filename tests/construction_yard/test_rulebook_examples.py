"""Every worked example of the Construction Yard rulebook, and the rules around them, as
scenarios (rules: Playing the game, Scoring, End of the game; rulings Y1-Y9)."""

import numpy as np
import pytest

from tests.construction_yard.scenario import building, buy, money, position, take
from tiny_york_env.construction_yard import GameConfig, legal_actions, legal_mask, new_game, winners
from tiny_york_env.construction_yard.actions import BUY, PASS, TAKE_MONEY, describe_action
from tiny_york_env.construction_yard.api import apply_action
from tiny_york_env.construction_yard.cards import hand_size, hand_total
from tiny_york_env.construction_yard.data import NUM_PILES, START_CAPITAL
from tiny_york_env.construction_yard.rules import end_turn
from tiny_york_env.construction_yard.scoring import distribute_display, score
from tiny_york_env.construction_yard.setup import choose_start_player
from tiny_york_env.construction_yard.state import (
    DEC_CHOOSE,
    DEC_GAME_OVER,
    DEC_PAY,
    NO_CARD,
    SCORING_A,
    SCORING_B,
)

MUSEUM, THEATER, STATION, CHURCH, PARK, SKYSCRAPER = range(6)
SCORING_A_INDEX, SCORING_B_INDEX, SCORING_C_INDEX = range(3)


def rec_of(state):
    return state.reshape(1)[0]


def takes(state):
    """The take-money subsets the mask allows, as sorted slot tuples."""
    out = []
    for a in legal_actions(state):
        if TAKE_MONEY <= a < BUY:
            subset = a - TAKE_MONEY + 1
            out.append(tuple(k for k in range(4) if subset >> k & 1))
    return sorted(out)


def test_take_money_both_cards_on_the_left_or_any_one_of_the_others():
    """The rulebook's example: 2 + 3 on the left may be taken together (total 5); any single
    card may be taken; no other pair (total above 5)."""
    state = position(money_display=[("blue", 2), ("green", 3), ("red", 7), ("yellow", 6)])
    assert takes(state) == [(0,), (0, 1), (1,), (2,), (3,)]


def test_several_small_cards_up_to_five_and_the_turn_ends():
    state = position(money_display=[("blue", 1), ("green", 1), ("red", 3), ("yellow", 4)])
    assert (0, 1, 2) in takes(state) and (0, 1, 2, 3) not in takes(state)
    take(state, 0, 1, 2)
    rec = rec_of(state)
    assert hand_size(rec, 0) == 3 and hand_total(rec, 0) == 5
    assert rec["actor"] == 1 and (rec["money_display"] != NO_CARD).all()  # refilled at the turn's end


def lucy(pay_values):
    """Lucy (seat 0) buys the Park priced 10 in slot 1 (green) with her green cards."""
    park = building(PARK, 10)
    state = position(hands={0: [("green", v) for v in pay_values]},
                     buildings=[building(MUSEUM, 2), park, building(STATION, 4), building(CHURCH, 5)])
    buy(state, 1, pay_values)
    return state


def test_lucys_garden_paid_eleven_ends_her_turn():
    state = lucy((5, 6))
    rec = rec_of(state)
    assert rec["buildings"][0, PARK] == 1 and hand_size(rec, 0) == 0
    assert rec["actor"] == 1  # no change, and not sharp: the turn is over
    paid = sorted(int(c) for c in rec["discard"][:rec["discard_count"]])
    assert paid == [money("green", 5), money("green", 6)]
    assert rec["building_display"][1] != NO_CARD  # refilled after her turn


def test_lucys_garden_paid_sharp_gives_another_action_without_refill():
    state = lucy((4, 6))
    rec = rec_of(state)
    assert rec["buildings"][0, PARK] == 1
    assert rec["actor"] == 0 and rec["decision"] == DEC_CHOOSE and rec["actions_in_turn"] == 1
    assert rec["building_display"][1] == NO_CARD  # not replenished during her turn
    assert BUY + 1 not in legal_actions(state)


def test_a_building_can_be_bought_only_with_enough_of_its_currency():
    state = position(hands={0: [("green", 9), ("blue", 9)]},
                     buildings=[building(MUSEUM, 2), building(PARK, 10), None, None])
    mask = legal_mask(state)
    assert mask[BUY + 0] is np.True_ or mask[BUY + 0]  # blue 9 >= 2
    assert not mask[BUY + 1]  # green 9 < 10
    apply_action(state, BUY + 0)
    assert rec_of(state)["decision"] == DEC_PAY
    assert [describe_action(a) for a in legal_actions(state)] == ["pay a 9"]


def scoring_position(counts, num_players=4):
    """A position whose buildings are ``counts`` ({(seat, type): n}) with scores zeroed."""
    state = position(num_players=num_players)
    rec = rec_of(state)
    rec["buildings"][:] = 0
    rec["score_lines"][:] = 0
    for (seat, t), n in counts.items():
        rec["buildings"][seat, t] = n
    return state, rec


def test_scoring_a_pays_the_majority_of_each_type():
    """The player owning the most white (Church) building cards gains 4 points."""
    state, rec = scoring_position({(0, CHURCH): 3, (1, CHURCH): 2})
    score(rec, SCORING_A_INDEX)
    assert rec["score_lines"][0, SCORING_A_INDEX] == 4 and rec["score_lines"][1, SCORING_A_INDEX] == 0


def test_scoring_b_pays_first_and_second_and_splits_a_tie():
    """13 for the most purple (Skyscraper), 6 for second; Tobi and Nina tied: 19 // 2 = 9 each."""
    state, rec = scoring_position({(0, SKYSCRAPER): 4, (1, SKYSCRAPER): 2})
    score(rec, SCORING_B_INDEX)
    assert rec["score_lines"][:2, SCORING_B_INDEX].tolist() == [13, 6]
    state, rec = scoring_position({(0, SKYSCRAPER): 4, (1, SKYSCRAPER): 4, (2, SKYSCRAPER): 1})
    score(rec, SCORING_B_INDEX)
    assert rec["score_lines"][:3, SCORING_B_INDEX].tolist() == [9, 9, 0]


def test_scoring_c_pays_three_ranks_with_the_rulebooks_green_example():
    """Paul and Nina 3 green (Park) each: (20 + 12) / 2 = 16; Tobi and Kate 2 each: 5 / 2 = 2."""
    state, rec = scoring_position({(0, PARK): 3, (1, PARK): 3, (2, PARK): 2, (3, PARK): 2})
    score(rec, SCORING_C_INDEX)
    assert rec["score_lines"][:4, SCORING_C_INDEX].tolist() == [16, 16, 2, 2]


def test_a_player_without_a_type_takes_no_rank():
    state, rec = scoring_position({(0, MUSEUM): 1})
    score(rec, SCORING_C_INDEX)
    # Museum (i = 0): scoring C's first rank is i + 16
    assert rec["score_lines"][:4, SCORING_C_INDEX].tolist() == [16, 0, 0, 0]


def test_end_of_game_display_goes_to_the_richest_in_its_currency_or_leaves_on_a_tie():
    state = position(hands={0: [("blue", 9)], 1: [("blue", 4), ("blue", 4)], 2: [("green", 3)],
                            3: [("green", 3)]}, num_players=4,
                     buildings=[building(MUSEUM, 2), building(PARK, 10), None, building(CHURCH, 5)])
    rec = rec_of(state)
    rec["buildings"][:] = 0
    rec["removed"] = 0
    distribute_display(rec)
    assert rec["buildings"][0, MUSEUM] == 1  # blue: 9 beats 8
    assert rec["buildings"][:, PARK].sum() == 0  # green: 3 and 3 tie, nobody gets it
    assert rec["buildings"][:, CHURCH].sum() == 0  # red: nobody holds any
    assert rec["removed"] == 2 and (rec["building_display"] == NO_CARD).all()


@pytest.mark.parametrize("num_players", range(2, 7))
def test_start_capital_is_always_20_to_28(num_players):
    for seed in range(300):
        rec = rec_of(new_game(GameConfig(num_players=num_players), seed=seed))
        for seat in range(num_players):
            assert START_CAPITAL <= hand_total(rec, seat) <= START_CAPITAL + 8


def test_start_player_fewest_cards_then_smallest_total_then_random():
    state = position(hands={0: [("blue", 9), ("blue", 9), ("red", 2)],
                            1: [("blue", 9), ("red", 9), ("red", 3)], 2: [("green", 9), ("green", 8)]})
    assert choose_start_player(rec_of(state)) == 2  # fewest cards
    state = position(hands={0: [("blue", 9), ("blue", 9), ("red", 4)],
                            1: [("blue", 9), ("red", 9), ("red", 3)],
                            2: [("green", 9), ("green", 9), ("red", 5)]})
    assert choose_start_player(rec_of(state)) == 1  # same count: the smallest total
    picks = set()
    for seed in range(40):
        state = position(seed=seed, hands={s: [("blue", 9), ("red", 9), ("red", 3)] for s in range(3)})
        picks.add(choose_start_player(rec_of(state)))
    assert picks == {0, 1, 2}  # a full tie: any of them, drawn from the game's seed


def test_scoring_cards_lie_in_the_second_and_fourth_piles():
    for seed in range(300):
        rec = rec_of(new_game(GameConfig(num_players=4), seed=seed))
        deck = rec["money_deck"][:rec["money_count"]]
        bottoms = list(rec["pile_bottom"]) + [0]
        sizes = [(rec["money_count"] if k == 0 else bottoms[k - 1]) - bottoms[k] for k in range(NUM_PILES)]
        money_sizes = [size - (k in (1, 3)) for k, size in enumerate(sizes)]  # A and B removed
        assert max(money_sizes) - min(money_sizes) <= 1 and money_sizes == sorted(money_sizes, reverse=True)
        for card, pile in ((SCORING_A, 1), (SCORING_B, 3)):
            where = int(np.flatnonzero(deck == card)[0])
            top = rec["money_count"] if pile == 0 else bottoms[pile - 1]
            assert bottoms[pile] <= where < top


def test_the_discard_pile_is_reshuffled_when_the_deck_is_empty():
    state = position(money_display=[None, ("blue", 1), ("blue", 2), ("blue", 3)])
    rec = rec_of(state)
    rec["scorings_done"][:2] = 1
    rec["money_count"] = 0
    rec["discard"][:3] = [money("red", 4), money("red", 5), money("red", 6)]
    rec["discard_count"] = 3
    take(state, 1)
    assert rec["discard_count"] == 0 and rec["money_count"] == 1
    refilled = sorted(int(c) for c in rec["money_display"][:2]) + [int(rec["money_deck"][0])]
    assert sorted(refilled) == [money("red", 4), money("red", 5), money("red", 6)]


def test_pass_only_when_nothing_else_is_possible():
    state = position(money_display=[None] * 4, buildings=[building(PARK, 12), None, None, None],
                     hands={0: [("blue", 9)]})
    rec = rec_of(state)
    rec["money_count"] = rec["discard_count"] = 0
    assert legal_actions(state).tolist() == [PASS]
    rec["hand"][0, 0, 2] = 1  # now blue 9 + 3 = 12 covers the Park in slot 1 (blue)
    assert PASS not in legal_actions(state)


def test_the_game_ends_when_the_building_display_cannot_be_refilled():
    """After the turn the display is refilled as far as possible; a gap ends the game and the
    money display is not refilled (Y8)."""
    state = position(num_players=3, hands={0: [("blue", 2)]},
                     money_display=[("red", 9), ("red", 8), ("red", 7), ("red", 6)],
                     buildings=[building(MUSEUM, 2), building(PARK, 10), building(STATION, 4),
                                building(CHURCH, 5)])
    rec = rec_of(state)
    rec["building_count"] = 0
    buy(state, 0, (2,))  # sharp: the turn goes on
    take(state, 0)  # red 9: the turn ends, the Museum's slot stays empty
    assert rec["decision"] == DEC_GAME_OVER and rec["scorings_done"][2] == 1
    assert rec["money_display"][0] == NO_CARD  # not refilled
    assert winners(state)


def test_an_empty_building_deck_with_a_full_display_does_not_end_the_game():
    state = position(money_display=[("red", 9), ("red", 8), ("red", 7), ("red", 6)])
    rec = rec_of(state)
    rec["building_count"] = 0
    take(state, 0)
    assert rec["decision"] == DEC_CHOOSE and rec["actor"] == 1


def test_end_turn_refills_buildings_left_to_right():
    state = position(buildings=[None, building(PARK, 10), None, building(CHURCH, 5)])
    rec = rec_of(state)
    count = int(rec["building_count"])
    top, below = int(rec["building_deck"][count - 1]), int(rec["building_deck"][count - 2])
    end_turn(rec)
    assert rec["building_display"][0] == top and rec["building_display"][2] == below
