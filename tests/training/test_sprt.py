"""The sequential probability ratio test that decides whether B is better than A (training/sprt.py)."""

import math

import numpy as np
import pytest

from tiny_york_env.arena.sprt import (
    ACCEPT_H0,
    ACCEPT_H1,
    CONTINUE,
    INCONCLUSIVE,
    PRIOR_VARIANCE,
    PRIOR_WEIGHT,
    SprtBounds,
    llr,
    sprt_state,
)

BOUNDS = SprtBounds.of(0.0, 0.1)  # is B ahead by at least 10 points of win share?
CAP = 2000


def test_walds_bounds():
    """log(beta / (1 - alpha)) below, log((1 - beta) / alpha) above: about -2.94 and 2.94 at 5%."""
    assert BOUNDS.lower == pytest.approx(math.log(0.05 / 0.95))
    assert BOUNDS.upper == pytest.approx(math.log(0.95 / 0.05))
    wide = SprtBounds.of(0.0, 0.1, alpha=0.01, beta=0.2)
    assert wide.upper == pytest.approx(math.log(0.8 / 0.01))
    assert wide.lower == pytest.approx(math.log(0.2 / 0.99))


def test_the_ratio_is_the_normal_approximations():
    """n (d1 - d0) (2 m - d0 - d1) / (2 v) with the observations' mean and their variance, regularised
    by PRIOR_WEIGHT pseudo-observations of PRIOR_VARIANCE."""
    differences = [1, 0, 0, -1, 1, 1, 0, 0.5]
    n, mean, variance, ratio = llr(differences, BOUNDS)
    assert (n, mean) == (8, pytest.approx(np.mean(differences)))
    regularised = (8 * np.var(differences) + PRIOR_WEIGHT * PRIOR_VARIANCE) / (8 + PRIOR_WEIGHT)
    assert variance == pytest.approx(regularised)
    assert ratio == pytest.approx(8 * 0.1 * (2 * mean - 0.1) / (2 * variance))


def _decide(rng, p_b, p_a):
    """Feed paired outcomes (B wins with p_b, A with p_a, independently) until the test decides."""
    differences = []
    while True:
        differences.append(float(rng.random() < p_b) - float(rng.random() < p_a))
        state = sprt_state(differences, BOUNDS, CAP)
        if state.decision != CONTINUE:
            return state


def test_a_clearly_better_b_is_accepted_and_an_equal_one_rejected_well_before_the_cap():
    """B 30 points ahead: H1 accepted; B no better: H0 accepted; both with far fewer games than the cap."""
    rng = np.random.default_rng(0)
    better = [_decide(rng, 0.6, 0.3) for _ in range(20)]
    equal = [_decide(rng, 0.4, 0.4) for _ in range(20)]
    assert all(s.decision == ACCEPT_H1 for s in better)
    assert sum(s.decision == ACCEPT_H0 for s in equal) >= 18  # alpha = 5%: an error now and then
    assert max(s.observations for s in better + equal) < CAP / 2


def test_the_cap_ends_an_undecided_test():
    """Halfway between the hypotheses the ratio hovers: at the cap the test is inconclusive."""
    differences = [0.05] * 10  # the mean exactly between 0 and 0.1: the ratio is 0
    assert sprt_state(differences, BOUNDS, 10).decision == INCONCLUSIVE
    assert sprt_state(differences, BOUNDS, 11).decision == CONTINUE


def test_identical_first_outcomes_do_not_decide():
    """Ten paired deals with the same outcome for A and B (a sample variance of 0) leave the test
    running; ten deals that B won and A lost are evidence enough."""
    assert sprt_state([0.0] * 10, BOUNDS, CAP).decision == CONTINUE
    assert sprt_state([0.0] * 9, BOUNDS, CAP).llr > BOUNDS.lower
    assert sprt_state([1.0] * 10, BOUNDS, CAP).decision == ACCEPT_H1


def test_one_observation_decides_nothing():
    assert sprt_state([1.0], BOUNDS, CAP).decision == CONTINUE and llr([1.0], BOUNDS)[3] == 0.0
    nearly_even = SprtBounds.of(0.0, 0.1, alpha=0.49, beta=0.49)  # bounds near 0: still no decision on one
    assert sprt_state([1.0], nearly_even, CAP).decision == CONTINUE
    assert sprt_state([1.0], BOUNDS, 1).decision == INCONCLUSIVE


@pytest.mark.parametrize("kwargs, message", [
    ({"delta0": 0.1, "delta1": 0.1}, "delta1 must exceed delta0"),
    ({"delta0": -2.0, "delta1": 0.1}, "delta0 must be"),
    ({"delta0": 0.0, "delta1": 1.5}, "delta1 must be at most 1"),
    ({"delta0": 0.0, "delta1": 0.1, "alpha": 0.0}, "alpha must be"),
    ({"delta0": 0.0, "delta1": 0.1, "beta": 0.7}, "beta must be below 0.5"),
    ({"delta0": 0.0, "delta1": 0.1, "alpha": 0.5}, "alpha must be below 0.5 .*one deal would decide"),
])
def test_bad_settings_are_refused_saying_what_is_allowed(kwargs, message):
    with pytest.raises(ValueError, match=message):
        SprtBounds.of(**kwargs)


def test_a_difference_outside_minus_one_to_one_is_refused():
    with pytest.raises(ValueError, match=r"in \[-1, 1\]"):
        llr([0.5, 2.0], BOUNDS)
