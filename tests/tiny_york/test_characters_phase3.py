"""Phase III characters 23-27 (addendum "Phase III Characters"; rulebook "Phase III -
Activating Phase III characters"; R18, R19).

Each scenario starts at the skyscraper bidding round of round 1 with every character stripped,
gives the tiles under test, lets every bid pass and stops at the first Phase III decision. The
effects are checked field by field against the whole record: only what the addendum names (and
the 1 dollar paid onto the tile) may change. Colours of the rulebook examples map to seats:
Red = seat 0, Yellow = seat 1, Blue = seat 2.
"""

import numpy as np
import pytest

from tests.tiny_york.scenario import (
    bidding_round,
    give_character,
    pass_until,
    phase1_pick,
    rec,
    set_cards,
    set_press,
)
from tiny_york_env.games.tiny_york import STATE_DTYPE, apply_action, legal_actions
from tiny_york_env.games.tiny_york.actions import BID_CARD, BID_DONE, END_TURN, USE_CHARACTER
from tiny_york_env.games.tiny_york.components import (
    NEUTRAL,
    NUM_BOROUGHS,
    PRESS,
    PRESS_LAST_SPACE,
    SKYSCRAPERS,
)
from tiny_york_env.games.tiny_york.state import (
    DEC_AFTER_EVALUATION,
    DEC_BID,
    DEC_PHASE3,
    DEC_PICK_PAIR,
    STAGE_PHASE3,
)

RED, YELLOW, BLUE, GREEN = 0, 1, 2, 3
PHASE3_CHARACTERS = (23, 24, 25, 26, 27)
# Engine bookkeeping between decisions: where the turn is, not what the game holds.
BOOKKEEPING = {"num_decisions", "decision", "actor", "cursor", "ability", "ability_context",
               "ability_count", "ability_limit", "ability_memory"}


# --- helpers -------------------------------------------------------------------------------
def use(c):
    return USE_CHARACTER + c - 1


def _mask(state):
    return set(legal_actions(state).tolist())


def _changes(before, after):
    """{(field, index): (old, new)} for every non-bookkeeping entry that differs."""
    out = {}
    for name in STATE_DTYPE.names:
        if name in BOOKKEEPING:
            continue
        a, b = np.asarray(before[name]), np.asarray(after[name])
        for idx in map(tuple, np.argwhere(a != b)):
            out[(name, idx)] = (a[idx].item(), b[idx].item())
    return out


def _phase3(num_agents, characters, dollars, spaces=None, neutral=None, seed=0):
    """Round 1, skyscraper bidding round, characters stripped; ``characters[seat]`` lists the
    characters given to ``seat`` (one tile each), ``dollars[seat]`` its dollars; every bid
    passes. Returns the state at the first Phase III decision and {seat: [tiles]}."""
    state = bidding_round(num_agents, SKYSCRAPERS, seed=seed)
    r = rec(state)
    tiles = {seat: [give_character(state, seat, c) for c in cs] for seat, cs in characters.items()}
    r["dollars"][:num_agents] = dollars
    if spaces is not None:
        set_press(state, spaces)
    if neutral is not None:
        r["press_space"][NEUTRAL] = neutral
    pass_until(state, lambda x: x["decision"] == DEC_PHASE3)
    assert r["round"] == 1 and r["stage"] == STAGE_PHASE3
    return state, tiles


def _assert_refused(state, action):
    """Not in the mask, and apply_action raises leaving the record byte-identical."""
    assert action not in _mask(state)
    before = state.tobytes()
    with pytest.raises(ValueError):
        apply_action(state, action)
    assert state.tobytes() == before


def _use_and_diff(state, c):
    before = state.copy()
    apply_action(state, use(c))
    return before, _changes(before, state)


def _assert_on_top(r, seat):
    """R2: a token arriving on an occupied space (below 15) goes on top."""
    space = r["press_space"][seat]
    n = int(r["num_seats"])
    for other in list(range(n)) + [NEUTRAL]:
        if other != seat and r["press_space"][other] == space:
            assert r["press_height"][seat] > r["press_height"][other]


def _companion(c):
    """Another Phase III character, so the user keeps the turn after using ``c``."""
    return 25 if c == 23 else 23


# --- the effects ---------------------------------------------------------------------------
def test_23_gains_2_points_for_1_dollar():
    state, tiles = _phase3(2, {RED: [23, 25]}, [2, 0])
    r = rec(state)
    tile = tiles[RED][0]
    assert r["actor"] == RED and _mask(state) == {use(23), use(25), END_TURN}
    before, diff = _use_and_diff(state, 23)
    assert diff == {("points", (RED,)): (0, 2), ("dollars", (RED,)): (2, 1),
                    ("tile_used", (tile,)): (0, 1), ("tile_dollar", (tile,)): (0, 1)}
    assert r["decision"] == DEC_PHASE3 and r["actor"] == RED
    assert _mask(state) == {use(25), END_TURN}


