"""Rule scenarios: one test per worked example in the rulebook (the plain text, the layout
edition and the French edition print the same examples): setup step 16, "Important Terms",
Phase I, "General rules for bidding rounds", "Cards and their related actions" and "Ending the
Game and Final Scoring".

Colours of the examples map to seats: Red = seat 0, Yellow = seat 1, Blue = seat 2. How a test
reaches its position is said in its docstring:

* "through the verbs": ``new_game`` with a seed whose setup already is the example's (found by
  scanning seeds), then ``apply_action`` only; at most the hands (and, to keep base-game rules
  alone, the start characters) are written into the record;
* otherwise the scenario helpers write the example's position into the record (``bidding_round``
  puts a game at the start of a bidding round; press tokens, hands and boroughs are set
  directly), and the example's actions are then played through ``apply_action`` and
  ``legal_actions``; final scoring positions are played to the end of round 5 the same way, so
  the engine's own game end scores them.

Each test checks the rulebook's outcome exactly.
"""

import itertools

import numpy as np
import pytest

from tests.tiny_york.scenario import (
    bidding_round,
    clear_skyscrapers,
    deal_cards,
    pass_until,
    rec,
    strip_characters,
)
from tiny_york_env.games.tiny_york import (
    GameConfig,
    apply_action,
    current_player,
    is_terminal,
    legal_actions,
    new_game,
    score_breakdown,
    winner,
)
from tiny_york_env.games.tiny_york.actions import (
    BID_CARD,
    BID_DONE,
    BID_PAIR,
    BID_WILD,
    BID_WILD_PAIR,
    BUILD_STOP,
    ELEVATOR_TAKE,
    PICK_PAIR,
    PRESTIGE_BOROUGH,
    PRESTIGE_FORFEIT,
    PRESTIGE_TILE,
    PRESTIGE_VESSEL,
    SELL_FROM,
    START_STACK,
)
from tiny_york_env.games.tiny_york.components import (
    BRONX,
    BROOKLYN,
    DOLLARS,
    ELEVATOR,
    ELEVATOR_COLUMNS,
    HAND_DRAW_PHASE0,
    JERSEY_CITY,
    MANHATTAN,
    NEUTRAL,
    NUM_BOROUGHS,
    NUM_CARD_TYPES,
    NUM_GAME_ROUNDS,
    NUM_PRESTIGE_TILES,
    NUM_START_STACKS,
    NUM_TILE_VALUES,
    NUM_TILES,
    PLANS,
    PRESS,
    PRESTIGE,
    PRESTIGE_TILE_COLOUR,
    PRESTIGE_TILE_VALUE,
    QUEENS,
    SKYSCRAPERS,
    STATEN_ISLAND,
    TILE_CHARACTER,
    TILE_IS_START,
    TILE_VALUE,
    VESSEL_COLOUR,
    WILD,
)
from tiny_york_env.games.tiny_york.state import (
    DEC_BID,
    DEC_BUILD,
    DEC_ELEVATOR,
    DEC_GAME_OVER,
    DEC_PICK_PAIR,
    DEC_PRESTIGE_BOROUGH,
    DEC_PRESTIGE_TILE,
    DEC_PRESTIGE_VESSEL,
    DEC_START_STACK,
    EMPTY,
    LOC_DISPLAY,
    LOC_OWNED,
    LOC_REMOVED,
    NO_SEAT,
    PRESTIGE_IN_STACK,
    PRESTIGE_REMOVED,
    PRESTIGE_REVEALED,
    SCORE_BOROUGH,
    SCORE_BOROUGH_BONUS,
    SCORE_CHARACTERS,
    SCORE_END_CHARACTERS,
    STACK_REMOVED,
    STACK_REVEALED,
    STACK_TAKEN,
    VESSEL_ON_BOARD,
)

RED, YELLOW, BLUE = 0, 1, 2
GREY_STREETCAR_BROOKLYN_QUEENS = 4
GREY_STREETCAR_JERSEY_STATEN = 5
BROWN_SUBWAY_BRONX_QUEENS = 6
BROWN_SUBWAY_MANHATTAN_BROOKLYN = 7
GREY_TILE_3 = 5  # default edition: grey tiles are worth 2 (tile 4) and 3 (tile 5)
BROWN_TILE_4 = 7  # brown tiles are worth 3 (tile 6) and 4 (tile 7)
SEQUENCE_A = 0  # sequence tiles A..E, X are 0..5; the Mayor is on A in round 1
SEED_SCAN = 2_000  # seeds tried to find a setup that already is an example's
BID_PARTS = ({BID_CARD, BID_WILD, BID_DONE} | {BID_PAIR + t for t in range(NUM_CARD_TYPES)}
             | {BID_WILD_PAIR + t for t in range(WILD)})


# --- private helpers -----------------------------------------------------------------------
def _mask(state):
    return set(legal_actions(state).tolist())


def _press(state, spaces, heights, neutral=None):
    """Place the tokens; later arrivals must stack above every height set here (R2)."""
    r = rec(state)
    for seat, (space, height) in enumerate(zip(spaces, heights, strict=True)):
        r["press_space"][seat] = space
        r["press_height"][seat] = height
    if neutral is not None:
        r["press_space"][NEUTRAL] = neutral
    r["press_moves"] = max(heights) + 1


def _bid(state, seat, cards):
    """``seat`` plays ``cards`` cards of the round's type, one BID_CARD each, then finishes."""
    assert rec(state)["decision"] == DEC_BID
    assert rec(state)["actor"] == seat
    for _ in range(cards):
        apply_action(state, BID_CARD)
    apply_action(state, BID_DONE)


def _round(state, cards_by_seat):
    """Every seat bids in bidding order; ``cards_by_seat[seat]`` cards of the round's type."""
    r = rec(state)
    for _ in range(int(r["num_seats"])):
        seat = int(r["actor"])
        _bid(state, seat, cards_by_seat[seat])


def _hands(state, round_type, cards_by_seat):
    """Each seat holds exactly the cards it will bid (and nothing else), every card still
    accounted for."""
    for seat, n in enumerate(cards_by_seat):
        deal_cards(state, seat, hand={round_type: n})


def _reveal_prestige(state, tiles):
    """Reveal exactly ``tiles`` this round; the rest of the stack follows in tile order."""
    r = rec(state)
    rest = [t for t in range(NUM_PRESTIGE_TILES) if t not in tiles]
    r["prestige_stack"][:] = list(tiles) + rest
    r["prestige_next"] = len(tiles)
    for t in range(NUM_PRESTIGE_TILES):
        r["prestige_loc"][t] = PRESTIGE_REVEALED if t in tiles else PRESTIGE_IN_STACK
    r["prestige_revealed"][:] = tiles


def _owned(state, seat):
    r = rec(state)
    return [t for t in range(NUM_TILES) if r["tile_loc"][t] == LOC_OWNED and r["tile_owner"][t] == seat]


def _present_in(state, seat, boroughs):
    r = rec(state)
    for b in boroughs:
        r["skyscrapers"][b, seat] = 1


def _new_game_where(num_agents, wanted):
    """The first seeded ``new_game`` whose fresh record satisfies ``wanted(rec)``."""
    for seed in range(SEED_SCAN):
        state = new_game(GameConfig(num_agents=num_agents), seed=seed)
        if wanted(rec(state)):
            return state
    raise AssertionError(f"no seed below {SEED_SCAN} gives the wanted setup")


