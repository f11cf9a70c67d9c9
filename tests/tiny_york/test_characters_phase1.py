"""Scenarios for the Phase I characters 1-11 (rulebook addendum "Phase I Characters"; rulebook
"Characters"; R8, R19; ``docs/actions.md`` "Character abilities").

Each test builds a position at a Phase I pick with the scenario helpers (every owned character
stripped, then only the tiles the test needs given back), plays the ability through the public
verbs and checks its exact effect and its cost: the rulebook's "they must place 1 dollar on that
character before they use it" (1 dollar from the board onto the tile, the tile marked used) for
every Phase I character but the free character 4 (components.md: free tiles are 4 and 21).

The draw pile is rebuilt so that every card is accounted for (105 cards, 15 per type) and the
cards a test draws lie on top in a known order; conservation is checked after every ability.
"""

import numpy as np
import pytest

from tests.tiny_york.scenario import (
    clear_skyscrapers,
    give_character,
    pass_until,
    phase1_pick,
    rec,
    set_cards,
)
from tiny_york_env.games.tiny_york import apply_action, legal_actions
from tiny_york_env.games.tiny_york.actions import (
    CHARACTER_BOROUGH,
    CHARACTER_CARD,
    CHARACTER_DONE,
    CHARACTER_PAIR_CARD,
    CHARACTER_TILE,
    ELEVATOR_TAKE,
    END_TURN,
    EXCHANGE,
    PICK_PAIR,
    USE_CHARACTER,
)
from tiny_york_env.games.tiny_york.components import (
    BROOKLYN,
    CARDS_PER_TYPE,
    DOLLARS,
    ELEVATOR,
    ELEVATOR_COLUMNS,
    MAX_PAIRS,
    NEUTRAL,
    NUM_CARD_TYPES,
    NUM_CARDS,
    NUM_TILE_VALUES,
    NUM_TILES,
    PLANS,
    PRESS,
    PRESTIGE,
    SKYSCRAPERS,
    STATEN_ISLAND,
    TILE_CHARACTER,
    TILE_VALUE,
    WILD,
)
from tiny_york_env.games.tiny_york.state import (
    DEC_AFTER_PICK,
    DEC_BID,
    DEC_CHARACTER_BOROUGH,
    DEC_CHARACTER_CARD,
    DEC_CHARACTER_ELEVATOR,
    DEC_CHARACTER_PAIR,
    DEC_CHARACTER_PAIR_CARD,
    DEC_CHARACTER_TILE,
    DEC_PHASE3,
    DEC_PICK_PAIR,
    EMPTY,
    LOC_DISPLAY,
    LOC_OWNED,
    LOC_REMOVED,
    NO_SEAT,
)

PHASE_I_CHARACTERS = tuple(range(1, 12))
FREE_CHARACTER = 4
PAID_CHARACTERS = tuple(c for c in PHASE_I_CHARACTERS if c != FREE_CHARACTER)
# Characters with more than one tile in the game (1, 3, 5 and 7 exist once: components.md).
TWO_COPIES_SAME_TURN = (6, 9, 10, 11)  # used before the pick, the turn goes on
CHARACTER_DECISIONS = (DEC_CHARACTER_CARD, DEC_CHARACTER_TILE, DEC_CHARACTER_ELEVATOR,
                       DEC_CHARACTER_PAIR_CARD, DEC_CHARACTER_PAIR, DEC_CHARACTER_BOROUGH)
# Bookkeeping the engine keeps while resolving a choice; not part of any ability's effect.
BOOKKEEPING = {"num_decisions", "ability", "ability_context", "ability_count", "ability_limit",
               "ability_memory"}
PHASE_III_CHARACTER = 23  # gives its owner a Phase III turn (R18)
OTHER_VALUE_2 = 13  # a value-2 elevator tile (phase II), for character 7
OTHER_VALUE_5 = 20  # a value-5 elevator tile (phase II), for character 7


# --- helpers -----------------------------------------------------------------------------------
def _use(c):
    return USE_CHARACTER + c - 1


def _legal(state):
    return {int(a) for a in legal_actions(state)}


def _arrange_draw_pile(state, top=()):
    """Rebuild the draw pile from the cards not held anywhere else (15 per type), ``top`` to be
    drawn first, in order; the rest in a fixed shuffled order."""
    r = rec(state)
    n = int(r["num_seats"])
    held = r["discard"].astype(np.int64).copy()
    for field in ("hand", "reserve", "played"):
        held += r[field][:n].astype(np.int64).sum(0)
    for p in range(MAX_PAIRS):
        for k in range(2):
            if r["pairs"][p, k] != EMPTY:
                held[r["pairs"][p, k]] += 1
    left = CARDS_PER_TYPE - held
    for t in top:
        left[t] -= 1
    assert (left >= 0).all(), f"scenario holds too many cards of a type: {held}"
    rest = [t for t in range(NUM_CARD_TYPES) for _ in range(int(left[t]))]
    rest = list(np.random.default_rng(7).permutation(rest))
    pile = rest + list(reversed(top))  # draw_pile[draw_count - 1] is the top
    r["draw_pile"][: len(pile)] = pile
    r["draw_pile"][len(pile):] = 0
    r["draw_count"] = len(pile)


def _card_totals(state):
    r = rec(state)
    n = int(r["num_seats"])
    total = np.zeros(NUM_CARD_TYPES, np.int64)
    for c in r["draw_pile"][: int(r["draw_count"])]:
        total[c] += 1
    total += r["discard"]
    for field in ("hand", "reserve", "played"):
        total += r[field][:n].astype(np.int64).sum(0)
    for p in range(MAX_PAIRS):
        for k in range(2):
            if r["pairs"][p, k] != EMPTY:
                total[r["pairs"][p, k]] += 1
    return total


def _assert_conserved(state):
    """105 cards, 15 per type, over the draw pile, discard, hands, reserves, pairs and played."""
    total = _card_totals(state)
    assert total.tolist() == [CARDS_PER_TYPE] * NUM_CARD_TYPES, total
    assert int(total.sum()) == NUM_CARDS


def _assert_refused(state, action):
    """apply_action raises ValueError and leaves the state byte-identical."""
    before = state.copy()
    with pytest.raises(ValueError):
        apply_action(state, action)
    assert state.tobytes() == before.tobytes()


def _changed(before, after):
    """Names of the state fields that differ, bookkeeping left out."""
    a, b = rec(before), rec(after)
    return {f for f in a.dtype.names if not np.array_equal(a[f], b[f])} - BOOKKEEPING


def _counts():
    return np.zeros(NUM_CARD_TYPES, np.int64)


def _hand(state, seat):
    return rec(state)["hand"][seat].astype(np.int64).copy()


def _reserve(state, seat):
    return rec(state)["reserve"][seat].astype(np.int64).copy()


