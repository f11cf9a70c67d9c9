"""Game seeds, shared by every game: the accepted range and the chain from one game to the next.

A game seed is an int in 0..SEED_LIMIT-1 (the record's generator takes 63 bits, ``core.rng``).
Envs play a chain of games: env i of a batch seeded s plays s + i, then ``next_seed`` of that,
and so on (a golden-ratio Weyl step, odd, below SEED_LIMIT), so batches never collide.
"""

import secrets

import numpy as np

from .jit import jit

SEED_LIMIT = 2 ** 63  # game seeds are ints 0..SEED_LIMIT - 1
SEED_STRIDE = 0x1E3779B97F4A7C15
_SEED_WRAP = SEED_LIMIT - SEED_STRIDE  # fits int64, unlike SEED_LIMIT, so compiled code can use it


def check_seed(seed: int | np.integer) -> int:
    """``seed`` as an int; ValueError unless it is an int in 0..SEED_LIMIT - 1 (no wrapping)."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) \
            or not 0 <= int(seed) < SEED_LIMIT:
        raise ValueError(f"seed must be a non-negative int below 2**63 (0..{SEED_LIMIT - 1}) or "
                         f"None for a random one, got {seed!r}")
    return int(seed)


def normal_seed(seed: int | np.integer | None) -> int:
    """The game seed: ``seed`` as ``check_seed`` accepts it, a random one for None."""
    return secrets.randbelow(SEED_LIMIT) if seed is None else check_seed(seed)


@jit
def next_seed(seed):
    """The seed of the game after the one seeded ``seed``: ``(seed + SEED_STRIDE) mod 2**63``."""
    if seed >= _SEED_WRAP:  # written so that int64 never overflows
        return seed - _SEED_WRAP
    return seed + SEED_STRIDE
