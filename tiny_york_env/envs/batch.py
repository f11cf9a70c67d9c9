"""The batched envs' access to a game's compiled batch kernels (``core/batch_loops.py``).

Every game's ``batch`` module compiles the same loops with that game's functions
(``tiny_york_env.games.<name>.batch``, the record's ``batch_module``); ``batch_kernels(game)``
imports it. This module imports neither stable-baselines3 nor Gymnasium's vector envs.
"""

import importlib
from types import ModuleType

import numpy as np
from numpy.typing import NDArray

from ..contract import Game
from ..core.batch_loops import LEARNING_SEAT
from ..core.jit import max_threads, use_threads

__all__ = ["LEARNING_SEAT", "BatchRunner", "batch_kernels", "byte_view", "check_num_threads"]


def byte_view(records: NDArray) -> NDArray[np.uint8]:
    """uint8[B, itemsize] view of a 1-d record array (compiled code zeroes and copies rows)."""
    return records.view(np.uint8).reshape(records.shape[0], records.dtype.itemsize)


BYTE_VIEWS = {"_raw": "_states", "_ended_raw": "_ended_states"}  # view -> the records it shows


def bind_byte_views(env: object) -> None:
    """Point ``env``'s byte views (``BYTE_VIEWS``), which compiled code writes through, at its own
    record arrays (after construction and after a copy, which loses the link)."""
    for view, records in BYTE_VIEWS.items():
        setattr(env, view, byte_view(getattr(env, records)))


def batch_kernels(game: Game) -> ModuleType:
    """``game``'s batch module: ``reset_kernel``, ``step_kernel``, ``next_step_kernel``,
    ``turn_reset_kernel``, ``turn_step_kernel``, ``apply_at``, ``mask_at``, ``encode_at``,
    ``actor_at`` (``core/batch_loops.py``)."""
    return importlib.import_module(game.batch_module)


MIN_GAMES_PER_THREAD = 8  # below this a thread costs more than it gives (benchmarks/vector_env.py)


def check_num_threads(num_threads: int | None, num_envs: int) -> int:
    """The threads a batched env of ``num_envs`` games steps them on: None means every thread
    numba has (all cores unless ``NUMBA_NUM_THREADS`` says less), as many as give each thread
    ``MIN_GAMES_PER_THREAD`` games (one for a small batch); ValueError outside 1..that."""
    most = max_threads()
    if num_threads is None:
        return max(1, min(most, num_envs // MIN_GAMES_PER_THREAD))
    if isinstance(num_threads, bool) or not isinstance(num_threads, (int, np.integer)) \
            or not 1 <= num_threads <= most:
        raise ValueError(f"num_threads must be an int 1-{most} (numba's threads; None: all), "
                         f"got {num_threads!r}")
    return int(num_threads)


class BatchRunner:
    """A game's batch kernels on ``num_threads`` threads: the one-thread kernels for 1, else their
    ``*_threads`` versions (the same results) after ``use_threads``."""

    KERNELS = ("reset_kernel", "step_kernel", "next_step_kernel", "turn_reset_kernel",
               "turn_step_kernel")

    def __init__(self, game: Game, num_threads: int) -> None:
        self.module = batch_kernels(game)
        self.num_threads = num_threads

    def __getattr__(self, name: str):
        """The kernels of ``KERNELS`` on this runner's threads; any other kernel of the module as
        it is."""
        if name not in self.KERNELS:
            return getattr(self.__dict__["module"], name)
        if self.num_threads == 1:
            return getattr(self.module, name)
        kernel = getattr(self.module, name + "_threads")

        def on_threads(*args):
            use_threads(self.num_threads)
            return kernel(*args)
        return on_threads
