"""``render_text``: a Sealed Bids position for people (the ansi/human render)."""

import numpy as np

from .api import as_batch
from .state import DEC_GAME_OVER, DECISION_NAMES, MIN_BID, NO_CARD, NO_SEAT, NUM_BID_CARDS, NUM_ROUNDS


def _cards(values) -> str:
    return " ".join(str(v) for v in values) or "-"


def render_text(state: np.ndarray, viewer: int | None = None) -> str:
    """The table: the prize, every seat's score and hand size, and the resolved rounds; the hand
    and face-down bid of ``viewer`` only (None: nobody's, the public view)."""
    rec = as_batch(state)[0]
    n = int(rec["num_players"])
    r = int(rec["round"])
    over = rec["decision"] == DEC_GAME_OVER
    head = f"Sealed Bids, {n} players, round {min(r + 1, NUM_ROUNDS)} of {NUM_ROUNDS} - " \
           + DECISION_NAMES[int(rec["decision"])] + ("" if over else f" (seat {int(rec['actor'])})")
    lines = [head, "prize: " + ("-" if over else str(int(rec["prize"])))
             + f"; prize deck: {int(rec['prize_count'])} cards face down"]
    for seat in range(n):
        held = [v + MIN_BID for v in range(NUM_BID_CARDS) if rec["hand"][seat, v]]
        bid = int(rec["pending_bid"][seat])
        line = f"seat {seat}: {int(rec['score'][seat])} points, {len(held)} cards"
        if bid != NO_CARD:
            line += f" [bid {bid}]" if seat == viewer else " [bid]"
        if seat == viewer:
            line += f"; hand: {_cards(held)}"
        lines.append(line)
    for k in range(r):
        winner = int(rec["round_winner"][k])
        bids = ", ".join(f"seat {s} {int(rec['bid_history'][s, k])}" for s in range(n))
        lines.append(f"round {k + 1}: prize {int(rec['prize_history'][k])}; {bids} -> "
                     + ("tie" if winner == NO_SEAT else f"seat {winner}"))
    if over:
        best = [s for s in range(n) if int(rec["winner_mask"]) >> s & 1]
        lines.append("winner" + ("s" if len(best) > 1 else "") + ": " + ", ".join(f"seat {s}" for s in best))
    return "\n".join(lines)
