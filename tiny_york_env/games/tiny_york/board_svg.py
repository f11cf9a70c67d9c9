"""Tiny York's table as an SVG for the browser board: the public table (as ``picture.render_rgb``
draws it) and a seat's own cards."""

from __future__ import annotations

import numpy as np

from ...core.svg import Svg
from .places import (
    borough_place,
    character_place,
    elevator_place,
    pair_place,
    prestige_place,
    stack_place,
    tile_place,
    vessel_place,
)

# the boxes of the card pairs and start stacks: sized to their words, on lines of their own
LABEL_SIZE = 11  # px
CHAR_W = 6.5  # the width of a character of those labels
BOX_PAD, BOX_GAP, BOX_RX = 8, 4, 3
BOX_H, BOX_DROP = 16, 4  # a box's height and how far it reaches below the words' baseline
BOX_LINE = 20  # from one line of boxes to the next


def tiny_york_svg(state: np.ndarray, seat: int | None) -> str:
    """The public table of Tiny York (as ``render_rgb`` draws it) and ``seat``'s own cards."""
    from . import final_scores, pending_decision
    from . import picture as R
    from .character_texts import explain_character
    from .components import (
        BOROUGH_LANTERN,
        BOROUGH_NAMES,
        CARD_NAMES,
        ELEVATOR_COLUMNS,
        NEUTRAL,
        NUM_BOROUGHS,
        NUM_CARD_TYPES,
        NUM_PRESTIGE_TILES,
        NUM_TILE_VALUES,
        NUM_TILES,
        NUM_VESSELS,
        PRESS_LAST_SPACE,
        PRESTIGE_TILE_COLOUR,
        PRESTIGE_TILE_VALUE,
        SEQUENCE_LETTERS,
        TILE_CHARACTER,
        VESSEL_COLOUR,
        VESSEL_ENDS,
    )
    from .labels import prestige_label, tile_label
    from .state import (
        DEC_GAME_OVER,
        EMPTY,
        LOC_OWNED,
        STACK_REVEALED,
        STAGE_START_CHARACTERS,
        VESSEL_ON_BOARD,
    )

    rec = state.reshape(1)[0]
    n = int(rec["num_seats"])
    over = rec["decision"] == DEC_GAME_OVER
    svg = Svg(R.WIDTH, R.HEIGHT, R.BACKGROUND)

    def colour(token):
        return R.NEUTRAL_RGB if token == NEUTRAL else R.SEAT_RGB[token]

    def character_title(tile):
        c = int(TILE_CHARACTER[tile])
        return f"{tile_label(tile)}: {explain_character(c)}"

    # header
    status = "game over" if over else f"round {min(int(rec['round']), 5)}/5 - " + pending_decision(state)
    svg.text(10, 22, f"Tiny York - {status}", size=16, weight="bold")
    if not over:
        svg.text(10, 42, f"To move: {R._seat_name(rec, int(rec['actor']))}")
    # the map
    svg.rect(R.MAP_X, R.MAP_Y, R.MAP_W, R.MAP_H, R.WATER, stroke="none")
    for v in range(NUM_VESSELS):
        if rec["vessel_owner"][v] == VESSEL_ON_BOARD:
            (x0, y0), (x1, y1) = (R._borough_centre(int(b)) for b in VESSEL_ENDS[v])
            with svg.place(vessel_place(v)):
                svg.line(x0, y0, x1, y1, R.COMPONENT_RGB[VESSEL_COLOUR[v]])
    def draw_borough(b):
        """One borough's box: its name, sequence letter, Mayor, value, prestige tiles, skyscrapers."""
        x, y = R.MAP_X + R.BOROUGH_XY[b][0], R.MAP_Y + R.BOROUGH_XY[b][1]
        svg.rect(x, y, R.BOX_W, R.BOX_H, R.LAND, rx=8)
        svg.circle(x + 11, y + 12, 5, R.COMPONENT_RGB[BOROUGH_LANTERN[b]])
        svg.text(x + 21, y + 17, BOROUGH_NAMES[b], weight="bold")
        svg.rect(x + R.BOX_W - 24, y + 5, 16, 16, "#ffffff")
        svg.text(x + R.BOX_W - 20, y + 18, SEQUENCE_LETTERS[rec["borough_sequence"][b]])
        if rec["mayor"] == b:
            svg.circle(x + R.BOX_W - 39, y + 13, 9, "#1e1e1e", title="the Mayor")
            svg.text(x + R.BOX_W - 44, y + 18, "M", fill="#ffffff", size=11)
        base, prestige = int(rec["borough_base"][b]), int(rec["borough_prestige"][b])
        svg.text(x + 8, y + 37, f"value {base + prestige} (base {base} + {prestige})", size=11)
        px = x + 8
        for t in range(NUM_PRESTIGE_TILES):
            if rec["prestige_loc"][t] == b:
                svg.rect(px, y + 44, 22, 14, R.COMPONENT_RGB[PRESTIGE_TILE_COLOUR[t]],
                         title=prestige_label(t))
                svg.text(px + 7, y + 55, str(int(PRESTIGE_TILE_VALUE[t])), size=11, fill="#ffffff")
                px += 26
        svg.text(x + 8, y + 74, "skyscrapers", size=11, fill="#6e6e6e")
        for k, token in enumerate([*range(n), NEUTRAL]):
            count = int(rec["skyscrapers"][b, token])
            sx, sy = x + 8 + (k % 3) * 46, y + 80 + (k // 3) * 16
            svg.rect(sx, sy, 12, 12, colour(token))
            svg.text(sx + 15, sy + 11, f"{'N' if token == NEUTRAL else token}:{count}", size=11)
    for b in range(NUM_BOROUGHS):
        with svg.place(borough_place(b)):
            draw_borough(b)
    # participants
    px, y = R.PANEL_X, R.MAP_Y + 10
    totals = final_scores(rec.reshape(1)) if over else None
    heads = ("points", "$", "sky", "ves.", "chars") + (("final",) if over else ())
    for k, head in enumerate(heads):
        svg.text(R.TABLE_X + R.TABLE_COL * k, y, head, size=11, fill="#6e6e6e")
    for s in range(n):
        y += R.ROW_H
        if not over and s == rec["actor"]:
            svg.rect(px - 4, y - 13, R.WIDTH - px - 4, R.ROW_H, R.HIGHLIGHT, stroke="none")
        svg.rect(px, y - 10, 12, 12, R.SEAT_RGB[s])
        svg.text(px + 17, y, R._seat_name(rec, s) + (" (you)" if s == seat else ""), size=11)
        values = [int(rec["points"][s]), int(rec["dollars"][s]), int(rec["board_skyscrapers"][s]),
                  int(np.sum(rec["vessel_owner"] == s)),
                  int(np.sum((rec["tile_loc"] == LOC_OWNED) & (rec["tile_owner"] == s)))]
        if over:
            values.append(int(totals[s]))
        for k, value in enumerate(values):
            svg.text(R.TABLE_X + R.TABLE_COL * k, y, str(value))
    # press track
    y += 26
    svg.text(px, y, "Press track (top of each stack first)", size=11)
    y += 6
    for space in range(PRESS_LAST_SPACE + 1):
        x = px + space * R.PRESS_CELL
        svg.rect(x, y, R.PRESS_CELL - 2, 70, "none", stroke="#aaaaaa")
        svg.text(x + 3, y + 66, str(space), size=10, fill="#6e6e6e")
        here = sorted((t for t in [*range(n), NEUTRAL] if rec["press_space"][t] == space),
                      key=lambda t: -int(rec["press_height"][t]))
        for k, t in enumerate(here):
            svg.circle(x + 9, y + 8 + k * 11, 4.5, colour(t))
    # prestige tiles revealed, card pairs
    y += 92
    svg.text(px, y, "Prestige tiles revealed:", size=11)
    x = px + 130
    for k, t in enumerate(rec["prestige_revealed"]):
        if t != EMPTY:
            with svg.place(prestige_place(k)):
                svg.rect(x, y - 11, 22, 14, R.COMPONENT_RGB[PRESTIGE_TILE_COLOUR[t]], title=prestige_label(t))
                svg.text(x + 7, y, str(int(PRESTIGE_TILE_VALUE[t])), size=11, fill="#ffffff")
            x += 26
    y += 20

    def boxes(label, items, y):
        """Labelled boxes, each one place, from ``y`` on (a new line where the next would pass the
        drawing's right edge): (words, place keys, hover title) each; the last line's y."""
        svg.text(px, y, label, size=LABEL_SIZE)
        first = x = px + CHAR_W * len(label) + BOX_PAD
        for words, keys, title in items:
            width = CHAR_W * len(words) + BOX_PAD
            if x > first and x + width > R.WIDTH - BOX_PAD:
                x, y = first, y + BOX_LINE
            with svg.place(*keys):
                svg.rect(x, y - BOX_H + BOX_DROP, width, BOX_H, "#ffffff", stroke="#aaaaaa", rx=BOX_RX,
                         title=title)
                svg.text(x + BOX_PAD / 2, y, words, size=LABEL_SIZE, title=title)
            x += width + BOX_GAP
        if not items:
            svg.text(x, y, "-", size=LABEL_SIZE)
        return y

    stacks = [(f"{k}: #{int(TILE_CHARACTER[a])} + #{int(TILE_CHARACTER[b])}",
               (stack_place(k), tile_place(int(a)), tile_place(int(b))),
               f"{character_title(int(a))}\n{character_title(int(b))}")
              for k, (a, b) in enumerate(rec["start_stacks"])
              if rec["start_stack_status"][k] == STACK_REVEALED]
    if stacks and rec["stage"] == STAGE_START_CHARACTERS:
        y = boxes("Start stacks:", stacks, y)
    else:
        pairs = [(f"{p}: " + " + ".join(CARD_NAMES[c] for c in rec["pairs"][p] if c != EMPTY),
                  (pair_place(p),), "")
                 for p in range(int(rec["num_pairs"])) if (rec["pairs"][p] != EMPTY).any()]
        y = boxes("Card pairs:", pairs, y)
    # the elevator display
    y += 22
    svg.text(px, y, "Elevator display (hover for the character)", size=11)
    y += 6
    for row in range(NUM_TILE_VALUES):
        svg.text(px, y + 13, f"value {row + 1}", size=11)
        for col in range(ELEVATOR_COLUMNS):
            x = px + 52 + col * (R.ELEVATOR_CELL_W + 4)
            tile = rec["elevator_display"][row, col]
            keys = (elevator_place(row, col),) + ((tile_place(int(tile)),) if tile != EMPTY else ())
            with svg.place(*keys):
                svg.rect(x, y, R.ELEVATOR_CELL_W, R.ELEVATOR_CELL_H,
                         "#ffffff" if tile != EMPTY else R.BACKGROUND, stroke="#aaaaaa",
                         title=character_title(int(tile)) if tile != EMPTY else "")
                if tile != EMPTY:
                    svg.text(x + 8, y + 14, f"#{int(TILE_CHARACTER[tile])}", title=character_title(int(tile)))
        svg.text(px + 52 + ELEVATOR_COLUMNS * (R.ELEVATOR_CELL_W + 4), y + 13,
                 f"{int(rec['elevator_count'][row])} in stack", size=10, fill="#6e6e6e")
        y += R.ELEVATOR_CELL_H + 4
    # the viewer's own cards (or, for a replay or a watched game, every agent's)
    y = R.HEIGHT + 4
    shown = [seat] if seat is not None else [s for s in range(n) if not rec["is_tom"][s]]
    for s in shown:
        hand = ", ".join(f"{CARD_NAMES[t]} {int(rec['hand'][s, t])}" for t in range(NUM_CARD_TYPES)
                         if rec["hand"][s, t]) or "-"
        reserve = ", ".join(f"{CARD_NAMES[t]} {int(rec['reserve'][s, t])}" for t in range(NUM_CARD_TYPES)
                            if rec["reserve"][s, t]) or "-"
        svg.rect(10, y + 2, 12, 12, R.SEAT_RGB[s])
        who = "Your" if s == seat else f"{R._seat_name(rec, s)}:"
        svg.text(28, y + 13, f"{who} hand: {hand}  |  reserve: {reserve}", size=12)
        y += 18
        x = 28
        for tile in range(NUM_TILES):
            if rec["tile_loc"][tile] == LOC_OWNED and rec["tile_owner"][tile] == s:
                label = tile_label(tile)
                used = bool(rec["tile_used"][tile])
                with svg.place(tile_place(tile), character_place(int(TILE_CHARACTER[tile]))):
                    svg.rect(x, y, 8 * len(label) + 8, 16, "#eeeeee" if used else "#ffffff",
                             title=character_title(tile) + (" (used this round)" if used else ""))
                    svg.text(x + 4, y + 12, label, size=11, fill="#888888" if used else "#1e1e1e",
                             title=character_title(tile))
                x += 8 * len(label) + 12
                if x > R.WIDTH - 80:
                    x, y = 28, y + 19
        y += 24
    svg.height = y
    return svg.render()