def _start_stack(r):
    """The participants stacked on the start space, top first (setup 14F: random order)."""
    n = int(r["num_seats"])
    assert list(r["press_space"][:n]) == [0] * n
    return tuple(sorted(range(n), key=lambda s: -int(r["press_height"][s])))


def _to_first_bid(state):
    """Through the verbs from setup to the first bid of round 1: the lowest start stack and pair
    for everyone. The start characters are removed once drafted, so base-game rules act alone."""
    pass_until(state, lambda r: r["decision"] == DEC_PICK_PAIR)
    strip_characters(state)
    pass_until(state, lambda r: r["decision"] == DEC_BID)
    return state


def _pass_to(state, bid_round):
    """Every bidder passes until bidding round ``bid_round`` of this game round asks its first bid."""
    r = rec(state)
    while not (r["bid_round"] == bid_round and r["decision"] == DEC_BID and not r["bid_done"].any()):
        assert r["decision"] == DEC_BID
        apply_action(state, BID_DONE)


def _bid_parts(state):
    """The legal actions that add to a bid or finish it."""
    return _mask(state) & BID_PARTS


def _play_to_the_end(state):
    """Everybody passes what is left of round 5; the engine's game end runs the final scoring."""
    pass_until(state, lambda r: r["decision"] == DEC_GAME_OVER)
    assert is_terminal(state)
    return rec(state)


# --- Setup step 16 and "Important Terms" -------------------------------------------------------
DRAFT_STACKS = [*itertools.permutations((RED, YELLOW, BLUE)), (0, 1), (1, 0), (3, 1, 0, 2), (2, 0, 3, 1)]


@pytest.mark.parametrize("stack", DRAFT_STACKS, ids=[
    "rulebook-example" if s == (RED, YELLOW, BLUE) else "-".join(map(str, s)) for s in DRAFT_STACKS])
def test_start_characters_are_chosen_from_the_bottom_of_the_stack_up(stack):
    """Setup step 16: "In reverse order on the Press Track (bottom to top), players select 1 set
    of 2 start characters"; "Important Terms", example: "Blue is last in the stack and chooses
    first. Yellow and Red follow." R4: participants + 1 stacks revealed (French edition: "un
    nombre de piles égal au nombre de joueurs plus un"), the rest leave the game (step 17).
    Through the verbs: a seed whose random start stack (top first) is ``stack``."""
    n = len(stack)
    state = _new_game_where(n, lambda r: _start_stack(r) == stack)
    r = rec(state)
    revealed = [k for k in range(NUM_START_STACKS) if r["start_stack_status"][k] == STACK_REVEALED]
    assert len(revealed) == n + 1
    for turn, seat in enumerate(reversed(stack)):
        assert r["decision"] == DEC_START_STACK and current_player(state) == seat
        assert _mask(state) == {START_STACK + k for k in revealed}
        k = revealed.pop(turn % len(revealed))
        low, high = (int(t) for t in r["start_stacks"][k])
        apply_action(state, START_STACK + k)
        assert r["start_stack_status"][k] == STACK_TAKEN
        for tile in (low, high):
            assert r["tile_loc"][tile] == LOC_OWNED and r["tile_owner"][tile] == seat
    for k in range(NUM_START_STACKS):
        if r["start_stack_status"][k] != STACK_TAKEN:
            assert r["start_stack_status"][k] == STACK_REMOVED
            assert all(r["tile_loc"][t] == LOC_REMOVED for t in r["start_stacks"][k])
    for seat in range(n):
        assert sorted(int(TILE_VALUE[t]) for t in _owned(state, seat)) == [1, 5]
    assert r["decision"] == DEC_PICK_PAIR


def test_press_track_example_red_ahead_of_yellow_ahead_of_blue():
    """"Important Terms", Press Track: "Players are ranked on the Press Track based on the
    highest number, then from top to bottom if multiple players are on the same number."
    Example: "red is ahead of yellow, who is ahead of blue." Through the verbs (only the hands
    are written): Blue, Yellow, Red stacked on the start space, top first; in the press round
    Red bids 3 (+1 bonus), Yellow and Blue 1 each. Evaluated in press order, Blue reaches 1,
    Yellow lands on top of Blue, Red reaches 4. The next game round shows the ranking: Phase I
    picks run Blue, Yellow, Red (last to first, twice) and Red starts the bidding (R2, R3, R6)."""
    state = _new_game_where(3, lambda r: _start_stack(r) == (BLUE, YELLOW, RED))
    _to_first_bid(state)
    r = rec(state)
    assert r["bid_round"] == PRESS and current_player(state) == BLUE  # the press leader starts
    _hands(state, PRESS, [3, 1, 1])
    _round(state, [3, 1, 1])
    assert list(r["press_space"][:3]) == [4, 1, 1]
    assert r["press_height"][YELLOW] > r["press_height"][BLUE], "Yellow lands on top of Blue"
    pass_until(state, lambda q: q["round"] == 2 and q["decision"] == DEC_PICK_PAIR)
    for seat in [BLUE, YELLOW, RED] * 2:
        assert r["decision"] == DEC_PICK_PAIR and current_player(state) == seat
        apply_action(state, min(_mask(state)))
    assert r["decision"] == DEC_BID and r["bid_round"] == PRESS and current_player(state) == RED


def test_ties_example_red_gets_the_bonus_being_ahead_on_the_press_track():
    """"Important Terms", Ties: "Ties are broken in favor of the player the who is farther ahead
    on the Press Track. This applies: when checking for the bonus in a bidding round [...] the
    neutral press token does not count." Example: "Red receives the bonus, because their press
    marker is further ahead on the track." The press tokens are written into the record (Red on
    2 below the neutral token's 7, Yellow on 1); Yellow bids 2 dollar cards first, Red 2 last:
    Red gets 2 + 1, Yellow 2, Blue 1, and Red starts the next bidding round."""
    state = bidding_round(3, DOLLARS, start_seat=YELLOW)
    _press(state, spaces=[2, 1, 0], heights=[3, 2, 1], neutral=7)
    _hands(state, DOLLARS, [2, 2, 1])
    before = rec(state)["dollars"][:3].copy()
    _round(state, [2, 2, 1])
    r = rec(state)
    assert list(r["dollars"][:3] - before) == [3, 2, 1]
    assert r["bid_round"] == ELEVATOR and current_player(state) == RED


def test_points_track_example_blue_gains_3_points():
    """"Important Terms", Points track, example: "Blue gains 3 points; his score marker
    advances 3 steps further on the points track." Through the verbs (only the hands are
    written): Blue bids 3 prestige cards, the others pass; Blue forfeits the prestige tile, so
    the 3 points are all he gains (rulebook "5 - Prestige": points equal to the bidding value)."""
    state = _to_first_bid(_new_game_where(3, lambda r: True))
    r = rec(state)
    _hands(state, PRESTIGE, [0, 0, 3])
    _pass_to(state, PRESTIGE)
    points = r["points"][:3].copy()
    _round(state, [0, 0, 3])
    assert r["decision"] == DEC_PRESTIGE_TILE and current_player(state) == BLUE
    apply_action(state, PRESTIGE_FORFEIT)
    assert list(r["points"][:3] - points) == [0, 0, 3]
    assert r["bid_round"] == SKYSCRAPERS