def test_25_gains_3_points_for_1_dollar():
    state, tiles = _phase3(2, {YELLOW: [25, 23]}, [0, 2])
    r = rec(state)
    tile = tiles[YELLOW][0]
    assert r["actor"] == YELLOW
    before, diff = _use_and_diff(state, 25)
    assert diff == {("points", (YELLOW,)): (0, 3), ("dollars", (YELLOW,)): (2, 1),
                    ("tile_used", (tile,)): (0, 1), ("tile_dollar", (tile,)): (0, 1)}
    assert r["decision"] == DEC_PHASE3 and r["actor"] == YELLOW


def test_24_rulebook_example_red_point_and_skyscraper_from_supply():
    """"Red placed 1 dollar on character 24 and advances 1 step on the points track. Red also
    takes 1 red skyscraper from the common supply" (onto the player board, addendum 24)."""
    state, tiles = _phase3(3, {RED: [24, 23]}, [2, 0, 0])
    r = rec(state)
    tile = tiles[RED][0]
    city = r["skyscrapers"].copy()
    board = int(r["board_skyscrapers"][RED])
    assert r["actor"] == RED
    before, diff = _use_and_diff(state, 24)
    assert diff == {("points", (RED,)): (0, 1), ("dollars", (RED,)): (2, 1),
                    ("board_skyscrapers", (RED,)): (board, board + 1),
                    ("tile_used", (tile,)): (0, 1), ("tile_dollar", (tile,)): (0, 1)}
    np.testing.assert_array_equal(r["skyscrapers"], city)  # nothing is built in the city


def test_26_rulebook_example_yellow_skyscraper_and_press_space():
    """"Yellow placed 1 dollar on character 26 and takes 1 yellow skyscraper from the common
    supply. Yellow also advances 1 step on the Press Track.\""""
    state, tiles = _phase3(3, {YELLOW: [26, 23]}, [0, 2, 0], spaces=[3, 2, 0])
    r = rec(state)
    tile = tiles[YELLOW][0]
    board = int(r["board_skyscrapers"][YELLOW])
    assert r["actor"] == YELLOW
    before, diff = _use_and_diff(state, 26)
    press_fields = {k for k in diff if k[0] in ("press_height", "press_moves")}
    assert press_fields <= {("press_height", (YELLOW,)), ("press_moves", ())}
    assert {k: v for k, v in diff.items() if k not in press_fields} == {
        ("press_space", (YELLOW,)): (2, 3), ("dollars", (YELLOW,)): (2, 1),
        ("board_skyscrapers", (YELLOW,)): (board, board + 1),
        ("tile_used", (tile,)): (0, 1), ("tile_dollar", (tile,)): (0, 1)}
    _assert_on_top(r, YELLOW)  # Yellow joins Red on space 3, on top (R2)
    assert r["points"][YELLOW] == 0


def test_26_at_the_last_press_space_still_gives_the_skyscraper():
    state, tiles = _phase3(2, {RED: [26, 23]}, [2, 0], spaces=[PRESS_LAST_SPACE, 0])
    r = rec(state)
    board = int(r["board_skyscrapers"][RED])
    assert use(26) in _mask(state)
    before, diff = _use_and_diff(state, 26)
    assert r["press_space"][RED] == PRESS_LAST_SPACE
    assert r["board_skyscrapers"][RED] == board + 1 and r["dollars"][RED] == 1


# R18: steps by the user's rank among participants, neutral excluded (addendum 27 examples).
RANK_STEPS = [(2, 0, 1), (2, 1, 3), (3, 0, 1), (3, 1, 2), (3, 2, 3),
              (4, 0, 1), (4, 1, 2), (4, 2, 3), (4, 3, 4)]


