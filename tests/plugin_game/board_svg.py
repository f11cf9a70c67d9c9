"""Sealed Bids' table as an SVG for the browser board (``core/svg.Svg``)."""

from __future__ import annotations

import numpy as np

from tiny_york_env.core.svg import Svg

BACKGROUND = (250, 248, 242)
PRIZE_RGB = (200, 150, 30)
SEAT_RGB = ((40, 95, 200), (60, 160, 70), (200, 45, 45), (130, 70, 170))


def sealed_bids_svg(state: np.ndarray, seat: int | None) -> str:
    """The table: the prize, every seat's score and hand size, who has bid, the resolved rounds,
    and ``seat``'s own hand and bid (every hand and bid for a replay or a watched game)."""
    from .api import as_batch
    from .state import DEC_GAME_OVER, MIN_BID, NO_CARD, NO_SEAT, NUM_BID_CARDS, NUM_ROUNDS

    rec = as_batch(state)[0]
    n = int(rec["num_players"])
    over = rec["decision"] == DEC_GAME_OVER
    svg = Svg(480, 0, BACKGROUND)  # the height is set once everything is placed
    svg.text(10, 22, f"Sealed Bids - round {min(int(rec['round']) + 1, NUM_ROUNDS)}", size=16, weight="bold")
    if not over:
        svg.rect(10, 36, 60, 84, PRIZE_RGB, rx=6, title=f"prize {int(rec['prize'])}")
        svg.text(32, 86, str(int(rec["prize"])), size=26, fill="#ffffff", weight="bold")
    svg.text(90, 52, f"prize deck: {int(rec['prize_count'])} cards face down", size=12)
    y = 80
    for s in range(n):
        if not over and s == rec["actor"]:
            svg.rect(86, y - 15, 388, 22, (255, 240, 170), stroke="none")
        svg.circle(98, y - 4, 7, SEAT_RGB[s])
        label = f"seat {s}" + (" (you)" if s == seat else "")
        held = [v + MIN_BID for v in range(NUM_BID_CARDS) if rec["hand"][s, v]]
        bid = int(rec["pending_bid"][s])
        shown = seat is None or s == seat
        words = f"{label}: {int(rec['score'][s])} points, {len(held)} cards"
        if shown:
            words += " (" + " ".join(map(str, held)) + ")"
        if bid != NO_CARD:
            words += f" [bid {bid}]" if shown else " [bid]"
        svg.text(112, y, words, size=13)
        y += 24
    y += 10
    for k in range(int(rec["round"])):
        winner = int(rec["round_winner"][k])
        bids = ", ".join(str(int(rec["bid_history"][s, k])) for s in range(n))
        svg.text(10, y, f"round {k + 1}: prize {int(rec['prize_history'][k])}, bids {bids} -> "
                        + ("tie" if winner == NO_SEAT else f"seat {winner}"), size=12)
        y += 18
    svg.height = y + 6
    return svg.render()