def test_majority_example_red_first_yellow_second_blue_last():
    """"Important Terms", Ties: "when checking majorities during the final scoring (number of
    skyscrapers). Here the neutral press token counts." Example: "Red has the majority, Yellow
    is second, and Blue is last." The position is written into the record: in Queens (value 8)
    Red has 3 skyscrapers, Yellow and Blue 2 each with Yellow ahead on the press track; round 5
    is played out: Red 8, Yellow 4, Blue 2 (R20: each rank half the previous, rounded up)."""
    state = _scoring_position()
    r = rec(state)
    r["skyscrapers"][QUEENS, :3] = [3, 2, 2]
    r = _play_to_the_end(state)
    assert list(r["score_lines"][:3, SCORE_BOROUGH + QUEENS]) == [8, 4, 2]
    assert [line["total"] for line in score_breakdown(state)] == [8, 4, 2]
    assert winner(state) == RED


# --- Phase 0 and Phase I ------------------------------------------------------------------------
@pytest.mark.parametrize("stack, pairs", [((1, 0), 5), ((RED, YELLOW, BLUE), 7), ((0, 2, 1), 7),
                                          ((2, 0, 3, 1), 9)])
def test_phase1_pairs_taken_last_to_first_one_at_a_time_then_seven_cards_in_hand(stack, pairs):
    """Phase 0: "Each player draws 3 cards", then "4 players: 9 pairs, 3 players: 7 pairs, 2
    players: 5 pairs" (example: "7 pairs for three players"). Phase I: "In reverse player order
    of the Press Track, each player takes 1 pair of cards from the display. Repeat until each
    player has taken 2 pairs of cards." "At the end of phase I you should have 7 cards in hand."
    R6: the pair left over is discarded. Through the verbs: a seed whose start stack (top first)
    is ``stack``; the start characters are removed after the draft, so none acts in Phase I."""
    n = len(stack)
    state = _new_game_where(n, lambda r: _start_stack(r) == stack)
    pass_until(state, lambda r: r["decision"] == DEC_PICK_PAIR)
    strip_characters(state)
    r = rec(state)
    assert list(r["hand"][:n].sum(axis=1)) == [HAND_DRAW_PHASE0] * n
    on_display = {p: [int(c) for c in r["pairs"][p]] for p in range(len(r["pairs"]))
                  if r["pairs"][p, 0] != EMPTY}
    assert sorted(on_display) == list(range(pairs))
    assert all(EMPTY not in cards for cards in on_display.values())
    hands = r["hand"][:n].copy()
    discard = r["discard"].copy()
    for turn, seat in enumerate(list(reversed(stack)) * 2):
        assert r["decision"] == DEC_PICK_PAIR and current_player(state) == seat
        assert _mask(state) == {PICK_PAIR + p for p in on_display}
        p = sorted(on_display)[(3 * turn) % len(on_display)]
        for card in on_display.pop(p):
            hands[seat, card] += 1
        apply_action(state, PICK_PAIR + p)
        assert list(r["hand"][seat]) == list(hands[seat])
    assert len(on_display) == 1
    left = np.bincount(next(iter(on_display.values())), minlength=NUM_CARD_TYPES)
    assert list(r["discard"] - discard) == list(left)
    assert list(r["hand"][:n].sum(axis=1)) == [7] * n
    assert r["decision"] == DEC_BID and current_player(state) == stack[0]


# --- General rules for bidding rounds -----------------------------------------------------------
def test_bidding_example_one_skyscraper_card_plus_one_wild_is_two():
    """"General rules for bidding rounds", examples: "1 skyscraper card + 1 wild card = 2
    skyscraper cards" and "Wild cards may not be played on their own." Through the verbs (only
    the hands are written): in the skyscraper round Red plays 1 skyscraper card and 1 wild and
    builds 2; Yellow holds a lone wild and can only pass; Blue bids 3 and builds 3 + 1 bonus."""
    state = _to_first_bid(_new_game_where(3, lambda r: True))
    r = rec(state)
    deal_cards(state, RED, hand={SKYSCRAPERS: 1, WILD: 1})
    deal_cards(state, YELLOW, hand={WILD: 1})
    deal_cards(state, BLUE, hand={SKYSCRAPERS: 3})
    _pass_to(state, SKYSCRAPERS)
    mayor = int(r["mayor"])
    sky = r["skyscrapers"][mayor, :3].copy()
    while r["bid_round"] == SKYSCRAPERS and r["decision"] == DEC_BID:
        seat = current_player(state)
        if seat == RED:
            assert _bid_parts(state) == {BID_CARD, BID_DONE}  # no lone wild
            apply_action(state, BID_CARD)
            assert BID_WILD in _bid_parts(state)
            apply_action(state, BID_WILD)
            assert r["bid_value"][RED] == 2
            apply_action(state, BID_DONE)
        elif seat == YELLOW:
            assert _bid_parts(state) == {BID_DONE}
            apply_action(state, BID_DONE)
        else:
            _bid(state, BLUE, 3)
    assert list(r["skyscrapers"][mayor, :3] - sky) == [2, 0, 4]


def test_bidding_example_elevator_wild_and_press_card_is_one_one_more_wild_two():
    """"General rules for bidding rounds", examples: "In the "Elevator" bidding round a wild card
    and a press card counts as one elevator card." "You can play an additional wild card to gain
    2 elevator cards in total." Through the verbs (only the hands are written): Red plays wild +
    press (1), then a wild (2); Yellow bids 3 elevator cards and wins the bonus; Red is then
    offered exactly the shown characters of value 2 or less, Yellow those of value 4 or less."""
    state = _to_first_bid(_new_game_where(3, lambda r: True))
    r = rec(state)
    deal_cards(state, RED, hand={WILD: 2, PRESS: 1})
    deal_cards(state, YELLOW, hand={ELEVATOR: 3})
    deal_cards(state, BLUE, hand={})
    _pass_to(state, ELEVATOR)
    while r["bid_round"] == ELEVATOR and r["decision"] == DEC_BID:
        seat = current_player(state)
        if seat == RED:
            assert _bid_parts(state) == {BID_WILD_PAIR + PRESS, BID_PAIR + WILD, BID_DONE}
            apply_action(state, BID_WILD_PAIR + PRESS)
            assert r["bid_value"][RED] == 1
            apply_action(state, BID_WILD)
            assert r["bid_value"][RED] == 2
            apply_action(state, BID_DONE)
        else:
            _bid(state, seat, 3 if seat == YELLOW else 0)
    assert list(r["hand"][RED]) == [0] * NUM_CARD_TYPES
    limits = {RED: 2, YELLOW: 4}
    while r["decision"] == DEC_ELEVATOR:
        seat = current_player(state)
        assert _mask(state) == _expected_elevator_mask(state, limits.pop(seat))
        apply_action(state, min(_mask(state)))
    assert limits == {}
    assert r["bid_round"] == PLANS


