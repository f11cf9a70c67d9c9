"""Construction Yard's saved games and the door check: ``save_state``/``load_state`` round trips,
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
from tiny_york_env.games.construction_yard import load_state, save_state, validate_state
from tiny_york_env.games.construction_yard import state as S
from tiny_york_env.games.construction_yard.data import NUM_PILES, NUM_VALUES, SLOT_CURRENCY
from tiny_york_env.registry import get_game

GAME = "construction_yard"
SETUPS = ((2, ()), (2, ("greedy",)), (3, ("random",)), (4, ()), (6, ("greedy", "random")))
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
    ("num_players", 7, "num_players is 7, allowed 2..6"),
    ("num_agents", 4, "num_agents is 4"),
    ("has_dirk", 1, "has_dirk is 1 with 3 players"),
    (("bot_kind", 0), 2, r"bot_kind\[0\] is 2"),
    ("decision", 9, "decision is 9"),
    ("actor", 5, "actor is 5, allowed 0..2"),
    ("money_count", 200, "money_count is 200"),
    (("money_deck", 0), 60, "money_deck holds a code outside"),
    (("money_display", 1), 36, "money_display holds a code outside"),
    (("hand", (0, 1, 2)), 3, "money card 11 .* is in"),
    (("hand", (4, 0, 0)), 1, "zero beyond seat 2"),
    (("building_display", 0), 60, "distinct ids"),
    (("buildings", (1, 2)), 9, "more buildings of a type than printed|not all accounted for"),
    (("buildings", (S.DIRK_ROW, 0)), 1, "zero in rows of absent participants"),
    ("removed", 3, "not all accounted for"),
    (("score_lines", (0, 2)), 5, "scoring not yet done"),
    ("pending_building", 3, "pending_building is 3 while no keep-or-give"),
    ("winner_mask", 1, "winner_mask is set before the game is over"),
    ("rng", 0, "generator's words"),
    (("pile_bottom", 4), 99, r"pile_bottom \[.*\] is not a layout setup makes with 3 players"),
    (("scorings_done", 0), 1, "scoring card A must be in the money deck exactly until its scoring"),
])
def test_each_kind_of_foreign_record_is_refused_naming_the_field(field, value, message):
    check_refused(GAME, corrupt(field, value), message)


def test_a_batch_names_the_bad_record():
    batch = np.stack(snapshots(GAME, 2, (), seed=3)[:3])
    batch[2]["actor"] = 4
    with pytest.raises(ValueError, match="record 2: actor is 4"):
        validate_state(batch)


def test_random_corruptions_are_refused_or_play_on_without_crashing():
    check_fuzz(GAME, FUZZ_SETUPS, FUZZ_CASES, seed=0)


@pytest.mark.slow
def test_the_fuzz_with_numba_bounds_checks_on(tmp_path):
    check_fuzz(GAME, FUZZ_SETUPS, FUZZ_CASES * 5, seed=1, boundscheck=True, cache_dir=tmp_path)


def test_the_seat_to_move_is_an_agents_while_the_game_runs():
    """The engine plays its bots itself, so a running game never waits for a bot's seat."""
    game = get_game(GAME)
    record = game.new_game(game.make_config(num_players=3, bots=("random", "greedy")), 220870743)
    for bot_seat in (1, 2):
        record["actor"] = bot_seat
        check_refused(GAME, record, f"actor is {bot_seat}, a bot's seat, in a running game")


def paying_record():
    """A mid-game record of a three-player game in which seat 0 is paying for a building."""
    for record in snapshots(GAME, 3, (), seed=4, every=1):
        if record["decision"] == S.DEC_PAY and record["actor"] == 0:
            return record
    raise AssertionError("no payment in the game")


def test_a_payment_that_cannot_be_finished_is_refused():
    """A purchase starts only when the price can be paid (Y4): the money left in the slot's
    currency and the payment so far cover it."""
    record = paying_record()
    currency = int(SLOT_CURRENCY[record["buy_slot"]])
    hand = record["hand"][0, currency].copy()
    record["hand"][0, currency] = 0
    record["discard"][record["discard_count"]:record["discard_count"] + hand.sum()] = np.repeat(
        currency * NUM_VALUES + np.arange(NUM_VALUES), hand)
    record["discard_count"] += hand.sum()
    check_refused(GAME, record, "seat 0 pays .* with 0 left in its currency")


def with_piles(bottoms=None, **fields):
    """A record of a fresh three-player game with ``pile_bottom`` and other fields changed."""
    record = get_game(GAME).new_game(get_game(GAME).make_config(num_players=3), 8)
    if bottoms is not None:
        record["pile_bottom"] = bottoms
    for name, value in fields.items():
        record[name] = value
    return record


def test_the_piles_are_the_ones_setup_stacks():
    """Setup splits the money deck into five piles as equal as possible, A in the second and B in
    the fourth (Y1); a bottom moved by a card, all bottoms 0 before the reshuffle, a deck higher
    than its stack or a scoring card outside its pile are refused."""
    record = with_piles()
    bottoms = record["pile_bottom"].copy()
    get_game(GAME).validate_state(record)
    moved = bottoms.copy()
    moved[3] = 2  # the report's record: its next_scoring observation left [0, 1] later
    check_refused(GAME, with_piles(moved), r"pile_bottom \[.*\] is not a layout setup makes")
    for k in range(1, NUM_PILES - 1):
        nudged = bottoms.copy()
        nudged[k] += 1
        check_refused(GAME, with_piles(nudged), "is not a layout setup makes")
    check_refused(GAME, with_piles(np.zeros(NUM_PILES, np.int16)), "a scoring card is still in the")
    deck = record["money_deck"][:record["money_count"]]
    a_at = int(np.flatnonzero(deck == S.SCORING_A)[0])
    swapped = record.copy()
    swapped["money_deck"][[a_at, 0]] = swapped["money_deck"][[0, a_at]]  # A into the fifth pile
    check_refused(GAME, swapped, rf"scoring card A lies at deck index 0, outside its pile 2 \({bottoms[1]}")
    higher = record.copy()  # a card from a hand onto the deck: every card still in one place
    code = int(np.flatnonzero(higher["hand"][0].reshape(-1))[0])
    higher["hand"][0].reshape(-1)[code] -= 1
    higher["money_deck"][higher["money_count"]] = code
    higher["money_count"] += 1
    check_refused(GAME, higher, f"money_count is {int(higher['money_count'])}, more than the")


def test_the_fuzzing_reports_pile_record_is_refused_before_its_observation_leaves_the_space():
    """``s['pile_bottom'][3] = 2`` in a two-player game was accepted and, twenty decisions later,
    its ``next_scoring`` observation was 1.17."""
    game = get_game(GAME)
    record = game.new_game(game.make_config(num_players=2), 5)
    record["pile_bottom"][3] = 2
    with pytest.raises(ValueError, match="not a layout setup makes with 2 players"):
        game.load_state(game.save_state(record, validate=False))
