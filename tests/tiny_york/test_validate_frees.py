"""``validate_state``'s compiled checks raise where a rule fails, and numba skips the frees of the
frames a raise leaves: a check that held an array would leak it on every refused record. Counted
here with numba's allocation statistics over records corrupted at random (validate.py,
``StateError``)."""

from contextlib import nullcontext

import numpy as np
import pytest

from tiny_york_env.core.jit import JIT_ENABLED
from tiny_york_env.games.tiny_york import (
    STATE_DTYPE,
    GameConfig,
    apply_action,
    is_terminal,
    legal_mask,
    new_game,
)
from tiny_york_env.games.tiny_york import validate as V

pytestmark = pytest.mark.skipif(not JIT_ENABLED, reason="counts numba's allocations")

CONFIGS = (GameConfig(num_agents=3), GameConfig(num_agents=1, toms=("C9", 12, "B2")))
CORRUPTED = 3000
MIN_CODES = 40  # the corruptions reach this many different checks, at the least
SINGLE_GAMES = 300  # of them, through validate_state one by one


def _states():
    """Every state of one random game per config."""
    rng = np.random.default_rng(0)
    out = []
    for seed, config in enumerate(CONFIGS):
        state = new_game(config, seed=seed)
        while not is_terminal(state):
            out.append(state.copy())
            apply_action(state, int(rng.choice(np.flatnonzero(legal_mask(state)))))
    return np.stack(out)


def _corrupted(states, rng):
    """Copies of random ``states`` with one entry of a random field off by one, or zeroed."""
    out = states[rng.integers(len(states), size=CORRUPTED)].copy()
    for rec in out:
        field = STATE_DTYPE.names[rng.integers(len(STATE_DTYPE.names))]
        values = rec[field].reshape(-1)
        k = rng.integers(values.size)
        limits = np.iinfo(values.dtype)
        values[k] = np.clip(int(values[k]) + (-1, 1, 0)[rng.integers(3)], limits.min, limits.max) \
            if rng.integers(4) else 0
    return out


def _allocation_counts():
    from numba.core.runtime import _nrt_python, rtsys  # noqa: PLC0415  (numba only with the jit)

    _nrt_python.memsys_enable_stats()
    stats = rtsys.get_allocation_stats()
    return stats.alloc, stats.free


def test_refused_records_free_what_the_checks_allocate():
    states = _corrupted(_states(), np.random.default_rng(1))
    V.state_error_codes(states[:2])  # compile outside the count
    V.error_code(states, 0)
    alloc, free = _allocation_counts()
    codes = V.state_error_codes(states)
    for i in range(SINGLE_GAMES):
        with pytest.raises(ValueError) if codes[i] else nullcontext():
            V.validate_state(states[i:i + 1].reshape(()))
    after_alloc, after_free = _allocation_counts()
    assert len(set(codes.tolist())) >= MIN_CODES
    assert after_alloc - alloc == after_free - free > 0