# --- 1 Press -------------------------------------------------------------------------------
def test_press_example_red_one_yellow_three_on_top_blue_one():
    """Rulebook "1 - Press", example: "Red is first and advances 1 step. Yellow has the highest
    bid bonus and advances 3 steps, with their marker being placed on top of Red. Finally, Blue
    advances 1 step." (R2, R13: in press order; arriving on an occupied space goes on top.)"""
    state = bidding_round(3, PRESS, start_seat=RED)
    _hands(state, PRESS, [1, 2, 1])
    # Red ahead on space 2; Yellow on top of Blue on space 0.
    _press(state, spaces=[2, 0, 0], heights=[5, 4, 3])
    _round(state, [1, 2, 1])
    r = rec(state)
    assert list(r["press_space"][:3]) == [3, 3, 1]
    assert r["press_height"][YELLOW] > r["press_height"][RED], "Yellow lands on top of Red"
    assert r["press_space"][NEUTRAL] == 7
    # R3: the bonus winner (Yellow) starts the next bidding round.
    assert r["bid_round"] == DOLLARS and r["decision"] == DEC_BID and r["actor"] == YELLOW
    assert list(r["played"][:3].sum(axis=1)) == [0, 0, 0]
    assert list(r["hand"][:3, PRESS]) == [0, 0, 0]


# --- 2 Dollars -----------------------------------------------------------------------------
def test_dollars_example_bonus_winner_three_others_one():
    """Rulebook "2 - Dollars", example: "Red has the highest bid bonus and receives 3 dollars.
    Yellow and Blue receive 1 dollar each." (2-card bid + 1 bonus dollar; 1-card bids.)"""
    state = bidding_round(3, DOLLARS, start_seat=YELLOW)
    _hands(state, DOLLARS, [2, 1, 1])
    before = rec(state)["dollars"][:3].copy()
    _round(state, [2, 1, 1])
    r = rec(state)
    assert list(r["dollars"][:3] - before) == [3, 1, 1]
    assert r["bid_round"] == ELEVATOR and r["actor"] == RED


# --- 3 Elevator ----------------------------------------------------------------------------
def _expected_elevator_mask(state, limit):
    r = rec(state)
    out = set()
    for row in range(NUM_TILE_VALUES):
        for col in range(ELEVATOR_COLUMNS):
            tile = r["elevator_display"][row, col]
            if tile != EMPTY and TILE_VALUE[tile] <= limit:
                out.add(ELEVATOR_TAKE + row * ELEVATOR_COLUMNS + col)
    return out


def _take_elevator(state, seat, limit, value, col):
    """Check ``seat``'s offer (every shown tile of value <= limit), take the tile of ``value``
    in column ``col`` and check the slot is refilled from the top of that value's stack."""
    r = rec(state)
    assert r["decision"] == DEC_ELEVATOR and r["actor"] == seat
    mask = _mask(state)
    assert mask == _expected_elevator_mask(state, limit)
    assert len(mask) == limit * ELEVATOR_COLUMNS  # the display is full in round 1
    row = value - 1
    tile = int(r["elevator_display"][row, col])
    count = int(r["elevator_count"][row])
    top = int(r["elevator_stack"][row, count - 1])
    owned_before = len(_owned(state, seat))
    apply_action(state, ELEVATOR_TAKE + row * ELEVATOR_COLUMNS + col)
    assert r["tile_loc"][tile] == LOC_OWNED and r["tile_owner"][tile] == seat
    assert TILE_VALUE[tile] == value
    assert r["elevator_display"][row, col] == top
    assert r["tile_loc"][top] == LOC_DISPLAY
    assert r["elevator_count"][row] == count - 1
    assert len(_owned(state, seat)) == owned_before + 1


def test_elevator_example_tie_broken_by_press_order():
    """Rulebook "3 - Elevator", example: "Yellow and Red have played 2 Elevator cards each,
    meaning there is a tie for the highest bidder bonus. Yellow is first on the Press Track, so
    they receive the bonus. Yellow takes a character with the value 3, Red takes a character
    with value 2, and Blue a character with value 1." (R12, R13, R14: value <= bid + bonus;
    the taken slot is refilled from that value's stack.)"""
    state = bidding_round(3, ELEVATOR, start_seat=RED)
    _hands(state, ELEVATOR, [2, 2, 1])
    _press(state, spaces=[1, 2, 0], heights=[3, 4, 2])  # Yellow, Red, Blue
    _round(state, [2, 2, 1])
    _take_elevator(state, YELLOW, limit=3, value=3, col=1)
    _take_elevator(state, RED, limit=2, value=2, col=0)
    _take_elevator(state, BLUE, limit=1, value=1, col=3)
    r = rec(state)
    assert r["bid_round"] == PLANS and r["decision"] == DEC_BID and r["actor"] == YELLOW


def test_elevator_mask_rejects_tile_above_the_bid_value():
    """R14: a 1-card bid without the bonus may take only a value-1 character; a value-2 slot is
    illegal and apply_action refuses it, leaving the state unchanged."""
    state = bidding_round(3, ELEVATOR, start_seat=RED)
    _hands(state, ELEVATOR, [2, 1, 0])
    _press(state, spaces=[2, 1, 0], heights=[3, 2, 1])
    _round(state, [2, 1, 0])
    r = rec(state)
    _take_elevator(state, RED, limit=3, value=2, col=2)
    assert r["actor"] == YELLOW
    before = state.tobytes()
    with pytest.raises(ValueError):
        apply_action(state, ELEVATOR_TAKE + 1 * ELEVATOR_COLUMNS)
    assert state.tobytes() == before
    _take_elevator(state, YELLOW, limit=1, value=1, col=0)


def test_elevator_bidder_with_no_tile_in_reach_is_skipped_and_empty_stack_leaves_a_gap():
    """R14: each bidder takes one character of value <= bid value (+1 bonus) "if one is there";
    "a taken tile is replaced from the top of that value's stack" - with that stack empty the
    slot stays empty. Value-1 row and stack emptied: Blue (bid 1) is not asked; Red (2 + 1)
    takes a value-2 tile whose stack is empty, leaving a gap."""
    state = bidding_round(3, ELEVATOR, start_seat=RED)
    _hands(state, ELEVATOR, [2, 0, 1])
    _press(state, spaces=[2, 1, 0], heights=[3, 2, 1])
    r = rec(state)
    for row in (0, 1):
        for i in range(int(r["elevator_count"][row])):
            tile = r["elevator_stack"][row, i]
            r["tile_loc"][tile] = LOC_REMOVED
            r["elevator_stack"][row, i] = EMPTY
        r["elevator_count"][row] = 0
    for col in range(ELEVATOR_COLUMNS):
        tile = r["elevator_display"][0, col]
        r["tile_loc"][tile] = LOC_REMOVED
        r["elevator_display"][0, col] = EMPTY
    _round(state, [2, 0, 1])
    assert r["decision"] == DEC_ELEVATOR and r["actor"] == RED
    assert _mask(state) == {ELEVATOR_TAKE + row * ELEVATOR_COLUMNS + col
                            for row in (1, 2) for col in range(ELEVATOR_COLUMNS)}
    tile = int(r["elevator_display"][1, 2])
    apply_action(state, ELEVATOR_TAKE + 1 * ELEVATOR_COLUMNS + 2)
    assert r["tile_owner"][tile] == RED and r["tile_loc"][tile] == LOC_OWNED
    assert r["elevator_display"][1, 2] == EMPTY
    assert r["bid_round"] == PLANS and r["decision"] == DEC_BID
    assert len(_owned(state, BLUE)) == 0  # Blue was not asked and took nothing


