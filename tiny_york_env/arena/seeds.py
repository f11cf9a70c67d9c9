"""The arena's seeds: every game, agent and choice seed derived from ``(seed, what is evaluated,
game number)`` alone (numpy ``SeedSequence``), so a result depends neither on the order the games
run in nor on the workers or the cluster that played them."""

from __future__ import annotations

import numpy as np

SEED_BITS = 63  # the engine takes seeds below 2**63
# Streams of the seed derivation, so a game, its agents and their choices never share a seed.
STREAM_GAME, STREAM_AGENT, STREAM_CHOICE = 0, 1, 2
# What is evaluated, the first key of every derivation.
KIND_LADDER, KIND_MATCH, KIND_TOURNAMENT = 0, 1, 2


def derive_seed(*keys: int) -> int:
    """A 63-bit seed determined by the non-negative ints ``keys`` alone (numpy SeedSequence)."""
    word = np.random.SeedSequence([int(k) for k in keys]).generate_state(1, np.uint64)[0]
    return int(word) >> (64 - SEED_BITS)


def check_seed(value: int) -> int:
    """A base seed as an int; ValueError unless it is a non-negative int."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError(f"seed must be a non-negative int, got {value!r}")
    return int(value)


def automatic_key(automatic: object) -> int:
    """One automatic participant as a seed key: a level as it is, a name (a Tom code, a bot) as the
    int of its bytes."""
    if isinstance(automatic, (int, np.integer)) and not isinstance(automatic, bool):
        return int(automatic)
    return int.from_bytes(str(automatic).encode(), "big")


def ladder_seed_keys(seed: int, rung: object) -> tuple[int, int, int]:
    """The keys every seed of the ladder's games at ``rung`` (a Tom level, a bot) derives from."""
    return seed, KIND_LADDER, automatic_key(rung)
