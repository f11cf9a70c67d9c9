"""5th Avenue: the readings of the rules text that docs/fifth-avenue.md states, where the text leaves
a case open ("Readings and rulings" there), each set up as a position and played through the
engine (``rules.apply_unchecked``, ``legal.fill_legal_mask``, ``scoring.end_game``).

Source: ``shared/rules/fifth-avenue-rules-en.txt`` (quoted in each docstring). Seats: red 0,
yellow 1, blue 2, green 3; play runs clockwise by seat number.
"""

import itertools

import numpy as np
import pytest

from tests.fifth_avenue.test_text_examples import (  # the colours, values and types those tests name
    BEIGE,
    BLUE,
    BOUTIQUE,
    BROWN,
    FIRST_ACTION,
    GALLERY,
    GRAY,
    GREEN_C,
    JEWELER,
    ORANGE,
    PERFUME,
    RED,
    THIRD_ACTION,
    V4,
    V5,
    VIOLET,
    WHITE,
    YELLOW,
    legal,
    play,
    put,
    ring,
)
from tests.fifth_avenue.test_text_examples import blank_board as text_examples_board
from tiny_york_env.games.fifth_avenue import api
from tiny_york_env.games.fifth_avenue import data as F
from tiny_york_env.games.fifth_avenue import rules as R
from tiny_york_env.games.fifth_avenue import scoring as SC
from tiny_york_env.games.fifth_avenue.actions import (
    BID_CARD,
    BID_FINISH,
    BID_PASS,
    DEST_CITY_HALL,
    MOVE,
    NUM_DESTINATIONS,
    OPTION_A,
    OPTION_B,
    OPTION_C,
    PLACE_START,
    SCORE_DISTRICT,
    TAKE_ONE,
)
from tiny_york_env.games.fifth_avenue.config import GameConfig
from tiny_york_env.games.fifth_avenue.state import (
    ALEA_ROW,
    BLACK,
    DEC_BID,
    DEC_COLOURED_CARDS,
    DEC_COMMISSIONER,
    DEC_OPTION,
    DEC_START_SKYSCRAPER,
    NO_BUSINESS,
    NO_PLAYER,
)
from tiny_york_env.games.fifth_avenue.state import OPTION_C as OPT_C


# --- positions -------------------------------------------------------------------------------------
def blank_board(players=3, seed=0):
    """A fresh game of ``players`` at seat 0's option, the board cleared (test_text_examples' board)."""
    return text_examples_board(players, seed)


def move(commissioner, dest):
    return MOVE + commissioner * NUM_DESTINATIONS + dest


def card(colour, value):
    return BID_CARD + colour * F.NUM_CARD_VALUES + value


def black_cards(st):
    return st["hand"][:, BLACK].sum(axis=1).tolist()


def empty_black_cards(st, keep=0):
    """Every black card but the ``keep`` on top of the stack goes to seat 0's hand: the stack holds
    ``keep`` cards and the returned pile none (every card still in one place)."""
    n = int(st["black_count"])
    cards = st["black_stack"][:n].copy()  # the top card last
    for v in cards[:n - keep]:
        st["hand"][RED, BLACK, v] += 1
    st["black_stack"][:] = -1
    st["black_stack"][:keep] = cards[n - keep:]
    st["black_count"] = keep
    for v in st["black_returned"][:st["black_returned_count"]]:
        st["hand"][RED, BLACK, v] += 1
    st["black_returned"][:] = -1
    st["black_returned_count"] = 0


def trigger_auctions(st, districts, trigger=RED):
    """The white commissioner, in Central Park after visiting ``districts``, is moved back to City
    Hall by ``trigger`` as his 3rd action: the set of auctions starts."""
    st["commissioner_place"][WHITE] = F.CENTRAL_PARK
    st["commissioner_markers"][WHITE] = -1
    st["commissioner_markers"][WHITE][:len(districts)] = districts
    st["markers_placed"][WHITE] = len(districts)
    st["decision"], st["actor"] = DEC_COMMISSIONER, trigger
    st["turn_step"], st["option"] = THIRD_ACTION, OPT_C
    play(st, move(WHITE, DEST_CITY_HALL))
    assert st["decision"] == DEC_BID and st["actor"] == trigger


