"""5th Avenue's saved games and the door check: ``save_state``/``load_state`` round trips,
``validate_state`` refusing every kind of foreign record with a message naming the field, and a
fuzz (in a subprocess, so a crash in compiled code fails a test instead of killing pytest): a
record with random fields changed is refused, or it plays on to the end like any game."""

import numpy as np
import pytest

from tests.save_checks import (
    check_every_stage_round_trips,
    check_foreign_and_damaged_bytes,
    check_fuzz,
    check_loaded_game_plays_on,
    check_refused,
    snapshots,
)
from tiny_york_env.games.fifth_avenue import load_state, save_state, validate_state
from tiny_york_env.games.fifth_avenue import state as S
from tiny_york_env.games.fifth_avenue.data import CENTRAL_PARK
from tiny_york_env.registry import get_game

GAME = "fifth_avenue"
SETUPS = ((2, ()), (2, ("greedy",)), (3, ("random",)), (4, ()), (4, ("greedy", "random")))
FUZZ_SETUPS = [{"num_players": n, "bots": bots} for n, bots in SETUPS]
FUZZ_CASES = 400


@pytest.mark.parametrize("num_players, bots", SETUPS)
def test_every_stage_of_a_game_saves_and_loads_unchanged(num_players, bots):
    check_every_stage_round_trips(GAME, num_players, bots)


def test_a_loaded_game_plays_on_like_the_original():
    check_loaded_game_plays_on(GAME, 3)
    game = get_game(GAME)
    assert (game.load_state, game.save_state, game.validate_state) == (load_state, save_state, validate_state)


def test_another_games_save_and_damaged_bytes_are_refused():
    check_foreign_and_damaged_bytes(GAME)


def corrupt(field, value):
    """A mid-game record with ``field`` set to ``value`` (an index into arrays with a tuple)."""
    record = snapshots(GAME, 3, (), seed=4)[5]
    if isinstance(field, tuple):
        name, index = field
        record[name][index] = value
    else:
        record[field] = value
    return record


@pytest.mark.parametrize("field, value, message", [
    ("num_players", 5, "num_players is 5, allowed 2..4"),
    ("num_agents", 4, "num_agents is 4"),
    ("has_alea", 1, "has_alea is 1 with 3 players"),
    ("alea_colour", 3, "alea_colour is 3"),
    (("bot_kind", 0), 2, r"bot_kind\[0\] is 2"),
    ("decision", 9, "decision is 9"),
    ("actor", 5, "actor is 5, allowed 0..2"),
    (("plot_owner", 3), 4, r"plot_owner\[3\] is 4"),
    (("plot_business", (0, 1)), 7, "plot_business holds 7"),
    ("coloured_count", 13, "coloured_count holds 13"),
    (("hand", (0, 1, 2)), 9, "1-coloured cards by value"),
    (("hand", (0, 5, 0)), 1, "black cards by value"),
    (("hand", (3, 0, 0)), 1, "zero beyond seat 2"),
    ("black_count", 60, "black_count is 60"),
    (("supply_row", 19), -1, "supply-row set at spaces 19-20 holds 1 tiles"),
    ("park_business_count", 5, "park_business"),
    ("businesses_placed", 30, "businesses_placed is 30"),
    ("held_business", 2, "held_business is 2"),
    (("general", 0), 20, "row 0's skyscrapers add up to"),
    (("supply", S.ALEA_ROW), 1, "zero in rows of absent participants"),
    (("commissioner_place", 0), 9, "commissioner_place holds 9"),
    (("markers_placed", 1), 3, "has placed 3 markers"),
    (("stopped", 2), 1, "building_stops is 0 but 1 districts are stopped"),
    ("winner_mask", 1, "winner_mask is set before the game is over"),
    ("rng", 0, "generator's words"),
    ("bot_move_count", 2, r"bot_moves\[0\] names seat 0"),
    (("score", 3), 5, "zero beyond seat 2"),
    ("high_bidder", 1, "high_bid 0 and high_bidder 1"),
    (("bid_total", 2), 0, r"bid_total\[2\] is 0, its cards make 4"),
    (("bid_colour", 2), 0, "seat 2's bid must be one colour"),
])
def test_each_kind_of_foreign_record_is_refused_naming_the_field(field, value, message):
    check_refused(GAME, corrupt(field, value), message)


def test_a_batch_names_the_bad_record():
    batch = np.stack(snapshots(GAME, 2, (), seed=3)[:3])
    batch[2]["actor"] = 3
    with pytest.raises(ValueError, match="record 2: actor is 3"):
        validate_state(batch)


def test_random_corruptions_are_refused_or_play_on_without_crashing():
    check_fuzz(GAME, FUZZ_SETUPS, FUZZ_CASES, seed=0)


@pytest.mark.slow
def test_the_fuzz_with_numba_bounds_checks_on(tmp_path):
    check_fuzz(GAME, FUZZ_SETUPS, FUZZ_CASES * 5, seed=1, boundscheck=True, cache_dir=tmp_path)


def test_a_placing_round_record_must_show_just_the_placed_skyscrapers():
    """While the starting skyscrapers go down, the board, supplies and turn are as dealt."""
    record = snapshots(GAME, 3, (), seed=4)[0]
    validate_state(record)
    plot = int(np.flatnonzero(record["plot_owner"] == S.NO_PLAYER)[0])
    record["plot_owner"][plot], record["plot_skyscrapers"][plot] = 1, 1
    record["general"][1] -= 1
    check_refused(GAME, record, "seat 1 has placed 0 starting skyscrapers")


def test_a_bidder_without_a_coloured_card_on_the_table_has_no_bid_colour():
    """A bidder's colour is its first coloured card's: a bidder still in with none on the table
    and a colour set (found by the fuzz) would bid black cards alone, which the rules forbid."""
    for record in snapshots(GAME, 3, (), seed=4, every=1):
        if record["decision"] != S.DEC_BID:
            continue
        empty = [row for row in range(3) if not record["passed"][row]
                 and not record["bid_cards"][row, :S.BLACK].any() and record["bid_colour"][row] == S.NO_CARD]
        if empty:
            record["bid_colour"][empty[0]] = 0
            check_refused(GAME, record, f"seat {empty[0]} has bid_colour 0 but no card of it on the table")
            return
    raise AssertionError("no bidding position with a bidder whose table is empty")


def bidding_records(place_is_park):
    """Bidding positions of a few random games, in Central Park's auction or in a district's."""
    for seed in range(10):
        for record in snapshots(GAME, 3, (), seed=seed, every=1):
            if record["decision"] == S.DEC_BID and \
                    (record["auction_places"][record["auction_at"]] == CENTRAL_PARK) == place_is_park:
                yield record


def test_central_parks_colour_is_set_exactly_when_a_bidder_has_one():
    """Central Park's one colour is its first coloured card's (found by the fuzz: an auction moved
    to Central Park with a bid colour but none for the park let the next bidder choose another)."""
    park = next(r for r in bidding_records(True) if (r["bid_colour"][:3] != S.NO_CARD).any())
    park["park_colour"] = S.NO_CARD
    check_refused(GAME, park, r"park_colour is -1 in Central Park's auction while the bid colours are \[")
    district = next(bidding_records(False))
    district["park_colour"] = 0
    check_refused(GAME, district, "park_colour is 0 in an auction for district")
