"""``core/prefetch.py``: the batch loops' prefetch hint changes nothing and accepts any row."""

import numpy as np
import pytest

from tiny_york_env.core.jit import JIT_ENABLED, jit
from tiny_york_env.core.prefetch import prefetch_row


@jit
def _prefetch_every_row(array, first, last):
    """Compiled caller: prefetch rows ``first..last`` (any of them outside the array) of ``array``."""
    for row in range(first, last + 1):
        prefetch_row(array, row)


@pytest.mark.parametrize("dtype", [np.uint8, np.float32, np.bool_])
@pytest.mark.parametrize("shape", [(3, 2470), (1, 1), (4, 0), (0, 5)])
def test_prefetching_rows_in_and_outside_the_array_leaves_it_as_it_was(dtype, shape):
    """Rows -2..shape[0]+2 of arrays of every dtype the loops use, empty ones included: no error,
    no change."""
    array = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape).astype(dtype)
    before = array.copy()
    _prefetch_every_row(array, -2, shape[0] + 2)
    prefetch_row(array, 0)  # from Python too
    assert np.array_equal(array, before)


def test_the_hint_is_compiled_unless_the_loops_run_as_plain_python():
    """Under ``TINY_YORK_JIT=0`` it is a plain function doing nothing; otherwise numba's."""
    assert hasattr(prefetch_row, "py_func") == JIT_ENABLED