@pytest.mark.parametrize("num_agents,rank,steps", RANK_STEPS)
def test_27_advances_by_press_rank_neutral_token_not_counted(num_agents, rank, steps):
    """Participants on spaces 10, 8, 6, 4 by rank; the user is the seat of rank ``rank`` and
    the neutral token sits just ahead of it, so counting it would add a step."""
    spaces = [10 - 2 * k for k in range(num_agents)]
    seat = num_agents - 1 - rank  # seats ranked in reverse, so the user is not always seat 0
    spaces = spaces[::-1]
    assert spaces[seat] == 10 - 2 * rank
    dollars = [0] * num_agents
    dollars[seat] = 2
    state, tiles = _phase3(num_agents, {seat: [27, 23]}, dollars, spaces=spaces,
                           neutral=spaces[seat] + 1)
    r = rec(state)
    assert r["actor"] == seat and _mask(state) == {use(27), use(23), END_TURN}
    tile = tiles[seat][0]
    space = int(r["press_space"][seat])
    before, diff = _use_and_diff(state, 27)
    press_fields = {k for k in diff if k[0] in ("press_height", "press_moves")}
    assert press_fields <= {("press_height", (seat,)), ("press_moves", ())}
    assert {k: v for k, v in diff.items() if k not in press_fields} == {
        ("press_space", (seat,)): (space, space + steps), ("dollars", (seat,)): (2, 1),
        ("tile_used", (tile,)): (0, 1), ("tile_dollar", (tile,)): (0, 1)}
    _assert_on_top(r, seat)


def test_27_rulebook_example_blue_third_advances_3_black_token_ignored():
    """"Blue placed 1 dollar on character 27. Blue is third on the Press Track and advances
    3 steps. The black token doesn't count." Four players, the black token ahead of Blue."""
    state, tiles = _phase3(4, {BLUE: [27, 23]}, [0, 0, 2, 0], spaces=[6, 5, 3, 1], neutral=4)
    r = rec(state)
    tile = tiles[BLUE][0]
    assert r["actor"] == BLUE
    before, diff = _use_and_diff(state, 27)
    press_fields = {k for k in diff if k[0] in ("press_height", "press_moves")}
    assert press_fields <= {("press_height", (BLUE,)), ("press_moves", ())}
    assert {k: v for k, v in diff.items() if k not in press_fields} == {
        ("press_space", (BLUE,)): (3, 6), ("dollars", (BLUE,)): (2, 1),
        ("tile_used", (tile,)): (0, 1), ("tile_dollar", (tile,)): (0, 1)}
    _assert_on_top(r, BLUE)  # Blue lands on Red's space 6, on top (R2)


def test_27_rulebook_examples_last_of_4_advances_4_second_of_2_advances_3():
    """"If you are in last position in a game with 4 players you advance 4 spaces. In a game
    with 2 players being in second position means to advance 3 spaces.\""""
    state, _ = _phase3(4, {GREEN: [27]}, [0, 0, 0, 1], spaces=[3, 2, 1, 0])
    apply_action(state, use(27))
    assert rec(state)["press_space"][GREEN] == 4
    state, _ = _phase3(2, {YELLOW: [27]}, [0, 1], spaces=[5, 0])
    apply_action(state, use(27))
    assert rec(state)["press_space"][YELLOW] == 3


def test_27_rank_is_taken_when_used_after_26():
    """26 first moves Red from second to first of two, so 27 then advances 1, not 3."""
    state, _ = _phase3(2, {RED: [26, 27]}, [2, 0], spaces=[2, 3])
    r = rec(state)
    apply_action(state, use(26))  # 3, on top of Yellow: first
    assert r["press_space"][RED] == 3
    apply_action(state, use(27))
    assert r["press_space"][RED] == 4 and r["dollars"][RED] == 0


# --- use rules: once per tile and round, a dollar each, only in Phase III ----------------
@pytest.mark.parametrize("c", PHASE3_CHARACTERS)
def test_one_tile_is_used_once_per_round(c):
    state, tiles = _phase3(2, {RED: [c, _companion(c)]}, [3, 0])
    r = rec(state)
    assert _mask(state) == {use(c), use(_companion(c)), END_TURN}
    apply_action(state, use(c))
    assert r["decision"] == DEC_PHASE3 and r["actor"] == RED
    assert r["tile_used"][tiles[RED][0]] == 1 and r["tile_dollar"][tiles[RED][0]] == 1
    _assert_refused(state, use(c))
    assert _mask(state) == {use(_companion(c)), END_TURN}
    assert r["dollars"][RED] == 2


@pytest.mark.parametrize("c", (23, 24))
def test_a_second_copy_is_used_on_its_own(c):
    """Each tile is used once per round (R18): two copies, two uses, two dollars."""
    state, tiles = _phase3(2, {RED: [c, c, 25]}, [3, 0])
    r = rec(state)
    first, second = tiles[RED][:2]
    points = {23: 2, 24: 1}[c]
    board = int(r["board_skyscrapers"][RED])
    apply_action(state, use(c))
    assert r["tile_used"][[first, second]].sum() == 1
    assert use(c) in _mask(state)
    apply_action(state, use(c))
    assert r["tile_used"][first] == 1 and r["tile_used"][second] == 1
    assert r["tile_dollar"][first] == 1 and r["tile_dollar"][second] == 1
    assert r["points"][RED] == 2 * points and r["dollars"][RED] == 1
    assert r["board_skyscrapers"][RED] == board + (2 if c == 24 else 0)
    assert r["decision"] == DEC_PHASE3 and _mask(state) == {use(25), END_TURN}
    _assert_refused(state, use(c))


