"""Views of a state for people: text (``render_text``, from the engine) and a picture (``render_rgb``).

``render_rgb(state)`` draws the whole public table with pillow into a fixed ``PICTURE_SHAPE``
(600 x 900 x 3, uint8): the six boroughs (name, sequence letter, value, prestige tiles placed,
skyscrapers per participant in their colour and neutral in grey, the Mayor), the vessels still on
the board as lines in their colours, the participants (points, dollars, skyscrapers, vessels,
characters; final totals at the end), the press track 0-15 with its tokens, the revealed prestige
tiles, the elevator display, each agent's reserve (its size and the face-up cards of character 3,
which are public, R25) and whose turn it is. Hands and face-down reserve cards are not drawn.

``python -m tiny_york_env.games.tiny_york.picture PATH`` writes a mid-game position as a PNG
(docs/images/board.png).
"""

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ...core.picture import INK, Canvas, default_font, picture_command, play_randomly_until, write_png
from . import GameConfig, apply_action, final_scores, is_terminal, legal_mask, new_game, render_text
from .components import (
    BOROUGH_LANTERN,
    BOROUGH_NAMES,
    CARD_NAMES,
    ELEVATOR_COLUMNS,
    MAX_SEATS,
    NEUTRAL,
    NUM_BIDDING_ROUNDS,
    NUM_BOROUGHS,
    NUM_CARD_TYPES,
    NUM_GAME_ROUNDS,
    NUM_PRESTIGE_TILES,
    NUM_TILE_VALUES,
    NUM_TILES,
    NUM_VESSEL_KINDS,
    NUM_VESSELS,
    PRESS_LAST_SPACE,
    PRESTIGE_TILE_COLOUR,
    PRESTIGE_TILE_VALUE,
    SEQUENCE_LETTERS,
    TILE_CHARACTER,
    TOM_MODES,
    VESSEL_COLOUR,
    VESSEL_ENDS,
    VESSEL_KIND,
    VESSEL_KIND_COLOUR,
    VESSEL_KIND_NAMES,
)
from .labels import short_seat_label
from .state import DEC_GAME_OVER, DECISION_NAMES, EMPTY, LOC_OWNED, STAGE_NAMES, STATE_DTYPE, VESSEL_ON_BOARD
from .text import BIDDING_STAGE_NAMES

__all__ = ["PICTURE_SHAPE", "main", "mid_game_state", "render_rgb", "render_text", "save_png"]

HEIGHT, WIDTH = 600, 900
PICTURE_SHAPE = (HEIGHT, WIDTH, 3)

# Colours (RGB). Component colours follow the components' names (COLOUR_NAMES order).
COMPONENT_RGB = ((230, 190, 30), (200, 45, 45), (135, 135, 135), (140, 90, 45), (40, 95, 200),
                 (60, 160, 70))
SEAT_RGB = ((125, 60, 175), (0, 145, 150), (240, 125, 0), (215, 60, 150))
NEUTRAL_RGB = (150, 150, 150)
BACKGROUND = (250, 248, 242)
WATER = (206, 226, 240)
LAND = (242, 236, 218)
FAINT = (110, 110, 110)
HIGHLIGHT = (255, 240, 170)

# Layout (pixels). The map: one box per borough, placed roughly as on the board.
HEADER_H = 48
MAP_X, MAP_Y, MAP_W, MAP_H = 10, HEADER_H + 6, 530, HEIGHT - HEADER_H - 16
BOX_W, BOX_H = 152, 112
# Top-left corners in the map, in BOROUGH_NAMES order, with gaps wide enough to show the vessels.
BOROUGH_XY = ((190, 125), (300, 405), (370, 235), (370, 10), (15, 405), (10, 205))
PANEL_X = MAP_X + MAP_W + 12
TABLE_X, TABLE_COL = PANEL_X + 126, 38  # participants table: name ("seat 0 agent (you)"), numbers
ROW_H = 18
SWATCH = 12
PRESS_CELL = 20
TOKEN = 9
ELEVATOR_CELL_W, ELEVATOR_CELL_H = 44, 18
LINE_W = 6
VESSEL_OFFSET = 0  # every pair of boroughs has at most one vessel, so lines never overlap
FONT_SIZE, TITLE_SIZE, SMALL_SIZE = 13, 16, 11

# A mid-game position for the docs picture: 2 agents and Tom 5, random legal play.
DEMO_CONFIG = GameConfig(num_agents=2, toms=(5,))
DEMO_SEED = 7
DEMO_ROUND = 3
DEFAULT_PNG = Path("docs/images/board.png")


