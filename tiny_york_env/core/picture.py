"""What every game's ``picture.py`` shares: writing a picture as a PNG, and the random play that
reaches the mid-game position its ``main`` draws. Needs pillow (imported here, so only a picture
imports it)."""

import os
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PIL import Image


def write_png(pixels: np.ndarray, path: str | os.PathLike[str]) -> Path:
    """Write ``pixels`` (uint8 H x W x 3) to ``path`` as a PNG, its parent folders made."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(pixels).save(path)
    return path


def play_randomly_until(state: np.ndarray, seed: int, legal_mask: Callable[[np.ndarray], np.ndarray],
                        apply_action: Callable[[np.ndarray, int], None],
                        is_terminal: Callable[[np.ndarray], bool],
                        reached: Callable[[np.ndarray], bool]) -> np.ndarray:
    """Uniformly random legal play (a generator seeded ``seed``) on ``state`` in place until
    ``reached(state)`` or the end; ``state``."""
    rng = np.random.default_rng(seed)
    while not is_terminal(state) and not reached(state):
        legal = np.flatnonzero(legal_mask(state))
        apply_action(state, int(legal[rng.integers(legal.size)]))
    return state
