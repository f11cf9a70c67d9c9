"""What the engine's bots did since the last outside decision: a small log in the record.

Bots (``bot_kind``) are played inside ``apply_action``; each of their actions is appended to
``bot_moves`` as (seat, action) so a person, a replay or a web board can show them.
``apply_unchecked`` clears the log before it plays the outside action; a new game's log holds
the bots' moves before the first agent decision. ``bot_move_count`` counts every move; the first
``BOT_MOVE_CAPACITY`` are kept (far more than one decision has produced:
``tests/construction_yard/test_bot_moves.py`` measures it).
"""

import numpy as np

from ...core.move_log import moves_of
from .actions import describe_action

BOT_MOVE_CAPACITY = 64
BOT_MOVE_FIELDS = 2  # seat, action


def bot_moves_of(state: np.ndarray) -> list[tuple[int, str]]:
    """(seat, words) for each bot action since the last outside decision; a last line if some
    were dropped past the log's capacity."""
    return moves_of(state, describe_action)