# --- 4 Building plans ----------------------------------------------------------------------
def test_building_plans_example_blue_four_others_one():
    """Rulebook "4 - Building plans", example: "Blue bid the most cards and receives the bonus.
    Blue takes 4 skyscrapers from the common supply. Red and Yellow take 1 skyscraper each."
    (Blue bid 3 + 1 bonus.)"""
    state = bidding_round(3, PLANS, start_seat=RED)
    _hands(state, PLANS, [1, 1, 3])
    before = rec(state)["board_skyscrapers"][:3].copy()
    _round(state, [1, 1, 3])
    r = rec(state)
    assert list(r["board_skyscrapers"][:3] - before) == [1, 1, 4]
    assert r["bid_round"] == PRESTIGE and r["actor"] == BLUE


# --- 5 Prestige ----------------------------------------------------------------------------
def _prestige_position(seed=0):
    state = bidding_round(3, PRESTIGE, seed=seed, start_seat=RED)
    _hands(state, PRESTIGE, [0, 1, 2])
    _reveal_prestige(state, [GREY_TILE_3, BROWN_TILE_4])
    r = rec(state)
    r["board_skyscrapers"][:3] = 4
    r["borough_prestige"][:] = 0
    return state


def test_prestige_example_points_then_winner_and_runner_up_place_tiles():
    """Rulebook "5 - Prestige", examples: "Blue advances 2 steps on the points track. Yellow
    advances 1 step. Red hasn't played any cards and receives no points. Blue wins the bonus and
    Yellow is in second place." "Blue chooses the grey prestige tile and takes the grey
    streetcar between Brooklyn and Queens. Blue puts the prestige tile on Brooklyn, raising the
    value of that borough, and places a skyscraper on Brooklyn as well." "Yellow takes the brown
    prestige tile and the brown subway between Bronx and Queens. Yellow puts the prestige tile
    in Queens [...] they also place a skyscraper in Queens." (R12, R15, R16.)"""
    state = _prestige_position()
    r = rec(state)
    points = r["points"][:3].copy()
    sky = r["skyscrapers"].copy()
    _round(state, [0, 1, 2])
    assert list(r["points"][:3] - points) == [0, 1, 2]

    # Blue, the bonus winner: tile -> vessel -> borough.
    assert r["decision"] == DEC_PRESTIGE_TILE and r["actor"] == BLUE
    assert _mask(state) == {PRESTIGE_TILE + 0, PRESTIGE_TILE + 1, PRESTIGE_FORFEIT}
    apply_action(state, PRESTIGE_TILE + 0)
    assert r["decision"] == DEC_PRESTIGE_VESSEL
    assert _mask(state) == {PRESTIGE_VESSEL + GREY_STREETCAR_BROOKLYN_QUEENS,
                            PRESTIGE_VESSEL + GREY_STREETCAR_JERSEY_STATEN}
    apply_action(state, PRESTIGE_VESSEL + GREY_STREETCAR_BROOKLYN_QUEENS)
    assert r["decision"] == DEC_PRESTIGE_BOROUGH
    assert _mask(state) == {PRESTIGE_BOROUGH + BROOKLYN, PRESTIGE_BOROUGH + QUEENS}
    apply_action(state, PRESTIGE_BOROUGH + BROOKLYN)
    assert r["borough_prestige"][BROOKLYN] == PRESTIGE_TILE_VALUE[GREY_TILE_3] == 3
    assert r["prestige_loc"][GREY_TILE_3] == BROOKLYN
    assert r["vessel_owner"][GREY_STREETCAR_BROOKLYN_QUEENS] == BLUE
    assert r["skyscrapers"][BROOKLYN, BLUE] == sky[BROOKLYN, BLUE] + 1
    assert r["board_skyscrapers"][BLUE] == 3

    # Yellow, the runner-up: only the brown tile is left.
    assert r["decision"] == DEC_PRESTIGE_TILE and r["actor"] == YELLOW
    assert _mask(state) == {PRESTIGE_TILE + 1, PRESTIGE_FORFEIT}
    apply_action(state, PRESTIGE_TILE + 1)
    assert _mask(state) == {PRESTIGE_VESSEL + BROWN_SUBWAY_BRONX_QUEENS,
                            PRESTIGE_VESSEL + BROWN_SUBWAY_MANHATTAN_BROOKLYN}
    apply_action(state, PRESTIGE_VESSEL + BROWN_SUBWAY_BRONX_QUEENS)
    assert _mask(state) == {PRESTIGE_BOROUGH + BRONX, PRESTIGE_BOROUGH + QUEENS}
    apply_action(state, PRESTIGE_BOROUGH + QUEENS)
    assert r["borough_prestige"][QUEENS] == PRESTIGE_TILE_VALUE[BROWN_TILE_4] == 4
    assert r["prestige_loc"][BROWN_TILE_4] == QUEENS
    assert r["vessel_owner"][BROWN_SUBWAY_BRONX_QUEENS] == YELLOW
    assert r["skyscrapers"][QUEENS, YELLOW] == sky[QUEENS, YELLOW] + 1
    assert r["board_skyscrapers"][YELLOW] == 3

    # Nothing else changed on the board; Red got nothing; Blue starts the skyscraper round.
    changed = np.argwhere(r["skyscrapers"] != sky).tolist()
    assert sorted(changed) == sorted([[BROOKLYN, BLUE], [QUEENS, YELLOW]])
    assert r["board_skyscrapers"][RED] == 4
    assert list(r["prestige_revealed"]) == [EMPTY, EMPTY]
    owned = [v for v in range(len(r["vessel_owner"])) if r["vessel_owner"][v] != VESSEL_ON_BOARD]
    assert owned == [GREY_STREETCAR_BROOKLYN_QUEENS, BROWN_SUBWAY_BRONX_QUEENS]
    assert r["bid_round"] == SKYSCRAPERS and r["decision"] == DEC_BID and r["actor"] == BLUE


def test_prestige_forfeited_tile_stays_for_runner_up_and_leftover_leaves_the_game():
    """Rulebook "5 - Prestige": "A player may forfeit their highest bid bonus!" and "Return any
    prestige tiles not used during the game round to the game box." R15: a forfeited tile stays
    available to the runner-up; tiles not taken leave the game at the end of the round."""
    state = _prestige_position()
    r = rec(state)
    _round(state, [0, 1, 2])
    assert r["actor"] == BLUE
    apply_action(state, PRESTIGE_FORFEIT)
    assert r["decision"] == DEC_PRESTIGE_TILE and r["actor"] == YELLOW
    assert _mask(state) == {PRESTIGE_TILE + 0, PRESTIGE_TILE + 1, PRESTIGE_FORFEIT}
    apply_action(state, PRESTIGE_TILE + 0)
    apply_action(state, PRESTIGE_VESSEL + GREY_STREETCAR_JERSEY_STATEN)
    assert _mask(state) == {PRESTIGE_BOROUGH + JERSEY_CITY, PRESTIGE_BOROUGH + STATEN_ISLAND}
    apply_action(state, PRESTIGE_BOROUGH + STATEN_ISLAND)
    assert r["borough_prestige"][STATEN_ISLAND] == 3
    assert r["vessel_owner"][GREY_STREETCAR_JERSEY_STATEN] == YELLOW
    assert all(r["vessel_owner"][v] == VESSEL_ON_BOARD for v in range(10)
               if v != GREY_STREETCAR_JERSEY_STATEN)
    assert r["bid_round"] == SKYSCRAPERS and r["decision"] == DEC_BID
    # Everybody passes the skyscraper round: the brown tile leaves the game at round end.
    _hands(state, SKYSCRAPERS, [0, 0, 0])
    _round(state, [0, 0, 0])
    assert r["round"] == 2 and r["decision"] == DEC_PICK_PAIR
    assert r["prestige_loc"][BROWN_TILE_4] == PRESTIGE_REMOVED
    assert BROWN_TILE_4 not in r["prestige_revealed"]