def _rec(state):
    if not isinstance(state, np.ndarray) or state.dtype != STATE_DTYPE or state.size != 1:
        raise ValueError("render_rgb takes one game state as returned by new_game")
    return state.reshape(1)[0]


def _seat_rgb(token):
    return NEUTRAL_RGB if token == NEUTRAL else SEAT_RGB[token]


def _seat_name(rec, seat):
    """'seat 0 agent' or 'seat 1 Tom 5 (B4)'."""
    if not rec["is_tom"][seat]:
        return f"{short_seat_label(seat)} agent"
    code = f"{TOM_MODES[rec['tom_mode'][seat]]}{int(rec['tom_draw'][seat])}"
    level = int(rec["tom_level"][seat])
    label = short_seat_label(seat)
    return f"{label} Tom {level} ({code})" if level else f"{label} Tom ({code})"


class _Canvas(Canvas):
    """An RGB image with the three fonts."""

    def __init__(self):
        super().__init__(WIDTH, HEIGHT, BACKGROUND)
        self.font, self.title, self.small = (default_font(FONT_SIZE), default_font(TITLE_SIZE),
                                             default_font(SMALL_SIZE))

    def swatch(self, x, y, rgb, label=None, size=SWATCH, text_fill=INK):
        """A filled square, optionally with a label to its right; returns the x after it."""
        self.draw.rectangle((x, y, x + size, y + size), fill=rgb, outline=INK)
        if label is None:
            return x + size + 4
        self.text((x + size + 3, y - 1), label, fill=text_fill, font=self.small)
        return x + size + 5 + int(self.draw.textlength(label, font=self.small)) + 6


def _header(c, rec):
    rnd = int(rec["round"])
    if rec["decision"] == DEC_GAME_OVER:
        title = f"Tiny York - game over, winner {short_seat_label(int(rec['winner']))}"
        turn = "Final scores in the table (total of the rulebook's final scoring)."
    else:
        stage = STAGE_NAMES[int(rec["stage"])]
        title = ("Tiny York - setup" if rnd == 0 else
                 f"Tiny York - round {min(rnd, NUM_GAME_ROUNDS)}/{NUM_GAME_ROUNDS}, {stage}")
        if rnd > 0 and 0 <= int(rec["bid_round"]) < NUM_BIDDING_ROUNDS and stage in BIDDING_STAGE_NAMES:
            title += f", bidding round {int(rec['bid_round']) + 1} ({CARD_NAMES[rec['bid_round']]})"
        actor = int(rec["actor"])
        turn = f"To move: {_seat_name(rec, actor)} - {DECISION_NAMES[rec['decision']]}"
    statue = "won" if rec["statue_flipped"] else "not yet won"
    c.text((10, 6), title, font=c.title)
    c.text((10, 27), f"{turn}     Statue of Liberty bonus: {statue}")


def _borough_centre(b):
    x, y = BOROUGH_XY[b]
    return MAP_X + x + BOX_W // 2, MAP_Y + y + BOX_H // 2


def _vessels(c, rec):
    """A line in its colour between the two boroughs of every vessel still on the board."""
    for v in range(NUM_VESSELS):
        if rec["vessel_owner"][v] != VESSEL_ON_BOARD:
            continue
        (x0, y0), (x1, y1) = (_borough_centre(int(b)) for b in VESSEL_ENDS[v])
        c.draw.line((x0, y0 + VESSEL_OFFSET, x1, y1 + VESSEL_OFFSET),
                    fill=COMPONENT_RGB[VESSEL_COLOUR[v]], width=LINE_W)


