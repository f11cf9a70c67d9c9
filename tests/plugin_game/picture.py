"""Sealed Bids' picture (``render_rgb``) for ``render_mode="rgb_array"``: the public table drawn
with pillow into ``PICTURE_SHAPE`` (240 x 360 x 3, uint8). Only what every seat sees is drawn:
the prize, scores, hand sizes, who has bid (not what) and the resolved rounds (R7)."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from .api import as_batch
from .board_svg import BACKGROUND, PRIZE_RGB, SEAT_RGB
from .state import DEC_GAME_OVER, NO_CARD, NO_SEAT

PICTURE_SHAPE = (240, 360, 3)
ROW_HEIGHT = 18


def render_rgb(state: np.ndarray) -> np.ndarray:
    """uint8[240, 360, 3]: the public table of the single game ``state``."""
    rec = as_batch(state)[0]
    height, width, _ = PICTURE_SHAPE
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    n = int(rec["num_players"])
    if rec["decision"] != DEC_GAME_OVER:
        draw.rounded_rectangle((10, 10, 60, 80), radius=6, fill=PRIZE_RGB, outline=(60, 60, 60))
        draw.text((28, 38), str(int(rec["prize"])), fill=(255, 255, 255))
    draw.text((70, 12), f"round {int(rec['round']) + 1}, deck {int(rec['prize_count'])}", fill=(30, 30, 30))
    for seat in range(n):
        y = 30 + seat * ROW_HEIGHT
        if seat == rec["actor"] and rec["decision"] != DEC_GAME_OVER:
            draw.rectangle((68, y - 2, width - 6, y + ROW_HEIGHT - 4), fill=(255, 240, 170))
        draw.rectangle((72, y, 84, y + 12), fill=SEAT_RGB[seat])
        sealed = " [bid]" if rec["pending_bid"][seat] != NO_CARD else ""
        draw.text((90, y), f"seat {seat}: {int(rec['score'][seat])} pts, "
                           f"{int(rec['hand'][seat].sum())} cards{sealed}", fill=(30, 30, 30))
    for k in range(int(rec["round"])):
        y = 110 + k * ROW_HEIGHT
        winner = int(rec["round_winner"][k])
        colour = (150, 150, 150) if winner == NO_SEAT else SEAT_RGB[winner]
        draw.rectangle((10, y, 22, y + 12), fill=colour)
        bids = " ".join(str(int(rec["bid_history"][s, k])) for s in range(n))
        draw.text((30, y), f"prize {int(rec['prize_history'][k])}: bids {bids}", fill=(30, 30, 30))
    return np.asarray(image, dtype=np.uint8).copy()