def test_prestige_tile_without_a_vessel_of_its_colour_is_not_offered():
    """R15: a bidder may take a revealed tile only if its colour still has a vessel on the board
    (rulebook "select 1 of the 2 vessels of a matching color"). Both grey vessels are gone, so
    only the brown tile (and forfeit) is offered; choosing the grey one is refused."""
    state = _prestige_position()
    r = rec(state)
    r["vessel_owner"][GREY_STREETCAR_BROOKLYN_QUEENS] = RED
    r["vessel_owner"][GREY_STREETCAR_JERSEY_STATEN] = RED
    _round(state, [0, 1, 2])
    assert r["decision"] == DEC_PRESTIGE_TILE and r["actor"] == BLUE
    assert _mask(state) == {PRESTIGE_TILE + 1, PRESTIGE_FORFEIT}
    before = state.tobytes()
    with pytest.raises(ValueError):
        apply_action(state, PRESTIGE_TILE + 0)
    assert state.tobytes() == before
    apply_action(state, PRESTIGE_TILE + 1)
    apply_action(state, PRESTIGE_VESSEL + BROWN_SUBWAY_MANHATTAN_BROOKLYN)
    apply_action(state, PRESTIGE_BOROUGH + MANHATTAN)
    # Yellow (runner-up) is offered nothing: the grey tile has no vessel, so no decision.
    assert r["bid_round"] == SKYSCRAPERS and r["decision"] == DEC_BID
    assert r["borough_prestige"][MANHATTAN] == 4
    assert r["prestige_revealed"][0] == GREY_TILE_3
    assert PRESTIGE_TILE_COLOUR[GREY_TILE_3] == VESSEL_COLOUR[GREY_STREETCAR_BROOKLYN_QUEENS]


def test_prestige_with_empty_board_sells_a_skyscraper_into_the_tile_borough():
    """Rulebook "5 - Prestige": "If a player has no skyscrapers on their player board, they may
    remove one of their skyscrapers from any other borough instead ("selling it") and rebuild it
    in the new borough." (R16)"""
    state = _prestige_position()
    r = rec(state)
    clear_skyscrapers(state, neutral=2)
    r["board_skyscrapers"][BLUE] = 0
    r["skyscrapers"][BRONX, BLUE] = 2
    r["skyscrapers"][JERSEY_CITY, BLUE] = 1
    _round(state, [0, 1, 2])
    apply_action(state, PRESTIGE_TILE + 0)
    apply_action(state, PRESTIGE_VESSEL + GREY_STREETCAR_BROOKLYN_QUEENS)
    apply_action(state, PRESTIGE_BOROUGH + BROOKLYN)
    assert r["decision"] == DEC_BUILD and r["actor"] == BLUE
    assert _mask(state) == {SELL_FROM + BRONX, SELL_FROM + JERSEY_CITY, BUILD_STOP}
    apply_action(state, SELL_FROM + JERSEY_CITY)
    assert r["skyscrapers"][BROOKLYN, BLUE] == 1
    assert r["skyscrapers"][JERSEY_CITY, BLUE] == 0
    assert r["skyscrapers"][BRONX, BLUE] == 2
    assert r["board_skyscrapers"][BLUE] == 0
    # One skyscraper only: the runner-up's turn comes next.
    assert r["decision"] == DEC_PRESTIGE_TILE and r["actor"] == YELLOW


# --- 6 Skyscrapers -------------------------------------------------------------------------
def test_skyscrapers_example_mayor_in_manhattan_blue_4_red_and_yellow_2():
    """Rulebook "6 - Skyscrapers", example (layout and French editions): "Blue played the most
    cards and receives the highest bid bonus. The Mayor is in Manhattan, so Blue places 4
    skyscrapers there. Red and Yellow place 2 skyscrapers each into Manhattan." Through the
    verbs (only the hands are written): a seed with sequence tile A on Manhattan, so Phase 0 of
    round 1 brings the Mayor there; everybody passes the first five bidding rounds; Blue bids 3
    skyscraper cards, Red and Yellow 2 each. Every skyscraper comes from the player boards and
    nothing else on the board moves."""
    state = _new_game_where(3, lambda r: r["borough_sequence"][MANHATTAN] == SEQUENCE_A)
    _to_first_bid(state)
    r = rec(state)
    assert r["round"] == 1 and r["mayor"] == MANHATTAN
    _hands(state, SKYSCRAPERS, [2, 2, 3])
    _pass_to(state, SKYSCRAPERS)
    sky = r["skyscrapers"].copy()
    boards = r["board_skyscrapers"][:3].copy()
    assert list(boards) == [4, 4, 4]
    _round(state, [2, 2, 3])
    built = r["skyscrapers"] - sky
    assert list(built[MANHATTAN, :3]) == [2, 2, 4]
    assert built.sum() == 8, "nothing is built anywhere else, no neutral skyscraper moves"
    assert list(boards - r["board_skyscrapers"][:3]) == [2, 2, 4]
    assert r["round"] == 2 and r["decision"] == DEC_PICK_PAIR


def test_skyscrapers_bid_plus_bonus_built_in_mayors_borough_from_the_board():
    """Rulebook "6 - Skyscrapers": "Each player takes a number of skyscrapers from their player
    board equal to their bidding value, building them in the borough currently visited by the
    Mayor." Highest bid bonus: one more. Building from the board is compulsory: nobody is
    asked anything (R16)."""
    state = bidding_round(3, SKYSCRAPERS, start_seat=BLUE)
    _hands(state, SKYSCRAPERS, [2, 1, 1])
    r = rec(state)
    mayor = int(r["mayor"])
    clear_skyscrapers(state, neutral=2)
    r["board_skyscrapers"][:3] = 4
    _round(state, [2, 1, 1])
    assert list(r["skyscrapers"][mayor, :3]) == [3, 1, 1]
    assert r["skyscrapers"][mayor, NEUTRAL] == 2
    assert list(r["board_skyscrapers"][:3]) == [1, 3, 3]
    others = [b for b in range(NUM_BOROUGHS) if b != mayor]
    assert r["skyscrapers"][others, :3].sum() == 0
    # No building decision: the round ended and round 2 began.
    assert r["round"] == 2 and r["decision"] == DEC_PICK_PAIR