# --- option A: fewer than 3 skyscrapers left -------------------------------------------------------------
def test_option_a_takes_what_is_left_and_is_not_offered_with_none():
    """A) 'The player takes 3 skyscrapers in his color from the general supply ... There is no
    limit (except piece limit in the game)': with 2 left he takes the 2; with none, A is not offered."""
    states = blank_board()
    st = states[0]
    st["general"][RED], st["supply"][RED] = 2, 1
    play(st, OPTION_A)
    assert st["general"][RED] == 0 and st["supply"][RED] == 3
    assert st["decision"] == DEC_COLOURED_CARDS  # the turn goes on: 2 coloured cards, a commissioner
    st["decision"], st["turn_step"] = DEC_OPTION, FIRST_ACTION
    assert OPTION_A not in legal(st) and {OPTION_B, OPTION_C} <= legal(st)


# --- option B: no plot can take a business -------------------------------------------------------------
def test_option_b_is_not_offered_when_no_plot_can_take_a_business():
    """B) 'places it on any building plot of his choice'; 'A player may never place a business on a
    building plot with 2 businesses or with one or more skyscrapers'; a stopped district: 'no more
    skyscrapers or businesses may be built there'. With no plot left to take one, B is not offered
    (the turn's first action could not be done)."""
    states = blank_board()
    st = states[0]
    st["stopped"][F.D52W], st["building_stops"] = 1, 1  # its plots are empty but closed
    for d in range(F.NUM_DISTRICTS):
        if d != F.D52W:
            for k, colour in enumerate(ring(d)):
                if k % 2:
                    put(st, d, colour, owner=k % 3)
                else:
                    put(st, d, colour, businesses=(BOUTIQUE, JEWELER))
    assert not R.any_business_plot(st)
    assert OPTION_B not in legal(st) and {OPTION_A, OPTION_C} <= legal(st)
    st["plot_business"][F.plot_index(F.D34E, ring(F.D34E)[0]), 1] = NO_BUSINESS  # one business left
    assert OPTION_B in legal(st)


# --- the coloured cards: one stack or none left --------------------------------------------------------
def test_one_coloured_card_when_only_one_stack_is_left_and_none_when_none():
    """2nd action A-C: 'he chooses any two of the 5 face up colored cards ... He must take cards of
    two different colors': with one stack left he takes its top card; with none, the 2nd action
    has nothing to take and the turn goes on to the commissioner."""
    states = blank_board()
    st = states[0]
    st["coloured_count"][[ORANGE, GREEN_C, BROWN, VIOLET]] = 0
    gray = int(st["coloured_count"][GRAY])
    top = int(st["coloured_stack"][GRAY, gray - 1])
    play(st, OPTION_A)
    assert st["decision"] == DEC_COLOURED_CARDS and legal(st) == {TAKE_ONE + GRAY}
    hand = st["hand"][RED].copy()
    play(st, TAKE_ONE + GRAY)
    assert st["hand"][RED, GRAY, top] == hand[GRAY, top] + 1 and st["coloured_count"][GRAY] == gray - 1
    assert st["decision"] == DEC_COMMISSIONER and st["actor"] == RED

    states = blank_board()
    st = states[0]
    st["coloured_count"][:] = 0
    hand = st["hand"].copy()
    play(st, OPTION_A)
    assert st["decision"] == DEC_COMMISSIONER and st["actor"] == RED and (st["hand"] == hand).all()


# --- the black stack and the returned pile both empty ------------------------------------------------
def test_options_c_and_d_draw_nothing_from_an_empty_black_stack():
    """C) 'The player takes the top-most card from the black stack'; D) 'He takes the top-most 2
    cards from the face down black stack'; 'each player, who has no skyscraper in the scored
    district, now takes one black card'. With the stack and the cards put back under it (the
    returned pile) both empty there is nothing to take: the option is played without the card."""
    states = blank_board()
    st = states[0]
    empty_black_cards(st)
    before = black_cards(st)
    play(st, OPTION_C)
    assert black_cards(st) == before and st["decision"] == DEC_COMMISSIONER  # the move is still made

    states = blank_board()
    st = states[0]
    d = F.TIMES_SQUARE
    put(st, d, ring(d)[0], owner=RED, skyscrapers=2)
    put(st, d, ring(d)[1], businesses=(BOUTIQUE,))
    st["commissioner_place"][BEIGE] = d
    empty_black_cards(st)
    before, score = black_cards(st), st["score"].copy()
    play(st, SCORE_DISTRICT + d)
    assert black_cards(st) == before
    assert (st["score"] - score).tolist()[:3] == [4, 0, 0]  # the scoring itself is played
    assert st["decision"] == DEC_COMMISSIONER and st["actor"] == RED


