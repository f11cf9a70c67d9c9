"""5th Avenue's picture (``render_rgb``) for the envs' ``render_mode="rgb_array"``.

``render_rgb(state)`` draws the public table of one 5th Avenue record with pillow into a fixed
``PICTURE_SHAPE`` (600 x 900 x 3, uint8). Left, the city as in docs/fifth-avenue.md's diagram:
Central Park on top (skyscrapers by player, its business tiles), the seven districts along the
commissioners' routes (each a ring of five plots in their colours, with the businesses' letters
and the owner's colour and skyscraper count; a stopped district is grey), City Hall at the
bottom, the two commissioners as circles and their markers as small squares, the auctioned place
framed in red. Right, the players (VP, skyscrapers in the supply and the general supply, hand
sizes), whose turn it is and the pending decision, the turn in progress, the face-up top card of
each coloured stack with the stacks' sizes, the black stack's size, the supply row's 20 spaces in
their sets and, during an auction, the set's places, the high bid and the cards bid on the table.

Only what every player sees is drawn: no card of any hand, no card below a stack's top, nothing
of the black stack's order, not the unused businesses, not the record's generator. Two records
that differ only there give the same picture (tests/fifth_avenue/test_picture.py).

It needs pillow, so the game's contract imports it only when a picture is asked for. The colours
are the browser board's (``board_svg.py``).

``python -m tiny_york_env.games.fifth_avenue.picture PATH`` writes a mid-game position as a PNG
(docs/images/fifth-avenue-board.png).
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ...core.labels import seat_name
from ...core.picture import INK, Canvas, default_font, picture_command, play_randomly_until, write_png
from . import GameConfig, apply_action, is_terminal, legal_mask, new_game
from . import data as D
from . import state as F
from .board_svg import (
    FA_AUCTION_RGB,
    FA_BACKGROUND,
    FA_CARD_RGB,
    FA_COMMISSIONER_RGB,
    FA_DISTRICT_RGB,
    FA_HALL_RGB,
    FA_HIGHLIGHT,
    FA_PARK_RGB,
    FA_PLAYER_RGB,
    FA_PLOT_TINT,
    FA_ROUTE_RGB,
    FA_STOPPED_RGB,
    FA_TILE_RGB,
    FA_UNKNOWN_RGB,
    FA_WHITE_LEVEL,
)
from .text import BUSINESS_LETTERS

__all__ = ["PICTURE_SHAPE", "main", "mid_game_state", "render_rgb", "save_png"]

HEIGHT, WIDTH = 600, 900
PICTURE_SHAPE = (HEIGHT, WIDTH, 3)
RGB = tuple[int, int, int]

# Colours (RGB) beyond the browser board's
FAINT = (110, 110, 110)
WHITE = (255, 255, 255)
EMPTY_OUTLINE = (190, 190, 190)

# Fonts: pillow's default at these sizes
FONT_SIZE, TITLE_SIZE, SMALL_SIZE, TINY_SIZE, CARD_SIZE = 13, 16, 11, 10, 15
NUDGE = 1  # a pixel's shift that sets a square or a label level with a line of text

# Header
MARGIN = 10
TITLE_Y, TURN_Y = 6, 27
HEADER_H = 48

# The map: a place's (column, row) on a grid, Central Park on top and City Hall at the bottom
# (docs/fifth-avenue.md's diagram); 34th and 52nd Street sit half a column in.
GRID = {D.CENTRAL_PARK: (1, 0), D.D52W: (0.5, 1), D.D52E: (1.5, 1), D.D42W: (0, 2),
        D.TIMES_SQUARE: (1, 2), D.D42E: (2, 2), D.D34W: (0.5, 3), D.D34E: (1.5, 3), D.CITY_HALL: (1, 4)}
MAP_X, MAP_Y = MARGIN, HEADER_H + 4
DISTRICT_W, DISTRICT_H = 168, 118
COLUMN_STEP = 178
ROW_GAP = 8
PARK_W, PARK_H = 340, 70
HALL_W, HALL_H = DISTRICT_W, 26
ROUTE_WIDTH = 5
BOX_RADIUS = 8
BOX_PAD = 6  # text inside a box, from its edge
NAME_Y = 3  # a box's name, from its top
AUCTION_WIDTH = 3  # the auctioned place's red border
TOKEN_R = 7  # a commissioner's circle
TOKEN_GAP = 3
MARKER = 10  # a commissioner marker's square
MARKER_GAP = 3
# The five plots of a district stand in a ring, the first on top, then clockwise.
RING_CENTRE_Y = 64  # from the district box's top
RING_RX, RING_RY = 54, 28
RING_START_DEGREES = -90
FULL_TURN_DEGREES = 360
PLOT_W, PLOT_H = 46, 26
PLOT_OUTLINE = 2
PLOT_PAD = 3
PLOT_INSET = 4  # a plot's text, from its left edge
OWNER_Y = 14  # the owner's square in a plot, from its top
OWNER_TEXT_Y = 12  # its skyscraper count
OWNER_SQUARE = 9
LABEL_GAP = 3  # between a square and its label
STOP_Y = 56  # "building stop" in a stopped district, from its top
# Central Park's lines, from its top
PARK_SKY_Y, PARK_TILES_Y = 24, 46
PARK_TILES_LABEL_Y = 48
PARK_LABEL_W = 68  # the labels' column
PARK_SKY_STEP = 62
TILE = 15  # a business tile
TILE_STEP = 18
LEGEND_GAP = 6
LEGEND_LINE = 14
LEGEND_LINES = (
    "Plots: a ring of five per district; B J G P = boutique, jeweler, gallery, perfume shop;",
    "square + xN: the owner's N skyscrapers. Circles: the white and beige commissioners, small",
    "squares: their markers. Lines: the routes City Hall - Central Park. Red frame: auctioned now",
    "(a plot framed in red: the auction's winner builds there).",
)

# The panel, right of the map
PANEL_X = MAP_X + DISTRICT_W + 2 * COLUMN_STEP + 14
PANEL_RIGHT = WIDTH - MARGIN
ROW_H = 17
LINE_H = 15
SECTION_GAP = 8
SEAT_SQUARE = 11
NAME_GAP = 4
TABLE_X = PANEL_X + 106  # past "seat 1 yellow"
TABLE_COLUMNS = (0, 36, 80, 128)  # VP, supply, general, hand: from TABLE_X
TABLE_HEADS = ("VP", "supply", "general", "hand: colour + black")
TURN_ACTIONS = 3  # "each player's turn consists of three actions"
OPTION_LETTERS = "ABCD"
CARD_W, CARD_H = 28, 34  # a face-up stack's top card
CARD_STEP = 34
CARD_VALUE_INSET = (8, 8)
BLACK_GAP = 8
SPACE = 12  # a supply-row space
SPACE_STEP = 14
SET_GAP = 6
HIGHLIGHT_PAD = 2
CHIP_W, CHIP_H = 14, 18  # a card bid on the table
CHIP_STEP = 16
CHIP_VALUE_INSET = (3, 3)
BID_ROW_H = 22
BID_CHIPS_X = PANEL_X + 60  # past "seat 1"
BID_TEXT_W = 110  # room kept right of the chips for the total and the bidder's state
FOOTNOTE = "Public table only: hands and stacks are counted, never shown."

# A mid-game position for the docs picture: three players, random legal play, stopped in an
# auction with a bid on the table.
DEMO_CONFIG = GameConfig(num_players=3)
DEMO_SEED = 7
DEMO_TURN = 8
DEFAULT_PNG = Path("docs/images/fifth-avenue-board.png")


def _rec(state):
    """The record of one 5th Avenue game; ValueError for anything else."""
    if not isinstance(state, np.ndarray) or state.dtype != F.STATE_DTYPE or state.size != 1:
        shape = getattr(state, "shape", None)
        raise ValueError("render_rgb takes one 5th Avenue game record (fifth_avenue.new_game), got "
                         f"{type(state).__name__} of dtype {getattr(state, 'dtype', None)} and shape {shape}")
    rec = state.reshape(1)[0]
    n = int(rec["num_players"])
    if not D.MIN_PLAYERS <= n <= D.MAX_PLAYERS or not 0 <= int(rec["decision"]) < len(F.DECISION_NAMES):
        raise ValueError(f"not a 5th Avenue position: {n} players, decision {int(rec['decision'])}")
    return rec


def _tint(rgb: RGB, share: float = FA_PLOT_TINT) -> RGB:
    """``rgb`` mixed with ``share`` of white."""
    return tuple(round(c + (FA_WHITE_LEVEL - c) * share) for c in rgb)


def _card_name(colour: int) -> str:
    """A card colour's name; the hand's extra colour is black."""
    return "black" if colour == F.BLACK else D.CARD_COLOURS[colour]


def _card_rgb(colour: int) -> RGB:
    """The colour a card (or a plot) of ``colour`` is drawn in."""
    return FA_CARD_RGB.get(_card_name(colour), FA_UNKNOWN_RGB)


def _place_name(place: int) -> str:
    """A district's, Central Park's or City Hall's name."""
    return "City Hall" if place == D.CITY_HALL else D.PLACE_NAMES[place]