def _position(characters=(), copies=1, dollars=1, hand=None, reserve=None, pairs=None, top=(),
              seed=0):
    """Round 1, the first Phase I pick of a 2-agent game: the seat to move owns ``copies`` tiles of
    each of ``characters`` and nothing else; hand, reserve, pairs and the top of the draw pile
    as given. Returns (state, seat, {character: [tiles]})."""
    state = phase1_pick(2, seed=seed)
    r = rec(state)
    seat = int(r["actor"])
    tiles = {c: [give_character(state, seat, c) for _ in range(copies)] for c in characters}
    r["dollars"][seat] = dollars
    set_cards(state, seat, hand=hand, reserve=reserve)
    if pairs is not None:
        for p in range(MAX_PAIRS):
            r["pairs"][p] = pairs[p] if p < len(pairs) else (EMPTY, EMPTY)
        r["num_pairs"] = len(pairs)
    _arrange_draw_pile(state, top)
    _assert_conserved(state)
    return state, seat, tiles


def _assert_paid(before, after, seat, tile, c):
    """The cost (rulebook "Characters"): 1 dollar from the board onto the tile, the tile marked
    used; free character 4 takes no dollar and is still marked used."""
    b, a = rec(before), rec(after)
    assert a["tile_used"][tile] == 1
    if c == FREE_CHARACTER:
        assert a["tile_dollar"][tile] == 0
    else:
        assert a["tile_dollar"][tile] == 1
    used_now = [t for t in range(NUM_TILES) if a["tile_used"][t] != b["tile_used"][t]]
    assert used_now == [tile]


def _resolve(state, c):
    """Use ``c`` now and answer its choices with CHARACTER_DONE when offered, else the lowest id
    (for 7's tile to give up, the highest: a tile other than 7's own when it owns one)."""
    apply_action(state, _use(c))
    while rec(state)["decision"] in CHARACTER_DECISIONS:
        legal = _legal(state)
        if CHARACTER_DONE in legal:
            apply_action(state, CHARACTER_DONE)
        elif rec(state)["decision"] == DEC_CHARACTER_TILE:
            apply_action(state, max(legal))
        else:
            apply_action(state, min(legal))


# 8: a pair of a dollar and an elevator card, and both cards in the reserve (addendum example).
PAIRS_8 = [(DOLLARS, ELEVATOR), (PLANS, PLANS), (DOLLARS, ELEVATOR), (PRESS, WILD), (PRESTIGE, WILD)]


def _ready(c, copies=1, dollars=1, seed=0):
    """A position where the seat to move may use ``c`` now: its pick turn, or for 8 the window
    right after taking pair 0 (a dollar card and an elevator card, both also in the reserve)."""
    if c == 8:
        state, seat, tiles = _position((8,), copies, dollars, reserve={DOLLARS: 1, ELEVATOR: 1},
                                       pairs=PAIRS_8, top=(DOLLARS, ELEVATOR), seed=seed)
        apply_action(state, PICK_PAIR + 0)
        assert rec(state)["decision"] == DEC_AFTER_PICK
    else:
        extra = (OTHER_VALUE_2,) if c == 7 else ()  # 7 gives up another tile, not itself
        state, seat, tiles = _position((c,) + extra, copies, dollars, hand={PRESS: 1, PLANS: 1},
                                       seed=seed)
    assert _use(c) in _legal(state)
    return state, seat, tiles[c]


# --- each ability's effect and cost ------------------------------------------------------------
def test_character_1_discard_any_number_then_draw_as_many():
    """Addendum 1: "Gain 1 point. You may discard any number of cards from your hand, then draw
    that many cards from the draw pile." docs/actions.md: CHARACTER_CARD per discard, CHARACTER_DONE
    to draw; the pick turn goes on (R8: used before taking a pair)."""
    state, seat, tiles = _position((1,), hand={PRESS: 2, PLANS: 1, SKYSCRAPERS: 1},
                                   top=(WILD, PRESTIGE, DOLLARS))
    before = state.copy()
    apply_action(state, _use(1))
    r = rec(state)
    assert r["decision"] == DEC_CHARACTER_CARD and r["actor"] == seat
    assert r["points"][seat] == 1 and r["dollars"][seat] == 0
    assert _legal(state) == {CHARACTER_CARD + PRESS, CHARACTER_CARD + PLANS,
                             CHARACTER_CARD + SKYSCRAPERS, CHARACTER_DONE}
    apply_action(state, CHARACTER_CARD + PRESS)
    apply_action(state, CHARACTER_CARD + PRESS)
    assert _legal(state) == {CHARACTER_CARD + PLANS, CHARACTER_CARD + SKYSCRAPERS, CHARACTER_DONE}
    apply_action(state, CHARACTER_CARD + SKYSCRAPERS)
    assert rec(state)["draw_count"] == rec(before)["draw_count"]  # nothing drawn before DONE
    apply_action(state, CHARACTER_DONE)
    r = rec(state)
    assert r["decision"] == DEC_PICK_PAIR and r["actor"] == seat
    expected_hand = _counts()
    expected_hand[PLANS] = 1
    expected_hand[WILD] = expected_hand[PRESTIGE] = expected_hand[DOLLARS] = 1
    assert _hand(state, seat).tolist() == expected_hand.tolist()
    expected_discard = rec(before)["discard"].astype(np.int64).copy()
    expected_discard[PRESS] += 2
    expected_discard[SKYSCRAPERS] += 1
    assert r["discard"].tolist() == expected_discard.tolist()
    assert r["draw_count"] == rec(before)["draw_count"] - 3
    assert r["points"][seat] == rec(before)["points"][seat] + 1
    assert r["dollars"][seat] == 0
    _assert_paid(before, state, seat, tiles[1][0], 1)
    assert _changed(before, state) == {"points", "dollars", "tile_used", "tile_dollar", "hand",
                                       "discard", "draw_count", "draw_pile"}
    _assert_conserved(state)


def test_character_1_discarding_nothing_draws_nothing_but_scores_and_costs():
    """Addendum 1: "any number" includes none: the point is gained, no card moves; the dollar is
    still placed on the tile (rulebook "Characters")."""
    state, seat, tiles = _position((1,), hand={PRESS: 1}, top=(WILD,))
    before = state.copy()
    apply_action(state, _use(1))
    apply_action(state, CHARACTER_DONE)
    r = rec(state)
    assert r["decision"] == DEC_PICK_PAIR and r["actor"] == seat
    assert _changed(before, state) == {"points", "dollars", "tile_used", "tile_dollar"}
    assert r["points"][seat] == 1 and r["dollars"][seat] == 0
    _assert_paid(before, state, seat, tiles[1][0], 1)
    _assert_conserved(state)


