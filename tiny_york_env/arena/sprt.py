"""A sequential probability ratio test on paired games: is B better than A by at least ``delta``?

Chess-engine testing (fishtest) accepts a change with a generalized SPRT instead of a fixed sample:
games are played until the log-likelihood ratio of "B is better by at least ``delta1``" (H1) against
"B is better by at most ``delta0``" (H0) crosses one of Wald's bounds, ``log(beta / (1 - alpha))``
below (H0 accepted) or ``log((1 - beta) / alpha)`` above (H1 accepted); a cap on the games stops a
test that crosses neither. Here one observation is one paired deal: A and B each play the same deal
(the same seed, seats swapped where the setup has two agents), and the observation is B's share of
the win minus A's, in [-1, 1] (a shared win counts 1/k, as the harness counts it). With the normal
approximation of the generalized SPRT, the mean ``m`` and variance ``v`` of the ``n`` observations
so far give ``LLR = n (delta1 - delta0) (2 m - delta0 - delta1) / (2 v)``; ``v`` is regularised by a
few pseudo-observations (``PRIOR_WEIGHT``, ``PRIOR_VARIANCE``) so that early identical outcomes do not
decide the test.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from ..core.options import check_number

DEFAULT_ALPHA = 0.05  # the chance of accepting H1 when H0 holds
DEFAULT_BETA = 0.05  # the chance of accepting H0 when H1 holds
ACCEPT_H1, ACCEPT_H0, CONTINUE, INCONCLUSIVE = "H1", "H0", "continue", "inconclusive"
MIN_OBSERVATIONS = 2  # a variance needs two observations
# The variance is regularised by PRIOR_WEIGHT pseudo-observations of PRIOR_VARIANCE (a fair coin's),
# so that a run of identical first outcomes (variance 0) cannot decide the test on its own.
PRIOR_WEIGHT = 10
PRIOR_VARIANCE = 0.25
MAX_ERROR_RATE = 0.5  # at or above it a test would decide at once or prefer the hypothesis it should reject
DIFFERENCE = "B's share of the win minus A's, in [-1, 1]"


def at_most(name: str, value: float, most: float, meaning: str) -> float:
    """``value`` unless it exceeds ``most``: then a ValueError naming ``name`` and what it means."""
    if value > most:
        raise ValueError(f"{name} must be at most {most:g} ({meaning}), got {value!r}")
    return value


def below_half(name: str, rate: float) -> float:
    """``rate`` as a float when it is below ``MAX_ERROR_RATE``; else a ValueError naming ``name``."""
    if not rate < MAX_ERROR_RATE:
        raise ValueError(f"{name} must be below {MAX_ERROR_RATE:g} (an error rate: at {MAX_ERROR_RATE:g} "
                         f"both bounds are 0 and one deal would decide), got {rate!r}")
    return float(rate)


@dataclass(frozen=True)
class SprtBounds:
    """The hypotheses and Wald's bounds on the log-likelihood ratio."""

    delta0: float
    delta1: float
    lower: float
    upper: float

    @classmethod
    def of(cls, delta0: float, delta1: float, alpha: float = DEFAULT_ALPHA,
           beta: float = DEFAULT_BETA) -> SprtBounds:
        """Bounds for H0: mean difference <= delta0 against H1: >= delta1, with error rates alpha
        and beta; ValueError for differences outside [-1, 1], delta1 <= delta0 or rates outside
        (0, 0.5)."""
        delta0 = at_most("delta0", check_number("delta0", delta0, -1.0, meaning=DIFFERENCE), 1.0, DIFFERENCE)
        delta1 = at_most("delta1", check_number("delta1", delta1, -1.0, meaning=DIFFERENCE), 1.0, DIFFERENCE)
        if not delta1 > delta0:
            raise ValueError(f"delta1 must exceed delta0; got delta0={delta0}, delta1={delta1}")
        rates = [below_half(name, check_number(name, rate, 0.0, strict=True)) for name, rate in
                 (("alpha", alpha), ("beta", beta))]
        alpha, beta = rates
        return cls(delta0, delta1, math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha))


@dataclass(frozen=True)
class SprtState:
    """Where a test stands: observations, their mean and variance, the LLR and the decision."""

    observations: int
    mean: float
    variance: float
    llr: float
    decision: str


def llr(differences: Iterable[float], bounds: SprtBounds) -> tuple[int, float, float, float]:
    """(n, mean, variance, log-likelihood ratio) of the paired differences under the bounds'
    hypotheses (normal approximation); the ratio is 0 before ``MIN_OBSERVATIONS``."""
    values = [float(d) for d in differences]
    for d in values:
        if not -1.0 <= d <= 1.0:
            raise ValueError(f"a paired difference lies in [-1, 1] (B's share of the win minus A's); got {d}")
    n = len(values)
    if n < MIN_OBSERVATIONS:
        return n, (values[0] if values else 0.0), 0.0, 0.0
    mean = sum(values) / n
    variance = (sum((d - mean) ** 2 for d in values) + PRIOR_WEIGHT * PRIOR_VARIANCE) / (n + PRIOR_WEIGHT)
    spread = bounds.delta1 - bounds.delta0
    return n, mean, variance, n * spread * (2 * mean - bounds.delta0 - bounds.delta1) / (2 * variance)


def sprt_state(differences: Iterable[float], bounds: SprtBounds, max_observations: int) -> SprtState:
    """The test after these paired differences: H1 or H0 accepted once the ratio crosses a bound,
    inconclusive at ``max_observations`` without, else continue."""
    n, mean, variance, ratio = llr(differences, bounds)
    if n < MIN_OBSERVATIONS:
        decision = INCONCLUSIVE if n >= max_observations else CONTINUE
    elif ratio >= bounds.upper:
        decision = ACCEPT_H1
    elif ratio <= bounds.lower:
        decision = ACCEPT_H0
    elif n >= max_observations:
        decision = INCONCLUSIVE
    else:
        decision = CONTINUE
    return SprtState(n, mean, variance, ratio, decision)
