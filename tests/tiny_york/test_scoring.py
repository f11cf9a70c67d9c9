"""Rule scenarios for the final scoring (rulebook "Ending the Game and Final Scoring", addendum
characters 28-42, R20). Each test builds a position with nothing in it but what the rule talks
about, runs ``final_scoring`` on the record and checks the score lines exactly. The set
characters 37-42 score in the order best for their owner (P8); ``_order_value`` scores one
given order, so a test can show what the other orders would have given."""

import numpy as np
import pytest

from tests.tiny_york.scenario import (
    bidding_round,
    clear_skyscrapers,
    give_character,
    play_until,
    rec,
    set_cards,
    strip_characters,
)
from tiny_york_env.games.tiny_york import (
    GameConfig,
    apply_action,
    final_scores,
    is_terminal,
    new_game,
    score_breakdown,
    winner,
)
from tiny_york_env.games.tiny_york.actions import BID_DONE
from tiny_york_env.games.tiny_york.api import end_character_points
from tiny_york_env.games.tiny_york.components import (
    BRONX,
    BROOKLYN,
    DOLLARS,
    FIRST_END_GAME_CHARACTER,
    JERSEY_CITY,
    MANHATTAN,
    NEUTRAL,
    NUM_BOROUGHS,
    NUM_TILES,
    PRESS,
    QUEENS,
    SET_DOLLARS,
    SET_POINTS,
    SET_SKYSCRAPERS,
    SKYSCRAPERS,
    STATEN_ISLAND,
    TILE_CHARACTER,
    TILE_IS_START,
    WILD,
)
from tiny_york_env.games.tiny_york.scoring import final_scoring, goods, half_rounded_up, score_set_order
from tiny_york_env.games.tiny_york.state import (
    DEC_BID,
    LOC_OWNED,
    LOC_REMOVED,
    NO_SEAT,
    NUM_SCORE_LINES,
    SCORE_BOROUGH,
    SCORE_BOROUGH_BONUS,
    SCORE_CHARACTERS,
    SCORE_END_CHARACTERS,
    SCORE_PRESS_BONUS,
    SCORE_REST,
    SCORE_TRACK,
    VESSEL_ON_BOARD,
)

TAXI_MANHATTAN_BRONX, TAXI_MANHATTAN_QUEENS = 0, 1
BUS_MANHATTAN_JERSEY, BUS_BROOKLYN_STATEN = 2, 3
STREETCAR_BROOKLYN_QUEENS, STREETCAR_JERSEY_STATEN = 4, 5
SUBWAY_BRONX_QUEENS, SUBWAY_MANHATTAN_BROOKLYN = 6, 7
BOAT_MANHATTAN_STATEN, BOAT_JERSEY_BROOKLYN = 8, 9


# --- private helpers -----------------------------------------------------------------------
def _press(state, spaces, heights, neutral=None):
    r = rec(state)
    for seat, (space, height) in enumerate(zip(spaces, heights, strict=True)):
        r["press_space"][seat] = space
        r["press_height"][seat] = height
    if neutral is not None:
        r["press_space"][NEUTRAL] = neutral
    r["press_moves"] = max(heights) + 1


def _strip(state):
    """Remove every character, skyscraper, vessel, point, dollar and reserve card; base values
    6, 7, 8, 8, 9, 10 in borough order, no prestige; seat order is press order, the neutral
    token on space 0 below everyone."""
    r = rec(state)
    clear_skyscrapers(state, neutral=0)
    for tile in range(NUM_TILES):
        if r["tile_loc"][tile] == LOC_OWNED:
            r["tile_loc"][tile] = LOC_REMOVED
            r["tile_owner"][tile] = NO_SEAT
    r["points"][:] = 0
    r["dollars"][:] = 0
    r["board_skyscrapers"][:] = 0
    r["reserve"][:] = 0
    r["vessel_owner"][:] = VESSEL_ON_BOARD
    r["borough_prestige"][:] = 0
    r["borough_base"][:] = [6, 7, 8, 8, 9, 10]
    r["statue_flipped"] = 0
    n = int(r["num_seats"])
    _press(state, spaces=[4 - seat for seat in range(n)], heights=list(range(n, 0, -1)), neutral=0)


def _position(num_agents=3):
    state = bidding_round(num_agents, PRESS)
    _strip(state)
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


def _tile_of(state, character):
    """The owned tile of ``character``."""
    r = rec(state)
    return next(t for t in range(NUM_TILES)
                if TILE_CHARACTER[t] == character and r["tile_loc"][t] == LOC_OWNED)