def _borough(c, rec, b):
    n = int(rec["num_seats"])
    x, y = MAP_X + BOROUGH_XY[b][0], MAP_Y + BOROUGH_XY[b][1]
    c.draw.rounded_rectangle((x, y, x + BOX_W, y + BOX_H), radius=8, fill=LAND, outline=INK, width=2)
    c.draw.ellipse((x + 6, y + 7, x + 16, y + 17), fill=COMPONENT_RGB[BOROUGH_LANTERN[b]], outline=INK)
    c.text((x + 21, y + 4), BOROUGH_NAMES[b])
    letter = SEQUENCE_LETTERS[rec["borough_sequence"][b]]
    c.draw.rectangle((x + BOX_W - 24, y + 5, x + BOX_W - 8, y + 21), fill=(255, 255, 255), outline=INK)
    c.text((x + BOX_W - 20, y + 6), letter)
    if rec["mayor"] == b:
        c.draw.ellipse((x + BOX_W - 48, y + 4, x + BOX_W - 30, y + 22), fill=INK)
        c.text((x + BOX_W - 44, y + 6), "M", fill=(255, 255, 255))
    base, prestige = int(rec["borough_base"][b]), int(rec["borough_prestige"][b])
    c.text((x + 8, y + 25), f"value {base + prestige}  (base {base} + {prestige})", font=c.small)
    px = x + 8
    for t in range(NUM_PRESTIGE_TILES):
        if rec["prestige_loc"][t] == b:
            rgb = COMPONENT_RGB[PRESTIGE_TILE_COLOUR[t]]
            px = c.swatch(px, y + 44, rgb, str(int(PRESTIGE_TILE_VALUE[t])))
    if px == x + 8:
        c.text((px, y + 43), "no prestige tile", fill=FAINT, font=c.small)
    c.text((x + 8, y + 63), "skyscrapers", fill=FAINT, font=c.small)
    sx, sy = x + 8, y + 80
    for token in [*range(n), NEUTRAL]:
        count = int(rec["skyscrapers"][b, token])
        label = f"{'N' if token == NEUTRAL else token}:{count}"
        sx = c.swatch(sx, sy, _seat_rgb(token), label, text_fill=INK if count else FAINT)
        if token == 1 and n > 2:
            sx, sy = x + 8, sy + 16


def _participants(c, rec, y):
    n = int(rec["num_seats"])
    over = rec["decision"] == DEC_GAME_OVER
    totals = final_scores(rec.reshape(1)) if over else None
    cols = ("points", "$", "sky", "ves.", "chars") + (("final",) if over else ())
    for k, name in enumerate(cols):
        c.text((TABLE_X + TABLE_COL * k, y), name, fill=FAINT, font=c.small)
    y += ROW_H
    for seat in range(n):
        if not over and seat == rec["actor"]:
            c.draw.rectangle((PANEL_X - 4, y - 2, WIDTH - 8, y + ROW_H - 3), fill=HIGHLIGHT)
        c.swatch(PANEL_X, y + 1, SEAT_RGB[seat])
        c.text((PANEL_X + SWATCH + 5, y), _seat_name(rec, seat), font=c.small)
        vessels = sum(1 for v in range(NUM_VESSELS) if rec["vessel_owner"][v] == seat)
        chars = sum(1 for t in range(NUM_TILES)
                    if rec["tile_loc"][t] == LOC_OWNED and rec["tile_owner"][t] == seat)
        values = [int(rec["points"][seat]), int(rec["dollars"][seat]),
                  int(rec["board_skyscrapers"][seat]), vessels, chars]
        if over:
            values.append(int(totals[seat]))
        for k, value in enumerate(values):
            c.text((TABLE_X + TABLE_COL * k, y), str(value))
        y += ROW_H
    return y + 6


def _press(c, rec, y):
    """The press track 0-15; a space's tokens stand in a column, the top of the stack uppermost."""
    n = int(rec["num_seats"])
    c.text((PANEL_X, y), "Press track", font=c.small)
    y += 16
    tokens = [*range(n), NEUTRAL]
    top = y + (MAX_SEATS + 1) * (TOKEN + 2)
    for space in range(PRESS_LAST_SPACE + 1):
        x = PANEL_X + space * PRESS_CELL
        c.draw.rectangle((x, y, x + PRESS_CELL - 2, top + 14), outline=FAINT)
        c.text((x + 3, top + 1), str(space), fill=FAINT, font=c.small)
        here = sorted((t for t in tokens if rec["press_space"][t] == space),
                      key=lambda t: -int(rec["press_height"][t]))
        for k, t in enumerate(here):
            ty = y + 3 + k * (TOKEN + 2)
            c.draw.ellipse((x + 4, ty, x + 4 + TOKEN, ty + TOKEN), fill=_seat_rgb(t), outline=INK)
    return top + 22


def _prestige_and_vessels(c, rec, y):
    c.text((PANEL_X, y), "Prestige tiles revealed:", font=c.small)
    x = PANEL_X + 140
    shown = False
    for t in rec["prestige_revealed"]:
        if t != EMPTY:
            x = c.swatch(x, y + 1, COMPONENT_RGB[PRESTIGE_TILE_COLOUR[t]], str(int(PRESTIGE_TILE_VALUE[t])))
            shown = True
    if not shown:
        c.text((x, y), "-", fill=FAINT, font=c.small)
    y += ROW_H
    x = PANEL_X
    for kind in range(NUM_VESSEL_KINDS):
        left = sum(1 for v in range(NUM_VESSELS)
                   if VESSEL_KIND[v] == kind and rec["vessel_owner"][v] == VESSEL_ON_BOARD)
        x = c.swatch(x, y + 1, COMPONENT_RGB[VESSEL_KIND_COLOUR[kind]], f"{VESSEL_KIND_NAMES[kind]} {left}")
    return y + ROW_H + 4


