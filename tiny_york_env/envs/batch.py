"""The batched envs' access to a game's compiled batch kernels (``core/batch_loops.py``).

Every game's ``batch`` module compiles the same loops with that game's functions
(``tiny_york_env.game.batch``, ``tiny_york_env.construction_yard.batch``); ``batch_kernels(game)``
imports it. This module imports neither stable-baselines3 nor Gymnasium's vector envs.
"""

import importlib
from types import ModuleType

import numpy as np
from numpy.typing import NDArray

from ..contract import Game
from ..core.batch_loops import LEARNING_SEAT

__all__ = ["LEARNING_SEAT", "batch_kernels", "byte_view"]


def byte_view(records: NDArray) -> NDArray[np.uint8]:
    """uint8[B, itemsize] view of a 1-d record array (compiled code zeroes and copies rows)."""
    return records.view(np.uint8).reshape(records.shape[0], records.dtype.itemsize)


def batch_kernels(game: Game) -> ModuleType:
    """``game``'s batch module: ``reset_kernel``, ``step_kernel``, ``next_step_kernel``,
    ``apply_at``, ``mask_at``, ``encode_at``, ``actor_at`` (``core/batch_loops.py``)."""
    return importlib.import_module(game.batch_module)