def _score(state):
    final_scoring(rec(state))
    r = rec(state)
    return r["score_lines"][: int(r["num_seats"])].copy()


def _borough(lines, b):
    return list(lines[:, SCORE_BOROUGH + b])


# --- majorities ------------------------------------------------------------------------------
def test_majority_ranks_halve_rounded_up_down_to_the_fifth():
    """Rulebook final scoring: 1st gets the borough value; "2nd position: Half the number of
    points for 1st position (rounded up)", and so on for 3rd, 4th and 5th (R20). Borough value
    8 + 5 = 13: ranks 13, 7, 4, 2, 1; the neutral player takes the 3rd rank (virtual 4)."""
    state = _position(4)
    r = rec(state)
    r["borough_base"][QUEENS] = 8
    r["borough_prestige"][QUEENS] = 5
    r["skyscrapers"][QUEENS, :4] = [2, 5, 1, 4]
    r["skyscrapers"][QUEENS, NEUTRAL] = 3
    lines = _score(state)
    assert _borough(lines, QUEENS) == [2, 13, 1, 7]
    for b in range(NUM_BOROUGHS):
        if b != QUEENS:
            assert _borough(lines, b) == [0, 0, 0, 0]


def test_majority_ties_between_players_go_to_the_one_ahead_on_the_press_track():
    """Rulebook final scoring: "Rank the players by the number of skyscrapers in the borough,
    with ties being broken by whom is further ahead on the Press Track." (R2, R20) Seats 0 and 2
    tie on 3 in Bronx with seat 2 ahead; value 8 -> seat 2 gets 8, seat 0 4, seat 1 (1) 2."""
    state = _position(3)
    r = rec(state)
    r["skyscrapers"][BRONX, :3] = [3, 1, 3]
    _press(state, spaces=[5, 9, 6], heights=[3, 2, 1], neutral=0)
    lines = _score(state)
    assert _borough(lines, BRONX) == [4, 2, 8]


def test_nobody_scores_with_zero_skyscrapers_in_a_borough():
    """Rulebook final scoring: "A player with no skyscrapers always earns no points." (R20)
    Manhattan: only seat 0 and the neutral player have skyscrapers: seat 0 is first (6), seats
    1 and 2 would be 3rd/4th but score nothing. Bronx: only the neutral player: nobody scores."""
    state = _position(3)
    r = rec(state)
    r["skyscrapers"][MANHATTAN, 0] = 1
    r["skyscrapers"][MANHATTAN, NEUTRAL] = 1
    r["skyscrapers"][BRONX, NEUTRAL] = 2
    _press(state, spaces=[0, 9, 8], heights=[3, 2, 1], neutral=7)  # seat 0 behind the neutral
    lines = _score(state)
    assert _borough(lines, MANHATTAN) == [3, 0, 0]  # neutral wins the tie (6), seat 0 gets 3
    assert _borough(lines, BRONX) == [0, 0, 0]
    r["skyscrapers"][MANHATTAN, NEUTRAL] = 0
    lines = _score(state)
    assert _borough(lines, MANHATTAN) == [6, 0, 0]


# --- bonuses and the rest line -------------------------------------------------------------------
def test_press_bonus_3_from_space_5():
    """Rulebook final scoring: "Press Bonus: Each player who reached at least space 5 of the
    Press Track earns 3 points." (R20) Spaces 4, 5, 15 (and 0) give 0, 3, 3 (and 0)."""
    state = _position(4)
    _press(state, spaces=[4, 5, 15, 0], heights=[4, 3, 2, 1], neutral=6)
    lines = _score(state)
    assert list(lines[:, SCORE_PRESS_BONUS]) == [0, 3, 3, 0]


def test_rest_line_is_dollars_plus_board_skyscrapers_halved_rounded_up():
    """Rulebook final scoring: "All the rest: Each player counts the dollars and skyscrapers on
    their player board, then divides the total by 2 (rounded up)" (R20). Skyscrapers built in
    boroughs do not count here."""
    state = _position(4)
    r = rec(state)
    r["dollars"][:4] = [3, 4, 1, 0]
    r["board_skyscrapers"][:4] = [2, 0, 0, 0]
    r["skyscrapers"][BROOKLYN, 3] = 5
    lines = _score(state)
    assert list(lines[:, SCORE_REST]) == [3, 2, 1, 0]