def test_character_2_two_single_cards_leftovers_form_a_new_pair_and_it_is_the_pick():
    """Addendum 2: "Take 2 single cards from different pairs instead of one pair from the display.
    Form a new pair from the 2 leftover cards." R8: character 2 replaces the pick itself, so the
    turn passes; the seat still has its second pick turn."""
    pairs = [(PRESS, DOLLARS), (ELEVATOR, PLANS), (PRESTIGE, SKYSCRAPERS), (WILD, WILD),
             (PRESS, ELEVATOR)]
    state, seat, tiles = _position((2,), hand={}, reserve={PRESS: 1, DOLLARS: 1}, pairs=pairs)
    other = 1 - seat
    before = state.copy()
    apply_action(state, _use(2))
    r = rec(state)
    assert r["decision"] == DEC_CHARACTER_PAIR_CARD and r["actor"] == seat
    assert r["dollars"][seat] == 0
    every_card = {CHARACTER_PAIR_CARD + 2 * p + k for p in range(5) for k in range(2)}
    assert _legal(state) == every_card
    apply_action(state, CHARACTER_PAIR_CARD + 2 * 1 + 0)  # the elevator card of pair 1
    # The second card must come from a different pair than the first.
    assert _legal(state) == {CHARACTER_PAIR_CARD + 2 * p + k for p in (0, 2, 3, 4) for k in range(2)}
    _assert_refused(state, CHARACTER_PAIR_CARD + 2 * 1 + 1)
    apply_action(state, CHARACTER_PAIR_CARD + 2 * 3 + 1)  # a wild card of pair 3
    r = rec(state)
    expected = _counts()
    expected[ELEVATOR] = expected[WILD] = 1
    assert _hand(state, seat).tolist() == expected.tolist()
    # The two leftovers (building plans of pair 1, wild of pair 3) form one new pair on display.
    shown = [tuple(sorted(int(x) for x in r["pairs"][p])) for p in range(int(r["num_pairs"]))
             if (r["pairs"][p] != EMPTY).any()]
    assert sorted(shown) == sorted([(PRESS, DOLLARS), (PRESTIGE, SKYSCRAPERS), (PRESS, ELEVATOR),
                                    (PLANS, WILD)])
    assert all((r["pairs"][p] != EMPTY).all() or (r["pairs"][p] == EMPTY).all()
               for p in range(MAX_PAIRS))
    # It was the pick: the turn passed, one of the seat's two picks is done.
    assert r["pairs_taken"][seat] == 1
    assert r["decision"] == DEC_PICK_PAIR and r["actor"] == other
    assert r["dollars"][seat] == 0
    _assert_paid(before, state, seat, tiles[2][0], 2)
    _assert_conserved(state)
    new_pair = next(p for p in range(MAX_PAIRS)
                    if tuple(sorted(int(x) for x in r["pairs"][p])) == (PLANS, WILD))
    assert PICK_PAIR + new_pair in _legal(state)  # the new pair can be taken like any other
    apply_action(state, PICK_PAIR + new_pair)
    r = rec(state)
    assert r["hand"][other, PLANS] >= 1 and r["hand"][other, WILD] >= 1
    assert r["decision"] == DEC_PICK_PAIR and r["actor"] == seat  # the seat's second pick turn
    _assert_conserved(state)


def test_character_3_bigger_reserve_for_the_rest_of_the_game():
    """Addendum 3: "Gain 1 point. Draw 1 card from the draw pile and place it faceup in your
    reserve. As of now you have one more card available to exchange with the cards in your hand."
    R8: the reserve is one card larger for the rest of the game; R9: exchanges keep that size
    (docs/actions.md: as many exchanges per bidding turn as the reserve holds)."""
    state, seat, tiles = _position((3,), hand={PRESS: 1}, reserve={PRESS: 1, DOLLARS: 1},
                                   top=(SKYSCRAPERS,))
    before = state.copy()
    apply_action(state, _use(3))
    r = rec(state)
    assert r["decision"] == DEC_PICK_PAIR and r["actor"] == seat
    assert r["points"][seat] == 1
    assert r["reserve_size"][seat] == 3
    expected = _counts()
    expected[PRESS] = expected[DOLLARS] = expected[SKYSCRAPERS] = 1
    assert _reserve(state, seat).tolist() == expected.tolist()
    assert r["draw_count"] == rec(before)["draw_count"] - 1
    assert r["dollars"][seat] == 0
    _assert_paid(before, state, seat, tiles[3][0], 3)
    faceup = _counts()
    faceup[SKYSCRAPERS] = 1  # "place it faceup in your reserve" (R25, P24)
    assert r["reserve_faceup"][seat].tolist() == faceup.tolist()
    assert _changed(before, state) == {"points", "dollars", "tile_used", "tile_dollar", "reserve",
                                       "reserve_faceup", "reserve_size", "draw_count", "draw_pile"}
    _assert_conserved(state)
    # On the seat's bidding turn: three exchanges, not two.
    pass_until(state, lambda r: r["decision"] == DEC_BID and r["actor"] == seat)
    r = rec(state)
    assert r["reserve_size"][seat] == 3 and r["reserve"][seat].sum() == 3
    assert r["exchanges_left"] == 3
    assert r["reserve_faceup"][seat].tolist() == faceup.tolist()
    set_cards(state, seat, hand={PRESS: 3}, reserve={DOLLARS: 1, ELEVATOR: 1, SKYSCRAPERS: 1})
    _arrange_draw_pile(state)
    for t in (DOLLARS, ELEVATOR, SKYSCRAPERS):
        apply_action(state, EXCHANGE + PRESS * NUM_CARD_TYPES + t)
    assert not any(EXCHANGE <= a < EXCHANGE + NUM_CARD_TYPES ** 2 for a in _legal(state))
    assert rec(state)["reserve"][seat].sum() == 3
    assert rec(state)["reserve_faceup"][seat].sum() == 0  # the face-up card left the reserve
    _assert_conserved(state)


