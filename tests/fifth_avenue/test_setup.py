"""5th Avenue's set-up ("PREPARATION"): every card, tile and skyscraper where the text puts it,
the board's businesses under the colour rule, the starting players' placing order."""

import numpy as np
import pytest

from tiny_york_env.games.fifth_avenue import data as F
from tiny_york_env.games.fifth_avenue import setup as S
from tiny_york_env.games.fifth_avenue.state import (
    ALEA_ROW,
    BLACK,
    DEC_START_SKYSCRAPER,
    NO_BUSINESS,
    STATE_DTYPE,
)

SEEDS = range(40)


def new_game(players, seed):
    states = np.zeros(1, STATE_DTYPE)
    S.init_game(states[0], players, players, seed, np.empty(S.NUM_BUSINESSES, np.int64))
    return states[0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_card_tile_and_skyscraper_is_where_the_text_puts_it(players):
    for seed in SEEDS:
        st = new_game(players, seed)
        hands = st["hand"][:players]
        for c in range(F.NUM_CARD_COLOURS):
            stack = st["coloured_stack"][c, :st["coloured_count"][c]]
            counts = np.bincount(stack, minlength=3) + hands[:, c].sum(axis=0)
            assert counts.tolist() == list(F.COLOURED_PER_VALUE)
            assert (hands[:, c].sum(axis=1) == 1).all()  # one card of each colour each
        black = np.bincount(st["black_stack"][:st["black_count"]], minlength=3) + hands[:, BLACK].sum(axis=0)
        assert black.tolist() == list(F.BLACK_PER_VALUE) and (hands[:, BLACK].sum(axis=1) == 4).all()
        assert st["hand"][players:].sum() == 0
        on_plots = st["plot_business"][st["plot_business"] != NO_BUSINESS]
        tiles = (np.bincount(on_plots, minlength=4) + np.bincount(st["supply_row"], minlength=4)
                 + st["unused_business"])
        assert tiles.tolist() == [F.BUSINESSES_PER_TYPE] * F.NUM_BUSINESS_TYPES
        assert len(on_plots) == F.NUM_DISTRICTS and st["unused_business"].sum() == F.UNUSED_BUSINESSES
        assert (st["supply"][:players] == 3).all() and (st["general"][:players] == 12).all()
        assert st["general"][ALEA_ROW] == (18 if players == 2 else 0) and st["has_alea"] == (players == 2)
        assert (st["plot_owner"] == -1).all() and (st["commissioner_place"] == -1).all()


def test_one_business_per_district_and_the_colour_rule():
    """'at least one is placed on each plot color and none are placed so that more than two plots
    of a color are used'."""
    seen_twice = set()
    for seed in range(300):
        st = new_game(3, seed)
        plots = np.flatnonzero(st["plot_business"][:, 0] != NO_BUSINESS)
        assert sorted(F.PLOT_DISTRICT[plots]) == list(range(F.NUM_DISTRICTS))
        uses = np.bincount(F.PLOT_COLOUR[plots], minlength=F.NUM_CARD_COLOURS)
        assert uses.min() >= 1 and uses.max() <= 2
        seen_twice |= set(np.flatnonzero(uses == 2).tolist())
    assert seen_twice == set(range(F.NUM_CARD_COLOURS))  # every colour can be the doubled one


def test_the_placing_order_of_the_starting_skyscrapers():
    """'1st placing round: Anna - Kevin - Ken - Alfonzo; 2nd placing round: Alfonzo - Ken - Kevin
    - Anna' (the right neighbour first: counter-clockwise)."""
    assert [S.placing_seat(0, 4, k) for k in range(8)] == [0, 3, 2, 1, 1, 2, 3, 0]
    assert [S.placing_seat(0, 2, k) for k in range(4)] == [0, 1, 1, 0]
    st = new_game(4, 1)
    assert st["decision"] == DEC_START_SKYSCRAPER and st["actor"] == 0


def test_the_same_seed_gives_the_same_game_and_others_differ():
    a, b, c = new_game(3, 5), new_game(3, 5), new_game(3, 6)
    assert a.tobytes() == b.tobytes() and a.tobytes() != c.tobytes()


def test_black_cards_put_back_are_shuffled_in_when_the_stack_runs_out():
    states = np.zeros(1, STATE_DTYPE)
    S.init_game(states[0], 2, 2, 3, np.empty(S.NUM_BUSINESSES, np.int64))
    st = states[0]
    drawn = [S.draw_black(st) for _ in range(int(st["black_count"]))]
    assert S.draw_black(st) == -1 and st["black_count"] == 0
    st["black_returned"][:3] = drawn[:3]
    st["black_returned_count"] = 3
    again = sorted(S.draw_black(st) for _ in range(3))
    assert again == sorted(drawn[:3]) and S.draw_black(st) == -1