def test_option_d_deals_the_last_black_cards_to_the_players_without_skyscrapers_first():
    """The cards of option D go out in the engine's order: first one to each player without a
    skyscraper in the scored district (the note of the 1st action), by seat number, then the
    scorer's two (the 2nd action). With one card left, seat 0 (no skyscraper there) gets it."""
    states = blank_board()
    st = states[0]
    d = F.D42E
    put(st, d, ring(d)[0], owner=BLUE)
    st["commissioner_place"][WHITE] = d
    st["actor"] = YELLOW
    empty_black_cards(st, keep=1)
    before = black_cards(st)
    play(st, SCORE_DISTRICT + d)
    assert (np.array(black_cards(st)) - before).tolist()[:3] == [1, 0, 0]
    assert st["black_count"] == 0 and st["decision"] == DEC_COMMISSIONER


# --- Central Park with fewer than three businesses --------------------------------------------------------
@pytest.mark.parametrize("tiles, points", [
    ((), 1),  # no business type: the district scale's 1 VP, below the text's "lowest is 2"
    ((GALLERY,), 2),
    ((GALLERY, GALLERY), 2),
    ((GALLERY, PERFUME), 3),
    ((BOUTIQUE, JEWELER, GALLERY), 5),
])
def test_central_park_with_fewer_than_three_businesses_turns_over_all_it_has(tiles, points):
    """GAME END: 'the players turn over three of these face down tiles ... score their Central Park
    skyscrapers as described under "Scoring districts", using the three face up businesses to
    determine the number of different business types ... (lowest is 2 and the highest is 5)'.
    With fewer than three below Central Park all of them are turned; with none, no type: 1 VP
    ('0 adjacent business types: 1 VP'), the same as a district skyscraper with nothing beside it."""
    states = blank_board()
    st = states[0]
    st["park_business"][:len(tiles)] = tiles
    st["park_business_count"] = len(tiles)
    st["park_skyscrapers"][YELLOW] = 2
    st["score"][:] = 0
    SC.end_game(st)
    assert st["score"][:3].tolist() == [0, 2 * points, 0]


# --- Alea out of skyscrapers -------------------------------------------------------------------------
def test_alea_out_of_skyscrapers_wins_the_auction_and_builds_nothing():
    """2 players: Alea 'builds in the district using his skyscrapers from the general supply' (the
    18 of an unchosen colour). With none left he still bids and may win (the real players do not
    build there), but builds nothing and the district stays open."""
    states = blank_board(2)
    st = states[0]
    d = F.D42W
    put(st, d, ring(d)[0], businesses=(BOUTIQUE,))
    st["general"][ALEA_ROW] = 0
    before = st["plot_owner"].copy(), st["plot_skyscrapers"].copy()
    trigger_auctions(st, [d])
    play(st, BID_PASS)
    play(st, BID_PASS)  # the second player; Alea bids (8-21) and wins
    assert st["auction_places"][st["auction_at"]] == F.CENTRAL_PARK and st["decision"] == DEC_BID
    assert (st["plot_owner"] == before[0]).all() and (st["plot_skyscrapers"] == before[1]).all()
    assert not st["stopped"][d] and st["general"][ALEA_ROW] == 0


def test_alea_short_of_skyscrapers_builds_on_the_first_tied_plots_in_board_order():
    """'If there is more than one building plot that would tie for highest score, he builds 1
    skyscraper in each such building plot': with fewer skyscrapers than tied plots, he builds on
    the tied plots in the board's plot order (PLOT_COLOUR_ORDER) while they last."""
    states = blank_board(2)
    st = states[0]
    d = F.D42W
    colours = ring(d)
    put(st, d, colours[0], businesses=(BOUTIQUE,))  # ring positions 1 and 4 tie at 2 VP
    st["general"][ALEA_ROW] = 1
    R.alea_builds(st, d)
    assert np.flatnonzero(st["plot_owner"] == ALEA_ROW).tolist() == [F.plot_index(d, colours[1])]
    assert st["general"][ALEA_ROW] == 0


