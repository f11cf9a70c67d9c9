"""5th Avenue: the rules text's worked examples and figure captions as scenarios, played through the
engine (``rules.apply_unchecked`` / ``rules.fill_legal_mask`` and the ``api`` verbs). Each test
builds a position by writing record fields, then asks the engine what is legal and what happens.

Source: ``rules/fifth-avenue-rules-en.txt`` (quoted in each docstring). Seats are the figures'
players: red 0, yellow 1, blue 2, green 3; play runs clockwise by seat number.
"""

import numpy as np
import pytest

from tiny_york_env.games.fifth_avenue import api
from tiny_york_env.games.fifth_avenue import data as F
from tiny_york_env.games.fifth_avenue import legal as L
from tiny_york_env.games.fifth_avenue import rules as R
from tiny_york_env.games.fifth_avenue import setup as S
from tiny_york_env.games.fifth_avenue.actions import (
    BID_CARD,
    BID_FINISH,
    BID_PASS,
    BUILD,
    BUILDING_STOP,
    DEST_CENTRAL_PARK,
    DEST_CITY_HALL,
    MOVE,
    NUM_ACTIONS,
    NUM_DESTINATIONS,
    OPTION_B,
    OPTION_C,
    PLACE_BUSINESS,
    PLACE_START,
    SCORE_DISTRICT,
    TAKE_PAIR,
    TAKE_SPACE,
    describe_action,
)
from tiny_york_env.games.fifth_avenue.config import GameConfig
from tiny_york_env.games.fifth_avenue.state import (
    ALEA_ROW,
    BLACK,
    DEC_BID,
    DEC_BUILD,
    DEC_BUSINESS_PLOT,
    DEC_COLOURED_CARDS,
    DEC_COMMISSIONER,
    DEC_GAME_OVER,
    DEC_OPTION,
    DEC_START_SKYSCRAPER,
    NO_BUSINESS,
    NO_PLAYER,
    STATE_DTYPE,
)
from tiny_york_env.games.fifth_avenue.state import OPTION_C as OPT_C

RED, YELLOW, BLUE, GREEN = 0, 1, 2, 3
ORANGE, GREEN_C, GRAY, BROWN, VIOLET = range(F.NUM_CARD_COLOURS)
V4, V5, V6 = 0, 1, 2  # value indices of the cards 4, 5, 6
WHITE, BEIGE = 0, 1
BOUTIQUE, JEWELER, GALLERY, PERFUME = range(F.NUM_BUSINESS_TYPES)
FIRST_ACTION, THIRD_ACTION = 1, 3


# --- building positions ----------------------------------------------------------------------------
def blank_board(players=4, seed=0):
    """A fresh game at seat 0's option, the board cleared of businesses and skyscrapers."""
    states = np.zeros(1, STATE_DTYPE)
    S.init_game(states[0], players, players, seed, np.empty(S.NUM_BUSINESSES, np.int64))
    st = states[0]
    st["plot_business"][:] = NO_BUSINESS
    st["plot_owner"][:] = NO_PLAYER
    st["plot_skyscrapers"][:] = 0
    st["placing_step"] = 2 * players
    st["decision"], st["actor"], st["turn_step"] = DEC_OPTION, 0, FIRST_ACTION
    return states


def put(st, district, colour, owner=None, skyscrapers=1, businesses=()):
    """Skyscrapers of ``owner`` and/or businesses on the ``colour`` plot of ``district``."""
    p = F.plot_index(district, colour)
    if owner is not None:
        st["plot_owner"][p], st["plot_skyscrapers"][p] = owner, skyscrapers
    for k, t in enumerate(businesses):
        st["plot_business"][p, k] = t
    return p


def ring(district):
    """The plot colours around ``district``'s ring (each plot adjacent to the two beside it)."""
    return [int(c) for c in F.PLOT_COLOUR_ORDER[district]]


def legal(st):
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    L.fill_legal_mask(st, mask)
    return set(np.flatnonzero(mask).tolist())


def play(st, action):
    """Play ``action`` after checking the engine offers it."""
    assert action in legal(st), f"{describe_action(action)} is not legal"
    R.apply_unchecked(st, action)


def words(st, start, end):
    """The legal actions in ids start..end-1, in plain words."""
    return {describe_action(a) for a in legal(st) if start <= a < end}


def move(commissioner, dest):
    return MOVE + commissioner * NUM_DESTINATIONS + dest


def card(colour, value):
    return BID_CARD + colour * F.NUM_CARD_VALUES + value


def deal(st, extra=None, basic=True):
    """New hands: with ``basic``, every seat one 4 and one 5 of each colour and two black cards of
    each value; ``extra``: {seat: {(colour, value): count}} on top. The stacks keep the rest, so
    every card stays in one place (the black stack shuffled, the coloured stacks in value order)."""
    n = int(st["num_players"])
    st["hand"][:] = 0
    if basic:
        st["hand"][:n, :F.NUM_CARD_COLOURS, :2] = 1
        st["hand"][:n, BLACK] = 2
    for seat, cards in (extra or {}).items():
        for (colour, value), count in cards.items():
            st["hand"][seat, colour, value] += count
    for colour in range(F.NUM_CARD_COLOURS):
        left = [v for v in range(F.NUM_CARD_VALUES)
                for _ in range(F.COLOURED_PER_VALUE[v] - int(st["hand"][:, colour, v].sum()))]
        st["coloured_stack"][colour] = -1
        st["coloured_stack"][colour][:len(left)] = left
        st["coloured_count"][colour] = len(left)
    left = [v for v in range(F.NUM_CARD_VALUES)
            for _ in range(F.BLACK_PER_VALUE[v] - int(st["hand"][:, BLACK, v].sum()))]
    np.random.default_rng(0).shuffle(left)
    st["black_stack"][:] = -1
    st["black_stack"][:len(left)] = left
    st["black_count"] = len(left)
    st["black_returned"][:] = -1
    st["black_returned_count"] = 0
    assert_cards_kept(st)


def assert_cards_kept(st):
    """Every bidding card in exactly one place: a stack, a hand, a bid, Alea's draw."""
    for colour in range(F.NUM_CARD_COLOURS):
        counts = (np.bincount(st["coloured_stack"][colour, :st["coloured_count"][colour]], minlength=3)
                  + st["hand"][:, colour].sum(axis=0) + st["bid_cards"][:, colour].sum(axis=0))
        assert counts.tolist() == list(F.COLOURED_PER_VALUE)
    black = (np.bincount(st["black_stack"][:st["black_count"]], minlength=3)
             + np.bincount(st["black_returned"][:st["black_returned_count"]], minlength=3)
             + np.bincount(st["alea_cards"][:st["alea_card_count"]], minlength=3)
             + st["hand"][:, BLACK].sum(axis=0) + st["bid_cards"][:, BLACK].sum(axis=0))
    assert black.tolist() == list(F.BLACK_PER_VALUE)


