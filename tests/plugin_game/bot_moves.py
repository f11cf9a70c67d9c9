"""What the engine's bots did since the last outside decision, public facts only (R7).

Bots (``bot_kind``) are played inside ``apply_action``; each of their bids is appended to the
record's log (``core/move_log.py``). A bid of a round resolved since then is public and named;
a bid of the current round is still face down (R4), so it shows only as a sealed bid. The log's
rows from ``log_round_start`` on are the current round's.
"""

import numpy as np

from tiny_york_env.core.move_log import moves_of

from .actions import describe_action

SEALED = "lays a sealed bid"


def bot_moves_of(state: np.ndarray) -> list[tuple[int, str]]:
    """(seat, words) for each bot bid since the last outside decision (sealed ones unnamed); a
    last line if some were dropped past the log's capacity."""
    rec = state.reshape(-1)[0] if state.ndim else state[()]
    start = int(rec["log_round_start"])
    return [(seat, words if k < start or words.startswith("...") else SEALED)
            for k, (seat, words) in enumerate(moves_of(state, describe_action))]
