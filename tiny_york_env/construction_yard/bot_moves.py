"""What the engine's bots did since the last outside decision: a small log in the record.

Bots (``bot_kind``) are played inside ``apply_action``; each of their actions is appended to
``bot_moves`` as (seat, action) so a person, a replay or a web board can show them.
``apply_unchecked`` clears the log before it plays the outside action; a new game's log holds
the bots' moves before the first agent decision. ``bot_move_count`` counts every move; the first
``BOT_MOVE_CAPACITY`` are kept (far more than one decision has produced:
``tests/construction_yard/test_bot_moves.py`` measures it).
"""

import numpy as np

from ..core.jit import jit
from .actions import describe_action

BOT_MOVE_CAPACITY = 64
BOT_MOVE_FIELDS = 2  # seat, action
MOVE_SEAT, MOVE_ACTION = range(BOT_MOVE_FIELDS)


@jit
def clear_bot_moves(st):
    """Empty the log (its used rows zeroed, so equal games have equal records)."""
    for i in range(min(st["bot_move_count"], BOT_MOVE_CAPACITY)):
        st["bot_moves"][i, MOVE_SEAT] = 0
        st["bot_moves"][i, MOVE_ACTION] = 0
    st["bot_move_count"] = 0


@jit
def record_bot_move(st, seat, action):
    """Append one bot action; past the capacity it is only counted."""
    i = st["bot_move_count"]
    if i < BOT_MOVE_CAPACITY:
        st["bot_moves"][i, MOVE_SEAT] = seat
        st["bot_moves"][i, MOVE_ACTION] = action
    st["bot_move_count"] = i + 1


def bot_moves_of(state: np.ndarray) -> list[tuple[int, str]]:
    """(seat, words) for each bot action since the last outside decision; a last line if some
    were dropped past the log's capacity."""
    rec = state.reshape(-1)[0] if state.ndim else state[()]
    count = int(rec["bot_move_count"])
    moves = [(int(seat), describe_action(int(action)))
             for seat, action in rec["bot_moves"][:min(count, BOT_MOVE_CAPACITY)]]
    if count > BOT_MOVE_CAPACITY:
        moves.append((moves[-1][0], f"... and {count - BOT_MOVE_CAPACITY} more bot moves not kept"))
    return moves
