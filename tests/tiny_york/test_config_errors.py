"""GameConfig's Toms and the engine's seeds: unclear or silently wrapped input is refused with a
ValueError that says what was wrong and what is allowed."""

import numpy as np
import pytest

from tiny_york_env.games.tiny_york import GameConfig, new_game, new_games
from tiny_york_env.games.tiny_york.api import SEED_LIMIT, check_seed
from tiny_york_env.games.tiny_york.state import STATE_DTYPE


# --- Tom codes: ASCII digits only ---------------------------------------------------------------
@pytest.mark.parametrize("tom", ["B²", "B४", "B٤", "B４", "B₄", "Ｂ4", "b³"],
                         ids=["superscript", "devanagari", "arabic-indic", "fullwidth digit",
                              "subscript", "fullwidth letter", "lowercase superscript"])
def test_tom_codes_with_non_ascii_characters_are_refused(tom):
    """'B²' used to fail inside int(), and 'B४' was accepted with level 0 though it plays as B4."""
    with pytest.raises(ValueError) as err:
        GameConfig(num_agents=1, toms=(tom,))
    msg = str(err.value)
    assert repr(tom) in msg and "A/B/C" in msg and "2-9" in msg and "'B4'" in msg


def test_ascii_codes_still_get_their_table_level():
    """The ASCII form of the refused codes keeps working, with the rulebook level."""
    cfg = GameConfig(num_agents=1, toms=("B4", " b4 "))
    assert cfg.toms == ("B4", "B4") and cfg.tom_levels == (5, 5)


# --- toms: an ordered sequence --------------------------------------------------------------------
@pytest.mark.parametrize("toms, why", [
    ({5, 12}, "set has no fixed order"),
    (frozenset({"B4", "C2"}), "set has no fixed order"),
    ({"B4": 1}, "dicts, generators"),
    ((t for t in (5,)), "dicts, generators"),
    (5, "single value"),
    (np.int64(5), "single value"),
    ("B4", "string"),
    (b"B4", "string"),
], ids=["set", "frozenset", "dict", "generator", "int", "numpy int", "str", "bytes"])
def test_toms_must_be_an_ordered_sequence(toms, why):
    """A set would make the seat order depend on PYTHONHASHSEED; a single Tom must be wrapped."""
    with pytest.raises(ValueError) as err:
        GameConfig(num_agents=1, toms=toms)
    msg = str(err.value)
    assert "toms must be a sequence" in msg and "tuple or list" in msg and "seat order" in msg
    assert type(toms).__name__ in msg and why in msg


@pytest.mark.parametrize("toms, codes", [
    ((5, "C2"), ("B4", "C2")),
    (["C2", 5], ("C2", "B4")),
    (np.array([5, 2]), ("B4", "B3")),
    (range(2, 4), ("B3", "C2")),
], ids=["tuple", "list", "numpy array", "range"])
def test_sequences_of_toms_keep_their_order(toms, codes):
    """Tuples, lists, 1-d arrays and ranges are fine: the Toms take the seats in their order."""
    cfg = GameConfig(num_agents=1, toms=toms)
    assert cfg.toms == codes


# --- seeds: 0..2**63-1, never wrapped --------------------------------------------------------------
@pytest.mark.parametrize("seed", [SEED_LIMIT, SEED_LIMIT + 1, 2**70, np.uint64(SEED_LIMIT),
                                  -1, np.int64(-1), True, np.bool_(True), 1.0],
                         ids=["2**63", "2**63+1", "2**70", "uint64 2**63", "-1", "int64 -1",
                              "True", "numpy True", "float"])
def test_seeds_outside_0_to_2_63_are_refused(seed):
    """Seed 2**63 used to play seed 0's game (seed % 2**63)."""
    with pytest.raises(ValueError) as err:
        new_game(GameConfig(), seed)
    msg = str(err.value)
    assert "seed must be a non-negative int below 2**63" in msg and str(SEED_LIMIT - 1) in msg
    assert repr(seed) in msg
    with pytest.raises(ValueError, match="below 2\\*\\*63"):
        new_games(GameConfig(), [0, seed])
    with pytest.raises(ValueError, match="below 2\\*\\*63"):
        check_seed(seed)


@pytest.mark.parametrize("seed", [0, 1, SEED_LIMIT - 1, np.int64(SEED_LIMIT - 1),
                                  np.uint64(SEED_LIMIT - 1), np.uint8(7)])
def test_seeds_in_range_are_accepted_as_ints(seed):
    assert check_seed(seed) == int(seed) and type(check_seed(seed)) is int
    state = new_game(GameConfig(), seed)
    assert state.dtype == STATE_DTYPE
    assert state.tobytes() == new_game(GameConfig(), int(seed)).tobytes()


def test_the_largest_seed_is_a_game_of_its_own():
    """The top of the range plays a different game from seed 0 (nothing wraps onto it)."""
    top = new_game(GameConfig(), SEED_LIMIT - 1)
    assert top.tobytes() != new_game(GameConfig(), 0).tobytes()
    assert top.tobytes() == new_game(GameConfig(), SEED_LIMIT - 1).tobytes()