def start_colours(st):
    """The colours the bidder may open with (the first card), and whether black is allowed."""
    mask = legal(st)
    colours = {c for c in range(F.NUM_CARD_COLOURS)
               if any(card(c, v) in mask for v in range(F.NUM_CARD_VALUES))}
    return colours, any(card(BLACK, v) in mask for v in range(F.NUM_CARD_VALUES))


def colours_offered(st):
    """The colours (BLACK included) of the cards the bidder may add now."""
    return {(a - BID_CARD) // F.NUM_CARD_VALUES for a in legal(st) if BID_CARD <= a < BID_FINISH}


def bid(st, *cards):
    """The actor adds ``cards`` ((colour, value) pairs) and finishes his bid."""
    for colour, value in cards:
        play(st, card(colour, value))
    play(st, BID_FINISH)


def trigger_auctions(st, districts, trigger=RED, step=THIRD_ACTION):
    """The white commissioner, in Central Park after visiting ``districts``, is moved back to City
    Hall by ``trigger`` as his 1st or 3rd action: the set of auctions starts."""
    st["commissioner_place"][WHITE] = F.CENTRAL_PARK
    st["commissioner_markers"][WHITE] = -1
    st["commissioner_markers"][WHITE][:len(districts)] = districts
    st["markers_placed"][WHITE] = len(districts)
    st["decision"], st["actor"], st["turn_step"], st["option"] = DEC_COMMISSIONER, trigger, step, OPT_C
    play(st, move(WHITE, DEST_CITY_HALL))
    assert st["decision"] == DEC_BID and st["actor"] == trigger


def alea_draws(st, *values):
    """The next black cards drawn will be ``values`` (value indices), in this order: cards of the
    stack swapped to its top."""
    stack = st["black_stack"]
    n = int(st["black_count"])
    for k, v in enumerate(values):
        top = n - 1 - k
        j = max(i for i in range(top + 1) if stack[i] == v)
        stack[top], stack[j] = stack[j], stack[top]


# --- 1. the starting skyscrapers ---------------------------------------------------------------------
@pytest.mark.parametrize("players, order", [
    (2, [0, 1, 1, 0]),
    (3, [0, 2, 1, 1, 2, 0]),
    (4, [0, 3, 2, 1, 1, 2, 3, 0]),
])
def test_starting_skyscrapers_counter_clockwise_then_clockwise(players, order):
    """PREPARATION: 'the youngest ... first places ... Next, his right neighbor ... (in
    counter-clockwise order) ... second skyscraper ... in clockwise order, beginning with the player
    who placed his first skyscraper last' ('Anna - Kevin - Ken - Alfonzo', then 'Alfonzo - Ken -
    Kevin - Anna')."""
    state = api.new_game(GameConfig(num_players=players), seed=players)
    seen = []
    while state["decision"] == DEC_START_SKYSCRAPER:
        mask = api.legal_mask(state)
        plots = np.flatnonzero(mask[PLACE_START:PLACE_START + F.NUM_PLOTS])
        # 'any empty building plot': never one with a business (one per district at set-up)
        assert all((state["plot_business"][p] == NO_BUSINESS).all() and state["plot_owner"][p] == NO_PLAYER
                   for p in plots)
        if not seen:
            assert len(plots) == F.NUM_PLOTS - F.NUM_DISTRICTS
        seat = api.current_player(state)
        seen.append(seat)
        api.apply_action(state, PLACE_START + int(plots[-1 if len(seen) % 2 else 0]))
    assert seen == order
    assert [int((state["plot_owner"] == s).sum()) for s in range(players)] == [2] * players
    assert state["decision"] == DEC_OPTION and api.current_player(state) == 0  # the starting player begins


# --- 2. fig. 01: black cards when scoring ------------------------------------------------------------
def test_fig_01_scorer_without_skyscrapers_takes_three_black_cards_green_one():
    """fig. 01: 'Blue scores this district. He takes 2 black cards plus a third black card, as he
    has no skyscraper in this district. Green also takes 1 black card.'"""
    states = blank_board(4)
    st = states[0]
    d = F.D42W
    colours = ring(d)
    put(st, d, colours[0], owner=RED, skyscrapers=2)
    put(st, d, colours[1], businesses=(BOUTIQUE,))
    put(st, d, colours[2], owner=YELLOW, skyscrapers=1)
    put(st, F.D34E, ring(F.D34E)[0], owner=BLUE, skyscrapers=1)  # Blue's skyscrapers elsewhere
    st["commissioner_place"][BEIGE] = d
    st["actor"] = BLUE
    black_before = st["hand"][:, BLACK].sum(axis=1).copy()
    stack_before = int(st["black_count"])
    score_before = st["score"].copy()
    play(st, SCORE_DISTRICT + d)
    assert (st["hand"][:, BLACK].sum(axis=1) - black_before).tolist() == [0, 0, 3, 1]
    assert stack_before - st["black_count"] == 4
    # Red 2 x 2 VP (one business type beside), Yellow 1 x 2 VP; Blue and Green score nothing here
    assert (st["score"] - score_before).tolist() == [4, 2, 0, 0]
    assert st["decision"] == DEC_COMMISSIONER and st["actor"] == BLUE  # D's 2nd action is automatic


# --- 3. fig. 02-04: the commissioners --------------------------------------------------------------
ROUTE_CHOICES = {  # fig. 02: choices 'from City Hall, 34th Street East or West, and Times Square'
    F.CITY_HALL: {"34th Street East", "34th Street West"},
    F.D34E: {"42nd Street East", "Times Square"},
    F.D34W: {"42nd Street West", "Times Square"},
    F.TIMES_SQUARE: {"52nd Street East", "52nd Street West"},
    F.D42E: {"52nd Street East"},
    F.D42W: {"52nd Street West"},
    F.D52E: {"Central Park"},
    F.D52W: {"Central Park"},
    F.CENTRAL_PARK: {"City Hall (the auctions follow)"},
}


@pytest.mark.parametrize("place", list(ROUTE_CHOICES))
def test_fig_02_commissioner_moves_to_the_next_place(place):
    """fig. 02: 'the player either moves the chosen commissioner to the next (adjacent) district or
    Central Park ... If there are two or more possible adjacent districts (from City Hall, 34th
    Street East or West, and Times Square), the player may choose freely among them.'"""
    states = blank_board(3)
    st = states[0]
    st["commissioner_place"][WHITE] = place
    st["decision"] = DEC_COMMISSIONER
    white = words(st, move(WHITE, 0), move(BEIGE, 0))
    assert white == {f"move the white commissioner to {name}" for name in ROUTE_CHOICES[place]}
    assert len(white) == (2 if place in (F.CITY_HALL, F.D34E, F.D34W, F.TIMES_SQUARE) else 1)
    beige = words(st, move(BEIGE, 0), move(BEIGE + 1, 0))  # the other one still in City Hall
    assert beige == {"move the beige commissioner to 34th Street East",
                     "move the beige commissioner to 34th Street West"}


def test_fig_02_markers_placed_in_the_districts_left_and_auctions_in_visited_order():
    """fig. 02: 'After moving a commissioner from a district, the player places a matching
    commissioner marker ... in the district just moved from'; 'The auctions occur in the districts
    one at a time, starting with the first district visited ... until the Central Park auction';
    'An auction always begins with the player who triggered the auctions ... clockwise'."""
    states = blank_board(3)
    st = states[0]
    route = [F.D34E, F.TIMES_SQUARE, F.D52W, DEST_CENTRAL_PARK]
    for seat, (first, second) in enumerate([route[:2], route[2:]]):
        assert st["decision"] == DEC_OPTION and st["actor"] == seat
        black = int(st["hand"][seat, BLACK].sum())
        play(st, OPTION_C)  # a black card and a commissioner; then two coloured cards; a commissioner
        assert st["hand"][seat, BLACK].sum() == black + 1  # 'takes the top-most card from the black stack'
        play(st, move(WHITE, first))
        play(st, min(a for a in legal(st)))
        assert st["decision"] == DEC_COMMISSIONER
        play(st, move(WHITE, second))
    assert st["commissioner_place"][WHITE] == F.CENTRAL_PARK
    assert st["commissioner_markers"][WHITE].tolist() == [F.D34E, F.TIMES_SQUARE, F.D52W]
    assert st["actor"] == 2
    play(st, OPTION_C)
    play(st, move(WHITE, DEST_CITY_HALL))
    assert st["auction_places"][:st["auction_count"]].tolist() == [F.D34E, F.TIMES_SQUARE, F.D52W,
                                                                   F.CENTRAL_PARK]
    assert st["markers_placed"][WHITE] == 0 and (st["commissioner_markers"][WHITE] == -1).all()
    bidders = []
    for at in range(4):
        assert st["auction_at"] == at
        for _ in range(3):
            assert st["decision"] == DEC_BID
            bidders.append(int(st["actor"]))
            play(st, BID_PASS)  # 'If no player bids in an auction, that district is skipped'
    assert bidders == [2, 0, 1] * 4


def test_fig_03_white_back_to_city_hall_or_beige_to_central_park():
    """fig. 03: 'The player may either move the white commissioner from Central Park back to City
    Hall or the beige commissioner to Central Park'; 'in fig. 03 ... a player may score only "52nd
    St. East"'."""
    states = blank_board(3)
    st = states[0]
    st["commissioner_place"][:] = [F.CENTRAL_PARK, F.D52E]
    st["commissioner_markers"][WHITE] = [F.D34W, F.D42W, F.D52W]
    st["markers_placed"][WHITE] = 3
    st["commissioner_markers"][BEIGE][:2] = [F.D34E, F.TIMES_SQUARE]
    st["markers_placed"][BEIGE] = 2
    assert {describe_action(a) for a in legal(st) if a >= SCORE_DISTRICT and a < TAKE_SPACE} == {
        "D: score 52nd Street East"}
    st["decision"] = DEC_COMMISSIONER
    assert words(st, MOVE, BID_CARD) == {"move the white commissioner to City Hall (the auctions follow)",
                                         "move the beige commissioner to Central Park"}


def test_fig_04_a_building_stopped_district_is_skipped():
    """fig. 04: 'The player may move the white commissioner to Central Park or to "52nd St.West".
    Or, he may move the beige commissioner to "42nd St.West" or "Times Square"' (52nd St. East
    stopped); 'In fig. 04 ... a player may score either "34th Street West" or "Times Square"'; a
    commissioner may move where the other commissioner or its marker is."""
    states = blank_board(3)
    st = states[0]
    st["stopped"][F.D52E], st["building_stops"] = 1, 1
    st["commissioner_place"][:] = [F.TIMES_SQUARE, F.D34W]
    st["commissioner_markers"][WHITE][0] = F.D34W  # white came through 34th Street West
    st["markers_placed"][WHITE] = 1
    assert {describe_action(a) for a in legal(st) if SCORE_DISTRICT <= a < TAKE_SPACE} == {
        "D: score 34th Street West", "D: score Times Square"}
    st["decision"] = DEC_COMMISSIONER
    assert words(st, MOVE, BID_CARD) == {
        "move the white commissioner to Central Park", "move the white commissioner to 52nd Street West",
        "move the beige commissioner to 42nd Street West", "move the beige commissioner to Times Square"}
    # 'the path for a commissioner from starting space to Central Park may be fewer than four turns'
    play(st, move(WHITE, DEST_CENTRAL_PARK))
    assert st["commissioner_place"][WHITE] == F.CENTRAL_PARK
    assert st["commissioner_markers"][WHITE][:st["markers_placed"][WHITE]].tolist() == [F.D34W,
                                                                                        F.TIMES_SQUARE]


@pytest.mark.parametrize("places", [(F.CITY_HALL, F.CITY_HALL), (F.CITY_HALL, F.CENTRAL_PARK),
                                    (F.CENTRAL_PARK, F.CENTRAL_PARK)])
def test_no_district_to_score_with_both_commissioners_in_city_hall_or_central_park(places):
    """'If both commissioners are in City Hall or Central Park, a player may not choose option D.'"""
    states = blank_board(3)
    st = states[0]
    st["commissioner_place"][:] = places
    assert not any(SCORE_DISTRICT <= a < TAKE_SPACE for a in legal(st))
    st["commissioner_place"][BEIGE] = F.D42E  # 'must score the district where the other commissioner is'
    assert {a for a in legal(st) if SCORE_DISTRICT <= a < TAKE_SPACE} == {SCORE_DISTRICT + F.D42E}


def test_the_commissioners_are_free_to_move_into_the_same_district():
    """'A player may move a commissioner to any adjacent district, even if the other commissioner is
    there or if a marker for the other commissioner is there.'"""
    states = blank_board(3)
    st = states[0]
    st["commissioner_place"][:] = [F.D34E, F.CITY_HALL]
    st["decision"] = DEC_COMMISSIONER
    assert move(BEIGE, F.D34E) in legal(st)
    play(st, move(WHITE, F.TIMES_SQUARE))  # white leaves its marker in 34th Street East
    st["decision"], st["turn_step"] = DEC_COMMISSIONER, THIRD_ACTION
    play(st, move(BEIGE, F.D34E))
    st["decision"] = DEC_COMMISSIONER
    assert move(BEIGE, F.TIMES_SQUARE) in legal(st)  # where white stands
    play(st, move(BEIGE, F.TIMES_SQUARE))
    assert st["commissioner_markers"][WHITE][0] == F.D34E and st["commissioner_markers"][BEIGE][0] == F.D34E


# --- 4. fig. 08/09: the bidding colour -----------------------------------------------------------
def test_fig_08_bidding_colours_in_a_district_with_empty_plots():
    """fig. 08: 'Red may only choose the orange color to bid. Yellow may only choose green. Blue and
    Green may only choose either the gray color or the brown color to bid (both can choose the same
    color). Violet is not allowed in this district. Of course, every player may use black cards in
    addition to the color he chooses.'"""
    states = blank_board(4)
    st = states[0]
    d = F.D42E
    put(st, d, ORANGE, owner=RED, skyscrapers=2)
    put(st, d, GREEN_C, owner=YELLOW, skyscrapers=1)
    put(st, d, VIOLET, businesses=(GALLERY,))
    deal(st, {BLUE: {(GRAY, V6): 1}})
    hands = st["hand"].copy()
    trigger_auctions(st, [d])
    assert st["district_full"] == 0
    assert start_colours(st) == ({ORANGE}, False)  # the first card is always coloured
    bid(st, (ORANGE, V4))
    assert st["actor"] == YELLOW and start_colours(st) == ({GREEN_C}, False)
    bid(st, (GREEN_C, V5))
    assert st["actor"] == BLUE and start_colours(st) == ({GRAY, BROWN}, False)
    bid(st, (GRAY, V6))
    assert st["actor"] == GREEN and start_colours(st) == ({GRAY, BROWN}, False)
    play(st, card(GRAY, V4))  # the same colour as Blue
    assert colours_offered(st) == {GRAY, BLACK}  # 'cards of this color or black cards'
    bid(st, (BLACK, V4))
    assert st["bid_total"][GREEN] == 8 and st["high_bidder"] == GREEN
    assert st["actor"] == RED and colours_offered(st) == {ORANGE, BLACK}
    for seat in (RED, YELLOW, BLUE):
        assert st["actor"] == seat
        play(st, BID_PASS)
    assert (st["hand"][:3] == hands[:3]).all()  # the passed players took their cards back
    assert st["decision"] == DEC_BUILD and st["actor"] == GREEN
    st["supply"][GREEN] = 5
    assert legal(st) == {BUILD + k for k in range(4)}  # only 4s: up to 3 skyscrapers, no building stop
    play(st, BUILD + 2)
    p = F.plot_index(d, GRAY)
    assert st["plot_owner"][p] == GREEN and st["plot_skyscrapers"][p] == 2 and st["supply"][GREEN] == 3


def test_fig_09_bidding_colours_in_a_full_district():
    """fig. 09: 'Red may only choose the orange color to bid. Yellow may only choose green. Blue may
    only choose brown. Green may only choose the violet color or the gray color, trying for building
    stop.'; 'If the winner has no skyscrapers in the district, he must declare a building stop'."""
    states = blank_board(4)
    st = states[0]
    d = F.D42E
    put(st, d, ORANGE, owner=RED, skyscrapers=1)
    put(st, d, GREEN_C, owner=YELLOW, skyscrapers=1)
    put(st, d, BROWN, owner=BLUE, skyscrapers=2)
    put(st, d, VIOLET, businesses=(GALLERY,))
    put(st, d, GRAY, businesses=(BOUTIQUE, JEWELER))
    deal(st)
    trigger_auctions(st, [d])
    assert st["district_full"] == 1
    for seat, colours in ((RED, {ORANGE}), (YELLOW, {GREEN_C}), (BLUE, {BROWN})):
        assert st["actor"] == seat and start_colours(st) == (colours, False)
        play(st, BID_PASS)
    assert st["actor"] == GREEN and start_colours(st) == ({VIOLET, GRAY}, False)
    bid(st, (GRAY, V4))
    assert st["decision"] == DEC_BUILD and st["actor"] == GREEN
    assert legal(st) == {BUILDING_STOP}
    before = st["score"].copy()
    play(st, BUILDING_STOP)
    assert st["stopped"][d] and st["building_stops"] == 1
    assert st["score"][GREEN] - before[GREEN] == 4  # 1 VP for each skyscraper in the district


# --- 5. raising: 19 -> at least 20 ----------------------------------------------------------------
def test_a_bid_of_19_must_be_raised_to_at_least_20():
    """'The player bids 19 for the brown building plot. The next player must bid at least 20 or
    pass.'; passing takes the bid cards back; 'A player cannot re-enter an auction after passing.'"""
    states = blank_board(3)
    st = states[0]
    d = F.D34W
    deal(st, {RED: {(BROWN, V4): 1, (BROWN, V6): 1}, YELLOW: {(GREEN_C, V5): 1}})
    hands = st["hand"].copy()
    trigger_auctions(st, [d])
    bid(st, (BROWN, V4), (BROWN, V4), (BROWN, V5), (BROWN, V6))
    assert st["high_bid"] == 19 and st["high_bidder"] == RED
    assert st["actor"] == YELLOW and BID_FINISH not in legal(st)  # nothing added yet
    for c in (GREEN_C, GREEN_C, BLACK):
        play(st, card(c, V5))  # 15
    at_19 = states.copy()
    play(at_19[0], card(BLACK, V4))
    assert at_19[0]["bid_total"][YELLOW] == 19
    assert BID_FINISH not in legal(at_19[0]) and BID_PASS in legal(at_19[0])
    play(st, card(BLACK, V5))
    assert st["bid_total"][YELLOW] == 20
    play(st, BID_FINISH)
    assert st["high_bid"] == 20 and st["high_bidder"] == YELLOW
    assert st["actor"] == BLUE
    play(st, card(GRAY, V4))
    play(st, BID_PASS)
    assert (st["hand"][BLUE] == hands[BLUE]).all() and st["bid_total"][BLUE] == 0
    assert st["actor"] == RED  # Red adds to his 19 with brown or black cards
    brown_before = st["coloured_stack"][BROWN, :st["coloured_count"][BROWN]].copy()
    bid(st, (BLACK, V6))
    assert st["high_bid"] == 25
    assert st["actor"] == YELLOW  # Blue, out, is skipped
    play(st, BID_PASS)
    assert st["decision"] == DEC_BUILD and st["actor"] == RED
    # the winner's cards go under their stacks; a 6 among them: up to 1 skyscraper
    assert st["bid_cards"][RED].sum() == 0 and st["hand"][RED, BROWN].tolist() == [0, 0, 0]
    brown = st["coloured_stack"][BROWN, :st["coloured_count"][BROWN]]
    assert sorted(brown[:4].tolist()) == [V4, V4, V5, V6] and (brown[4:] == brown_before).all()
    st["supply"][RED] = 3
    assert legal(st) == {BUILD, BUILD + 1}


# --- the skyscrapers pictured on the cards --------------------------------------------------------
@pytest.mark.parametrize("colour, cards, supply, most", [
    (GRAY, [(GRAY, V4), (GRAY, V4), (BLACK, V4), (BLACK, V4)], 5, 3),
    (VIOLET, [(VIOLET, V4), (VIOLET, V4), (BLACK, V5), (BLACK, V6), (BLACK, V6)], 5, 1),
    (GRAY, [(GRAY, V4), (GRAY, V4), (BLACK, V4), (BLACK, V4)], 2, 2),
    (GRAY, [(GRAY, V4), (GRAY, V5)], 0, 0),
])
def test_the_card_with_fewest_skyscrapers_caps_the_building(colour, cards, supply, most):
    """'Blue wins an auction with 2 gray and 2 black number 4 cards: he may build up to 3'; 'Yellow
    wins ... with 2 violet number 4 cards, 1 black number 5 card, and 2 black number 6 cards: he may
    only build up to 1'; 'He takes the skyscrapers from his supply'; 'a player may participate in an
    auction even when he has no skyscrapers in his supply'."""
    states = blank_board(3)
    st = states[0]
    d = F.D52W
    deal(st, {YELLOW: {(GRAY, V4): 1, (VIOLET, V4): 1}})
    trigger_auctions(st, [d])
    play(st, BID_PASS)  # Red
    assert st["actor"] == YELLOW
    bid(st, *cards)
    play(st, BID_PASS)  # Blue
    assert st["decision"] == DEC_BUILD and st["actor"] == YELLOW
    st["supply"][YELLOW] = supply
    assert legal(st) == {BUILD + k for k in range(most + 1)}
    play(st, BUILD + most)
    p = F.plot_index(d, colour)
    assert st["supply"][YELLOW] == supply - most
    assert st["plot_skyscrapers"][p] == most and (most == 0 or st["plot_owner"][p] == YELLOW)


# --- fig. 10 and 11: building stops through the auction -----------------------------------------------
def fig_10_district(st, d):
    colours = ring(d)
    put(st, d, colours[0], owner=YELLOW, skyscrapers=1)  # 3 types beside it: 5 VP
    put(st, d, colours[1], businesses=(BOUTIQUE, JEWELER))
    put(st, d, colours[4], businesses=(GALLERY,))
    put(st, d, colours[2], owner=BLUE, skyscrapers=2)  # 2 types beside them: 2 x 3 VP
    put(st, d, colours[3], owner=RED, skyscrapers=1)
    return colours[3]


def test_fig_10_red_wins_and_chooses_the_building_stop():
    """fig. 10: 'Red wins the auction and chooses building stop in this district (he could also have
    chosen to add skyscrapers to his building plot, but did not). Red earns 4 VP, Yellow earns 5/2 =
    2VP, and Blue earns 6/2 = 3 VP.'; 'remove all skyscrapers and businesses from the district'."""
    states = blank_board(3)
    st = states[0]
    d = F.D52E
    red_colour = fig_10_district(st, d)
    deal(st)
    st["supply"][RED] = 3
    trigger_auctions(st, [d])
    assert start_colours(st) == ({red_colour}, False)
    bid(st, (red_colour, V5))
    play(st, BID_PASS)
    play(st, BID_PASS)
    assert st["decision"] == DEC_BUILD and st["actor"] == RED
    assert legal(st) == {BUILD, BUILD + 1, BUILD + 2, BUILDING_STOP}
    before = st["score"].copy()
    play(st, BUILDING_STOP)
    assert (st["score"] - before)[:3].tolist() == [4, 2, 3]
    assert st["stopped"][d] and st["building_stops"] == 1
    in_d = F.PLOT_DISTRICT == d
    assert (st["plot_owner"][in_d] == NO_PLAYER).all() and (st["plot_business"][in_d] == NO_BUSINESS).all()
    assert st["skyscrapers_removed"][:3].tolist() == [1, 1, 2] and st["businesses_removed"] == 3
    # 'nothing more can occur in or to this district': no business may be placed there
    assert st["auction_places"][st["auction_at"]] == F.CENTRAL_PARK
    for _ in range(3):
        play(st, BID_PASS)
    assert st["decision"] == DEC_OPTION and st["actor"] == YELLOW
    play(st, OPTION_B)
    play(st, min(legal(st)))
    assert not any(PLACE_BUSINESS + p in legal(st) for p in np.flatnonzero(in_d))


def test_fig_11_the_other_commissioner_stays_but_leaves_no_marker_and_its_marker_returns():
    """fig. 11 note: 'if the other commissioner is in the district, he remains until he is moved, but
    no commissioner marker is placed there when he does. Also, if the other commissioner marker is in
    the district, it is returned to City Hall without effect.'"""
    states = blank_board(3)
    st = states[0]
    d = F.D52E
    red_colour = fig_10_district(st, d)
    deal(st)
    st["commissioner_place"][BEIGE] = d  # beige stands in the district, its marker in 42nd Street East
    st["commissioner_markers"][BEIGE][:2] = [F.D34E, F.D42E]
    st["markers_placed"][BEIGE] = 2
    trigger_auctions(st, [F.D42E, d])  # white visited 42nd Street East too
    for _ in range(3):
        play(st, BID_PASS)  # 42nd Street East: nobody bids
    bid(st, (red_colour, V5))
    play(st, BID_PASS)
    play(st, BID_PASS)
    play(st, BUILDING_STOP)
    for _ in range(3):
        play(st, BID_PASS)  # Central Park
    assert st["commissioner_place"][BEIGE] == d
    assert st["decision"] == DEC_OPTION and st["actor"] == YELLOW
    assert SCORE_DISTRICT + d not in legal(st)  # 'nothing more can occur in or to this district'
    play(st, OPTION_C)
    assert words(st, move(BEIGE, 0), move(BEIGE + 1, 0)) == {"move the beige commissioner to Central Park"}
    play(st, move(BEIGE, DEST_CENTRAL_PARK))
    assert st["commissioner_markers"][BEIGE][:st["markers_placed"][BEIGE]].tolist() == [F.D34E, F.D42E]
    # beige's marker in a district stopped by white's auctions returns without effect
    states = blank_board(3)
    st = states[0]
    deal(st)
    red_colour = fig_10_district(st, F.D42E)
    st["commissioner_place"][BEIGE] = F.D52E
    st["commissioner_markers"][BEIGE][:2] = [F.D34E, F.D42E]
    st["markers_placed"][BEIGE] = 2
    trigger_auctions(st, [F.D42E])
    bid(st, (red_colour, V5))
    play(st, BID_PASS)
    play(st, BID_PASS)
    play(st, BUILDING_STOP)
    assert F.D42E not in st["commissioner_markers"][BEIGE].tolist()
    for _ in range(3):
        play(st, BID_PASS)  # Central Park
    assert st["decision"] == DEC_OPTION and st["actor"] == YELLOW
    play(st, OPTION_C)
    play(st, move(BEIGE, DEST_CENTRAL_PARK))
    play(st, min(legal(st)))
    play(st, move(BEIGE, DEST_CITY_HALL))
    assert st["auction_places"][:st["auction_count"]].tolist() == [F.D34E, F.D52E, F.CENTRAL_PARK]
    assert_cards_kept(st)


# --- fig. 12: Central Park ---------------------------------------------------------------------------
def test_fig_12_central_park_all_bid_with_the_starting_colour():
    """'for Central Park, all players must use the same colored cards as the starting player ... If
    the triggering player does not want to bid, his left neighbor may start the bidding by selecting
    a color'; 'a player cannot choose building stop in the area below Central Park'; 'Once the
    auctions are completed, the player continues with his 2nd and 3rd actions. If, as his 3rd
    action, he moves another commissioner from Central Park to City Hall, he triggers another round'."""
    states = blank_board(3)
    st = states[0]
    deal(st)
    st["supply"][BLUE] = 4
    st["commissioner_place"][BEIGE] = F.CENTRAL_PARK  # beige waits in Central Park (no markers left)
    trigger_auctions(st, [F.D34E], trigger=BLUE, step=FIRST_ACTION)
    for _ in range(3):
        play(st, BID_PASS)  # 34th Street East: nobody bids, the next auction begins
    assert st["auction_places"][st["auction_at"]] == F.CENTRAL_PARK and st["actor"] == BLUE
    assert start_colours(st) == (set(range(F.NUM_CARD_COLOURS)), False)
    play(st, BID_PASS)  # the trigger does not want to bid
    assert st["actor"] == RED and start_colours(st) == (set(range(F.NUM_CARD_COLOURS)), False)
    bid(st, (VIOLET, V4))
    assert st["actor"] == YELLOW and start_colours(st) == ({VIOLET}, False)
    bid(st, (VIOLET, V5))
    assert st["actor"] == RED  # Blue passed: skipped
    play(st, BID_PASS)
    assert st["decision"] == DEC_BUILD and st["actor"] == YELLOW
    st["supply"][YELLOW] = 3
    assert legal(st) == {BUILD, BUILD + 1, BUILD + 2}  # a 5: up to 2; no building stop
    play(st, BUILD + 2)
    assert st["park_skyscrapers"][YELLOW] == 2 and st["supply"][YELLOW] == 1
    # 'Once the auctions are completed, the player continues with his 2nd and 3rd actions'
    assert st["decision"] == DEC_COLOURED_CARDS and st["actor"] == BLUE
    assert all(TAKE_PAIR <= a < TAKE_PAIR + 10 for a in legal(st))  # 'two different colors'
    play(st, min(legal(st)))
    assert st["decision"] == DEC_COMMISSIONER and st["actor"] == BLUE
    play(st, move(BEIGE, DEST_CITY_HALL))
    assert st["decision"] == DEC_BID and st["actor"] == BLUE
    assert st["auction_places"][:st["auction_count"]].tolist() == [F.CENTRAL_PARK]
    assert_cards_kept(st)


# --- Alea ----------------------------------------------------------------------------------------------
def alea_game(d):
    states = blank_board(2)
    st = states[0]
    deal(st)
    put(st, d, ring(d)[0], businesses=(BOUTIQUE,))
    return states


def test_alea_wins_when_both_real_players_pass_and_builds_on_the_most_valuable_plots():
    """2 players, 3.)-4.2): 'as the third bidder, comes Alea ... until they draw ... the same number
    as one already drawn' (6, 4, 6: 16); 'If the others both pass with Alea's bid the highest, Alea
    wins'; 'Alea's bid cards are put on the bottom of the black stack'; 'the most valuable building
    plot ... If there is more than one ... 1 skyscraper in each such building plot!'."""
    d = F.D42W
    states = alea_game(d)
    st = states[0]
    alea_draws(st, V6, V4, V6)
    trigger_auctions(st, [d])
    bid(st, (ORANGE, V4), (BLACK, V6))  # 10
    returned = int(st["black_returned_count"])
    play(st, BID_PASS)  # the second player; Alea then bids 16
    assert st["alea_in"] and st["bid_total"][ALEA_ROW] == 16 and st["high_bidder"] == ALEA_ROW
    assert st["actor"] == 0 and BID_PASS in legal(st)
    play(st, BID_PASS)
    beside = {F.plot_index(d, ring(d)[1]), F.plot_index(d, ring(d)[4])}  # beside the boutique: 2 VP
    assert set(np.flatnonzero(st["plot_owner"] == ALEA_ROW).tolist()) == beside
    assert st["general"][ALEA_ROW] == F.SKYSCRAPERS_PER_COLOUR - 2
    assert st["black_returned_count"] - returned == 3
    assert st["auction_places"][st["auction_at"]] == F.CENTRAL_PARK and st["decision"] == DEC_BID
    assert_cards_kept(st)


def test_alea_is_out_when_his_bid_is_not_higher_or_is_overbid():
    """4.1) 'If Alea's bid is less than or equal to the highest bid so far, he is out'; 4.2) 'If one
    (or both) real players overbid Alea's bid, then Alea is out of the bidding for this auction.'"""
    d = F.D42W
    states = alea_game(d)
    st = states[0]
    alea_draws(st, V5, V4, V5)  # 14
    trigger_auctions(st, [d])
    bid(st, (GRAY, V4), (BLACK, V5), (BLACK, V5))  # 14
    play(st, BID_PASS)
    assert st["bid_total"][ALEA_ROW] == 14 and not st["alea_in"]
    assert st["decision"] == DEC_BUILD and st["actor"] == 0  # equal is not higher: the first player wins
    states = alea_game(d)
    st = states[0]
    alea_draws(st, V5, V4, V5)  # 14
    trigger_auctions(st, [d])
    bid(st, (GRAY, V4), (BLACK, V6))  # 10
    bid(st, (GREEN_C, V5), (BLACK, V6))  # 11; Alea bids 14
    assert st["alea_in"] and st["high_bidder"] == ALEA_ROW and st["actor"] == 0
    bid(st, (BLACK, V5))  # 15 beats Alea's 14
    assert not st["alea_in"] and st["high_bidder"] == 0
    play(st, BID_PASS)
    assert st["decision"] == DEC_BUILD and st["actor"] == 0 and not (st["plot_owner"] == ALEA_ROW).any()
    assert_cards_kept(st)


def test_a_building_stop_scores_aleas_skyscrapers_for_the_declarer():
    """2 players: 'When a player declares a building stop in a district, he scores Alea's skyscrapers
    as well as those of the 2 real players.' (Alea's bid of at most 21 does not beat 21.)"""
    states = blank_board(2)
    st = states[0]
    d = F.TIMES_SQUARE
    colours = ring(d)
    put(st, d, colours[0], owner=RED, skyscrapers=1)
    put(st, d, colours[1], owner=ALEA_ROW, skyscrapers=1)
    put(st, d, colours[2], owner=ALEA_ROW, skyscrapers=1)
    put(st, d, colours[3], owner=YELLOW, skyscrapers=2)  # beside the boutique: 2 x 2 VP
    put(st, d, colours[4], businesses=(BOUTIQUE,))
    deal(st)
    trigger_auctions(st, [d])
    assert start_colours(st) == ({colours[0]}, False)
    bid(st, (colours[0], V5), (BLACK, V4), (BLACK, V6), (BLACK, V6))  # 21
    play(st, BID_PASS)  # Yellow; Alea bids at most 21 and is out
    assert not st["alea_in"] and st["decision"] == DEC_BUILD and st["actor"] == RED
    assert BUILDING_STOP in legal(st)
    before = st["score"].copy()
    play(st, BUILDING_STOP)
    assert (st["score"] - before)[:2].tolist() == [5, 2]  # Red: 1 + 2 (Alea) + 2; Yellow: 4 / 2
    assert st["skyscrapers_removed"][ALEA_ROW] == 2
    assert_cards_kept(st)


def test_alea_does_not_build_when_he_wins_central_park():
    """'If Alea wins in Central Park, he does not build.'"""
    states = alea_game(F.D42W)
    st = states[0]
    trigger_auctions(st, [])
    alea_draws(st, V4, V4)
    play(st, BID_PASS)
    play(st, BID_PASS)
    assert st["bid_total"][ALEA_ROW] == 8
    assert st["park_skyscrapers"][ALEA_ROW] == 0 and st["general"][ALEA_ROW] == F.SKYSCRAPERS_PER_COLOUR
    assert st["decision"] == DEC_OPTION and st["actor"] == 1  # the trigger's 3rd action is over


# --- fig. 06: where a business may go ------------------------------------------------------------------
def test_fig_06_a_business_only_on_an_empty_plot_or_one_with_one_business():
    """fig. 06: 'A player may place a new perfume shop only on the brown or the gray building plot.'
    ('any empty building plot or any building plot that has but one ... business'; never one 'with 2
    businesses or with one or more skyscrapers')."""
    states = blank_board(3)
    st = states[0]
    d = F.TIMES_SQUARE
    put(st, d, ORANGE, owner=BLUE, skyscrapers=1)
    put(st, d, GREEN_C, businesses=(BOUTIQUE, PERFUME))
    put(st, d, VIOLET, businesses=(JEWELER, JEWELER))
    put(st, d, BROWN, businesses=(PERFUME,))
    st["supply_row"][:3] = [PERFUME, GALLERY, BOUTIQUE]
    play(st, OPTION_B)
    assert legal(st) == {TAKE_SPACE, TAKE_SPACE + 1, TAKE_SPACE + 2}  # the current set
    play(st, TAKE_SPACE)
    assert st["decision"] == DEC_BUSINESS_PLOT and st["held_business"] == PERFUME
    in_d = {PLACE_BUSINESS + int(p) for p in np.flatnonzero(F.PLOT_DISTRICT == d)}
    assert {describe_action(a) for a in legal(st) & in_d} == {
        "put the business on the brown plot of Times Square",
        "put the business on the gray plot of Times Square"}
    play(st, PLACE_BUSINESS + F.plot_index(d, BROWN))
    assert st["plot_business"][F.plot_index(d, BROWN)].tolist() == [PERFUME, PERFUME]


@pytest.mark.parametrize("taken, to_park", [(3, GALLERY), (4, BOUTIQUE)])
def test_fig_05_either_business_of_a_two_set_and_the_other_below_central_park(taken, to_park):
    """fig. 05: 'At this time, the player puts the boutique on a building plot and places the gallery
    face up in the area below Central Park. The player could, of course, have chosen the opposite
    way.'; 'the current set is always the left-most set in the supply that has at least 1 business'."""
    states = blank_board(3)
    st = states[0]
    st["supply_row"][:5] = [JEWELER, PERFUME, JEWELER, BOUTIQUE, GALLERY]
    play(st, OPTION_B)
    assert legal(st) == {TAKE_SPACE, TAKE_SPACE + 1, TAKE_SPACE + 2}
    play(st, TAKE_SPACE + 1)
    assert st["park_business_count"] == 0  # the 1st of a set of three: nothing below Central Park
    play(st, PLACE_BUSINESS + F.plot_index(F.D34E, ORANGE))
    st["decision"], st["turn_step"] = DEC_OPTION, FIRST_ACTION
    play(st, OPTION_B)
    assert legal(st) == {TAKE_SPACE, TAKE_SPACE + 2}
    play(st, TAKE_SPACE + 2)  # the 2nd of three: the last one goes below Central Park
    assert st["park_business"][:st["park_business_count"]].tolist() == [JEWELER]
    play(st, PLACE_BUSINESS + F.plot_index(F.D34E, GRAY))
    st["decision"], st["turn_step"] = DEC_OPTION, FIRST_ACTION
    play(st, OPTION_B)
    assert legal(st) == {TAKE_SPACE + 3, TAKE_SPACE + 4}  # the next set: boutique and gallery
    play(st, TAKE_SPACE + taken)
    assert st["held_business"] == {3: BOUTIQUE, 4: GALLERY}[taken]
    assert st["park_business"][:st["park_business_count"]].tolist() == [JEWELER, to_park]
    assert (st["supply_row"][:5] == NO_BUSINESS).all()


# --- fig. 07: scoring a district ------------------------------------------------------------------
FIG_07 = [  # ({ring position: (owner, skyscrapers)}, {ring position: businesses}, VP of red, yellow, blue)
    ({0: (YELLOW, 1), 2: (BLUE, 2)}, {1: (BOUTIQUE, JEWELER), 3: (GALLERY,), 4: (GALLERY, PERFUME)},
     [0, 8, 10]),
    ({0: (YELLOW, 1), 2: (BLUE, 2)}, {1: (BOUTIQUE,), 3: (BOUTIQUE,), 4: (BOUTIQUE, BOUTIQUE)}, [0, 2, 4]),
    ({0: (YELLOW, 1), 2: (RED, 2), 3: (BLUE, 2)}, {1: (BOUTIQUE, JEWELER), 4: (BOUTIQUE,)}, [6, 3, 4]),
]


@pytest.mark.parametrize("skyscrapers, businesses, expected", FIG_07)
def test_fig_07_scoring_a_district_with_option_d(skyscrapers, businesses, expected):
    """fig. 07: 'Blue earns 2 x 5 VP = 10 VP, Yellow earns 1 x 8 VP = 8 VP'; 'Blue earns 2 x 2 VP = 4
    VP, Yellow earns 1 x 2 VP = 2 VP'; 'Blue earns 2 x 2 VP = 4 VP, Yellow earns 1 x 3 VP = 3 VP, Red
    earns 2 x 3 VP = 6 VP' (by the directly adjacent different business types)."""
    states = blank_board(3)
    st = states[0]
    d = F.D34E
    colours = ring(d)
    for k, (owner, count) in skyscrapers.items():
        put(st, d, colours[k], owner=owner, skyscrapers=count)
    for k, tiles in businesses.items():
        put(st, d, colours[k], businesses=tiles)
    st["commissioner_place"][WHITE] = d
    before = st["score"].copy()
    play(st, SCORE_DISTRICT + d)
    assert (st["score"] - before)[:3].tolist() == expected


# --- the special scorings and the game end ---------------------------------------------------------
@pytest.mark.parametrize("placed, districts_needed, points", [(6, 4, 6), (9, 5, 8)])
def test_special_scorings_after_the_sixth_and_ninth_business(placed, districts_needed, points):
    """'After the sixth business ... 6 victory points if he has at least 1 skyscraper in each of at
    least four different districts'; 'After the ninth ... 8 victory points ... at least five'; 'the
    area below Central Park is not a district. It does not count for the special scoring.'"""
    states = blank_board(3)
    st = states[0]
    first = {6: 8, 9: 13}[placed]  # sets 1-3 (8 spaces) or 1-5 (13 spaces) already empty
    st["supply_row"][:first] = NO_BUSINESS
    st["businesses_placed"] = placed - 1
    for d in range(districts_needed):
        put(st, d, ring(d)[0], owner=YELLOW)
    for d in range(districts_needed - 1):
        put(st, d, ring(d)[1], owner=BLUE)
    st["park_skyscrapers"][BLUE] = 3
    st["score"][:] = 0
    play(st, OPTION_B)
    assert legal(st) == {TAKE_SPACE + first, TAKE_SPACE + first + 1}  # a set of 2
    park = int(st["park_business_count"])
    play(st, TAKE_SPACE + first)
    assert st["park_business_count"] == park + 1  # the last of the set goes below Central Park
    play(st, PLACE_BUSINESS + F.plot_index(F.D52W, ORANGE))
    assert st["businesses_placed"] == placed
    assert st["score"][:3].tolist() == [0, points, 0]
    assert st["decision"] == DEC_COLOURED_CARDS


def test_the_twelfth_business_ends_the_game_and_a_tie_goes_to_the_most_cards():
    """GAME END 1): 'A player places one of the last two businesses ... The game ends immediately
    (the player does not take his 2nd and 3rd actions)'; '(all sets are completely empty), the game
    ends. Here, there are no extra points'; Central Park with one business type: 2 VP each; 'If
    players are tied with the most, the player among them with the most remaining cards in his hand
    is the winner.'"""
    states = blank_board(3)
    st = states[0]
    st["supply_row"][:18] = NO_BUSINESS
    st["supply_row"][18:] = [GALLERY, BOUTIQUE]
    st["park_business"][:7] = BOUTIQUE
    st["park_business_count"] = 7
    st["businesses_placed"] = 11
    for d in range(5):
        put(st, d, ring(d)[0], owner=YELLOW)  # 1 VP each: no business beside
    for d in range(3):
        put(st, d, ring(d)[2], owner=BLUE)
    st["park_skyscrapers"][BLUE] = 1  # 2 VP: the three turned over are all boutiques
    st["score"][:] = 0
    st["hand"][:] = 0
    st["hand"][YELLOW, BLACK, V4] = 3
    st["hand"][BLUE, BLACK, V4] = 4
    hand = st["hand"].copy()
    play(st, OPTION_B)
    play(st, TAKE_SPACE + 18)
    play(st, PLACE_BUSINESS + F.plot_index(F.D52W, ORANGE))
    assert st["decision"] == DEC_GAME_OVER and not legal(st)
    assert (st["hand"] == hand).all()  # no 2nd action
    state = states.reshape(())
    assert api.final_scores(state).tolist() == [0, 5, 5]
    assert api.winners(state) == (BLUE,)


def test_the_second_building_stop_ends_the_game_with_no_further_auctions():
    """GAME END 2): 'A player selects building stop and it is the second building stop in the game.
    The building stop is played through completely ... The game ends immediately with no further
    auctions'; then every district without a building stop marker is scored."""
    states = blank_board(3)
    st = states[0]
    st["stopped"][F.D34W], st["building_stops"] = 1, 1
    d = F.D52E
    red_colour = fig_10_district(st, d)
    put(st, F.D42E, ring(F.D42E)[0], owner=BLUE, skyscrapers=2)  # 2 x 1 VP at the end
    deal(st)
    st["score"][:] = 0
    trigger_auctions(st, [d, F.D42E])
    bid(st, (red_colour, V4))
    play(st, BID_PASS)
    play(st, BID_PASS)
    play(st, BUILDING_STOP)
    assert st["decision"] == DEC_GAME_OVER and st["building_stops"] == 2
    assert st["score"][:3].tolist() == [4, 2, 3 + 2]
