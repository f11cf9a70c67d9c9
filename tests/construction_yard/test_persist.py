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
from tiny_york_env.construction_yard import load_state, save_state, validate_state
from tiny_york_env.construction_yard import state as S
from tiny_york_env.registry import get_game

GAME = "construction_yard"
SETUPS = ((2, ()), (2, ("greedy",)), (3, ("random",)), (4, ()), (6, ("greedy", "random")))
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
    (("pile_bottom", 4), 99, "pile_bottom must not rise"),
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
    check_fuzz(GAME, SETUPS, FUZZ_CASES, seed=0)


@pytest.mark.slow
def test_the_fuzz_with_numba_bounds_checks_on(tmp_path):
    check_fuzz(GAME, SETUPS, FUZZ_CASES * 5, seed=1, boundscheck=True, cache_dir=tmp_path)