def test_alea_out_of_skyscrapers_still_stops_a_full_district_and_the_real_players_score_half():
    """'If Alea wins an auction for a district with no empty building plots, he declares a building
    stop in this district. The 2 real players score points as in the 3 or 4 player game' (half,
    rounded down); this needs no skyscraper, so it happens with none left too. Alea scores nothing."""
    states = blank_board(2)
    st = states[0]
    d = F.D34E
    colours = ring(d)
    put(st, d, colours[0], owner=RED, skyscrapers=3)  # beside a boutique: 3 x 2 VP
    put(st, d, colours[1], businesses=(BOUTIQUE,))
    put(st, d, colours[2], owner=YELLOW, skyscrapers=1)  # beside a boutique and a gallery: 3 VP
    put(st, d, colours[3], businesses=(GALLERY,))
    put(st, d, colours[4], owner=ALEA_ROW, skyscrapers=1)
    st["general"][ALEA_ROW] = 0
    st["score"][:] = 0
    R.alea_builds(st, d)
    assert st["stopped"][d] and st["building_stops"] == 1
    assert st["score"][:2].tolist() == [3, 1]
    assert st["skyscrapers_removed"][ALEA_ROW] == 1


def test_alea_bids_what_he_drew_when_the_black_cards_run_out():
    """Alea's bid: 'the players draw black cards, one after the other ... until they draw ... a card
    with the same number as one already drawn'. With the stack and the returned pile used up before
    a number repeats, his bid is the cards drawn (below 8 possible); with no card at all it is 0
    and he is out."""
    states = blank_board(2)
    st = states[0]
    empty_black_cards(st, keep=1)
    value = int(st["black_stack"][0])
    R.alea_bids(st)
    assert st["alea_card_count"] == 1 and st["bid_total"][ALEA_ROW] == F.CARD_VALUES[value]
    assert st["alea_in"] and st["high_bidder"] == ALEA_ROW

    states = blank_board(2)
    st = states[0]
    empty_black_cards(st)
    R.alea_bids(st)
    assert st["alea_card_count"] == 0 and st["bid_total"][ALEA_ROW] == 0 and not st["alea_in"]


# --- other readings -------------------------------------------------------------------------------------
def test_the_second_starting_skyscraper_goes_to_another_district():
    """PREPARATION: 'places his second skyscraper ... on any empty building plot', read with 'each
    player may only build skyscrapers in one building plot per district in the entire game'."""
    state = api.new_game(GameConfig(num_players=2), seed=3)
    first = {}
    while state["decision"] == DEC_START_SKYSCRAPER:
        seat = api.current_player(state)
        plots = [a - PLACE_START for a in api.legal_actions(state)]
        if seat in first:
            assert not any(F.PLOT_DISTRICT[p] == first[seat] for p in plots)
        else:
            first[seat] = int(F.PLOT_DISTRICT[plots[0]])
        api.apply_action(state, PLACE_START + plots[0])
    assert set(first) == {0, 1}


@pytest.mark.parametrize("stopped, here, choices", [
    (F.D34W, F.CITY_HALL, {F.D34E, F.D42W, F.TIMES_SQUARE}),
    (F.TIMES_SQUARE, F.D34E, {F.D42E, F.D52E, F.D52W}),
])
def test_a_stopped_district_with_a_choice_after_it_offers_every_next_place(stopped, here, choices):
    """'a building stopped district can no longer be visited by a commissioner, but is skipped
    over by a passing commissioner': where the skipped district itself offers a choice, the
    commissioner may go on to any of its next places; it leaves no marker there."""
    states = blank_board()
    st = states[0]
    st["stopped"][stopped], st["building_stops"] = 1, 1
    st["commissioner_place"][WHITE] = here
    st["decision"], st["turn_step"] = DEC_COMMISSIONER, THIRD_ACTION
    white = {a - move(WHITE, 0) for a in legal(st) if move(WHITE, 0) <= a < move(BEIGE, 0)}
    assert white == choices
    play(st, move(WHITE, max(choices)))
    assert stopped not in st["commissioner_markers"][WHITE].tolist()


def test_a_bidder_without_a_card_of_an_allowed_colour_may_only_pass():
    """'The first card bid by a player in an auction must always be a colored (not black) card',
    of a colour the situation allows: a bidder holding none may only pass."""
    states = blank_board()
    st = states[0]
    d = F.D52E
    put(st, d, ORANGE, owner=RED)  # situation (1): red may only bid orange here
    st["hand"][RED, ORANGE] = 0
    st["hand"][RED, BLACK, V4] += 3
    trigger_auctions(st, [d])
    assert legal(st) == {BID_PASS}
    p = F.plot_index(d, ORANGE)
    st["plot_owner"][p], st["plot_skyscrapers"][p] = NO_PLAYER, 0  # situation (2): the empty plots' colours
    st["hand"][RED, :BLACK] = 0  # but red holds only black cards
    assert legal(st) == {BID_PASS}
    st["hand"][RED, GRAY, V5] = 1  # a card of an empty plot's colour: it may open with it
    assert legal(st) == {BID_PASS, card(GRAY, V5)} and BID_FINISH not in legal(st)