def test_character_4_takes_both_pairs_at_once_and_skips_the_second_pick():
    """Addendum 4: "Instead of taking 1 pair of cards twice, this character allows you to take both
    pairs at once." R8: it replaces the pick; docs/actions.md: PICK_PAIR twice, both picks done, so
    the seat's second pick turn is skipped. Free (components.md): no dollar, still marked used."""
    pairs = [(PRESS, DOLLARS), (ELEVATOR, PLANS), (PRESTIGE, SKYSCRAPERS), (WILD, WILD),
             (PRESS, ELEVATOR)]
    state, seat, tiles = _position((4,), dollars=1, hand={}, pairs=pairs)
    other = 1 - seat
    before = state.copy()
    apply_action(state, _use(4))
    r = rec(state)
    assert r["decision"] == DEC_CHARACTER_PAIR and r["actor"] == seat
    assert _legal(state) == {PICK_PAIR + p for p in range(5)}
    apply_action(state, PICK_PAIR + 1)
    assert rec(state)["decision"] == DEC_CHARACTER_PAIR and rec(state)["actor"] == seat
    assert _legal(state) == {PICK_PAIR + p for p in (0, 2, 3, 4)}
    apply_action(state, PICK_PAIR + 3)
    r = rec(state)
    expected = _counts()
    expected[ELEVATOR] = expected[PLANS] = 1
    expected[WILD] = 2
    assert _hand(state, seat).tolist() == expected.tolist()
    assert (r["pairs"][1] == EMPTY).all() and (r["pairs"][3] == EMPTY).all()
    assert r["pairs_taken"][seat] == 2
    assert r["dollars"][seat] == 1  # free
    _assert_paid(before, state, seat, tiles[4][0], 4)
    _assert_conserved(state)
    # The other seat picks twice in a row: the seat's second pick turn is skipped.
    assert r["decision"] == DEC_PICK_PAIR and r["actor"] == other
    apply_action(state, PICK_PAIR + 0)
    r = rec(state)
    assert r["decision"] == DEC_PICK_PAIR and r["actor"] == other
    apply_action(state, PICK_PAIR + 2)
    r = rec(state)
    assert r["decision"] != DEC_PICK_PAIR  # Phase I is over
    assert rec(state)["hand"][seat].tolist() == expected.tolist()
    _assert_conserved(state)


def test_character_4_only_before_the_first_pick():
    """Addendum 4 replaces *both* picks ("instead of taking 1 pair of cards twice"), so it is
    offered only before the seat's first pick (docs/actions.md), even with the tile unused."""
    state, seat, tiles = _position((4,), dollars=1)
    assert _use(4) in _legal(state)
    apply_action(state, PICK_PAIR + 0)
    pass_until(state, lambda r: r["decision"] == DEC_PICK_PAIR and r["actor"] == seat)
    r = rec(state)
    assert r["pairs_taken"][seat] == 1 and r["tile_used"][tiles[4][0]] == 0
    assert _use(4) not in _legal(state)
    _assert_refused(state, _use(4))


def test_character_5_draw_three_then_discard_exactly_two():
    """Addendum 5: "Draw 3 cards from the draw pile. Put 2 cards on the discard pile."
    docs/actions.md: CHARACTER_CARD twice, no CHARACTER_DONE (the two discards are compulsory)."""
    state, seat, tiles = _position((5,), hand={PLANS: 1}, top=(PRESS, DOLLARS, ELEVATOR))
    before = state.copy()
    apply_action(state, _use(5))
    r = rec(state)
    assert r["decision"] == DEC_CHARACTER_CARD and r["actor"] == seat
    expected = _counts()
    expected[PRESS] = expected[DOLLARS] = expected[ELEVATOR] = expected[PLANS] = 1
    assert _hand(state, seat).tolist() == expected.tolist()
    assert r["draw_count"] == rec(before)["draw_count"] - 3
    assert _legal(state) == {CHARACTER_CARD + t for t in (PRESS, DOLLARS, ELEVATOR, PLANS)}
    apply_action(state, CHARACTER_CARD + PLANS)
    r = rec(state)
    assert r["decision"] == DEC_CHARACTER_CARD  # a second discard is still owed
    assert _legal(state) == {CHARACTER_CARD + t for t in (PRESS, DOLLARS, ELEVATOR)}
    apply_action(state, CHARACTER_CARD + PRESS)
    r = rec(state)
    assert r["decision"] == DEC_PICK_PAIR and r["actor"] == seat
    expected = _counts()
    expected[DOLLARS] = expected[ELEVATOR] = 1
    assert _hand(state, seat).tolist() == expected.tolist()
    discard = rec(before)["discard"].astype(np.int64).copy()
    discard[PLANS] += 1
    discard[PRESS] += 1
    assert r["discard"].tolist() == discard.tolist()
    assert r["dollars"][seat] == 0
    _assert_paid(before, state, seat, tiles[5][0], 5)
    assert _changed(before, state) == {"dollars", "tile_used", "tile_dollar", "hand", "discard",
                                       "draw_count", "draw_pile"}
    _assert_conserved(state)


def test_character_6_two_dollars():
    """Addendum 6: "Take 2 dollars from the supply" — after placing 1 dollar on the tile."""
    state, seat, tiles = _position((6,), dollars=1)
    before = state.copy()
    apply_action(state, _use(6))
    r = rec(state)
    assert r["decision"] == DEC_PICK_PAIR and r["actor"] == seat
    assert r["dollars"][seat] == 1 - 1 + 2
    _assert_paid(before, state, seat, tiles[6][0], 6)
    assert _changed(before, state) == {"dollars", "tile_used", "tile_dollar"}
    _assert_conserved(state)


def _display_slots(state, max_value):
    r = rec(state)
    return {ELEVATOR_TAKE + row * ELEVATOR_COLUMNS + col
            for row in range(NUM_TILE_VALUES) for col in range(ELEVATOR_COLUMNS)
            if r["elevator_display"][row, col] != EMPTY
            and TILE_VALUE[r["elevator_display"][row, col]] <= max_value}


