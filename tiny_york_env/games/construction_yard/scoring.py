"""Scorings A, B and C and the end-of-game distribution of the display (rules: Scoring; End of
the game; rulings Y6, Y9)."""

from ...core.jit import jit
from .cards import building_type, currency_total, slot_currency
from .data import DISPLAY_SLOTS, NUM_RANKS, NUM_TYPES, REFERENCE_POINTS
from .state import DIRK_ROW, NO_CARD


@jit
def num_rows(st):
    """How many participant rows take part in scorings: the seats, plus Dirk with two players."""
    return st["num_players"] + (1 if st["has_dirk"] else 0)


@jit
def row_at(st, k):
    """The ``k``-th scoring row: seats 0..num_players-1, then Dirk's row."""
    return k if k < st["num_players"] else DIRK_ROW


@jit
def score(st, scoring):
    """Scoring ``scoring`` (0 A, 1 B, 2 C) for every type (rules: Scoring).

    - Rows with at least one building of a type are ranked by their count; Dirk's row takes part
      in two-player games (Special rules for 2 players).
    - Tied rows add the points of the ranks they occupy and share them equally, rounded down
      ("13 + 6 = 19 points. Both players gain 9 points, rounded down").
    - Ranks beyond what the scoring pays (A: 1st; B: 1st and 2nd; C: three) give nothing.
    """
    rows = num_rows(st)
    for t in range(NUM_TYPES):
        for k in range(rows):
            row = row_at(st, k)
            mine = st["buildings"][row, t]
            if mine == 0:
                continue
            above = 0
            tied = 0
            for j in range(rows):
                theirs = st["buildings"][row_at(st, j), t]
                if theirs > mine:
                    above += 1
                elif theirs == mine:
                    tied += 1
            points = 0
            for rank in range(above, min(above + tied, NUM_RANKS)):
                points += REFERENCE_POINTS[scoring, rank, t]
            st["score_lines"][row, scoring] += points // tied
    st["scorings_done"][scoring] = 1


@jit
def distribute_display(st):
    """Each building left on display goes to the player with the most money of its slot's
    currency; on a tie (also when nobody holds any) it leaves the game (End of the game, Y9).
    Dirk holds no money, so he never receives one."""
    for slot in range(DISPLAY_SLOTS):
        card = st["building_display"][slot]
        if card == NO_CARD:
            continue
        currency = slot_currency(slot)
        best = 0
        richest = -1
        for seat in range(st["num_players"]):
            total = currency_total(st, seat, currency)
            if total > best:
                best, richest = total, seat
            elif total == best:
                richest = -1
        if richest >= 0:
            st["buildings"][richest, building_type(card)] += 1
        else:
            st["removed"] += 1
        st["building_display"][slot] = NO_CARD


@jit
def set_winners(st):
    """The seats with the highest total share the win (End of the game); Dirk never wins (Y7)."""
    best = -1
    for seat in range(st["num_players"]):
        best = max(best, st["score_lines"][seat].sum())
    mask = 0
    for seat in range(st["num_players"]):
        if st["score_lines"][seat].sum() == best:
            mask |= 1 << seat
    st["winner_mask"] = mask
