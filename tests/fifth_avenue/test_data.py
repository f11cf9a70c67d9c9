"""5th Avenue's components and reconstructed board (``fifth_avenue/data.py``) against the counts
and the sentences of the rules text they come from."""

import itertools

import numpy as np

from tiny_york_env.games.fifth_avenue import data as F


def test_the_counts_of_the_box():
    assert F.NUM_CARD_COLOURS * sum(F.COLOURED_PER_VALUE) == 60  # coloured bidding cards
    assert sum(F.BLACK_PER_VALUE) == 50
    assert len(F.PLAYER_COLOURS) * F.SKYSCRAPERS_PER_COLOUR == 72
    assert F.NUM_BUSINESS_TYPES * F.BUSINESSES_PER_TYPE == 36
    # one business per district, 20 in the supply row, 9 back in the box
    assert F.NUM_DISTRICTS + F.SUPPLY_ROW_SPACES + F.UNUSED_BUSINESSES == 36
    assert F.NUM_COMMISSIONERS * F.MARKERS_PER_COMMISSIONER == 6  # commissioner markers
    # a player's 6 starting skyscrapers: the scoring marker, 2 on the board, 3 in the supply
    assert F.START_SCORING_MARKER + F.START_ON_BOARD + F.START_SUPPLY == 6


def test_the_supply_row_sets_give_the_special_scorings_and_the_end():
    """'After the third business is placed on a building plot (that is, the first two sets are
    completely empty)' ... sixth (four sets) ... ninth (six sets) ... twelfth (all sets)."""
    placed = np.cumsum([size - 1 for size in F.SUPPLY_SETS])  # the last of a set goes to the park
    assert [int(placed[k]) for k in (1, 3, 5, 7)] == [3, 6, 9, 12]
    assert [n for n, _, _ in F.SPECIAL_SCORINGS] == [3, 6, 9]
    assert sum(1 for _ in F.SUPPLY_SETS) == 8 and set(F.SUPPLY_SETS) == {2, 3}
    assert len(F.SUPPLY_SETS) == F.SUPPLY_ROW_SPACES - int(placed[-1])  # 8 tiles below Central Park


def test_every_route_passes_three_districts_with_the_named_choices():
    routes = F.routes()
    assert routes and all(len(route) == F.DISTRICTS_PER_ROUTE for route in routes)
    assert len(set(routes)) == len(routes) == 6
    with_choice = {place for place, nxt in F.NEXT_PLACES.items() if len(nxt) > 1}
    assert with_choice == {F.CITY_HALL, F.D34E, F.D34W, F.TIMES_SQUARE}  # as the text names them
    # fig. 04: from 34th St. West to "42nd St. West" or "Times Square"
    assert set(F.NEXT_PLACES[F.D34W]) == {F.D42W, F.TIMES_SQUARE}
    assert all(district in itertools.chain(*routes) for district in range(F.NUM_DISTRICTS))


def test_the_plots_one_of_each_colour_per_district_in_a_ring():
    for d in range(F.NUM_DISTRICTS):
        plots = np.flatnonzero(F.PLOT_DISTRICT == d)
        assert sorted(F.PLOT_COLOUR[plots]) == list(range(F.NUM_CARD_COLOURS))
        for p in plots:
            neighbours = np.flatnonzero(F.PLOT_ADJACENT[p])
            assert len(neighbours) == 2 and (F.PLOT_DISTRICT[neighbours] == d).all()
            assert F.plot_index(d, int(F.PLOT_COLOUR[p])) == p
    assert (F.PLOT_ADJACENT == F.PLOT_ADJACENT.T).all() and not F.PLOT_ADJACENT.diagonal().any()
    # with two businesses on each of its two neighbours a skyscraper can see all 4 types: 8 VP
    assert 2 * F.MAX_BUSINESSES_PER_PLOT >= F.NUM_BUSINESS_TYPES
    assert F.VP_BY_BUSINESS_TYPES[F.NUM_BUSINESS_TYPES] == 8


def test_bidding_card_limits_and_alea():
    """'if a player has only number 4 cards ... up to 3 skyscrapers ... at least one number 6
    card ... only up to 1'; Alea's bid 'will total between 8 and 21'."""
    assert dict(zip(F.CARD_VALUES, F.SKYSCRAPERS_PICTURED, strict=True)) == {4: 3, 5: 2, 6: 1}
    assert F.alea_bid_range() == (8, 21)