def test_a_second_copy_needs_its_own_dollar():
    state, tiles = _phase3(2, {RED: [23, 23]}, [1, 0])
    r = rec(state)
    assert _mask(state) == {use(23), END_TURN}
    apply_action(state, use(23))
    # no dollar left: nothing usable, Red's turn is over and so is the round
    assert r["dollars"][RED] == 0 and r["points"][RED] == 2
    assert r["round"] == 2 and r["decision"] == DEC_PICK_PAIR


def test_not_offered_without_a_dollar():
    """A seat whose Phase III characters cannot be paid is not asked at all."""
    state, tiles = _phase3(3, {RED: list(PHASE3_CHARACTERS), YELLOW: [23]}, [0, 1, 0],
                           spaces=[5, 1, 0])
    r = rec(state)
    assert r["actor"] == YELLOW  # Red leads the press track but holds no dollar
    assert _mask(state) == {use(23), END_TURN}
    apply_action(state, END_TURN)
    assert r["round"] == 2 and r["decision"] == DEC_PICK_PAIR
    assert r["points"][RED] == 0 and not r["tile_used"][tiles[RED]].any()


def test_the_turn_ends_when_the_last_dollar_is_spent():
    """Red holds 23 and 25 but one dollar: after 25 nothing can be paid, Yellow is asked."""
    state, tiles = _phase3(2, {RED: [23, 25], YELLOW: [24]}, [1, 1], spaces=[3, 0])
    r = rec(state)
    assert r["actor"] == RED and _mask(state) == {use(23), use(25), END_TURN}
    apply_action(state, use(25))
    assert r["dollars"][RED] == 0 and r["points"][RED] == 3
    assert r["decision"] == DEC_PHASE3 and r["actor"] == YELLOW
    assert _mask(state) == {use(24), END_TURN}
    assert r["tile_used"][tiles[RED]].tolist() == [0, 1]


def test_only_phase3_characters_are_offered_in_phase3():
    state, _ = _phase3(2, {RED: [6, 9, 16, 18, 22, 21, 4, 23]}, [3, 0])
    assert rec(state)["actor"] == RED
    assert _mask(state) == {use(23), END_TURN}
    for c in (4, 6, 9, 16, 18, 21, 22):
        _assert_refused(state, use(c))


def test_phase3_characters_are_not_offered_in_phase_1():
    state = phase1_pick(2)
    r = rec(state)
    seat = int(r["actor"])
    for c in PHASE3_CHARACTERS:
        give_character(state, seat, c)
    r["dollars"][seat] = 5
    assert r["decision"] == DEC_PICK_PAIR
    for c in PHASE3_CHARACTERS:
        _assert_refused(state, use(c))


def test_phase3_characters_are_not_offered_in_phase_2():
    state = bidding_round(2, PRESS)
    r = rec(state)
    for seat in (RED, YELLOW):
        for c in (23, 24):
            give_character(state, seat, c)
    for c in (25, 26, 27):
        give_character(state, RED, c)
    give_character(state, RED, 22)
    r["dollars"][:2] = 5
    set_cards(state, RED, hand={PRESS: 1})
    set_cards(state, YELLOW, hand={})
    assert r["decision"] == DEC_BID and r["actor"] == RED
    for c in PHASE3_CHARACTERS:
        _assert_refused(state, use(c))
    apply_action(state, BID_CARD)
    apply_action(state, BID_DONE)
    assert r["decision"] == DEC_BID and r["actor"] == YELLOW
    for c in PHASE3_CHARACTERS:
        _assert_refused(state, use(c))
    apply_action(state, BID_DONE)
    # after the evaluation only 22 is offered (R11)
    assert r["decision"] == DEC_AFTER_EVALUATION and r["actor"] == RED
    assert _mask(state) == {use(22), END_TURN}
    for c in PHASE3_CHARACTERS:
        _assert_refused(state, use(c))