def _short_place(place: int) -> str:
    """'42nd St W', 'Times Square', 'Central Park': a place's name for a line of several."""
    return _place_name(place).replace("Street ", "St ").replace("East", "E").replace("West", "W")


class _Table(Canvas):
    """One drawing of a record: the canvas, the fonts and who is who."""

    def __init__(self, rec) -> None:
        """A blank canvas for the record ``rec``."""
        self.rec = rec
        self.n = int(rec["num_players"])
        self.over = rec["decision"] == F.DEC_GAME_OVER
        self.auction = rec["decision"] in (F.DEC_BID, F.DEC_BUILD)
        super().__init__(WIDTH, HEIGHT, FA_BACKGROUND)
        self.font, self.title, self.small, self.tiny, self.card = (
            default_font(FONT_SIZE), default_font(TITLE_SIZE), default_font(SMALL_SIZE),
            default_font(TINY_SIZE), default_font(CARD_SIZE))

    # --- helpers ----------------------------------------------------------------------------------

    def rows(self) -> list[int]:
        """The players' rows, then Alea's in a two-player game."""
        return [*range(self.n), *([F.ALEA_ROW] if self.rec["has_alea"] else [])]

    def colour_name(self, row: int) -> str:
        """The player colour ``row`` builds in (Alea: the one left to him)."""
        index = int(self.rec["alea_colour"]) if row == F.ALEA_ROW else row
        return D.PLAYER_COLOURS[index] if 0 <= index < len(D.PLAYER_COLOURS) else "?"

    def row_rgb(self, row: int) -> RGB:
        """The colour of ``row``'s skyscrapers."""
        return FA_PLAYER_RGB.get(self.colour_name(row), FA_UNKNOWN_RGB)

    @staticmethod
    def row_name(row: int) -> str:
        """'seat 0', 'Alea', as the text view names them."""
        return "Alea" if row == F.ALEA_ROW else seat_name(row)

    def square(self, x: float, y: float, size: int, rgb: RGB) -> None:
        """A filled square outlined in ink."""
        self.draw.rectangle((x, y, x + size, y + size), fill=rgb, outline=INK)

    def tile(self, business: int, x: float, y: float, size: int = TILE) -> None:
        """A business tile, face up, with its letter."""
        self.draw.rectangle((x, y, x + size, y + size), fill=FA_TILE_RGB, outline=INK)
        letter = BUSINESS_LETTERS[business]
        self.text((x + (size - self.width(letter, self.tiny)) / 2, y + NUDGE), letter, font=self.tiny)

    # --- the whole ----------------------------------------------------------------------------------
    def render(self) -> NDArray[np.uint8]:
        """The picture as a uint8 array of ``PICTURE_SHAPE``."""
        self.header()
        self.city()
        y = self.players(MAP_Y)
        y = self.turn(y + SECTION_GAP)
        y = self.cards(y + SECTION_GAP)
        y = self.supply_row(y + SECTION_GAP)
        if self.auction:
            self.auction_panel(y + SECTION_GAP)
        self.text((PANEL_X, HEIGHT - MARGIN - LINE_H), FOOTNOTE, fill=FAINT, font=self.small)
        return np.asarray(self.image, dtype=np.uint8)

    def header(self) -> None:
        """The title line and who is to move with the pending decision."""
        rec = self.rec
        title = f"5th Avenue - {self.n} players" + (" and Alea" if rec["has_alea"] else "")
        if self.over:
            winners = [self.row_name(s) for s in range(self.n) if int(rec["winner_mask"]) >> s & 1]
            title += " - game over - winner: " + (", ".join(winners) or "-")
            turn = "Final scores in the VP column; the winners' rows are highlighted."
        else:
            title += f" - turn {int(rec['turn']) + 1}"
            actor = int(rec["actor"])
            turn = (f"To move: {self.row_name(actor)} ({self.colour_name(actor)}) - "
                    f"{F.DECISION_NAMES[int(rec['decision'])]}")
        self.text((MARGIN, TITLE_Y), title, font=self.title)
        self.text((MARGIN, TURN_Y), turn)

    # --- the city -----------------------------------------------------------------------------------
    @staticmethod
    def box(place: int) -> tuple[float, float, int, int]:
        """(x, y, width, height) of a place's box on the map."""
        column, row = GRID[place]
        if place == D.CENTRAL_PARK:
            w, h = PARK_W, PARK_H
        elif place == D.CITY_HALL:
            w, h = HALL_W, HALL_H
        else:
            w, h = DISTRICT_W, DISTRICT_H
        centre_x = MAP_X + DISTRICT_W / 2 + column * COLUMN_STEP
        districts_top = MAP_Y + PARK_H + ROW_GAP
        top = MAP_Y if row == 0 else districts_top + (row - 1) * (DISTRICT_H + ROW_GAP)
        return centre_x - w / 2, top, w, h

    def centre(self, place: int) -> tuple[float, float]:
        """The middle of a place's box."""
        x, y, w, h = self.box(place)
        return x + w / 2, y + h / 2

    def auction_place(self) -> int | None:
        """The district or Central Park auctioned now, or None."""
        if not self.auction:
            return None
        return int(self.rec["auction_places"][self.rec["auction_at"]])

    def city(self) -> None:
        """Routes, Central Park, the districts, City Hall and the legend below."""
        for place, nexts in D.NEXT_PLACES.items():
            for nxt in nexts:
                self.draw.line((*self.centre(place), *self.centre(nxt)), fill=FA_ROUTE_RGB, width=ROUTE_WIDTH)
        self.central_park()
        for district in range(D.NUM_DISTRICTS):
            self.district(district)
        self.frame(D.CITY_HALL, FA_HALL_RGB)
        _, y, _, h = self.box(D.CITY_HALL)
        y += h + LEGEND_GAP
        for line in LEGEND_LINES:
            self.text((MAP_X, y), line, fill=FAINT, font=self.tiny)
            y += LEGEND_LINE

    def frame(self, place: int, fill: RGB) -> tuple[float, float, int, int]:
        """A place's box, its name, its commissioners; a red frame while it is auctioned."""
        x, y, w, h = self.box(place)
        auctioned = self.auction_place() == place
        self.draw.rounded_rectangle((x, y, x + w, y + h), radius=BOX_RADIUS, fill=fill,
                                    outline=FA_AUCTION_RGB if auctioned else INK,
                                    width=AUCTION_WIDTH if auctioned else 1)
        self.text((x + BOX_PAD, y + NAME_Y), _place_name(place))
        for c, name in enumerate(D.COMMISSIONER_NAMES):
            if self.rec["commissioner_place"][c] == place:
                cx = x + w - TOKEN_R - TOKEN_GAP - c * (2 * TOKEN_R + TOKEN_GAP)
                cy = y + TOKEN_R + TOKEN_GAP
                self.draw.ellipse((cx - TOKEN_R, cy - TOKEN_R, cx + TOKEN_R, cy + TOKEN_R),
                                  fill=FA_COMMISSIONER_RGB.get(name, FA_UNKNOWN_RGB), outline=INK)
        return x, y, w, h

    def district(self, district: int) -> None:
        """A district: its ring of plots (or its building stop) and the commissioners' markers."""
        rec = self.rec
        stopped = bool(rec["stopped"][district])
        x, y, w, h = self.frame(district, FA_STOPPED_RGB if stopped else FA_DISTRICT_RGB)
        k = 0
        for c, name in enumerate(D.COMMISSIONER_NAMES):
            for marked in rec["commissioner_markers"][c]:
                if marked == district:
                    mx, my = x + BOX_PAD + k * (MARKER + MARKER_GAP), y + h - MARKER - BOX_PAD
                    self.square(mx, my, MARKER, FA_COMMISSIONER_RGB.get(name, FA_UNKNOWN_RGB))
                    k += 1
        if stopped:
            label = "building stop"
            self.text((x + (w - self.width(label, self.title)) / 2, y + STOP_Y), label, fill=FAINT,
                      font=self.title)
            return
        for k in range(D.PLOTS_PER_DISTRICT):
            angle = math.radians(RING_START_DEGREES + k * FULL_TURN_DEGREES / D.PLOTS_PER_DISTRICT)
            px = round(x + w / 2 + RING_RX * math.cos(angle) - PLOT_W / 2)
            py = round(y + RING_CENTRE_Y + RING_RY * math.sin(angle) - PLOT_H / 2)
            self.plot(district * D.PLOTS_PER_DISTRICT + k, px, py)

    def plot(self, plot: int, x: int, y: int) -> None:
        """One plot in its colour: its businesses' letters, the owner's colour and skyscrapers."""
        rec = self.rec
        rgb = _card_rgb(int(D.PLOT_COLOUR[plot]))
        self.draw.rounded_rectangle((x, y, x + PLOT_W, y + PLOT_H), radius=PLOT_PAD, fill=_tint(rgb),
                                    outline=rgb, width=PLOT_OUTLINE)
        if rec["decision"] == F.DEC_BUILD and rec["build_plot"] == plot:  # the auction's winner builds here
            self.draw.rounded_rectangle((x - PLOT_OUTLINE, y - PLOT_OUTLINE, x + PLOT_W + PLOT_OUTLINE,
                                         y + PLOT_H + PLOT_OUTLINE), radius=PLOT_PAD, outline=FA_AUCTION_RGB,
                                        width=PLOT_OUTLINE)
        letters = " ".join(BUSINESS_LETTERS[b] for b in rec["plot_business"][plot] if b != F.NO_BUSINESS)
        if letters:
            self.text((x + PLOT_INSET, y + NUDGE), letters, font=self.small)
        owner = int(rec["plot_owner"][plot])
        if owner != F.NO_PLAYER:
            self.square(x + PLOT_INSET, y + OWNER_Y, OWNER_SQUARE, self.row_rgb(owner))
            self.text((x + PLOT_INSET + OWNER_SQUARE + LABEL_GAP, y + OWNER_TEXT_Y),
                      f"x{int(rec['plot_skyscrapers'][plot])}", font=self.small)

    def central_park(self) -> None:
        """Central Park: the skyscrapers built below it by player and its business tiles."""
        rec = self.rec
        x, y, _, _ = self.frame(D.CENTRAL_PARK, FA_PARK_RGB)
        self.text((x + BOX_PAD, y + PARK_SKY_Y), "skyscrapers", fill=FAINT, font=self.tiny)
        for row in range(self.n):  # Alea never builds below Central Park
            sx = x + BOX_PAD + PARK_LABEL_W + row * PARK_SKY_STEP
            self.square(sx, y + PARK_SKY_Y + NUDGE, OWNER_SQUARE, self.row_rgb(row))
            self.text((sx + OWNER_SQUARE + LABEL_GAP, y + PARK_SKY_Y - NUDGE),
                      f"{self.row_name(row)}: {int(rec['park_skyscrapers'][row])}", font=self.small)
        count = int(rec["park_business_count"])
        self.text((x + BOX_PAD, y + PARK_TILES_LABEL_Y), f"businesses {count}", fill=FAINT, font=self.tiny)
        tiles_x = x + BOX_PAD + PARK_LABEL_W
        for k in range(count):
            self.tile(int(rec["park_business"][k]), tiles_x + k * TILE_STEP, y + PARK_TILES_Y)

    # --- the panel ----------------------------------------------------------------------------------
    def players(self, y: int) -> int:
        """A row per player (Alea last): VP, supply, general supply, hand sizes; the next y."""
        rec = self.rec
        for column, head in zip(TABLE_COLUMNS, TABLE_HEADS, strict=True):
            self.text((TABLE_X + column, y), head, fill=FAINT, font=self.small)
        for row in self.rows():
            y += ROW_H
            won = self.over and row != F.ALEA_ROW and int(rec["winner_mask"]) >> row & 1
            if won or (not self.over and row == rec["actor"]):
                self.draw.rectangle((PANEL_X - HIGHLIGHT_PAD, y - HIGHLIGHT_PAD, PANEL_RIGHT,
                                     y + ROW_H - HIGHLIGHT_PAD), fill=FA_HIGHLIGHT)
            self.square(PANEL_X, y + NUDGE, SEAT_SQUARE, self.row_rgb(row))
            self.text((PANEL_X + SEAT_SQUARE + NAME_GAP, y), f"{self.row_name(row)} {self.colour_name(row)}")
            if row == F.ALEA_ROW:
                values = ["-", "-", str(int(rec["general"][row])), "-"]
            else:
                coloured = int(rec["hand"][row, :F.BLACK].sum())  # sizes only, never the cards
                black = int(rec["hand"][row, F.BLACK].sum())
                values = [str(int(rec["score"][row])), str(int(rec["supply"][row])),
                          str(int(rec["general"][row])), f"{coloured} + {black}"]
            for column, value in zip(TABLE_COLUMNS, values, strict=True):
                self.text((TABLE_X + column, y), value)
        return y + ROW_H

    def turn(self, y: int) -> int:
        """The turn in progress, the business held, the game's progress; the next y."""
        rec = self.rec
        parts = [f"Turn {int(rec['turn']) + 1} (ends by turn {D.TURN_LIMIT})"]
        if not self.over and rec["option"] != F.NO_OPTION:
            option = OPTION_LETTERS[int(rec["option"]) - F.OPTION_A]
            parts.append(f"option {option}, action {int(rec['turn_step'])} of {TURN_ACTIONS}")
        lines = ["; ".join(parts)]
        if not self.over and rec["held_business"] != F.NO_BUSINESS:
            lines.append(f"Holding a {D.BUSINESS_TYPES[int(rec['held_business'])]}, to place on a plot")
        on_plots = sum(D.SUPPLY_SETS) - len(D.SUPPLY_SETS)
        after = ", ".join(str(placed) for placed, _, _ in D.SPECIAL_SCORINGS)
        lines.append(f"Businesses on plots: {int(rec['businesses_placed'])} of {on_plots} "
                     f"(special scorings after {after})")
        lines.append(f"Building stops: {int(rec['building_stops'])} of {D.BUILDING_STOPS_TO_END}")
        for line in lines:
            self.text((PANEL_X, y), line, font=self.small)
            y += LINE_H
        return y

    def cards(self, y: int) -> int:
        """Each coloured stack's face-up top and size, the black stack's size (not its order); next y."""
        rec = self.rec
        self.text((PANEL_X, y), "Face-up cards: each stack's top, its size below", font=self.small)
        top = y + LINE_H
        for c in range(D.NUM_CARD_COLOURS):
            x = PANEL_X + c * CARD_STEP
            count = int(rec["coloured_count"][c])
            if count:
                self.draw.rounded_rectangle((x, top, x + CARD_W, top + CARD_H), radius=PLOT_PAD,
                                            fill=_card_rgb(c), outline=INK)
                value = str(D.CARD_VALUES[int(rec["coloured_stack"][c, count - 1])])
                self.text((x + CARD_VALUE_INSET[0], top + CARD_VALUE_INSET[1]), value, fill=WHITE,
                          font=self.card)
            else:
                self.draw.rounded_rectangle((x, top, x + CARD_W, top + CARD_H), radius=PLOT_PAD,
                                            outline=EMPTY_OUTLINE)
            self.text((x + PLOT_PAD, top + CARD_H + NUDGE), str(count), font=self.small)
        x = PANEL_X + D.NUM_CARD_COLOURS * CARD_STEP + BLACK_GAP
        black, returned = int(rec["black_count"]), int(rec["black_returned_count"])
        self.draw.rounded_rectangle((x, top, x + CARD_W, top + CARD_H), radius=PLOT_PAD,
                                    fill=_card_rgb(F.BLACK), outline=INK)
        self.text((x + PLOT_PAD, top + CARD_H + NUDGE), str(black + returned), font=self.small)
        self.text((x + CARD_STEP, top + PLOT_PAD), f"black stack: {black} face down", font=self.small)
        self.text((x + CARD_STEP, top + PLOT_PAD + LINE_H), f"+ {returned} put back beneath", font=self.small)
        return top + CARD_H + LINE_H + NUDGE

    def supply_row(self, y: int) -> int:
        """The 20 spaces of the supply row in their sets, the set to take from highlighted; the next y."""
        rec = self.rec
        self.text((PANEL_X, y), "Supply row (take from the first set with businesses)", font=self.small)
        top = y + LINE_H + HIGHLIGHT_PAD
        x, start, current = PANEL_X, 0, True
        for size in D.SUPPLY_SETS:
            spaces = [int(b) for b in rec["supply_row"][start:start + size]]
            if current and any(b != F.NO_BUSINESS for b in spaces):
                right = x + (size - 1) * SPACE_STEP + SPACE + HIGHLIGHT_PAD
                self.draw.rectangle((x - HIGHLIGHT_PAD, top - HIGHLIGHT_PAD, right,
                                     top + SPACE + HIGHLIGHT_PAD), fill=FA_HIGHLIGHT)
                current = False
            for business in spaces:
                if business == F.NO_BUSINESS:
                    self.draw.rectangle((x, top, x + SPACE, top + SPACE), outline=EMPTY_OUTLINE)
                else:
                    self.tile(business, x, top, SPACE)
                x += SPACE_STEP
            x += SET_GAP
            start += size
        return top + SPACE + HIGHLIGHT_PAD

    def chips(self, colour: int, counts: Sequence[int], x: float, y: float, step: float) -> float:
        """Cards of one colour bid on the table, a chip each with its value; the next x."""
        for v, value in enumerate(D.CARD_VALUES):
            for _ in range(int(counts[v])):
                self.draw.rectangle((x, y, x + CHIP_W, y + CHIP_H), fill=_card_rgb(colour), outline=INK)
                self.text((x + CHIP_VALUE_INSET[0], y + CHIP_VALUE_INSET[1]), str(value), fill=WHITE,
                          font=self.small)
                x += step
        return x

    def auction_panel(self, y: int) -> None:
        """The auction: place, set, high bid, each bidder's cards on the table, or what the winner builds."""
        rec = self.rec
        place = self.auction_place()
        at, count = int(rec["auction_at"]), int(rec["auction_count"])
        self.text((PANEL_X, y), f"Auction {at + 1} of {count}: {_place_name(place)}")
        y += LINE_H + NUDGE
        places = [_short_place(int(p)) for p in rec["auction_places"][:count]]
        places[at] = f"[{places[at]}]"
        self.text((PANEL_X, y), "This set: " + " > ".join(places), font=self.small)
        y += LINE_H
        notes = []
        high = int(rec["high_bidder"])
        notes.append(f"high bid {int(rec['high_bid'])} ({self.row_name(high)})" if high != F.NO_PLAYER
                     else "no bid yet")
        if rec["park_colour"] != F.NO_CARD:
            notes.append(f"Central Park's colour: {_card_name(int(rec['park_colour']))}")
        if rec["district_full"]:
            notes.append("every plot taken")
        self.text((PANEL_X, y), "; ".join(notes), font=self.small)
        y += LINE_H
        if rec["decision"] == F.DEC_BUILD:
            limit, plot = int(rec["build_limit"]), int(rec["build_plot"])
            where = ("below Central Park" if plot == F.NO_PLOT else
                     f"on the {D.CARD_COLOURS[int(D.PLOT_COLOUR[plot])]} plot")
            stop = " or declare a building stop" if rec["district_full"] and plot != F.NO_PLOT else ""
            self.text((PANEL_X, y), f"{self.row_name(int(rec['actor']))} won: builds up to {limit} "
                                    f"skyscraper{'' if limit == 1 else 's'} {where}{stop}", font=self.small)
            return
        for row in self.rows():
            if row == rec["bidder"]:
                self.draw.rectangle((PANEL_X - HIGHLIGHT_PAD, y - HIGHLIGHT_PAD, PANEL_RIGHT,
                                     y + CHIP_H + HIGHLIGHT_PAD), fill=FA_HIGHLIGHT)
            self.square(PANEL_X, y + HIGHLIGHT_PAD + NUDGE, SEAT_SQUARE, self.row_rgb(row))
            self.text((PANEL_X + SEAT_SQUARE + NAME_GAP, y + HIGHLIGHT_PAD), self.row_name(row),
                      font=self.small)
            room = PANEL_RIGHT - BID_TEXT_W - BID_CHIPS_X
            if row == F.ALEA_ROW:
                drawn = [int(v) for v in rec["alea_cards"][:int(rec["alea_card_count"])]]
                step = min(CHIP_STEP, room / max(len(drawn), 1))
                x = BID_CHIPS_X
                for value in drawn:
                    x = self.chips(F.BLACK, [int(v == value) for v in range(D.NUM_CARD_VALUES)], x, y, step)
                state = "has not bid" if not drawn else "in" if rec["alea_in"] else "out (not above)"
            else:
                cards = rec["bid_cards"][row]
                step = min(CHIP_STEP, room / max(int(cards.sum()), 1))
                x = BID_CHIPS_X
                for colour in range(F.NUM_HAND_COLOURS):
                    x = self.chips(colour, cards[colour], x, y, step)
                state = "passed" if rec["passed"][row] else "bidding" if row == rec["bidder"] else ""
                if rec["bid_colour"][row] != F.NO_CARD:
                    state = f"{_card_name(int(rec['bid_colour'][row]))} bid" + (f", {state}" if state else "")
            total = int(rec["bid_total"][row])
            label = (f"= {total}  " if total else "") + state
            self.text((x + NAME_GAP, y + HIGHLIGHT_PAD), label, font=self.small)
            y += BID_ROW_H


