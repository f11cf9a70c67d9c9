"""``render_text``: a Construction Yard position for people (the ansi/human render)."""

import numpy as np

from ...core.labels import count_noun, seat_name
from .api import as_batch, dirk_score
from .cards import building_price, building_type, currency_total, hand_size, money_currency, money_value
from .data import (
    BUILDING_TYPE_NAMES,
    CURRENCY_NAMES,
    DISPLAY_SLOTS,
    NUM_CURRENCIES,
    NUM_VALUES,
    SCORING_NAMES,
    SLOT_CURRENCY,
)
from .state import DEC_GAME_OVER, DECISION_NAMES, DIRK_ROW, NO_CARD


def _money(card: int) -> str:
    return "--" if card == NO_CARD else f"{CURRENCY_NAMES[money_currency(card)]} {money_value(card)}"


def _building(slot: int, card: int) -> str:
    if card == NO_CARD:
        return "(empty)"
    return (f"{BUILDING_TYPE_NAMES[building_type(card)]} {building_price(card)} "
            f"in {CURRENCY_NAMES[SLOT_CURRENCY[slot]]}")


def _row(rec, row: int) -> str:
    return ", ".join(f"{BUILDING_TYPE_NAMES[t]} {int(rec['buildings'][row, t])}"
                     for t in range(len(BUILDING_TYPE_NAMES)) if rec["buildings"][row, t]) or "no buildings"


def phase_text(state: np.ndarray) -> str:
    """The stage of play by the scorings done ('before scoring A', 'after scoring B', 'game over';
    rules: the scoring A and B cards lie in the money deck, scoring C ends the game): the terminal
    game shows the whole board when it changes."""
    rec = as_batch(state)[0]
    if rec["decision"] == DEC_GAME_OVER:
        return "game over"
    done = [name for name, flag in zip(SCORING_NAMES, rec["scorings_done"], strict=True) if flag]
    return f"after {done[-1]}" if done else f"before {SCORING_NAMES[0]}"


def render_text(state: np.ndarray, seat: int | None = None) -> str:
    """The position as text: displays, each seat's public information (and ``seat``'s hand when
    given; other hands show as card counts), Dirk, scores and the pending decision."""
    rec = as_batch(state)[0]
    n = int(rec["num_players"])
    lines = [f"Construction Yard, {n} players, turn {int(rec['turn']) + 1}"
             f" - {DECISION_NAMES[int(rec['decision'])]}"
             + ("" if rec["decision"] == len(DECISION_NAMES) - 1 else f" ({seat_name(rec['actor'])})")]
    lines.append("money display:    " + " | ".join(_money(int(c)) for c in rec["money_display"]))
    lines.append("building display: " + " | ".join(_building(k, int(rec["building_display"][k]))
                                                   for k in range(DISPLAY_SLOTS)))
    lines.append(f"money deck {int(rec['money_count'])}, discard {int(rec['discard_count'])}, "
                 f"building deck {int(rec['building_count'])}; scorings done: "
                 + ("".join("ABC"[k] for k in range(3) if rec["scorings_done"][k]) or "none"))
    for s in range(n):
        points = int(rec["score_lines"][s].sum())
        line = (f"{seat_name(s)}: {count_noun(points, 'point')}, "
                f"{count_noun(int(hand_size(rec, s)), 'money card')}; {_row(rec, s)}")
        if seat == s:
            hand = "; ".join(
                f"{CURRENCY_NAMES[c]} " + (" ".join(str(v + 1) for v in range(NUM_VALUES)
                                                     for _ in range(int(rec['hand'][s, c, v])))
                                           or "none")
                + f" (={currency_total(rec, s, c)})" for c in range(NUM_CURRENCIES))
            line += f"\n  hand: {hand}"
        lines.append(line)
    if rec["has_dirk"]:
        lines.append(f"Dirk: {count_noun(dirk_score(state), 'point')}; {_row(rec, DIRK_ROW)}")
    return "\n".join(lines)
