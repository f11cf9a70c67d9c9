"""End-of-game rewards shared by every env: ``"win"``, ``"rank"`` and ``"score"``.

All are zero until the game ends. Over all participants (Toms included) "win" and "rank" sum
to zero; agents receive their own share.
"""

import numpy as np

from ..game import final_scores, winner
from ..game.press import press_rank

REWARD_KINDS = ("win", "rank", "score")
SCORE_MARGIN_SCALE = 50.0  # "score": margin to the best other participant / 50


def check_reward_kind(kind):
    """ValueError unless ``kind`` is one of REWARD_KINDS."""
    if kind not in REWARD_KINDS:
        raise ValueError(f"reward must be one of {REWARD_KINDS}, got {kind!r}")
    return kind


def final_rewards(state, kind):
    """float64[participants]: each seat's reward for the finished game ``state``.

    - "win": +1 to the winner, -1/(P-1) to each other participant (zero-sum; +1/-1 for two).
    - "rank": +1 for first down to -1 for last, evenly spaced, ties broken as for the winner
      (R20: total, then press order); zero-sum.
    - "score": (own total - best other total) / 50.
    """
    check_reward_kind(kind)
    scores = final_scores(state).astype(np.float64)
    n = len(scores)
    if kind == "win":
        out = np.full(n, -1.0 / (n - 1))
        out[winner(state)] = 1.0
        return out
    if kind == "rank":
        rec = state.reshape(1)[0]
        order = sorted(range(n), key=lambda s: (-scores[s], press_rank(rec, s)))
        out = np.empty(n)
        for rank, seat in enumerate(order):
            out[seat] = 1.0 - 2.0 * rank / (n - 1)
        return out
    best_other = np.array([np.max(np.delete(scores, s)) for s in range(n)])
    return (scores - best_other) / SCORE_MARGIN_SCALE