def test_a_tie_on_points_and_cards_is_shared():
    """'If players are tied with the most, the player among them with the most remaining cards in
    his hand is the winner.' Tied on both, they all win (the rewards share the win)."""
    states = blank_board()
    st = states[0]
    st["score"][:3] = [10, 10, 4]
    st["hand"][:] = 0
    st["hand"][[RED, YELLOW], BLACK, V4] = 2
    st["hand"][BLUE, BLACK, V4] = 5
    SC.end_game(st)
    assert api.winners(states.reshape(())) == (RED, YELLOW)


# --- the reconstructed board: other readings fit the text too ---------------------------------------------
def route_graph_fits_the_text(next_places):
    """What the text says of the commissioners' routes: choices 'from City Hall, 34th Street East
    or West, and Times Square' and nowhere else; 'through three adjacent districts, and finally to
    Central Park'; every district on a route; fig. 04 (52nd St. East stopped): beige from 34th
    Street West to '42nd St. West' or 'Times Square', white from Times Square 'to Central Park or
    to 52nd St. West'; fig. 03: beige from 52nd St. East to Central Park."""
    def routes(place):
        if place == F.CENTRAL_PARK:
            return [()]
        return [((nxt,) if nxt != F.CENTRAL_PARK else ()) + rest
                for nxt in next_places[place] for rest in routes(nxt)]

    def skipping(place, stopped):
        out = set()
        for nxt in next_places[place]:
            out |= skipping(nxt, stopped) if nxt == stopped else {nxt}
        return out

    every = routes(F.CITY_HALL)
    return ({p for p, nxt in next_places.items() if len(nxt) > 1}
            == {F.CITY_HALL, F.D34E, F.D34W, F.TIMES_SQUARE}
            and all(len(r) == F.DISTRICTS_PER_ROUTE for r in every)
            and set(itertools.chain(*every)) == set(range(F.NUM_DISTRICTS))
            and set(next_places[F.D34W]) == {F.D42W, F.TIMES_SQUARE}
            and skipping(F.TIMES_SQUARE, F.D52E) == {F.CENTRAL_PARK, F.D52W}
            and set(next_places[F.D52E]) == {F.CENTRAL_PARK})


CROSSING = {**F.NEXT_PLACES, F.D42E: (F.D52W,), F.D42W: (F.D52E,)}  # the 42nd Streets cross over


def test_the_route_graph_is_one_reconstruction_the_crossing_one_fits_too():
    """The text's figures of the board are missing: the engine's graph fits every sentence, and so
    does another, where 42nd Street East leads to 52nd Street West and 42nd Street West to 52nd
    Street East (docs/fifth-avenue.md)."""
    assert route_graph_fits_the_text(F.NEXT_PLACES)
    assert route_graph_fits_the_text(CROSSING) and CROSSING != F.NEXT_PLACES
    assert not route_graph_fits_the_text({**F.NEXT_PLACES, F.D34W: (F.D42E, F.TIMES_SQUARE)})


def supply_sets_fit_the_text(sets):
    """'8 sets of spaces, each of which has 2 or 3 spaces' on the 20 spaces; the special scorings
    after the 3rd, 6th and 9th business placed on a plot when sets 1-2, 1-4 and 1-6 are empty, and
    the end after the 12th when all are (the last of each set goes below Central Park)."""
    placed = np.cumsum([size - 1 for size in sets])
    return (len(sets) == 8 and set(sets) <= {2, 3} and sum(sets) == F.SUPPLY_ROW_SPACES
            and [int(placed[k]) for k in (1, 3, 5, 7)] == [3, 6, 9, 12])


def test_the_supply_row_sets_are_one_order_of_each_pair_every_order_fits():
    """Each pair of sets (1-2, 3-4, 5-6, 7-8) must hold one set of 3 and one of 2; the text does not
    say which comes first. The engine's 3, 2 in every pair is one of 16 orders that fit, 2, 3 another."""
    assert supply_sets_fit_the_text(F.SUPPLY_SETS) and F.SUPPLY_SETS == (3, 2) * 4
    orders = [sum(pairs, ()) for pairs in itertools.product([(3, 2), (2, 3)], repeat=4)]
    assert all(supply_sets_fit_the_text(sets) for sets in orders) and len(set(orders)) == 16
    assert not supply_sets_fit_the_text((3, 3, 2, 2, 3, 2, 3, 2))
