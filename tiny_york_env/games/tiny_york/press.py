"""The Press Track: ranking (R2), movement and stacking, and the orders derived from it."""

import numpy as np

from ...core.jit import jit
from .components import MAX_SEATS, NEUTRAL, PRESS_LAST_SPACE


@jit
def ahead(st, a, b):
    """True when token ``a`` ranks ahead of token ``b`` (R2: higher space, then higher in stack)."""
    sa = st["press_space"][a]
    sb = st["press_space"][b]
    if sa != sb:
        return sa > sb
    return st["press_height"][a] > st["press_height"][b]


@jit
def press_order(st, out):
    """Fill ``out`` with the participants in press order (neutral excluded); return the count."""
    n = st["num_seats"]
    for i in range(n):
        out[i] = i
    for i in range(1, n):
        j = i
        while j > 0 and ahead(st, out[j], out[j - 1]):
            tmp = out[j]
            out[j] = out[j - 1]
            out[j - 1] = tmp
            j -= 1
    return n


@jit
def press_rank(st, seat):
    """0-based rank of ``seat`` among participants, neutral excluded (R2)."""
    rank = 0
    for other in range(st["num_seats"]):
        if other != seat and ahead(st, other, seat):
            rank += 1
    return rank


@jit
def press_rank_with_neutral(st, token):
    """0-based rank of ``token`` (a seat or NEUTRAL) counting the neutral token (R2, ties)."""
    rank = 0
    for other in range(st["num_seats"]):
        if other != token and ahead(st, other, token):
            rank += 1
    if token != NEUTRAL and ahead(st, NEUTRAL, token):
        rank += 1
    return rank


@jit
def move_press(st, seat, steps):
    """Move ``seat``'s token by ``steps`` (rulebook "1 - Press"): land on top of an occupied
    space, except on the last space, where arrivals go underneath those already there."""
    old = st["press_space"][seat]
    new = old + steps
    if new > PRESS_LAST_SPACE:
        new = PRESS_LAST_SPACE
    if new < 0:
        new = 0
    if new == old:
        return
    st["press_moves"] += 1
    st["press_space"][seat] = new
    if new == PRESS_LAST_SPACE:
        st["press_height"][seat] = -st["press_moves"]
    else:
        st["press_height"][seat] = st["press_moves"]


@jit
def reverse_agent_press_order(st, out):
    """Fill ``out`` with the agents from last to first in press order; return the count."""
    order = np.empty(MAX_SEATS, np.int16)
    press_order(st, order)
    n = 0
    for i in range(st["num_seats"] - 1, -1, -1):
        seat = order[i]
        if st["is_tom"][seat] == 0:
            out[n] = seat
            n += 1
    for i in range(n, MAX_SEATS):
        out[i] = -1
    return n