@pytest.mark.parametrize("give_up_value, take_value", [(2, 3), (5, 5)])
def test_character_7_addendum_example(give_up_value, take_value):
    """Addendum 7: "Discard 1 character and take 1 character with a value up to 1 higher than the
    discarded one. Remove the discarded character from the game. Example: If you discard a
    character with value 2, you may take character with value 3 from the display. If you discard
    a character with value 5, you simply take a new character with value 5." R14: the taken
    display slot is refilled from the top of that value's stack."""
    state, seat, tiles = _position((7, OTHER_VALUE_2, OTHER_VALUE_5), dollars=1)
    give_up = tiles[OTHER_VALUE_2 if give_up_value == 2 else OTHER_VALUE_5][0]
    assert TILE_VALUE[give_up] == give_up_value
    before = state.copy()
    apply_action(state, _use(7))
    r = rec(state)
    assert r["decision"] == DEC_CHARACTER_TILE and r["actor"] == seat
    owned = {CHARACTER_TILE + t for ts in tiles.values() for t in ts}
    offered = _legal(state)
    assert {CHARACTER_TILE + tiles[OTHER_VALUE_2][0], CHARACTER_TILE + tiles[OTHER_VALUE_5][0]} <= offered
    assert offered <= owned
    apply_action(state, CHARACTER_TILE + give_up)
    r = rec(state)
    assert r["decision"] == DEC_CHARACTER_ELEVATOR and r["actor"] == seat
    assert r["tile_loc"][give_up] == LOC_REMOVED and r["tile_owner"][give_up] == NO_SEAT
    assert _legal(state) == _display_slots(state, give_up_value + 1 if give_up_value < 5 else 5)
    assert _legal(state) != _display_slots(state, 5) or give_up_value == 5
    row = take_value - 1
    slot = ELEVATOR_TAKE + row * ELEVATOR_COLUMNS + 1
    taken = int(r["elevator_display"][row, 1])
    assert TILE_VALUE[taken] == take_value
    stack_before = int(r["elevator_count"][row])
    refill = int(r["elevator_stack"][row, stack_before - 1])
    apply_action(state, slot)
    r = rec(state)
    assert r["decision"] == DEC_PICK_PAIR and r["actor"] == seat  # the pick turn goes on
    assert r["tile_loc"][taken] == LOC_OWNED and r["tile_owner"][taken] == seat
    assert r["tile_used"][taken] == 0
    assert r["elevator_display"][row, 1] == refill and r["tile_loc"][refill] == LOC_DISPLAY
    assert r["elevator_count"][row] == stack_before - 1
    # The given-up tile left the game: not owned, not on display, not in any stack.
    assert r["tile_loc"][give_up] == LOC_REMOVED and r["tile_owner"][give_up] == NO_SEAT
    assert give_up not in r["elevator_display"]
    assert give_up not in r["elevator_stack"]
    assert r["dollars"][seat] == 0
    _assert_paid(before, state, seat, tiles[7][0], 7)
    assert r["tile_dollar"][tiles[7][0]] == 1
    assert _changed(before, state) == {"dollars", "tile_used", "tile_dollar", "tile_loc", "tile_owner",
                                       "elevator_display", "elevator_stack", "elevator_count"}
    _assert_conserved(state)


def test_character_7_not_offered_when_no_display_tile_is_reachable():
    """Addendum 7 needs a display tile of value up to 1 higher than a tile the seat gives up;
    docs/actions.md: USE_CHARACTER is offered only when the ability can have an effect. With the
    display holding only value-5 tiles and the seat owning only value-2 tiles, 7 is not offered."""
    state, seat, tiles = _position((7,), dollars=1)
    r = rec(state)
    for row in range(NUM_TILE_VALUES - 1):
        for col in range(ELEVATOR_COLUMNS):
            t = r["elevator_display"][row, col]
            if t != EMPTY:
                r["tile_loc"][t] = LOC_REMOVED
                r["elevator_display"][row, col] = EMPTY
    assert _use(7) not in _legal(state)
    _assert_refused(state, _use(7))


@pytest.mark.parametrize("reserve, offered", [
    ({DOLLARS: 1, ELEVATOR: 1}, (DOLLARS, ELEVATOR)),
    ({DOLLARS: 1, SKYSCRAPERS: 1}, (DOLLARS,)),
    ({ELEVATOR: 2}, (ELEVATOR,)),
])
def test_character_8_addendum_example(reserve, offered):
    """Addendum 8: "For each card in the pair of cards you just took, you may take 1 identical card
    from your reserve on your hand. Refill your reserve from the draw pile. Example: If you take a
    pair of one white card and one yellow card to your hand, you may also take one white card and
    one yellow card from your reserve to your hand, provided they are already in your reserve at
    this time." R8: used right after taking a pair; docs/actions.md: the window offers
    USE_CHARACTER 8 or END_TURN; CHARACTER_CARD per card, CHARACTER_DONE."""
    state, seat, tiles = _position((8, 6), dollars=2, hand={}, reserve=reserve, pairs=PAIRS_8,
                                   top=(PRESS, WILD))
    other = 1 - seat
    assert _use(8) not in _legal(state)  # not before taking a pair
    apply_action(state, PICK_PAIR + 0)
    r = rec(state)
    assert r["decision"] == DEC_AFTER_PICK and r["actor"] == seat
    assert _legal(state) == {_use(8), END_TURN}  # not 6 either: only 8 in this window
    before = state.copy()
    apply_action(state, _use(8))
    r = rec(state)
    assert r["decision"] == DEC_CHARACTER_CARD and r["dollars"][seat] == 1
    assert _legal(state) == {CHARACTER_CARD + t for t in offered} | {CHARACTER_DONE}
    for t in offered:
        apply_action(state, CHARACTER_CARD + t)
    r = rec(state)
    assert r["decision"] == DEC_PICK_PAIR and r["actor"] == other  # the pick turn is over
    hand = _counts()
    hand[DOLLARS] += 1
    hand[ELEVATOR] += 1
    for t in offered:
        hand[t] += 1
    assert _hand(state, seat).tolist() == hand.tolist()
    # Refilled to reserve_size from the top of the draw pile.
    res = _counts()
    for t, n in reserve.items():
        res[t] += n
    drawn = (PRESS, WILD)[: len(offered)]
    for t in offered:
        res[t] -= 1
    for t in drawn:
        res[t] += 1
    assert _reserve(state, seat).tolist() == res.tolist()
    assert r["reserve"][seat].sum() == r["reserve_size"][seat] == 2
    assert r["draw_count"] == rec(before)["draw_count"] - len(offered)
    assert r["dollars"][seat] == 1
    _assert_paid(before, state, seat, tiles[8][0], 8)
    _assert_conserved(state)


def test_character_8_may_stop_and_no_window_without_a_match():
    """Addendum 8: "you *may* take" (CHARACTER_DONE is offered; stopping at once still costs the
    dollar), and the window opens only when a card of the pair just taken is in the reserve
    ("provided they are already in your reserve")."""
    state, seat, tiles = _position((8,), dollars=1, hand={}, reserve={DOLLARS: 1, PLANS: 1},
                                   pairs=PAIRS_8)
    apply_action(state, PICK_PAIR + 0)
    before = state.copy()
    apply_action(state, _use(8))
    assert _legal(state) == {CHARACTER_CARD + DOLLARS, CHARACTER_DONE}
    apply_action(state, CHARACTER_DONE)
    r = rec(state)
    assert r["actor"] == 1 - seat and r["decision"] == DEC_PICK_PAIR
    assert _reserve(state, seat).tolist() == _reserve(before, seat).tolist()
    assert r["dollars"][seat] == 0
    _assert_paid(before, state, seat, tiles[8][0], 8)
    _assert_conserved(state)
    # No match: taking pair 1 (two building plans... the reserve holds one) opens the window,
    # but a pair of press + wild with neither in the reserve does not.
    state, seat, tiles = _position((8,), dollars=1, hand={}, reserve={DOLLARS: 1, ELEVATOR: 1},
                                   pairs=PAIRS_8)
    apply_action(state, PICK_PAIR + 3)  # press + wild
    r = rec(state)
    assert r["decision"] == DEC_PICK_PAIR and r["actor"] == 1 - seat
    assert r["tile_used"][tiles[8][0]] == 0 and r["dollars"][seat] == 1