def test_skyscrapers_with_empty_board_sell_from_other_boroughs_or_stop():
    """Rulebook "6 - Skyscrapers": "If a player has no skyscrapers on their player board, they
    may remove one of their skyscrapers from any other borough instead ("selling it") and
    rebuild it in the new borough." R16: the board first, then per skyscraper still to build
    SELL_FROM another borough or BUILD_STOP. Evaluation runs in press order (R13)."""
    state = bidding_round(3, SKYSCRAPERS, start_seat=RED)
    _hands(state, SKYSCRAPERS, [2, 1, 0])
    r = rec(state)
    mayor = int(r["mayor"])
    others = [b for b in range(NUM_BOROUGHS) if b != mayor]
    clear_skyscrapers(state, neutral=2)
    _press(state, spaces=[3, 4, 0], heights=[2, 3, 1])  # Yellow builds first
    r["board_skyscrapers"][:3] = [1, 0, 0]
    r["skyscrapers"][others[0], RED] = 2
    r["skyscrapers"][others[1], RED] = 1
    r["skyscrapers"][others[2], YELLOW] = 1
    _round(state, [2, 1, 0])
    # Yellow (1 to build, empty board) is asked first.
    assert r["decision"] == DEC_BUILD and r["actor"] == YELLOW
    assert _mask(state) == {SELL_FROM + others[2], BUILD_STOP}
    apply_action(state, SELL_FROM + others[2])
    assert r["skyscrapers"][mayor, YELLOW] == 1 and r["skyscrapers"][others[2], YELLOW] == 0
    # Red: 2 + 1 bonus = 3; one from the board, then two choices.
    assert r["decision"] == DEC_BUILD and r["actor"] == RED
    assert r["skyscrapers"][mayor, RED] == 1 and r["board_skyscrapers"][RED] == 0
    assert r["build_left"] == 2
    assert _mask(state) == {SELL_FROM + others[0], SELL_FROM + others[1], BUILD_STOP}
    before = state.tobytes()
    with pytest.raises(ValueError):
        apply_action(state, SELL_FROM + mayor)
    with pytest.raises(ValueError):
        apply_action(state, SELL_FROM + others[3])
    assert state.tobytes() == before
    apply_action(state, SELL_FROM + others[0])
    assert r["decision"] == DEC_BUILD and r["actor"] == RED and r["build_left"] == 1
    apply_action(state, BUILD_STOP)
    assert r["skyscrapers"][mayor, RED] == 2
    assert r["skyscrapers"][others[0], RED] == 1 and r["skyscrapers"][others[1], RED] == 1
    assert r["round"] == 2 and r["decision"] == DEC_PICK_PAIR


def test_selling_ends_by_itself_when_no_other_borough_holds_an_own_skyscraper():
    """R16: with the board empty, a skyscraper can only be moved from another borough; once none
    is left the building ends without a choice. Red must build 3 but owns a single skyscraper
    elsewhere: one SELL_FROM, then the round goes on."""
    state = bidding_round(3, SKYSCRAPERS, start_seat=RED)
    _hands(state, SKYSCRAPERS, [2, 0, 0])
    r = rec(state)
    mayor = int(r["mayor"])
    other = (mayor + 1) % NUM_BOROUGHS
    clear_skyscrapers(state, neutral=2)
    r["board_skyscrapers"][:3] = 0
    r["skyscrapers"][other, RED] = 1
    r["skyscrapers"][mayor, BLUE] = 1
    _round(state, [2, 0, 0])
    assert r["decision"] == DEC_BUILD and r["actor"] == RED and r["build_left"] == 3
    assert _mask(state) == {SELL_FROM + other, BUILD_STOP}
    apply_action(state, SELL_FROM + other)
    assert r["skyscrapers"][mayor, RED] == 1 and r["skyscrapers"][other, RED] == 0
    assert r["round"] == 2 and r["decision"] == DEC_PICK_PAIR


# --- Borough bonus -------------------------------------------------------------------------
def _borough_bonus_position(present_elsewhere, statue_flipped=0):
    """Skyscraper round; seat s is present in every borough but the Mayor's when
    ``present_elsewhere[s]``, and holds one skyscraper card."""
    state = bidding_round(3, SKYSCRAPERS, start_seat=RED)
    _hands(state, SKYSCRAPERS, [1, 1, 1])
    r = rec(state)
    mayor = int(r["mayor"])
    clear_skyscrapers(state, neutral=2)
    r["board_skyscrapers"][:3] = 4
    r["points"][:3] = 0
    r["statue_flipped"] = statue_flipped
    others = [b for b in range(NUM_BOROUGHS) if b != mayor]
    for seat, present in enumerate(present_elsewhere):
        _present_in(state, seat, others if present else others[:3])
    return state


def test_borough_bonus_first_player_in_all_six_boroughs_gets_4_and_flips_the_statue():
    """Rulebook "Borough bonus": "The first player to have built skyscrapers in all 6 boroughs
    at the end of a bidding round flips the statue of liberty tile and immediately earns 4
    points." Example: "Red advances 4 steps on the points track and flips the Statue of Liberty
    tile to the other side." (R17)"""
    state = _borough_bonus_position([True, False, False])
    _round(state, [1, 1, 1])
    r = rec(state)
    assert list(r["points"][:3]) == [4, 0, 0]
    assert r["statue_flipped"] == 1


def test_borough_bonus_two_players_at_once_both_get_4():
    """Rulebook "Borough bonus", note: "If several players have built skyscrapers in all 6
    boroughs at the end of the same bidding round, they all gain 4 points each." (R17)"""
    state = _borough_bonus_position([True, False, True])
    _round(state, [1, 1, 1])
    r = rec(state)
    assert list(r["points"][:3]) == [4, 0, 4]
    assert r["statue_flipped"] == 1


def test_borough_bonus_after_the_statue_flipped_gives_nothing_in_game():
    """Rulebook "Borough bonus": only the first gets 4 points during the game (R17: "the first
    participants ... and the tile is flipped"); later ones get nothing until the end."""
    state = _borough_bonus_position([False, True, False], statue_flipped=1)
    _round(state, [1, 1, 1])
    r = rec(state)
    assert list(r["points"][:3]) == [0, 0, 0]
    assert r["statue_flipped"] == 1


def test_borough_bonus_is_checked_after_the_prestige_round_too():
    """R17: "After the evaluation of every bidding round" - a skyscraper built with a prestige
    tile in the sixth borough wins the bonus at the end of the prestige round."""
    state = _prestige_position()
    r = rec(state)
    clear_skyscrapers(state, neutral=2)
    r["points"][:3] = 0
    _present_in(state, BLUE, [MANHATTAN, QUEENS, BRONX, STATEN_ISLAND, JERSEY_CITY])
    _round(state, [0, 1, 2])
    apply_action(state, PRESTIGE_TILE + 0)
    apply_action(state, PRESTIGE_VESSEL + GREY_STREETCAR_BROOKLYN_QUEENS)
    apply_action(state, PRESTIGE_BOROUGH + BROOKLYN)
    apply_action(state, PRESTIGE_FORFEIT)  # Yellow
    assert r["bid_round"] == SKYSCRAPERS and r["decision"] == DEC_BID
    assert list(r["points"][:3]) == [0, 1, 2 + 4]
    assert r["statue_flipped"] == 1


