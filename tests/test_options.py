"""The shared option checks (tiny_york_env/options.py)."""

import numpy as np
import pytest

from tiny_york_env.core.options import check_int, check_number


def test_ints_are_returned_as_python_ints():
    assert check_int("games", np.int64(3)) == 3 and type(check_int("games", np.int64(3))) is int
    assert check_int("depth", 0, 0) == 0


@pytest.mark.parametrize("value", [0, -1, 2.5, True, "3", None])
def test_bad_ints_name_the_option_and_what_it_may_be(value):
    with pytest.raises(ValueError, match=r"games must be a positive int \(games to play\), got"):
        check_int("games", value, 1, "games to play")


def test_a_lower_bound_other_than_one_is_spelled_out():
    with pytest.raises(ValueError, match="depth must be an int >= 0, got -1"):
        check_int("depth", -1, 0)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -0.5, True, "1", None, 10 ** 400])
def test_bad_numbers_are_refused(value):
    with pytest.raises(ValueError, match="weight must be a finite number >= 0, got"):
        check_number("weight", value)


def test_strict_bounds_refuse_the_bound_itself():
    assert check_number("limit", np.float32(0.5), 0.0, strict=True) == 0.5
    assert check_number("weight", 0) == 0.0
    with pytest.raises(ValueError, match=r"limit must be a finite number > 0 \(seconds\), got 0"):
        check_number("limit", 0, 0.0, strict=True, meaning="seconds")