def test_character_9_a_card_and_a_dollar():
    """Addendum 9: "Draw 1 card from the draw pile and take 1 dollar from the supply." """
    state, seat, tiles = _position((9,), dollars=1, hand={PRESS: 1}, top=(PRESTIGE,))
    before = state.copy()
    apply_action(state, _use(9))
    r = rec(state)
    assert r["decision"] == DEC_PICK_PAIR and r["actor"] == seat
    expected = _counts()
    expected[PRESS] = expected[PRESTIGE] = 1
    assert _hand(state, seat).tolist() == expected.tolist()
    assert r["draw_count"] == rec(before)["draw_count"] - 1
    assert r["dollars"][seat] == 1 - 1 + 1
    _assert_paid(before, state, seat, tiles[9][0], 9)
    assert _changed(before, state) == {"tile_used", "tile_dollar", "hand", "draw_count",
                                       "draw_pile"}  # net 0 $
    _assert_conserved(state)


def test_character_10_two_cards():
    """Addendum 10: "Draw 2 cards from the draw pile." """
    state, seat, tiles = _position((10,), dollars=1, hand={PRESS: 1}, top=(WILD, SKYSCRAPERS))
    before = state.copy()
    apply_action(state, _use(10))
    r = rec(state)
    assert r["decision"] == DEC_PICK_PAIR and r["actor"] == seat
    expected = _counts()
    expected[PRESS] = expected[WILD] = expected[SKYSCRAPERS] = 1
    assert _hand(state, seat).tolist() == expected.tolist()
    assert r["draw_count"] == rec(before)["draw_count"] - 2
    assert r["dollars"][seat] == 0
    _assert_paid(before, state, seat, tiles[10][0], 10)
    assert _changed(before, state) == {"dollars", "tile_used", "tile_dollar", "hand", "draw_count",
                                       "draw_pile"}
    _assert_conserved(state)


def test_character_11_replaces_a_neutral_skyscraper():
    """Addendum 11: "Replace 1 neutral skyscraper with 1 skyscraper from your player board. Remove
    the neutral skyscraper from the game." docs/actions.md: CHARACTER_BOROUGH of a borough holding a
    neutral skyscraper."""
    state, seat, tiles = _position((11,), dollars=1)
    clear_skyscrapers(state, neutral=0)
    r = rec(state)
    r["skyscrapers"][BROOKLYN, NEUTRAL] = 2
    r["skyscrapers"][STATEN_ISLAND, NEUTRAL] = 1
    r["skyscrapers"][STATEN_ISLAND, seat] = 1
    r["board_skyscrapers"][seat] = 3
    before = state.copy()
    apply_action(state, _use(11))
    r = rec(state)
    assert r["decision"] == DEC_CHARACTER_BOROUGH and r["actor"] == seat
    assert _legal(state) == {CHARACTER_BOROUGH + BROOKLYN, CHARACTER_BOROUGH + STATEN_ISLAND}
    apply_action(state, CHARACTER_BOROUGH + STATEN_ISLAND)
    r = rec(state)
    assert r["decision"] == DEC_PICK_PAIR and r["actor"] == seat
    assert r["skyscrapers"][STATEN_ISLAND, NEUTRAL] == 0
    assert r["skyscrapers"][STATEN_ISLAND, seat] == 2
    assert r["skyscrapers"][BROOKLYN, NEUTRAL] == 2
    assert int(r["skyscrapers"][:, NEUTRAL].sum()) == 2  # one neutral left the game
    assert r["board_skyscrapers"][seat] == 2
    expected = rec(before)["skyscrapers"].copy()
    expected[STATEN_ISLAND, NEUTRAL] -= 1
    expected[STATEN_ISLAND, seat] += 1
    assert (r["skyscrapers"] == expected).all()
    assert r["dollars"][seat] == 0
    _assert_paid(before, state, seat, tiles[11][0], 11)
    assert _changed(before, state) == {"dollars", "tile_used", "tile_dollar", "skyscrapers",
                                       "board_skyscrapers"}
    _assert_conserved(state)


def test_character_11_needs_a_neutral_skyscraper_and_one_on_the_board():
    """Addendum 11 replaces a neutral skyscraper with one from the player board: with no neutral
    skyscraper on the board, or none on the player board, it has no effect and is not offered."""
    state, seat, _ = _position((11,), dollars=1)
    clear_skyscrapers(state, neutral=0)
    assert _use(11) not in _legal(state)
    _assert_refused(state, _use(11))
    rec(state)["skyscrapers"][BROOKLYN, NEUTRAL] = 1
    assert _use(11) in _legal(state)
    rec(state)["board_skyscrapers"][seat] = 0
    assert _use(11) not in _legal(state)
    _assert_refused(state, _use(11))


# --- once per round, copies, phase, dollar -----------------------------------------------------
@pytest.mark.parametrize("c", PHASE_I_CHARACTERS)
def test_once_per_round_per_tile(c):
    """Rulebook "Characters": "Players may use a character's ability assigned to phases I - III only
    once per game round". After the use, the seat's next chance to use it this round offers no
    USE_CHARACTER and apply_action refuses it, state unchanged."""
    state, seat, tiles = _ready(c, dollars=3)
    tile = tiles[0]
    _resolve(state, c)
    r = rec(state)
    assert r["tile_used"][tile] == 1
    if c == 8:
        # The seat's second pick: pair 2 again matches the reserve, but no window opens.
        pass_until(state, lambda r: r["decision"] == DEC_PICK_PAIR and r["actor"] == seat)
        assert _reserve(state, seat)[DOLLARS] >= 1
        apply_action(state, PICK_PAIR + 2)
        r = rec(state)
        assert not (r["decision"] == DEC_AFTER_PICK and r["actor"] == seat)
        assert r["pairs_taken"][seat] == 2
        return
    if c == 4:
        # No pick turn is left this round; a probe with the first pick restored shows that the
        # used tile alone keeps 4 from being offered.
        assert r["pairs_taken"][seat] == 2
        probe = state.copy()
        p = rec(probe)
        p["actor"] = seat
        p["decision"] = DEC_PICK_PAIR
        p["pairs_taken"][seat] = 0
        assert _use(4) not in _legal(probe)
        _assert_refused(probe, _use(4))
        p["tile_used"][tile] = 0
        assert _use(4) in _legal(probe)
        return
    pass_until(state, lambda r: r["decision"] == DEC_PICK_PAIR and r["actor"] == seat)
    r = rec(state)
    assert r["dollars"][seat] >= 1
    assert _use(c) not in _legal(state)
    _assert_refused(state, _use(c))


