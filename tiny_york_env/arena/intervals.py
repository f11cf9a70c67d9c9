"""Intervals of win rates: the Wilson score interval every table of the arena prints."""

from __future__ import annotations

import math

Z_95 = 1.959963984540054  # two-sided 95% normal quantile, for the Wilson interval


def wilson_interval(wins: float, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval (low, high) for ``wins`` successes in ``games`` trials (shared
    wins may make ``wins`` fractional)."""
    if games < 1 or not 0 <= wins <= games:
        raise ValueError(f"need 0 <= wins <= games and games >= 1; got wins={wins}, games={games}")
    rate = wins / games
    z2 = z * z
    centre = (rate + z2 / (2 * games)) / (1 + z2 / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    low = 0.0 if wins == 0 else max(0.0, centre - half)  # exact at the ends, not rounded near them
    high = 1.0 if wins == games else min(1.0, centre + half)
    return low, high
