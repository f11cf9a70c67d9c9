"""The log of the moves an engine makes for its own players (bots) since the last outside
decision: ``(seat, action)`` rows in a record's ``bot_moves`` field, counted in
``bot_move_count`` (Construction Yard's and 5th Avenue's records). The games' ``automatic_moves``
read it; rows past the field's capacity are only counted."""

from collections.abc import Callable

import numpy as np

from .jit import jit

MOVE_SEAT, MOVE_ACTION = 0, 1
AGENT_SEAT = 0  # a record's ``bot_kind`` of a seat the agents play, in every game


@jit
def clear_moves(st):
    """Empty the log (its used rows zeroed, so equal games have equal records)."""
    for i in range(min(st["bot_move_count"], st["bot_moves"].shape[0])):
        st["bot_moves"][i, MOVE_SEAT] = 0
        st["bot_moves"][i, MOVE_ACTION] = 0
    st["bot_move_count"] = 0


@jit
def record_move(st, seat, action):
    """Append one bot action; past the capacity it is only counted."""
    i = st["bot_move_count"]
    if i < st["bot_moves"].shape[0]:
        st["bot_moves"][i, MOVE_SEAT] = seat
        st["bot_moves"][i, MOVE_ACTION] = action
    st["bot_move_count"] = i + 1


def move_log_problem(rec: np.void, num_players: int, num_actions: int, max_count: int) -> str | None:
    """What is wrong with a record's log, or None: rows below the count are (a bot's seat, an
    action id), rows beyond it zero (the door checks, ``validate.py`` of each game; a seat is a
    bot's when its ``bot_kind`` is not 0)."""
    count = int(rec["bot_move_count"])
    if not 0 <= count <= max_count:
        return f"bot_move_count is {count}, allowed 0..{max_count}"
    kept = min(count, rec["bot_moves"].shape[0])
    for i, (seat, action) in enumerate(rec["bot_moves"]):
        if i >= kept:
            if seat or action:
                return f"bot_moves[{i}] is not zero beyond bot_move_count {count}"
        elif not 0 <= action < num_actions:
            return f"bot_moves[{i}] action is {int(action)}, allowed 0..{num_actions - 1}"
        elif not (0 <= seat < num_players and rec["bot_kind"][seat] != AGENT_SEAT):
            return f"bot_moves[{i}] names seat {int(seat)}, which is not a bot's"
    return None


def moves_of(state: np.ndarray, describe: Callable[[int], str]) -> list[tuple[int, str]]:
    """(seat, words) for each logged move, and a last line when some were past the capacity."""
    rec = state.reshape(-1)[0] if state.ndim else state[()]
    count = int(rec["bot_move_count"])
    capacity = rec["bot_moves"].shape[0]
    moves = [(int(seat), describe(int(action))) for seat, action in rec["bot_moves"][:min(count, capacity)]]
    if count > capacity:
        moves.append((moves[-1][0], f"... and {count - capacity} more bot moves not kept"))
    return moves
