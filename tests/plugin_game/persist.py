"""Saving and loading Sealed Bids games: ``save_state(state) -> bytes`` and ``load_state(data) ->
state``, in the project's save format (``core/savefile.py``, magic ``b"SealBids"``); every record
is checked by ``validate.validate_state`` on the way out and in."""

import numpy as np

from tiny_york_env.core.savefile import SaveFormat

from .state import STATE_DTYPE
from .validate import validate_state

MAGIC = b"SealBids"
SAVE_FORMAT = SaveFormat(MAGIC, "Sealed Bids", STATE_DTYPE, validate_state)


def save_state(state: np.ndarray, *, validate: bool = True) -> bytes:
    """The bytes of a single game (shape ``()``) or a 1-d batch, with header and checksum
    (``validate=False`` keeps a broken record for a bug report; loading refuses it)."""
    return SAVE_FORMAT.save(state, validate=validate)


def load_state(data: bytes | bytearray | memoryview) -> np.ndarray:
    """The game (shape ``()``) or batch (shape ``(B,)``) saved by ``save_state``, as a fresh
    writeable array; ValueError for anything else (``core/savefile.py``)."""
    return SAVE_FORMAT.load(data)
