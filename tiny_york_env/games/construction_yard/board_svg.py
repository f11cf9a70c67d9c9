"""Construction Yard's table as an SVG for the browser board."""

from __future__ import annotations

import numpy as np

from ...core.labels import count_noun
from ...core.svg import Svg, hex_colour
from .places import building_place, money_place

CURRENCY_RGB = ((40, 95, 200), (60, 160, 70), (230, 190, 30), (200, 45, 45))  # blue green yellow red


def construction_yard_svg(state: np.ndarray, seat: int | None) -> str:
    """Construction Yard's table: the money and building displays, every row of buildings,
    scores, Dirk, and ``seat``'s hand (every hand for a replay or a watched game)."""
    from .api import dirk_score
    from .cards import building_price, building_type, currency_total, hand_size, money_currency, money_value
    from .data import (
        BUILDING_TYPE_NAMES,
        CURRENCY_NAMES,
        DISPLAY_SLOTS,
        NUM_CURRENCIES,
        NUM_TYPES,
        NUM_VALUES,
        SLOT_CURRENCY,
    )
    from .state import DEC_GAME_OVER, DIRK_ROW, NO_CARD

    rec = state.reshape(1)[0]
    n = int(rec["num_players"])
    svg = Svg(900, 0, (250, 248, 242))  # the height is set once everything is placed
    svg.text(10, 22, f"Construction Yard - turn {int(rec['turn']) + 1}", size=16, weight="bold")
    svg.text(10, 52, "Money display", size=12, weight="bold")
    for k, card in enumerate(rec["money_display"]):
        x = 10 + k * 110
        if card == NO_CARD:
            svg.rect(x, 60, 100, 60, "none", stroke="#aaaaaa")
            continue
        c = money_currency(int(card))
        with svg.place(money_place(k)):
            svg.rect(x, 60, 100, 60, CURRENCY_RGB[c], rx=6,
                     title=f"{CURRENCY_NAMES[c]} {money_value(int(card))}")
            svg.text(x + 38, 100, str(money_value(int(card))), size=24, fill="#ffffff", weight="bold")
    svg.text(460, 52, "Building display (price, paid in the slot's currency)", size=12, weight="bold")
    for k in range(DISPLAY_SLOTS):
        x = 460 + k * 110
        card = int(rec["building_display"][k])
        with svg.place(building_place(k)):
            svg.rect(x, 60, 100, 60, "#ffffff", stroke=hex_colour(CURRENCY_RGB[SLOT_CURRENCY[k]]), rx=6)
            if card != NO_CARD:
                svg.text(x + 8, 82, BUILDING_TYPE_NAMES[building_type(card)], size=13, weight="bold")
                svg.text(x + 8, 104, f"{building_price(card)} in {CURRENCY_NAMES[SLOT_CURRENCY[k]]}", size=12)
    svg.text(10, 146, f"money deck {int(rec['money_count'])}, discard {int(rec['discard_count'])}, "
                      f"building deck {int(rec['building_count'])}; scorings done: "
             + ("".join("ABC"[k] for k in range(3) if rec["scorings_done"][k]) or "none"), size=12)
    y = 176
    for k, name in enumerate(BUILDING_TYPE_NAMES):
        svg.text(250 + k * 95, y, name, size=11, fill="#6e6e6e")
    svg.text(820, y, "points", size=11, fill="#6e6e6e")
    for row in [*range(n), *([DIRK_ROW] if rec["has_dirk"] else [])]:
        y += 26
        if row != DIRK_ROW and row == rec["actor"] and rec["decision"] != DEC_GAME_OVER:
            svg.rect(6, y - 17, 888, 24, (255, 240, 170), stroke="none")
        label = "Dirk" if row == DIRK_ROW else f"seat {row}" + (" (you)" if row == seat else "")
        cards = "" if row == DIRK_ROW else f", {count_noun(int(hand_size(rec, row)), 'card')}"
        svg.text(10, y, label + cards, size=13)
        for t in range(NUM_TYPES):
            svg.text(270 + t * 95, y, str(int(rec["buildings"][row, t])), size=13)
        points = dirk_score(state) if row == DIRK_ROW else int(rec["score_lines"][row].sum())
        svg.text(830, y, str(points), size=13, weight="bold")
    y += 30
    shown = [seat] if seat is not None else list(range(n))
    for s in shown:
        svg.text(10, y, "Your hand:" if s == seat else f"seat {s} hand:", size=12, weight="bold")
        x = 100
        for c in range(NUM_CURRENCIES):
            for v in range(NUM_VALUES):
                for _ in range(int(rec["hand"][s, c, v])):
                    svg.rect(x, y - 13, 20, 18, CURRENCY_RGB[c], rx=3, title=f"{CURRENCY_NAMES[c]} {v + 1}")
                    svg.text(x + 6, y + 1, str(v + 1), size=11, fill="#ffffff")
                    x += 23
            if any(rec["hand"][s, c]):
                svg.text(x, y + 1, f"={currency_total(rec, s, c)}", size=10, fill="#6e6e6e")
                x += 30
        y += 24
    svg.height = y
    return svg.render()