def test_score_track_line_and_total_are_the_points_plus_every_line():
    """R20: the points gained during the game stay; the total is the sum of the lines."""
    state = _position(3)
    r = rec(state)
    r["points"][:3] = [17, 0, 5]
    r["dollars"][:3] = [1, 0, 0]
    lines = _score(state)
    assert list(lines[:, SCORE_TRACK]) == [17, 0, 5]
    assert list(lines.sum(axis=1)) == [18, 0, 5]
    assert lines.shape[1] == NUM_SCORE_LINES


# --- characters --------------------------------------------------------------------------------
def test_character_values_use_the_printed_value_start_tiles_included():
    """Rulebook final scoring: "Each character awards as many points as its value printed in the
    top right." Start tiles print 1 or 5 (components: "A start tile's value is its printed
    value (1 or 5), also for end-game points"): start 19 is worth 5, elevator 19 worth 4."""
    state = _position(3)
    _give(state, 0, 19, start=True)
    _give(state, 0, 12, start=True)
    _give(state, 1, 19)
    _give(state, 1, 12)
    _give(state, 2, 2)
    _give(state, 2, 2)
    lines = _score(state)
    assert list(lines[:, SCORE_CHARACTERS]) == [6, 5, 6]
    assert list(lines[:, SCORE_END_CHARACTERS]) == [0, 0, 0]


def test_lantern_characters_28_to_32_count_own_skyscrapers_in_matching_boroughs():
    """Addendum 28-32: "Gain 1 point for each of your skyscrapers in a borough matching the
    color of the depicted lantern." Default lanterns: Manhattan yellow (28), Bronx red (29),
    Brooklyn brown (30), Queens and Jersey City green (31), Staten Island blue (32)."""
    state = _position(3)
    r = rec(state)
    r["skyscrapers"][:, 0] = [1, 2, 3, 4, 5, 6]  # Manhattan .. Jersey City
    r["skyscrapers"][:, 1] = [6, 6, 6, 6, 6, 6]  # another seat: never counted for seat 0
    for c in (28, 29, 30, 31, 32):
        _give(state, 0, c)
    lines = _score(state)
    assert lines[0, SCORE_END_CHARACTERS] == 1 + 4 + 2 + (3 + 6) + 5
    assert lines[0, SCORE_CHARACTERS] == 5 * 2
    state = _position(3)
    rec(state)["skyscrapers"][:, 0] = [1, 2, 3, 4, 5, 6]
    _give(state, 0, 31)
    assert _score(state)[0, SCORE_END_CHARACTERS] == 3 + 6


def test_character_33_one_point_per_two_press_spaces_rounded_up():
    """Addendum 33: "Gain 1 point for each 2 spaces you have advanced on the Press Track
    (rounded up)." Spaces 7, 8 and 0 give 4, 4 and 0."""
    state = _position(3)
    _press(state, spaces=[7, 8, 0], heights=[3, 2, 1], neutral=0)
    _give(state, 0, 33)  # one copy of 33 in the game
    lines = _score(state)
    assert list(lines[:, SCORE_END_CHARACTERS]) == [4, 0, 0]  # seat 1 has no 33
    state = _position(3)
    _press(state, spaces=[0, 8, 0], heights=[3, 2, 1], neutral=0)
    _give(state, 1, 33)
    assert list(_score(state)[:, SCORE_END_CHARACTERS]) == [0, 4, 0]


def test_character_34_two_points_per_reserve_card_of_the_best_type():
    """Addendum 34: "Gain 2 points for each card of a certain type of your choice in your
    reserve." (R20: 34 picks the best type.) Reserve {2 dollars} -> 4; {press, wild} -> 2."""
    state = _position(3)
    set_cards(state, 0, reserve={DOLLARS: 2})
    set_cards(state, 1, reserve={PRESS: 1, WILD: 1})
    _give(state, 0, 34)  # one copy of 34 in the game
    assert list(_score(state)[:, SCORE_END_CHARACTERS]) == [4, 0, 0]
    rec(state)["tile_owner"][_tile_of(state, 34)] = 1
    assert list(_score(state)[:, SCORE_END_CHARACTERS]) == [0, 2, 0]
    # A 3-card reserve (character 3): two wilds and a skyscraper card -> 4.
    set_cards(state, 1, reserve={SKYSCRAPERS: 1, WILD: 2})
    rec(state)["reserve_size"][1] = 3
    assert list(_score(state)[:, SCORE_END_CHARACTERS]) == [0, 4, 0]