def _elevator(c, rec, y):
    """The elevator display: a row per value 1-5, character numbers, tiles left in each stack."""
    c.text((PANEL_X, y), "Elevator display (character numbers)", font=c.small)
    y += 16
    for row in range(NUM_TILE_VALUES):
        c.text((PANEL_X, y + 2), f"value {row + 1}", font=c.small)
        for col in range(ELEVATOR_COLUMNS):
            x = PANEL_X + 52 + col * (ELEVATOR_CELL_W + 4)
            tile = rec["elevator_display"][row, col]
            c.draw.rectangle((x, y, x + ELEVATOR_CELL_W, y + ELEVATOR_CELL_H),
                             fill=(255, 255, 255) if tile != EMPTY else BACKGROUND, outline=FAINT)
            if tile != EMPTY:
                c.text((x + 8, y + 2), f"#{int(TILE_CHARACTER[tile])}")
        c.text((PANEL_X + 52 + ELEVATOR_COLUMNS * (ELEVATOR_CELL_W + 4), y + 2),
               f"{int(rec['elevator_count'][row])} in stack", fill=FAINT, font=c.small)
        y += ELEVATOR_CELL_H + 4
    return y


def _faceup_words(rec, seat):
    """'skyscrapers, press' for the face-up reserve cards of ``seat`` (character 3), or '-'."""
    names = [CARD_NAMES[t] for t in range(NUM_CARD_TYPES)
             for _ in range(int(rec["reserve_faceup"][seat, t]))]
    return ", ".join(names) or "-"


def _reserves(c, rec, y):
    """Each agent's reserve: its size and its face-up cards (character 3, public, R25)."""
    c.text((PANEL_X, y), "Reserves (face-up cards of character 3)", font=c.small)
    y += 16
    for seat in range(int(rec["num_seats"])):
        if rec["is_tom"][seat]:
            continue  # R5: Tom has no reserve
        c.swatch(PANEL_X, y + 1, SEAT_RGB[seat])
        size = int(rec["reserve_size"][seat])
        c.text((PANEL_X + SWATCH + 5, y),
               f"{short_seat_label(seat)}: reserve {size}, face up: {_faceup_words(rec, seat)}",
               font=c.small)
        y += ROW_H
    return y


def render_rgb(state: np.ndarray) -> NDArray[np.uint8]:
    """The picture of one game state: uint8 array of shape ``PICTURE_SHAPE`` (600, 900, 3)."""
    rec = _rec(state)
    c = _Canvas()
    _header(c, rec)
    c.draw.rectangle((MAP_X, MAP_Y, MAP_X + MAP_W, MAP_Y + MAP_H), fill=WATER)
    _vessels(c, rec)
    for b in range(NUM_BOROUGHS):
        _borough(c, rec, b)
    y = _participants(c, rec, MAP_Y)
    y = _press(c, rec, y)
    y = _prestige_and_vessels(c, rec, y)
    y = _elevator(c, rec, y)
    _reserves(c, rec, y + 8)
    return np.asarray(c.image, dtype=np.uint8)


def save_png(state: np.ndarray, path: str | os.PathLike[str]) -> Path:
    """Write ``render_rgb(state)`` to ``path`` as a PNG (parent folders made)."""
    return write_png(render_rgb(state), path)


def mid_game_state(config: GameConfig = DEMO_CONFIG, seed: int = DEMO_SEED,
                   until_round: int = DEMO_ROUND) -> np.ndarray:
    """A reproducible position: random legal play from ``seed`` until round ``until_round`` starts."""
    return play_randomly_until(new_game(config, seed), seed, legal_mask, apply_action, is_terminal,
                               lambda state: int(state["round"]) >= until_round)


def main(argv: Sequence[str] | None = None) -> Path:
    """Write the picture of a mid-game position to a PNG file."""
    return picture_command(argv, "Tiny York", DEFAULT_PNG, DEMO_SEED,
                           ("round", DEMO_ROUND, "play until this round starts"),
                           lambda seed, stop: mid_game_state(seed=seed, until_round=stop), save_png)


if __name__ == "__main__":
    main()
