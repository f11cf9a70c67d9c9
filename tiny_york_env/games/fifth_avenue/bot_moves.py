"""What the engine's bots (and Alea) did since the last outside decision, for people: the move log
the engine keeps in the record (``core/move_log.py``, filled by ``engine.py``)."""

import numpy as np

from ...core.move_log import moves_of
from .actions import describe_action


def bot_moves_of(state: np.ndarray) -> list[tuple[int, str]]:
    """(seat, words) for each engine bot action since the last outside decision."""
    return moves_of(state, describe_action)