def test_character_35_two_points_per_borough_with_three_own_skyscrapers():
    """Addendum 35: "Gain 2 points for each borough with at least 3 of your skyscrapers."
    Counts 3, 2, 5, 0, 4, 3 -> four boroughs -> 8; the neutral's don't help."""
    state = _position(3)
    r = rec(state)
    r["skyscrapers"][:, 0] = [3, 2, 5, 0, 4, 3]
    r["skyscrapers"][:, NEUTRAL] = 2
    r["skyscrapers"][BRONX, 1] = 3
    _give(state, 0, 35)
    lines = _score(state)
    assert lines[0, SCORE_END_CHARACTERS] == 8
    assert lines[0, SCORE_CHARACTERS] == 4
    _give(state, 0, 35)  # the second copy scores as well
    lines = _score(state)
    assert lines[0, SCORE_END_CHARACTERS] == 16
    assert lines[0, SCORE_CHARACTERS] == 8


def test_character_36_one_point_per_character_in_the_company():
    """Addendum 36: "Gain 1 point for each character in your company." (itself included)"""
    state = _position(3)
    _give(state, 0, 36)
    _give(state, 0, 6)
    _give(state, 0, 21, start=True)
    _give(state, 1, 6)  # another seat's company: not counted
    lines = _score(state)
    assert lines[0, SCORE_END_CHARACTERS] == 3
    assert lines[0, SCORE_CHARACTERS] == 2 + 1 + 5


def _own_vessels(state, seat, vessels):
    for v in vessels:
        rec(state)["vessel_owner"][v] = seat


def _order_value(state, seat, order):
    """The end-character and rest lines that set characters ``order`` would give ``seat`` if they
    scored in exactly that order (R20's sets, without choosing the order)."""
    r = rec(state)
    have = goods(r, seat)
    points = np.zeros(len(SET_POINTS), dtype=np.int64)
    end = score_set_order(np.array(order, dtype=np.int64), len(order), have, points)
    return int(end), int(half_rounded_up(have[SET_DOLLARS] + have[SET_SKYSCRAPERS]))


def _end_row(state, seat):
    """``seat``'s end_character_points row as {character: points}, zeros left out."""
    row = rec(state)["end_character_points"][seat]
    return {FIRST_END_GAME_CHARACTER + k: int(p) for k, p in enumerate(row) if p}


def test_set_characters_take_the_order_best_for_their_owner_the_issue_example():
    """Addendum 41 "2 dollars + 2 skyscrapers" and 42 "any vessel + 2 skyscrapers", 6 points a
    set, sets returned to the supply; R20: "in the order that gives their owner the most points"
    (P8). A bus and a streetcar, 10 dollars, 5 board skyscrapers:
      41 then 42: 41 takes min(10 / 2, 5 / 2) = 2 sets (12), leaving 6 dollars and 1 skyscraper;
        42 needs 2 skyscrapers (0). End characters 12, rest ceil((6 + 1) / 2) = 4: 16.
      42 then 41: 42 takes min(2 vessels, 5 / 2) = 2 sets (12), leaving 10 dollars, 1 skyscraper;
        41 needs 2 skyscrapers (0). End characters 12, rest ceil((10 + 1) / 2) = 6: 18.
    The engine takes 42 first."""
    state = _position(3)
    r = rec(state)
    _own_vessels(state, 1, (BUS_MANHATTAN_JERSEY, STREETCAR_BROOKLYN_QUEENS))
    r["dollars"][1] = 10
    r["board_skyscrapers"][1] = 5
    _give(state, 1, 41)
    _give(state, 1, 42)
    assert _order_value(state, 1, [41, 42]) == (12, 4)
    assert _order_value(state, 1, [42, 41]) == (12, 6)
    lines = _score(state)
    assert [lines[1, SCORE_END_CHARACTERS], lines[1, SCORE_REST]] == [12, 6]
    assert _end_row(state, 1) == {42: 12}
    assert lines[1, SCORE_CHARACTERS] == 4 + 4
    # The record's goods are not consumed by scoring (the lines only).
    assert r["dollars"][1] == 10 and r["board_skyscrapers"][1] == 5