def test_borough_bonus_at_the_end_3_for_everyone_in_all_six():
    """Rulebook final scoring "Borough bonus: Each player who built skyscrapers in all 6
    boroughs earns 3 points." - "including the player to flip the Statue of Liberty tile" (R20)."""
    state = _scoring_position()
    r = rec(state)
    r["statue_flipped"] = 1
    _present_in(state, RED, range(NUM_BOROUGHS))
    _present_in(state, YELLOW, range(NUM_BOROUGHS))
    _present_in(state, BLUE, range(NUM_BOROUGHS - 1))
    _play_to_the_end(state)
    assert list(r["score_lines"][:3, SCORE_BOROUGH_BONUS]) == [3, 3, 0]


# --- Final scoring -------------------------------------------------------------------------
def _scoring_position(num_agents=3):
    """A position to score, written into the record: the skyscraper bidding round of round 5
    with empty hands; no characters, skyscrapers, vessels, points, dollars, reserve or revealed
    prestige tiles; press tokens spread out so that seat order is press order, the neutral token
    last. ``_play_to_the_end`` then lets everybody pass, and the engine's game end scores it."""
    state = bidding_round(num_agents, SKYSCRAPERS)
    r = rec(state)
    r["round"] = NUM_GAME_ROUNDS
    clear_skyscrapers(state, neutral=0)
    for tile in range(NUM_TILES):
        if r["tile_loc"][tile] == LOC_OWNED:
            r["tile_loc"][tile] = LOC_REMOVED
            r["tile_owner"][tile] = NO_SEAT
    for k, tile in enumerate(r["prestige_revealed"]):
        if tile != EMPTY:
            r["prestige_loc"][tile] = PRESTIGE_REMOVED
            r["prestige_revealed"][k] = EMPTY
    r["points"][:] = 0
    r["dollars"][:] = 0
    r["board_skyscrapers"][:] = 0
    for seat in range(int(r["num_seats"])):
        deal_cards(state, seat, hand={}, reserve={})
    r["vessel_owner"][:] = VESSEL_ON_BOARD
    r["borough_prestige"][:] = 0
    r["borough_base"][:] = [6, 7, 8, 8, 9, 10]
    n = int(r["num_seats"])
    _press(state, spaces=[4 - seat for seat in range(n)], heights=list(range(n, 0, -1)), neutral=0)
    return state


def _give(state, seat, character, start=False):
    """Give ``seat`` one not-yet-owned tile of ``character`` (a start tile if ``start``)."""
    r = rec(state)
    for tile in range(NUM_TILES):
        if (TILE_CHARACTER[tile] == character and TILE_IS_START[tile] == int(start)
                and r["tile_loc"][tile] != LOC_OWNED):
            r["tile_loc"][tile] = LOC_OWNED
            r["tile_owner"][tile] = seat
            return tile
    raise AssertionError(f"no free tile of character {character}")


def test_final_scoring_example_brooklyn_14_7_virtual_4_and_2():
    """Rulebook "Ending the Game and Final Scoring", example: "The prestige tiles 4 and 2 are in
    Brooklyn with the base value tile 8. The value of Brooklyn is 14 points. Yellow has the most
    skyscrapers here and gains 14 points. Red and Black have the same number of skyscrapers, but
    Red is further ahead on the Press Track. Therefore Red gains 7 points (14/2 = 7) and Black 4
    (7/2 = 3.5 -> 4). Note: The points for Black are virtual. Blue has the least skyscrapers and
    gains 2 points (4/2=2)." (R2: the neutral token counts in majority ties; R20.)"""
    state = _scoring_position()
    r = rec(state)
    r["borough_base"][BROOKLYN] = 8
    yellow_4, blue_2 = 1, 8  # default edition: yellow tiles 2 and 4, blue tiles 2 and 5
    assert PRESTIGE_TILE_VALUE[yellow_4] == 4 and PRESTIGE_TILE_VALUE[blue_2] == 2
    r["prestige_loc"][yellow_4] = BROOKLYN
    r["prestige_loc"][blue_2] = BROOKLYN
    r["borough_prestige"][BROOKLYN] = 6
    r["skyscrapers"][BROOKLYN, :3] = [3, 4, 1]
    r["skyscrapers"][BROOKLYN, NEUTRAL] = 3
    _press(state, spaces=[9, 3, 2], heights=[3, 2, 1], neutral=7)  # Red ahead of Black
    _play_to_the_end(state)
    assert list(r["score_lines"][:3, SCORE_BOROUGH + BROOKLYN]) == [7, 14, 2]
    for b in range(NUM_BOROUGHS):
        if b != BROOKLYN:
            assert list(r["score_lines"][:3, SCORE_BOROUGH + b]) == [0, 0, 0]


def test_final_scoring_example_with_black_ahead_of_red_on_the_press_track():
    """The same example with the neutral (Black) token ahead of Red: the tie now goes to Black
    ("Here the neutral press token counts", rulebook "Ties"; R2, R20): Black's 7 is virtual,
    Red gets 4, Blue still 2."""
    state = _scoring_position()
    r = rec(state)
    r["borough_base"][BROOKLYN] = 8
    r["borough_prestige"][BROOKLYN] = 6
    r["skyscrapers"][BROOKLYN, :3] = [3, 4, 1]
    r["skyscrapers"][BROOKLYN, NEUTRAL] = 3
    _press(state, spaces=[5, 3, 2], heights=[3, 2, 1], neutral=7)
    _play_to_the_end(state)
    assert list(r["score_lines"][:3, SCORE_BOROUGH + BROOKLYN]) == [4, 14, 2]


def test_character_30_example_seven_characters_15_plus_5_brown_lantern():
    """Rulebook final scoring, example: "Blue has 7 characters and receives 4+1+1+1+2+5+1=15
    points. Character 30 earns an additional 5 points since Blue has 5 skyscrapers in a borough
    with a brown lantern. Blue gains 20 points in total." (Addendum 28-32; Brooklyn has the
    brown lantern in the default edition.)"""
    state = _scoring_position()
    r = rec(state)
    tiles = [_give(state, BLUE, 19), _give(state, BLUE, 6), _give(state, BLUE, 9),
             _give(state, BLUE, 12), _give(state, BLUE, 30), _give(state, BLUE, 20),
             _give(state, BLUE, 18)]
    assert [int(TILE_VALUE[t]) for t in tiles] == [4, 1, 1, 1, 2, 5, 1]
    r["skyscrapers"][BROOKLYN, BLUE] = 5
    r["skyscrapers"][QUEENS, BLUE] = 3  # green lantern: not counted by character 30
    r["skyscrapers"][BROOKLYN, RED] = 4  # another seat's skyscrapers: not counted
    _play_to_the_end(state)
    assert r["score_lines"][BLUE, SCORE_CHARACTERS] == 15
    assert r["score_lines"][BLUE, SCORE_END_CHARACTERS] == 5
    assert (r["score_lines"][BLUE, SCORE_CHARACTERS]
            + r["score_lines"][BLUE, SCORE_END_CHARACTERS]) == 20
    assert list(r["score_lines"][:2, SCORE_CHARACTERS]) == [0, 0]
    assert list(r["score_lines"][:2, SCORE_END_CHARACTERS]) == [0, 0]