@pytest.mark.parametrize("c", TWO_COPIES_SAME_TURN)
def test_second_copy_is_used_separately_same_turn(c):
    """docs/actions.md: "Each copy is its own tile: with two copies of a character, USE_CHARACTER c
    is offered again after the first is used" (rulebook: "each character may be used once for each
    1 dollar paid"). Each use costs its own dollar, placed on its own tile."""
    state, seat, tiles = _ready(c, copies=2, dollars=2)
    gain = {6: 2, 9: 1}.get(c, 0)
    apply_action(state, _use(c))
    if c == 11:
        apply_action(state, min(_legal(state)))
    r = rec(state)
    assert sorted(int(r["tile_used"][t]) for t in tiles) == [0, 1]
    assert r["dollars"][seat] == 2 - 1 + gain
    assert r["decision"] == DEC_PICK_PAIR and _use(c) in _legal(state)
    apply_action(state, _use(c))
    if c == 11:
        apply_action(state, min(_legal(state)))
    r = rec(state)
    assert [int(r["tile_used"][t]) for t in tiles] == [1, 1]
    assert [int(r["tile_dollar"][t]) for t in tiles] == [1, 1]
    assert r["dollars"][seat] == 2 - 2 + 2 * gain
    assert _use(c) not in _legal(state)
    _assert_refused(state, _use(c))
    _assert_conserved(state)


def test_second_copy_of_2_on_the_second_pick():
    """Character 2 is the pick itself (R8), so a second copy is used on the seat's second pick
    turn; each copy costs its own dollar."""
    state, seat, tiles = _ready(2, copies=2, dollars=2)
    _resolve(state, 2)
    pass_until(state, lambda r: r["decision"] == DEC_PICK_PAIR and r["actor"] == seat)
    assert _use(2) in _legal(state)
    _resolve(state, 2)
    r = rec(state)
    assert [int(r["tile_used"][t]) for t in tiles[:2]] == [1, 1]
    assert [int(r["tile_dollar"][t]) for t in tiles[:2]] == [1, 1]
    assert r["dollars"][seat] == 0 and r["pairs_taken"][seat] == 2
    _assert_conserved(state)


def test_second_copy_of_8_after_the_same_pick_and_the_next():
    """Rulebook "Characters": "Unless mentioned otherwise, each character may be used once for each
    1 dollar paid"; docs/actions.md: each copy is its own tile. With two copies of 8 the window
    opens again after the first use while a card of the pair just taken is (again) in the
    refilled reserve; the second copy again allows one identical card per card of the pair, pays
    its own dollar, and then the window closes."""
    state, seat, tiles = _position((8,), copies=2, dollars=2, hand={},
                                   reserve={DOLLARS: 1, ELEVATOR: 1}, pairs=PAIRS_8,
                                   top=(DOLLARS, ELEVATOR, PRESS, WILD))
    apply_action(state, PICK_PAIR + 0)
    apply_action(state, _use(8))
    apply_action(state, CHARACTER_CARD + DOLLARS)
    apply_action(state, CHARACTER_CARD + ELEVATOR)
    r = rec(state)
    assert sorted(int(r["tile_used"][t]) for t in tiles[8]) == [0, 1]
    assert r["dollars"][seat] == 1
    # The refill drew a dollar and an elevator card (top of the pile) back into the reserve.
    assert _reserve(state, seat)[DOLLARS] == 1 and _reserve(state, seat)[ELEVATOR] == 1
    assert r["decision"] == DEC_AFTER_PICK and r["actor"] == seat
    assert _legal(state) == {_use(8), END_TURN}
    before = state.copy()
    apply_action(state, _use(8))
    assert _legal(state) == {CHARACTER_CARD + DOLLARS, CHARACTER_CARD + ELEVATOR, CHARACTER_DONE}
    apply_action(state, CHARACTER_CARD + DOLLARS)
    apply_action(state, CHARACTER_CARD + ELEVATOR)
    r = rec(state)
    assert [int(r["tile_used"][t]) for t in tiles[8]] == [1, 1]
    assert [int(r["tile_dollar"][t]) for t in tiles[8]] == [1, 1]
    assert r["dollars"][seat] == 0
    _assert_paid(before, state, seat, [t for t in tiles[8] if rec(before)["tile_used"][t] == 0][0], 8)
    expected = _counts()
    expected[DOLLARS] = expected[ELEVATOR] = 3  # the pair + one per use of 8
    assert _hand(state, seat).tolist() == expected.tolist()
    expected = _counts()
    expected[PRESS] = expected[WILD] = 1
    assert _reserve(state, seat).tolist() == expected.tolist()
    assert r["decision"] == DEC_PICK_PAIR and r["actor"] == 1 - seat  # no copy left: turn over
    _assert_conserved(state)


def test_second_copy_of_4_is_marked_separately():
    """Character 4 takes both picks, so one round has room for one use; with two copies only the
    used tile is marked (each copy is its own tile, docs/actions.md), and no dollar is paid."""
    state, seat, tiles = _ready(4, copies=2, dollars=0)
    _resolve(state, 4)
    r = rec(state)
    assert sorted(int(r["tile_used"][t]) for t in tiles) == [0, 1]
    assert [int(r["tile_dollar"][t]) for t in tiles] == [0, 0]
    assert r["dollars"][seat] == 0 and r["pairs_taken"][seat] == 2


def _make_effective(state, seat, c):
    """Set what ability ``c`` needs beyond phase, tile and dollar (pairs on display, a first pick
    ahead, a matching reserve card, a neutral skyscraper...), so only the decision differs."""
    r = rec(state)
    r["dollars"][seat] = 5
    if c in (2, 4):
        r["pairs"][0] = (PRESS, DOLLARS)
        r["pairs"][1] = (ELEVATOR, PLANS)
        r["num_pairs"] = max(int(r["num_pairs"]), 2)
        r["pairs_taken"][seat] = 0
    if c == 8:
        r["ability_memory"][:] = int(np.flatnonzero(r["reserve"][seat])[0])  # a remembered pair card
    if c == 11:
        r["skyscrapers"][BROOKLYN, NEUTRAL] = max(1, int(r["skyscrapers"][BROOKLYN, NEUTRAL]))
        r["board_skyscrapers"][seat] = max(1, int(r["board_skyscrapers"][seat]))