def test_ascending_order_stays_when_no_order_beats_it():
    """Addendum 40 "any vessel + 2 dollars" and 41 "2 dollars + 2 skyscrapers" (6 points a set;
    R20, P8). Two vessels, 7 dollars, 4 board skyscrapers:
      40 then 41: 40 takes min(2, 7 / 2) = 2 sets (12, 3 dollars left); 41 takes min(3 / 2, 4 / 2)
        = 1 set (6, 1 dollar and 2 skyscrapers left); rest ceil(3 / 2) = 2: 20.
      41 then 40: 41 takes min(7 / 2, 4 / 2) = 2 sets (12, 3 dollars, no skyscraper left); 40
        takes min(2, 3 / 2) = 1 set (6, 1 dollar left); rest ceil(1 / 2) = 1: 19."""
    state = _position(3)
    r = rec(state)
    _own_vessels(state, 2, (BUS_BROOKLYN_STATEN, BOAT_JERSEY_BROOKLYN))
    r["dollars"][2] = 7
    r["board_skyscrapers"][2] = 4
    _give(state, 2, 41)
    _give(state, 2, 40)
    assert _order_value(state, 2, [40, 41]) == (18, 2)
    assert _order_value(state, 2, [41, 40]) == (18, 1)
    lines = _score(state)
    assert [lines[2, SCORE_END_CHARACTERS], lines[2, SCORE_REST]] == [12 + 6, 2]
    assert _end_row(state, 2) == {40: 12, 41: 6}


def test_five_set_characters_in_their_best_order_and_sets_leave_before_the_rest_line():
    """Addendum 37-42: 5 points per vessel set (37-39), 6 per mixed set (40-42), "Return any
    evaluated vessels / the evaluated sets to the general supply"; R20 and P8: the best order,
    before the rest line. Seat 0: taxi, bus, boat, 5 dollars, 4 board skyscrapers.
      Ascending: 37 taxi+bus (5); 39 boat+taxi: no taxi (0); 40 boat + 2 dollars (6); 41 2
        dollars + 2 skyscrapers (6), leaving 1 dollar, 2 skyscrapers; 42: no vessel (0). 17 + 2.
      40 first: 2 sets (12, 1 vessel and 1 dollar left); 37, 39 and 41 find no set; 42 takes the
        last vessel and 2 skyscrapers (6). 18 + ceil((1 + 2) / 2) = 20, the best (42 first also
        makes 20, 12 + 6 + ceil(3 / 2); P8 keeps the first best order, 40, 37, 39, 41, 42)."""
    state = _position(3)
    r = rec(state)
    _own_vessels(state, 0, (TAXI_MANHATTAN_BRONX, BUS_MANHATTAN_JERSEY, BOAT_MANHATTAN_STATEN))
    r["dollars"][0] = 5
    r["board_skyscrapers"][0] = 4
    for c in (42, 41, 40, 39, 37):
        _give(state, 0, c)
    assert _order_value(state, 0, [37, 39, 40, 41, 42]) == (17, 2)
    assert _order_value(state, 0, [40, 37, 39, 41, 42]) == (18, 2)
    assert _order_value(state, 0, [42, 37, 39, 40, 41]) == (18, 2)
    lines = _score(state)
    assert [lines[0, SCORE_END_CHARACTERS], lines[0, SCORE_REST]] == [18, 2]
    assert _end_row(state, 0) == {40: 12, 42: 6}
    assert lines[0, SCORE_CHARACTERS] == 3 + 1 + 4 + 4 + 4


def test_vessels_evaluated_by_a_set_are_not_reused_and_the_better_order_wins():
    """Addendum 37-39: "Return any evaluated vessels to the general supply." R20: a vessel in one
    set is no longer "any 1 vessel" for another.
    (a) Taxi + bus, 2 dollars, 37 and 40: 37 first scores 5 and leaves 2 dollars (rest 1): 6; 40
    first scores 6 with one vessel and 37 finds no pair (rest 0): 6 too; P8 keeps ascending.
    (b) Two streetcars + two subways, 6 board skyscrapers, 38 and 42: 38 first scores 2 sets
    (10), 42 finds no vessel, rest ceil(6 / 2) = 3: 13; 42 first takes min(4, 6 / 2) = 3 sets
    (18) and 38 finds one vessel, rest 0: 18, the engine's choice."""
    state = _position(3)
    r = rec(state)
    _own_vessels(state, 0, (TAXI_MANHATTAN_QUEENS, BUS_BROOKLYN_STATEN))
    r["dollars"][0] = 2
    _give(state, 0, 37)
    _give(state, 0, 40)
    _own_vessels(state, 1, (STREETCAR_BROOKLYN_QUEENS, STREETCAR_JERSEY_STATEN, SUBWAY_BRONX_QUEENS,
                            SUBWAY_MANHATTAN_BROOKLYN))
    r["board_skyscrapers"][1] = 6
    _give(state, 1, 38)
    _give(state, 1, 42)
    assert _order_value(state, 0, [40, 37]) == (6, 0)
    assert _order_value(state, 1, [38, 42]) == (10, 3)
    lines = _score(state)
    assert [lines[0, SCORE_END_CHARACTERS], lines[0, SCORE_REST]] == [5, 1]
    assert [lines[1, SCORE_END_CHARACTERS], lines[1, SCORE_REST]] == [18, 0]
    assert _end_row(state, 0) == {37: 5}
    assert _end_row(state, 1) == {42: 18}