def render_rgb(state: np.ndarray) -> NDArray[np.uint8]:
    """The picture of one 5th Avenue state's public table: uint8 array of ``PICTURE_SHAPE``."""
    return _Table(_rec(state)).render()


def save_png(state: np.ndarray, path: str | os.PathLike[str]) -> Path:
    """Write ``render_rgb(state)`` to ``path`` as a PNG (parent folders made)."""
    return write_png(render_rgb(state), path)


def mid_game_state(config: GameConfig = DEMO_CONFIG, seed: int = DEMO_SEED,
                   until_turn: int = DEMO_TURN) -> np.ndarray:
    """Random legal play from ``seed`` until turn ``until_turn`` with a bid on the table (or the end)."""
    return play_randomly_until(
        new_game(config, seed), seed, legal_mask, apply_action, is_terminal,
        lambda state: (int(state["turn"]) >= until_turn and state["decision"] == F.DEC_BID
                       and state["high_bidder"] != F.NO_PLAYER))


def main(argv: Sequence[str] | None = None) -> Path:
    """Write the picture of a mid-game 5th Avenue position to a PNG file."""
    return picture_command(argv, "5th Avenue", DEFAULT_PNG, DEMO_SEED,
                           ("turn", DEMO_TURN, "play until this turn, in an auction"),
                           lambda seed, stop: mid_game_state(seed=seed, until_turn=stop), save_png)


if __name__ == "__main__":
    main()