@pytest.mark.parametrize("c", PHASE_I_CHARACTERS)
def test_only_on_own_turn_in_phase_one(c):
    """Rulebook "Characters": "only during that character's indicated phase ... on the player's own
    turn"; R8. A Phase I character is not offered on another seat's pick, on its owner's bidding
    turn (Phase II) or Phase III turn, even with everything else in place."""
    state = phase1_pick(2)
    first = int(rec(state)["actor"])
    owner = 1 - first
    tile = give_character(state, owner, c)
    give_character(state, owner, PHASE_III_CHARACTER)
    rec(state)["dollars"][owner] = 3
    probe = state.copy()
    _make_effective(probe, owner, c)
    assert _use(c) not in _legal(probe)  # the other seat's pick turn
    _assert_refused(probe, _use(c))
    if c != 8:
        probe = state.copy()
        rec(probe)["actor"] = owner
        _make_effective(probe, owner, c)
        assert _use(c) in _legal(probe)  # control: the owner's own pick turn offers it
    for decision in (DEC_BID, DEC_PHASE3):
        pass_until(state, lambda r, d=decision: r["decision"] == d and r["actor"] == owner)
        probe = state.copy()
        _make_effective(probe, owner, c)
        assert _use(c) not in _legal(probe)
        _assert_refused(probe, _use(c))
        assert rec(state)["tile_used"][tile] == 0
    if c == 8:
        return
    # Control for the probes above: the same tweaks at the owner's next Phase I pick offer it.
    pass_until(state, lambda r: r["decision"] == DEC_PICK_PAIR and r["actor"] == owner)
    _make_effective(state, owner, c)
    assert _use(c) in _legal(state)


def test_character_8_only_in_the_window_after_a_pick():
    """R8: "Character 8 is used right after taking a pair" — not before the pick, not on a bidding
    turn, even with a pair's card remembered that matches the reserve."""
    state, seat, _ = _position((8,), dollars=2, hand={}, reserve={DOLLARS: 1, ELEVATOR: 1},
                               pairs=PAIRS_8)
    probe = state.copy()
    _make_effective(probe, seat, 8)
    assert _use(8) not in _legal(probe)
    _assert_refused(probe, _use(8))
    apply_action(state, PICK_PAIR + 0)
    assert _use(8) in _legal(state)
    # Going on without it: nothing paid, the turn passes once, the second pick comes later.
    before = state.copy()
    apply_action(state, END_TURN)
    r = rec(state)
    assert r["decision"] == DEC_PICK_PAIR and r["actor"] == 1 - seat
    assert r["pairs_taken"][seat] == 1 and r["dollars"][seat] == 2
    assert _changed(before, state) - {"actor", "decision", "cursor"} == set()
    apply_action(state, min(_legal(state)))
    r = rec(state)
    assert r["decision"] == DEC_PICK_PAIR and r["actor"] == seat


@pytest.mark.parametrize("c", PAID_CHARACTERS)
def test_not_offered_without_a_dollar(c):
    """Rulebook "Characters": "they must place 1 dollar on that character before they use it". With
    no dollar on the board the character is not offered (character 8: its window does not open)
    and apply_action refuses it; with one dollar the same position offers it."""
    state, seat, _ = _ready(c, dollars=1)
    assert _use(c) in _legal(state)
    if c == 8:
        state, seat, _ = _position((8,), dollars=0, hand={}, reserve={DOLLARS: 1, ELEVATOR: 1},
                                   pairs=PAIRS_8)
        apply_action(state, PICK_PAIR + 0)
        r = rec(state)
        assert not (r["decision"] == DEC_AFTER_PICK and r["actor"] == seat)
        probe = state.copy()
        p = rec(probe)
        p["actor"] = seat
        p["decision"] = DEC_AFTER_PICK
        p["ability_memory"][:] = DOLLARS
        assert _legal(probe) == {END_TURN}
        _assert_refused(probe, _use(8))
        return
    rec(state)["dollars"][seat] = 0
    assert _use(c) not in _legal(state)
    _assert_refused(state, _use(c))


def test_character_4_is_free():
    """components.md: character 4 is free (the rulebook's "no dollar" symbol: "You do not need to
    pay 1 dollar to use characters with this symbol"): offered and used with 0 dollars, no dollar
    placed, the tile still marked used."""
    state, seat, tiles = _ready(4, dollars=0)
    before = state.copy()
    _resolve(state, 4)
    r = rec(state)
    assert r["dollars"][seat] == 0 and r["pairs_taken"][seat] == 2
    _assert_paid(before, state, seat, tiles[0], 4)
    _assert_conserved(state)


def test_used_marker_clears_in_the_next_round():
    """Rulebook Phase 0 "Return dollars ... placed on characters during the previous round" and R19:
    "Dollars on characters return to the supply in the next Phase 0, and every character can be
    used again." The dollars stay on the tiles for the rest of the round; character 3's bigger
    reserve stays (R8: for the rest of the game)."""
    state, seat, tiles = _position((3, 4, 6, 10), dollars=3, hand={PRESS: 1})
    for c in (6, 10, 3):
        _resolve(state, c)
    _resolve(state, 4)
    r = rec(state)
    paid = [tiles[c][0] for c in (3, 6, 10)]
    assert [int(r["tile_dollar"][t]) for t in paid] == [1, 1, 1]
    assert r["tile_used"][tiles[4][0]] == 1 and r["tile_dollar"][tiles[4][0]] == 0
    assert r["dollars"][seat] == 3 - 3 + 2
    _assert_conserved(state)
    pass_until(state, lambda r: r["decision"] == DEC_BID and r["bid_round"] == 5)
    r = rec(state)
    assert r["round"] == 1
    assert [int(r["tile_dollar"][t]) for t in paid] == [1, 1, 1]  # still on the tiles
    assert all(r["tile_used"][tiles[c][0]] == 1 for c in (3, 4, 6, 10))
    pass_until(state, lambda r: r["round"] == 2 and r["decision"] == DEC_PICK_PAIR
               and r["actor"] == seat)
    r = rec(state)
    all_tiles = [tiles[c][0] for c in (3, 4, 6, 10)]
    assert [int(r["tile_used"][t]) for t in all_tiles] == [0, 0, 0, 0]
    assert [int(r["tile_dollar"][t]) for t in all_tiles] == [0, 0, 0, 0]
    assert r["reserve_size"][seat] == 3 and r["reserve"][seat].sum() == 3
    assert r["pairs_taken"][seat] == 0
    r["dollars"][seat] = 1
    assert {_use(c) for c in (3, 4, 6, 10)} <= _legal(state)
    before = state.copy()
    apply_action(state, _use(6))
    r = rec(state)
    assert r["dollars"][seat] == 2
    _assert_paid(before, state, seat, tiles[6][0], 6)
    _assert_conserved(state)


def test_tiles_of_phase_one_characters_counted():
    """components.md: characters 1, 3, 5 and 7 exist once (one elevator tile, no start tile), so
    their 'second copy' cannot occur; 2, 4, 6, 8, 9, 10 and 11 have at least two tiles."""
    counts = {c: int((TILE_CHARACTER == c).sum()) for c in PHASE_I_CHARACTERS}
    assert {c for c, n in counts.items() if n == 1} == {1, 3, 5, 7}
    assert all(counts[c] >= 2 for c in (2, 4, 6, 8, 9, 10, 11))