def test_any_vessel_is_the_kind_later_set_characters_miss_least():
    """P8: each "any vessel" returned is the kind the set characters still to score need least.
    Two taxis, two buses, a streetcar and a boat, 8 dollars, 3 board skyscrapers; 37 and 40.
      37 first: 2 taxi+bus sets (10); 40 takes the streetcar and the boat (12), 4 dollars left;
        rest ceil((4 + 3) / 2) = 4: 26.
      40 first: 4 sets (24) with the streetcar, the boat, one taxi and one bus, so 37 still
        finds a taxi+bus set (5); rest ceil(3 / 2) = 2: 31. (Returning both taxis first would
        leave 37 nothing: 26.)"""
    state = _position(2)
    r = rec(state)
    _own_vessels(state, 0, (TAXI_MANHATTAN_BRONX, TAXI_MANHATTAN_QUEENS, BUS_MANHATTAN_JERSEY,
                            BUS_BROOKLYN_STATEN, STREETCAR_BROOKLYN_QUEENS, BOAT_MANHATTAN_STATEN))
    r["dollars"][0] = 8
    r["board_skyscrapers"][0] = 3
    _give(state, 0, 37)
    _give(state, 0, 40)
    assert _order_value(state, 0, [37, 40]) == (22, 4)
    assert _order_value(state, 0, [40, 37]) == (29, 2)
    lines = _score(state)
    assert [lines[0, SCORE_END_CHARACTERS], lines[0, SCORE_REST]] == [29, 2]
    assert _end_row(state, 0) == {37: 5, 40: 24}


def test_a_second_copy_of_a_set_character_finds_nothing_left():
    """P8: the first copy takes every set it can, so a second copy of the same character scores
    0 in any order; the breakdown sums the copies. (a) The issue example with both copies of 41:
    still 42 first, end characters 12, rest 6. (b) Both copies of 40 with three vessels and 8
    dollars: the first takes min(3, 8 / 2) = 3 sets (18), the second finds no vessel; rest
    ceil(2 / 2) = 1."""
    state = _position(3)
    r = rec(state)
    _own_vessels(state, 0, (BUS_MANHATTAN_JERSEY, STREETCAR_BROOKLYN_QUEENS))
    r["dollars"][0] = 10
    r["board_skyscrapers"][0] = 5
    for c in (41, 42, 41):
        _give(state, 0, c)
    _own_vessels(state, 2, (TAXI_MANHATTAN_BRONX, SUBWAY_BRONX_QUEENS, BOAT_JERSEY_BROOKLYN))
    r["dollars"][2] = 8
    _give(state, 2, 40)
    _give(state, 2, 40)
    assert _order_value(state, 0, [41, 41, 42]) == (12, 4)
    assert _order_value(state, 0, [42, 41, 41]) == (12, 6)
    assert _order_value(state, 2, [40, 40]) == (18, 1)
    lines = _score(state)
    assert [lines[0, SCORE_END_CHARACTERS], lines[0, SCORE_REST]] == [12, 6]
    assert [lines[2, SCORE_END_CHARACTERS], lines[2, SCORE_REST]] == [18, 1]
    assert lines[0, SCORE_CHARACTERS] == 3 * 4
    assert _end_row(state, 0) == {42: 12}
    assert _end_row(state, 2) == {40: 18}