# --- turn order and the end of the round -------------------------------------------------
def test_phase3_turns_go_in_press_order_and_end_turn_passes():
    """R18: in press order; seats with nothing to use (no character, no dollar) are skipped."""
    spaces = [1, 4, 2, 6]  # press order: Green, Yellow, Blue, Red
    state, tiles = _phase3(4, {RED: [23], YELLOW: [24], BLUE: [25], GREEN: [26]}, [1, 1, 0, 1],
                           spaces=spaces)
    r = rec(state)
    asked = []
    while r["round"] == 1:
        assert r["decision"] == DEC_PHASE3
        asked.append(int(r["actor"]))
        apply_action(state, END_TURN)
    assert asked == [GREEN, YELLOW, RED]  # Blue has no dollar
    assert r["decision"] == DEC_PICK_PAIR
    assert not r["tile_used"].any() and r["points"][:4].tolist() == [0, 0, 0, 0]
    assert r["dollars"][:4].tolist() == [1, 1, 0, 1]


def test_phase3_order_on_one_space_is_by_stack():
    """On one space the token on top goes first (R2)."""
    state = bidding_round(3, SKYSCRAPERS)
    r = rec(state)
    for seat, c in ((RED, 23), (YELLOW, 24), (BLUE, 25)):
        give_character(state, seat, c)
    r["dollars"][:3] = 1
    set_press(state, [2, 2, 2], heights=[1, 3, 2])  # top to bottom: Yellow, Blue, Red
    asked = []
    pass_until(state, lambda x: x["decision"] == DEC_PHASE3)
    while r["round"] == 1:
        asked.append(int(r["actor"]))
        apply_action(state, END_TURN)
    assert asked == [YELLOW, BLUE, RED]


def test_used_markers_and_dollars_clear_in_the_next_phase0():
    """R19: the dollars on the characters go back to the supply (not to the owner) and every
    character can be used again in the next round."""
    state, tiles = _phase3(2, {RED: [23, 26], YELLOW: [27]}, [2, 1], spaces=[3, 0])
    r = rec(state)
    apply_action(state, use(23))
    apply_action(state, use(26))
    assert r["actor"] == YELLOW
    assert r["tile_used"][tiles[RED]].all() and r["tile_dollar"][tiles[RED]].all()
    before = state.copy()
    apply_action(state, use(27))  # the last use of the round: Phase 0 follows at once
    assert before["round"] == 1
    assert r["round"] == 2 and r["decision"] == DEC_PICK_PAIR
    assert r["press_space"][YELLOW] == 3  # second of two: +3, so it was used
    # Phase 0 of round 2 ran: nothing is used, no dollar lies on a tile, none came back
    assert not r["tile_used"].any() and not r["tile_dollar"].any()
    assert r["dollars"][:2].tolist() == [0, 0]
    # ... and in round 2's Phase III the same tiles are offered again
    r["dollars"][:2] = [2, 1]
    pass_until(state, lambda x: x["decision"] == DEC_PHASE3)
    assert r["round"] == 2
    assert r["actor"] == RED and _mask(state) == {use(23), use(26), END_TURN}
    apply_action(state, END_TURN)
    assert r["actor"] == YELLOW and _mask(state) == {use(27), END_TURN}


def test_phase3_changes_nothing_on_the_board_but_the_named_fields():
    """A full Phase III with every character used: the city, cards and tiles stay as they were."""
    state, tiles = _phase3(2, {RED: [23, 24, 25, 26, 27]}, [5, 0], spaces=[0, 4])
    r = rec(state)
    city = r["skyscrapers"].copy()
    hand = r["hand"].copy()
    board = int(r["board_skyscrapers"][RED])
    for c in (27, 26, 25, 24):  # 27 first: Red is second of two, +3
        apply_action(state, use(c))
        assert r["decision"] == DEC_PHASE3
    before = state.copy()
    apply_action(state, use(23))
    assert r["round"] == 2
    assert before["points"][RED] == 3 + 1
    assert before["press_space"][RED] == 3 + 1
    assert before["board_skyscrapers"][RED] == board + 2
    assert before["dollars"][RED] == 1
    np.testing.assert_array_equal(before["skyscrapers"], city)
    np.testing.assert_array_equal(before["hand"], hand)
    assert r["points"][RED] == 3 + 1 + 2
    assert sum(int(r["skyscrapers"][b, RED]) for b in range(NUM_BOROUGHS)) == int(city[:, RED].sum())


def test_27_unusable_at_the_last_press_space():
    """docs/actions.md: USE_CHARACTER is offered only when the ability can have an effect.
    A token on space 15 cannot advance, so 27 would take the dollar for nothing."""
    state, _ = _phase3(2, {RED: [27, 23]}, [2, 0], spaces=[PRESS_LAST_SPACE, 0])
    assert _mask(state) == {use(23), END_TURN}