def test_set_characters_40_to_42_each_taking_all_it_can():
    """R20: each takes as many sets as it can. One vessel, 4 dollars, 2 board skyscrapers; 40,
    41, 42. Ascending: 40 vessel + 2 dollars (6), 41 2 dollars + 2 skyscrapers (6), 42 nothing:
    12, rest 0. 42 first: 6, then 40 finds no vessel and 41 no skyscrapers: 6 + rest 2 = 8; no
    order makes more than 12. Without 40 and 41, 42 alone with 4 vessels and 6 skyscrapers takes
    min(4, 6 / 2) = 3 sets (18), rest 0."""
    state = _position(3)
    r = rec(state)
    _own_vessels(state, 2, (BOAT_MANHATTAN_STATEN,))
    r["dollars"][2] = 4
    r["board_skyscrapers"][2] = 2
    for c in (42, 41, 40):
        _give(state, 2, c)
    assert _order_value(state, 2, [42, 40, 41]) == (6, 2)
    lines = _score(state)
    assert lines[2, SCORE_END_CHARACTERS] == 12
    assert lines[2, SCORE_REST] == 0
    assert lines[2, SCORE_CHARACTERS] == 12
    assert _end_row(state, 2) == {40: 6, 41: 6}

    state = _position(3)
    r = rec(state)
    _own_vessels(state, 1, (STREETCAR_BROOKLYN_QUEENS, STREETCAR_JERSEY_STATEN, SUBWAY_BRONX_QUEENS,
                            SUBWAY_MANHATTAN_BROOKLYN))
    r["board_skyscrapers"][1] = 6
    _give(state, 1, 42)
    lines = _score(state)
    assert lines[1, SCORE_END_CHARACTERS] == 18
    assert lines[1, SCORE_REST] == 0


def test_end_character_points_rows_sum_to_the_end_characters_line():
    """R20's end-game line is the sum of what each character 28-42 scored (end_character_points,
    copies together). Seat 0: 30 (brown lantern: Brooklyn, 4 skyscrapers), both copies of 35 (2
    boroughs with 3+: 4 each), 36 (7 characters), 40 and 42 with one vessel, 2 dollars, 2 board
    skyscrapers (one set for one of them, ascending: 40). Seat 1: 33 on press space 3 (2).
    Seat 2: no end-game character. Scoring again after 36 changes hands rewrites the rows."""
    state = _position(3)
    r = rec(state)
    r["skyscrapers"][BROOKLYN, 0] = 4
    r["skyscrapers"][MANHATTAN, 0] = 3
    _give(state, 0, 30)
    _give(state, 0, 35)
    _give(state, 0, 35)
    tile_36 = _give(state, 0, 36)
    _give(state, 0, 40)
    _give(state, 0, 42)
    _give(state, 0, 6)
    _own_vessels(state, 0, (BOAT_MANHATTAN_STATEN,))
    r["dollars"][0] = 2
    r["board_skyscrapers"][0] = 2
    _press(state, spaces=[4, 3, 2], heights=[3, 2, 1], neutral=0)
    _give(state, 1, 33)
    _give(state, 2, 6)
    lines = _score(state)
    assert _end_row(state, 0) == {30: 4, 35: 8, 36: 7, 40: 6}
    assert _end_row(state, 1) == {33: 2}
    assert _end_row(state, 2) == {}
    assert list(lines[:, SCORE_END_CHARACTERS]) == [25, 2, 0]
    assert list(r["end_character_points"][:3].sum(axis=1)) == list(lines[:, SCORE_END_CHARACTERS])
    r["tile_owner"][tile_36] = 2
    lines = _score(state)
    assert _end_row(state, 0) == {30: 4, 35: 8, 40: 6}
    assert _end_row(state, 2) == {36: 2}
    assert list(r["end_character_points"][:3].sum(axis=1)) == list(lines[:, SCORE_END_CHARACTERS])


def test_tom_scores_nothing_for_set_characters_in_any_order():
    """R24: "end-game abilities (28-42) give Tom nothing" - also 41 and 42 with the issue's
    goods (a bus, a streetcar, 10 dollars, 5 board skyscrapers). His dollars go on his
    characters instead: values 4 and 4, two rounds of dollars double both (16), 6 dollars left;
    rest ceil((6 + 5) / 2) = 6. His end_character_points row is cleared."""
    state = new_game(GameConfig(num_agents=1, toms=("A6",)), seed=3)
    play_until(state, lambda r: r["decision"] == DEC_BID)
    strip_characters(state)
    r = rec(state)
    tom = next(s for s in range(int(r["num_seats"])) if r["is_tom"][s])
    r["vessel_owner"][:] = VESSEL_ON_BOARD
    _own_vessels(state, tom, (BUS_MANHATTAN_JERSEY, STREETCAR_BROOKLYN_QUEENS))
    r["dollars"][tom] = 10
    r["board_skyscrapers"][tom] = 5
    give_character(state, tom, 41)
    give_character(state, tom, 42)
    r["end_character_points"][tom] = 7  # stale numbers must not survive
    final_scoring(r)
    assert r["score_lines"][tom, SCORE_END_CHARACTERS] == 0
    assert r["score_lines"][tom, SCORE_CHARACTERS] == 16
    assert r["score_lines"][tom, SCORE_REST] == 6
    assert not r["end_character_points"][tom].any()


# --- the winner --------------------------------------------------------------------------------
def test_winner_tie_goes_to_the_player_ahead_on_the_press_track():
    """Rulebook: "In case of a tie the player further ahead on the Press Track wins the tie."
    (R20) Seats 0 and 2 both total 10; seat 2 is ahead on the track (same space, on top)."""
    state = _position(3)
    r = rec(state)
    r["points"][:3] = [10, 9, 10]
    _press(state, spaces=[2, 3, 2], heights=[1, 3, 2], neutral=0)
    lines = _score(state)
    assert list(lines.sum(axis=1)) == [10, 9, 10]
    assert r["winner"] == 2
    _press(state, spaces=[2, 3, 2], heights=[2, 3, 1], neutral=0)
    _score(state)
    assert r["winner"] == 0
    r["points"][1] = 11
    _score(state)
    assert r["winner"] == 1


def test_final_scoring_runs_after_round_five_with_all_lines():
    """Rulebook "The game ends after the fifth game round, and the final scoring takes place"
    (R20). A position edited in round 5's last bidding round: everybody passes, the game ends
    and the score lines and winner are those of the position."""
    state = bidding_round(2, SKYSCRAPERS)
    play_until(state, lambda r: r["round"] == 5 and r["bid_round"] == SKYSCRAPERS
               and r["decision"] == DEC_BID)
    _strip(state)
    r = rec(state)
    r["statue_flipped"] = 1  # the in-game borough bonus (4) is already gone
    r["points"][:2] = [20, 12]
    r["dollars"][:2] = [3, 0]
    r["board_skyscrapers"][:2] = [0, 4]
    r["skyscrapers"][:, 1] = 1  # seat 1 in all six boroughs
    r["skyscrapers"][MANHATTAN, 0] = 2
    _press(state, spaces=[6, 4], heights=[2, 1], neutral=8)
    for seat in range(2):
        set_cards(state, seat, hand={})
    _give(state, 0, 36)
    while not is_terminal(state):
        apply_action(state, BID_DONE)
    lines = rec(state)["score_lines"][:2]
    expected = np.zeros((2, NUM_SCORE_LINES), dtype=np.int64)
    expected[:, SCORE_TRACK] = [20, 12]
    expected[:, SCORE_CHARACTERS] = [2, 0]
    expected[:, SCORE_END_CHARACTERS] = [1, 0]
    expected[:, SCORE_BOROUGH + MANHATTAN] = [6, 3]
    for b in (BROOKLYN, QUEENS, BRONX, STATEN_ISLAND, JERSEY_CITY):
        expected[1, SCORE_BOROUGH + b] = r["borough_base"][b]
    expected[:, SCORE_BOROUGH_BONUS] = [0, 3]
    expected[:, SCORE_PRESS_BONUS] = [3, 0]
    expected[:, SCORE_REST] = [2, 2]
    assert lines.tolist() == expected.tolist()
    assert list(final_scores(state)) == list(expected.sum(axis=1))
    assert winner(state) == 1


def test_end_character_points_api_per_seat_after_the_game_ends():
    """API ``end_character_points``: per seat, each end-game character it owns -> what it scored
    (R20, P8), only once the game is over. The issue's example played to the end: seat 0 owns
    36 (3 characters), 41 and 42 with a bus, a streetcar, 10 dollars and 5 board skyscrapers
    (42 first: 12, 41 nothing, rest 6); seat 1 owns no end-game character."""
    state = bidding_round(2, SKYSCRAPERS)
    play_until(state, lambda r: r["round"] == 5 and r["bid_round"] == SKYSCRAPERS
               and r["decision"] == DEC_BID)
    _strip(state)
    r = rec(state)
    for seat in range(2):
        set_cards(state, seat, hand={})
    _own_vessels(state, 0, (BUS_MANHATTAN_JERSEY, STREETCAR_BROOKLYN_QUEENS))
    r["dollars"][0] = 10
    r["board_skyscrapers"][0] = 5
    for c in (41, 42, 36):
        _give(state, 0, c)
    _give(state, 1, 6)
    with pytest.raises(ValueError, match="not over"):
        end_character_points(state)
    while not is_terminal(state):
        apply_action(state, BID_DONE)
    assert end_character_points(state) == [{36: 3, 41: 0, 42: 12}, {}]
    breakdown = score_breakdown(state)
    assert breakdown[0]["end-game characters"] == 15
    assert breakdown[0]["rest (dollars + skyscrapers) / 2"] == 6
