"""5th Avenue's table as an SVG for the browser board (its colours are the picture's too)."""

from __future__ import annotations

import numpy as np

from ...core.labels import count_noun, seat_name
from ...core.svg import RGB, Svg
from .places import CENTRAL_PARK_PLACE, CITY_HALL_PLACE, card_place, district_place, plot_place, space_place

FA_CARD_RGB = {"orange": (235, 130, 35), "green": (60, 150, 70), "gray": (135, 135, 135),
               "brown": (130, 85, 45), "violet": (135, 75, 175), "black": (30, 30, 30)}
FA_PLAYER_RGB = {"red": (210, 45, 45), "yellow": (235, 195, 30), "blue": (50, 100, 210),
                 "green": (25, 140, 90)}
FA_COMMISSIONER_RGB = {"white": (255, 255, 255), "beige": (225, 200, 150)}
FA_UNKNOWN_RGB = (200, 200, 200)  # a colour name this table does not know
FA_BACKGROUND = (247, 245, 238)
FA_DISTRICT_RGB = (255, 255, 255)
FA_STOPPED_RGB = (215, 215, 215)
FA_PARK_RGB = (200, 230, 185)
FA_HALL_RGB = (235, 230, 215)
FA_ROUTE_RGB = (200, 190, 170)
FA_AUCTION_RGB = (200, 30, 30)
FA_HIGHLIGHT = (255, 240, 170)
FA_TILE_RGB = (255, 252, 240)  # a business tile
FA_MUTED = "#6e6e6e"
FA_WHITE = "#ffffff"
FA_PLOT_TINT = 0.72  # a plot's fill: its colour mixed with this share of white
FA_WHITE_LEVEL = 255

FA_WIDTH = 1100
FA_MARGIN = 10
FA_TITLE_SIZE, FA_TEXT_SIZE, FA_SMALL_SIZE, FA_TINY_SIZE = 16, 12, 11, 10
FA_LINE = 18  # one line of text in the panel
FA_TURN_ACTIONS = 3  # "each player's turn consists of three actions"
FA_SECTION_GAP = 14
FA_NUDGE = 2  # a shape's small shift to sit on a line of text
FA_LABEL_GAP = 3  # between a square and its label
FA_SMALL_RX = 2  # rounded corners of tiles and chips
FA_VALUE_INSET = 0.25  # a card's value, from its left edge (share of its width)
# The map: Central Park on top, the districts in three rows, City Hall at the bottom; a place's
# (column, row) in `_FifthAvenueBoard.grid`, where 34th and 52nd Street sit half a column in.
FA_MAP_X, FA_MAP_Y = 10, 60
FA_DISTRICT_W, FA_DISTRICT_H = 190, 140
FA_COLUMN_STEP = 210
FA_ROW_GAP = 20
FA_PARK_W, FA_PARK_H = 330, 104
FA_HALL_W, FA_HALL_H = 190, 44
FA_ROUTE_WIDTH = 5
FA_BOX_RX = 8
FA_BOX_PAD = 8  # text inside a box, from its edge
FA_NAME_BASELINE = 17
FA_AUCTION_STROKE = 3
# The five plots of a district stand in a ring (each touches the two beside it).
FA_RING_CENTRE_Y = 78  # from the district box's top
FA_RING_RX, FA_RING_RY = 60, 36
FA_RING_START_DEGREES = -90  # the first plot of the ring on top, then clockwise
FA_PLOT_W, FA_PLOT_H = 52, 30
FA_PLOT_STROKE = 3
FA_PLOT_PAD = 4
FA_BUSINESS_BASELINE = 12  # the businesses' letters, from the plot's top
FA_OWNER_SQUARE = 9
FA_OWNER_BASELINE = 26
FA_TOKEN_R = 8  # a commissioner
FA_TOKEN_GAP = 4
FA_MARKER = 9  # a commissioner marker
FA_MARKER_GAP = 3
# Central Park's contents
FA_PARK_SKY_Y, FA_PARK_TILES_Y = 46, 88  # baselines, from the box's top
FA_PARK_SKY_STEP = 62
FA_TILE = 16
FA_TILE_STEP = 19
FA_LEGEND_LINES = (
    "Plots: a ring of five per district, each touching the two beside it; B J G P businesses",
    "(boutique, jeweler, gallery, perfume shop); a player's square and xN: N skyscrapers.",
    "Circles: the white and beige commissioners; small squares: their markers. Lines: the",
    "routes from City Hall to Central Park. Red border: the auction in progress.",
)
# The panel: players, the turn, cards, the supply row, the auction
FA_PANEL_X = 640
FA_TABLE_X = FA_PANEL_X + 150  # past "seat 1 yellow (you)"
FA_TABLE_COL = 56
FA_SEAT_SQUARE = 12
FA_CARD_W, FA_CARD_H = 34, 46  # a face-up stack's top card
FA_CARD_STEP = 44
FA_CARD_VALUE_Y = 30
FA_CARD_VALUE_SIZE = 18
FA_SPACE = 17  # a supply-row space
FA_SPACE_STEP = 19
FA_SET_GAP = 8
FA_CHIP_W, FA_CHIP_H = 20, 26  # a card in a hand or a bid
FA_CHIP_STEP = 23
FA_CHIP_VALUE_Y = 17
FA_COLOUR_GAP = 8  # between the colours of a hand
FA_BID_X = FA_PANEL_X + 66  # past "seat 1"
FA_HAND_X = 28


def _fa_tint(rgb: RGB, share: float = FA_PLOT_TINT) -> RGB:
    """``rgb`` mixed with ``share`` of white."""
    return tuple(round(c + (FA_WHITE_LEVEL - c) * share) for c in rgb)


def fifth_avenue_svg(state: np.ndarray, seat: int | None) -> str:
    """5th Avenue's table: the city (Central Park, the districts along the commissioners' routes,
    City Hall), the supply row, the cards, scores, the auction, and ``seat``'s hand (every hand
    for a replay or a watched game); other hands as counts only."""
    return _FifthAvenueBoard(state, seat).draw()


class _FifthAvenueBoard:
    """One drawing of a 5th Avenue record (``fifth_avenue.state.STATE_DTYPE``), section by section."""

    def __init__(self, state: np.ndarray, seat: int | None) -> None:
        from . import data
        from . import state as fields
        from .text import BUSINESS_LETTERS
        self.data, self.fields, self.letters = data, fields, BUSINESS_LETTERS
        self.rec = state.reshape(1)[0]
        self.seat = seat
        self.n = int(self.rec["num_players"])
        self.over = self.rec["decision"] == fields.DEC_GAME_OVER
        self.auction = self.rec["decision"] in (fields.DEC_BID, fields.DEC_BUILD)
        self.svg = Svg(FA_WIDTH, 0, FA_BACKGROUND)  # the height is set once everything is placed

    # --- names and colours ------------------------------------------------------------------------
    def rows(self) -> list[int]:
        """The players' rows, then Alea's in a two-player game."""
        return [*range(self.n), *([self.fields.ALEA_ROW] if self.rec["has_alea"] else [])]

    def colour_name(self, row: int) -> str:
        """The player colour ``row`` builds in (Alea: the one left to him)."""
        index = int(self.rec["alea_colour"]) if row == self.fields.ALEA_ROW else row
        return self.data.PLAYER_COLOURS[index]

    def row_rgb(self, row: int) -> RGB:
        """The colour of ``row``'s skyscrapers."""
        return FA_PLAYER_RGB.get(self.colour_name(row), FA_UNKNOWN_RGB)

    def row_name(self, row: int) -> str:
        """'seat 0', 'Alea', as the text view names them."""
        return "Alea" if row == self.fields.ALEA_ROW else seat_name(row)

    def card_name(self, colour: int) -> str:
        """A card colour's name; the hand's extra colour is black."""
        return "black" if colour == self.fields.BLACK else self.data.CARD_COLOURS[colour]

    def place_name(self, place: int) -> str:
        """A district's, Central Park's or City Hall's name."""
        return "City Hall" if place == self.data.CITY_HALL else self.data.PLACE_NAMES[place]

    def seat_square(self, row: int, x: float, baseline: float) -> None:
        """``row``'s colour as a square on a line of text."""
        self.svg.rect(x, baseline - FA_SEAT_SQUARE + FA_NUDGE, FA_SEAT_SQUARE, FA_SEAT_SQUARE,
                      self.row_rgb(row), title=f"{self.row_name(row)}: {self.colour_name(row)}")

    def business_name(self, business: int) -> str:
        """A business type's name."""
        return self.data.BUSINESS_TYPES[business]

    # --- the whole ----------------------------------------------------------------------------------
    def draw(self) -> str:
        """The SVG document."""
        self.header()
        map_bottom = self.city()
        panel_bottom = self.panel()
        self.svg.height = self.hands(max(map_bottom, panel_bottom) + FA_SECTION_GAP)
        return self.svg.render()

    def header(self) -> None:
        """The title line and who is to move."""
        rec, svg = self.rec, self.svg
        title = f"5th Avenue - {self.n} players" + (" and Alea" if rec["has_alea"] else "")
        if self.over:
            winners = [self.row_name(s) for s in range(self.n) if int(rec["winner_mask"]) >> s & 1]
            title += " - game over - winner: " + ", ".join(winners)
        else:
            title += f" - turn {int(rec['turn']) + 1}"
        svg.text(FA_MARGIN, FA_MAP_Y - 2 * FA_LINE, title, size=FA_TITLE_SIZE, weight="bold")
        if not self.over:
            actor = int(rec["actor"])
            decision = self.fields.DECISION_NAMES[int(rec["decision"])]
            svg.text(FA_MARGIN, FA_MAP_Y - FA_LINE + FA_TINY_SIZE // 2,
                     f"To move: {self.row_name(actor)} ({self.colour_name(actor)}"
                     + (", you" if actor == self.seat else "") + f"): {decision}")

    # --- the city -----------------------------------------------------------------------------------
    def grid(self) -> dict[int, tuple[float, int]]:
        """(column, row) of each place on the map: docs/fifth-avenue.md's diagram."""
        d = self.data
        return {d.CENTRAL_PARK: (1, 0), d.D52W: (0.5, 1), d.D52E: (1.5, 1), d.D42W: (0, 2),
                d.TIMES_SQUARE: (1, 2), d.D42E: (2, 2), d.D34W: (0.5, 3), d.D34E: (1.5, 3),
                d.CITY_HALL: (1, 4)}

    def box(self, place: int) -> tuple[float, float, int, int]:
        """(x, y, width, height) of a place's box on the map."""
        column, row = self.grid()[place]
        if place == self.data.CENTRAL_PARK:
            w, h = FA_PARK_W, FA_PARK_H
        elif place == self.data.CITY_HALL:
            w, h = FA_HALL_W, FA_HALL_H
        else:
            w, h = FA_DISTRICT_W, FA_DISTRICT_H
        centre_x = FA_MAP_X + FA_DISTRICT_W / 2 + column * FA_COLUMN_STEP
        districts_top = FA_MAP_Y + FA_PARK_H + FA_ROW_GAP
        top = FA_MAP_Y if row == 0 else districts_top + (row - 1) * (FA_DISTRICT_H + FA_ROW_GAP)
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

    def city(self) -> int:
        """Routes, Central Park, the districts and City Hall, the legend below; the bottom y."""
        d, svg = self.data, self.svg
        for place, nexts in d.NEXT_PLACES.items():
            for nxt in nexts:
                svg.line(*self.centre(place), *self.centre(nxt), FA_ROUTE_RGB, FA_ROUTE_WIDTH)
        self.central_park()
        for district in range(d.NUM_DISTRICTS):
            self.district(district)
        x, y, w, h = self.box(d.CITY_HALL)
        with svg.place(CITY_HALL_PLACE):
            svg.rect(x, y, w, h, FA_HALL_RGB, rx=FA_BOX_RX)
            svg.text(x + FA_BOX_PAD, y + FA_NAME_BASELINE, "City Hall", weight="bold", size=FA_TEXT_SIZE)
            self.commissioners(d.CITY_HALL)
        y += h + FA_LINE
        for line in FA_LEGEND_LINES:
            svg.text(FA_MAP_X, y, line, size=FA_SMALL_SIZE, fill=FA_MUTED)
            y += FA_LINE - FA_NUDGE
        return int(y)

    def place_frame(self, place: int, fill: RGB) -> tuple[float, float, int, int]:
        """A place's box, its name, and a red border while it is auctioned."""
        x, y, w, h = self.box(place)
        auctioned = self.auction_place() == place
        key = CENTRAL_PARK_PLACE if place == self.data.CENTRAL_PARK else district_place(place)
        with self.svg.place(key):
            self.svg.rect(x, y, w, h, fill, rx=FA_BOX_RX, stroke=FA_AUCTION_RGB if auctioned else "#333",
                          stroke_width=FA_AUCTION_STROKE if auctioned else 1,
                          title="auctioned now" if auctioned else "")
            self.svg.text(x + FA_BOX_PAD, y + FA_NAME_BASELINE, self.place_name(place), size=FA_TEXT_SIZE,
                          weight="bold")
            self.commissioners(place)
        return x, y, w, h

    def commissioners(self, place: int) -> None:
        """The commissioners standing at ``place``, in its box's top right corner."""
        x, y, w, _ = self.box(place)
        for c, name in enumerate(self.data.COMMISSIONER_NAMES):
            if self.rec["commissioner_place"][c] == place:
                cx = x + w - FA_TOKEN_R - FA_TOKEN_GAP - c * (2 * FA_TOKEN_R + FA_TOKEN_GAP)
                self.svg.circle(cx, y + FA_TOKEN_R + FA_TOKEN_GAP, FA_TOKEN_R,
                                FA_COMMISSIONER_RGB.get(name, FA_UNKNOWN_RGB),
                                title=f"the {name} commissioner")

    def district(self, district: int) -> None:
        """A district: its ring of plots (or its building stop), markers, the auction mark."""
        d, rec, svg = self.data, self.rec, self.svg
        stopped = bool(rec["stopped"][district])
        x, y, w, h = self.place_frame(district, FA_STOPPED_RGB if stopped else FA_DISTRICT_RGB)
        k = 0
        for c, name in enumerate(d.COMMISSIONER_NAMES):
            for marked in rec["commissioner_markers"][c]:
                if marked == district:
                    svg.rect(x + FA_BOX_PAD + k * (FA_MARKER + FA_MARKER_GAP), y + h - FA_MARKER - FA_BOX_PAD,
                             FA_MARKER, FA_MARKER, FA_COMMISSIONER_RGB.get(name, FA_UNKNOWN_RGB),
                             title=f"the {name} commissioner's marker")
                    k += 1
        if stopped:
            svg.text(x + FA_BOX_PAD, y + FA_RING_CENTRE_Y, "building stop", size=FA_TEXT_SIZE, weight="bold",
                     fill=FA_MUTED)
            return
        for k in range(d.PLOTS_PER_DISTRICT):
            angle = np.radians(FA_RING_START_DEGREES + k * 360 / d.PLOTS_PER_DISTRICT)
            px = round(x + w / 2 + FA_RING_RX * np.cos(angle) - FA_PLOT_W / 2)
            py = round(y + FA_RING_CENTRE_Y + FA_RING_RY * np.sin(angle) - FA_PLOT_H / 2)
            self.plot(district * d.PLOTS_PER_DISTRICT + k, px, py)

    def plot(self, plot: int, x: int, y: int) -> None:
        """One plot (a place of the board): its colour, its businesses' letters, the owner's skyscrapers."""
        with self.svg.place(plot_place(plot)):
            self.draw_plot(plot, x, y)

    def draw_plot(self, plot: int, x: int, y: int) -> None:
        """The shapes of one plot."""
        d, rec, svg = self.data, self.rec, self.svg
        colour = d.CARD_COLOURS[int(d.PLOT_COLOUR[plot])]
        rgb = FA_CARD_RGB.get(colour, FA_UNKNOWN_RGB)
        businesses = [int(b) for b in rec["plot_business"][plot] if b != self.fields.NO_BUSINESS]
        owner = int(rec["plot_owner"][plot])
        words = [f"{colour} plot"] + [self.business_name(b) for b in businesses]
        if owner != self.fields.NO_PLAYER:
            count = int(rec["plot_skyscrapers"][plot])
            words.append(f"{self.row_name(owner)} ({self.colour_name(owner)}): "
                         f"{count_noun(count, 'skyscraper')}")
        title = ", ".join(words)
        svg.rect(x, y, FA_PLOT_W, FA_PLOT_H, _fa_tint(rgb), stroke=rgb, stroke_width=FA_PLOT_STROKE,
                 rx=FA_PLOT_PAD, title=title)
        if businesses:
            svg.text(x + FA_PLOT_PAD, y + FA_BUSINESS_BASELINE, " ".join(self.letters[b] for b in businesses),
                     size=FA_SMALL_SIZE, weight="bold", title=title)
        if owner != self.fields.NO_PLAYER:
            top = y + FA_OWNER_BASELINE - FA_OWNER_SQUARE
            svg.rect(x + FA_PLOT_PAD, top, FA_OWNER_SQUARE, FA_OWNER_SQUARE, self.row_rgb(owner), title=title)
            svg.text(x + FA_PLOT_PAD + FA_OWNER_SQUARE + FA_LABEL_GAP, y + FA_OWNER_BASELINE,
                     f"x{int(rec['plot_skyscrapers'][plot])}", size=FA_SMALL_SIZE, title=title)

    def central_park(self) -> None:
        """Central Park: the skyscrapers built below it and its business tiles (face up, as the rules
        place them; three are turned over at random for the final scoring)."""
        d, rec, svg = self.data, self.rec, self.svg
        x, y, _, _ = self.place_frame(d.CENTRAL_PARK, FA_PARK_RGB)
        svg.text(x + FA_BOX_PAD, y + FA_PARK_SKY_Y - FA_TILE, "skyscrapers", size=FA_TINY_SIZE, fill=FA_MUTED)
        for row in range(self.n):  # Alea never builds below Central Park
            sx = x + FA_BOX_PAD + row * FA_PARK_SKY_STEP
            count = int(rec["park_skyscrapers"][row])
            svg.rect(sx, y + FA_PARK_SKY_Y - FA_OWNER_SQUARE, FA_OWNER_SQUARE, FA_OWNER_SQUARE,
                     self.row_rgb(row), title=f"{self.row_name(row)}: {count} below Central Park")
            svg.text(sx + FA_OWNER_SQUARE + FA_LABEL_GAP, y + FA_PARK_SKY_Y, f"{self.row_name(row)}: {count}",
                     size=FA_SMALL_SIZE)
        count = int(rec["park_business_count"])
        svg.text(x + FA_BOX_PAD, y + FA_PARK_TILES_Y - FA_TILE - FA_NUDGE,
                 f"businesses ({count}; three are turned over at the end)", size=FA_TINY_SIZE, fill=FA_MUTED)
        for k in range(count):
            self.tile(int(rec["park_business"][k]), x + FA_BOX_PAD + k * FA_TILE_STEP,
                      y + FA_PARK_TILES_Y - FA_TILE)

    def tile(self, business: int, x: float, y: float) -> None:
        """A business tile, face up."""
        name = self.business_name(business)
        self.svg.rect(x, y, FA_TILE, FA_TILE, FA_TILE_RGB, rx=FA_SMALL_RX, title=name)
        inset = FA_TILE * FA_VALUE_INSET
        self.svg.text(x + inset, y + FA_TILE - inset, self.letters[business], size=FA_SMALL_SIZE,
                      weight="bold", title=name)

    # --- the panel ----------------------------------------------------------------------------------
    def panel(self) -> int:
        """Players, the turn, the cards, the supply row and the auction, right of the map; the bottom y."""
        y = self.players(FA_MAP_Y)
        y = self.turn(y + FA_SECTION_GAP)
        y = self.cards(y + FA_SECTION_GAP)
        y = self.supply_row(y + FA_SECTION_GAP)
        if self.auction:
            y = self.auction_panel(y + FA_SECTION_GAP)
        return y

    def players(self, y: int) -> int:
        """A row per player (Alea last): VP, skyscrapers in the supply and the general supply, the
        number of cards in hand (coloured + black)."""
        rec, svg, f = self.rec, self.svg, self.fields
        heads = ("VP", "supply", "general", "cards (coloured + black)")
        for k, head in enumerate(heads):
            svg.text(FA_TABLE_X + k * FA_TABLE_COL, y, head, size=FA_SMALL_SIZE, fill=FA_MUTED)
        for row in self.rows():
            y += FA_LINE + FA_NUDGE
            if not self.over and row == rec["actor"]:
                svg.rect(FA_PANEL_X - FA_PLOT_PAD, y - FA_LINE + FA_PLOT_PAD, FA_WIDTH - FA_PANEL_X,
                         FA_LINE, FA_HIGHLIGHT, stroke="none")
            self.seat_square(row, FA_PANEL_X, y)
            won = self.over and row != f.ALEA_ROW and int(rec["winner_mask"]) >> row & 1
            svg.text(FA_PANEL_X + FA_SEAT_SQUARE + FA_PLOT_PAD, y,
                     f"{self.row_name(row)} {self.colour_name(row)}" + (" (you)" if row == self.seat else "")
                     + (" - won" if won else ""), size=FA_TEXT_SIZE, weight="bold" if won else "normal")
            if row == f.ALEA_ROW:
                values = ["-", "-", str(int(rec["general"][row])), "- (bids black cards drawn)"]
            else:
                coloured = int(rec["hand"][row, :f.BLACK].sum())
                black = int(rec["hand"][row, f.BLACK].sum())
                values = [str(int(rec["score"][row])), str(int(rec["supply"][row])),
                          str(int(rec["general"][row])), f"{coloured} + {black}"]
            for k, value in enumerate(values):
                svg.text(FA_TABLE_X + k * FA_TABLE_COL, y, value, size=FA_TEXT_SIZE)
        return y + FA_LINE // 2

    def turn(self, y: int) -> int:
        """The turn in progress: its option and action, the business held, the game's progress."""
        d, f, rec = self.data, self.fields, self.rec
        lines = []
        if not self.over and rec["option"] != f.NO_OPTION:
            option = "ABCD"[int(rec["option"]) - f.OPTION_A]
            lines.append(f"Turn: option {option}, action {int(rec['turn_step'])} of {FA_TURN_ACTIONS}")
        if not self.over and rec["held_business"] != f.NO_BUSINESS:
            lines.append(f"Holding a {self.business_name(int(rec['held_business']))}, to place on a plot")
        on_plots = sum(d.SUPPLY_SETS) - len(d.SUPPLY_SETS)
        after = ", ".join(str(placed) for placed, _, _ in d.SPECIAL_SCORINGS)
        lines.append(f"Businesses on plots: {int(rec['businesses_placed'])} of {on_plots} "
                     f"(special scorings after {after})")
        lines.append(f"Building stops: {int(rec['building_stops'])} of {d.BUILDING_STOPS_TO_END}")
        for line in lines:
            y += FA_LINE
            self.svg.text(FA_PANEL_X, y, line, size=FA_TEXT_SIZE)
        return y

    def cards(self, y: int) -> int:
        """The face-up top card of each coloured stack and the stacks' sizes; the black stack's size
        (its order is never shown)."""
        d, rec, svg = self.data, self.rec, self.svg
        y += FA_LINE
        svg.text(FA_PANEL_X, y, "Face-up cards (the top of each stack; cards left below)", size=FA_TEXT_SIZE,
                 weight="bold")
        top = y + FA_PLOT_PAD
        for c in range(d.NUM_CARD_COLOURS):
            x = FA_PANEL_X + c * FA_CARD_STEP
            count = int(rec["coloured_count"][c])
            name = self.card_name(c)
            if count:
                value = d.CARD_VALUES[int(rec["coloured_stack"][c, count - 1])]
                with svg.place(card_place(c)):
                    svg.rect(x, top, FA_CARD_W, FA_CARD_H, FA_CARD_RGB.get(name, FA_UNKNOWN_RGB),
                             rx=FA_PLOT_PAD, title=f"{name} {value}: the top of {count}")
                    svg.text(x + FA_CARD_W * FA_VALUE_INSET, top + FA_CARD_VALUE_Y, str(value),
                             size=FA_CARD_VALUE_SIZE, fill=FA_WHITE, weight="bold")
            else:
                svg.rect(x, top, FA_CARD_W, FA_CARD_H, "none", stroke="#aaaaaa", rx=FA_PLOT_PAD,
                         title=f"the {name} stack is empty")
            svg.text(x + FA_PLOT_PAD, top + FA_CARD_H + FA_LINE - FA_PLOT_PAD, str(count), size=FA_SMALL_SIZE)
        x = FA_PANEL_X + d.NUM_CARD_COLOURS * FA_CARD_STEP + FA_SET_GAP
        black = int(rec["black_count"])
        returned = int(rec["black_returned_count"])
        title = f"black stack: {black} face down, {returned} put back face up beneath"
        svg.rect(x, top, FA_CARD_W, FA_CARD_H, FA_CARD_RGB["black"], rx=FA_PLOT_PAD, title=title)
        svg.text(x + FA_PLOT_PAD, top + FA_CARD_H + FA_LINE - FA_PLOT_PAD, str(black + returned),
                 size=FA_SMALL_SIZE)
        svg.text(x + FA_CARD_STEP, top + FA_CARD_H / 2, f"black stack: {black} face down", size=FA_SMALL_SIZE)
        svg.text(x + FA_CARD_STEP, top + FA_CARD_H / 2 + FA_LINE - FA_NUDGE, f"+ {returned} put back beneath",
                 size=FA_SMALL_SIZE)
        return top + FA_CARD_H + FA_LINE

    def supply_row(self, y: int) -> int:
        """The 20 spaces of the supply row in their sets; the set to take from is highlighted."""
        d, f, rec, svg = self.data, self.fields, self.rec, self.svg
        y += FA_LINE
        svg.text(FA_PANEL_X, y, "Supply row (take from the first set that has businesses)", size=FA_TEXT_SIZE,
                 weight="bold")
        top = y + FA_LINE // 2
        x, start, current = FA_PANEL_X, 0, True
        for size in d.SUPPLY_SETS:
            spaces = [int(b) for b in rec["supply_row"][start:start + size]]
            filled = any(b != f.NO_BUSINESS for b in spaces)
            if filled and current:
                svg.rect(x - FA_MARKER_GAP, top - FA_MARKER_GAP, size * FA_SPACE_STEP + FA_MARKER_GAP,
                         FA_SPACE + 2 * FA_MARKER_GAP, FA_HIGHLIGHT, stroke="none",
                         title="the set to take from")
                current = False
            for space, business in enumerate(spaces, start):
                if business == f.NO_BUSINESS:
                    svg.rect(x, top, FA_SPACE, FA_SPACE, "none", stroke="#cccccc", rx=FA_SMALL_RX,
                             title="taken")
                else:
                    with svg.place(space_place(space)):
                        self.tile(business, x, top)
                x += FA_SPACE_STEP
            x += FA_SET_GAP
            start += size
        return top + FA_SPACE

    def chips(self, colour: int, counts, x: float, y: float) -> float:
        """Cards of one colour, a chip per card with its value (counts per value); the next x."""
        d, svg = self.data, self.svg
        name = self.card_name(colour)
        rgb = FA_CARD_RGB.get(name, FA_UNKNOWN_RGB)
        for v, value in enumerate(d.CARD_VALUES):
            for _ in range(int(counts[v])):
                svg.rect(x, y, FA_CHIP_W, FA_CHIP_H, rgb, rx=FA_SMALL_RX, title=f"{name} {value}")
                svg.text(x + FA_CHIP_W * FA_VALUE_INSET, y + FA_CHIP_VALUE_Y, str(value), size=FA_SMALL_SIZE,
                         fill=FA_WHITE)
                x += FA_CHIP_STEP
        return x

    def auction_panel(self, y: int) -> int:
        """The auction in progress: the place, the set's places, the bids on the table (played face
        up), the high bid; Alea's drawn cards; after it, what the winner may build."""
        d, f, rec, svg = self.data, self.fields, self.rec, self.svg
        place = self.auction_place()
        at, count = int(rec["auction_at"]), int(rec["auction_count"])
        y += FA_LINE
        svg.text(FA_PANEL_X, y, f"Auction {at + 1} of {count}: {self.place_name(place)}", size=FA_TEXT_SIZE,
                 weight="bold")
        places = [self.place_name(int(p)) for p in rec["auction_places"][:count]]
        places[at] = f"[{places[at]}]"
        y += FA_LINE
        svg.text(FA_PANEL_X, y, "This set: " + " > ".join(places), size=FA_SMALL_SIZE)
        notes = []
        if rec["district_full"]:
            notes.append("every plot taken")
        if rec["park_colour"] != f.NO_CARD:
            notes.append(f"Central Park's colour: {self.card_name(int(rec['park_colour']))}")
        high = int(rec["high_bidder"])
        notes.append(f"high bid {int(rec['high_bid'])} ({self.row_name(high)})" if high != f.NO_PLAYER
                     else "no bid yet")
        y += FA_LINE
        svg.text(FA_PANEL_X, y, "; ".join(notes), size=FA_SMALL_SIZE)
        if rec["decision"] == f.DEC_BUILD:
            winner = int(rec["actor"])
            where = ("below Central Park" if rec["build_plot"] < 0 else
                     f"on the {d.CARD_COLOURS[int(d.PLOT_COLOUR[int(rec['build_plot'])])]} plot")
            stop = " or declare a building stop" if rec["district_full"] and rec["build_plot"] >= 0 else ""
            y += FA_LINE
            limit = int(rec["build_limit"])
            svg.text(FA_PANEL_X, y, f"{self.row_name(winner)} won: builds up to {limit} "
                                    f"skyscraper{'' if limit == 1 else 's'} {where}{stop}", size=FA_TEXT_SIZE)
            return y
        for row in self.rows():
            y += FA_CHIP_H + FA_PLOT_PAD
            if row == rec["bidder"]:
                svg.rect(FA_PANEL_X - FA_PLOT_PAD, y - FA_CHIP_H + FA_NUDGE, FA_WIDTH - FA_PANEL_X,
                         FA_CHIP_H + FA_NUDGE, FA_HIGHLIGHT, stroke="none")
            self.seat_square(row, FA_PANEL_X, y)
            x = FA_BID_X
            top = y - FA_CHIP_H + FA_PLOT_PAD
            if row == f.ALEA_ROW:
                drawn = int(rec["alea_card_count"])
                for k in range(drawn):
                    counts = [int(v == rec["alea_cards"][k]) for v in range(d.NUM_CARD_VALUES)]
                    x = self.chips(f.BLACK, counts, x, top)
                state = ("has not bid" if not drawn else "in" if rec["alea_in"] else "out (not above)")
            else:
                for colour in range(f.NUM_HAND_COLOURS):
                    x = self.chips(colour, rec["bid_cards"][row, colour], x, top)
                state = "passed" if rec["passed"][row] else "bidding" if row == rec["bidder"] else ""
                if rec["bid_colour"][row] != f.NO_CARD:
                    colour = self.card_name(int(rec["bid_colour"][row]))
                    state = f"{colour} bid" + (f", {state}" if state else "")
            svg.text(FA_PANEL_X + FA_SEAT_SQUARE + FA_PLOT_PAD, y, self.row_name(row), size=FA_SMALL_SIZE)
            total = int(rec["bid_total"][row])
            if total:
                svg.text(x + FA_PLOT_PAD, y, f"= {total}", size=FA_TEXT_SIZE, weight="bold")
                x += FA_CARD_STEP
            svg.text(x + FA_PLOT_PAD, y, state, size=FA_SMALL_SIZE)
        return y + FA_PLOT_PAD

    # --- hands --------------------------------------------------------------------------------------
    def hands(self, y: int) -> int:
        """``seat``'s own hand card by card (every hand for a replay or a watched game); the bottom y."""
        f, rec, svg = self.fields, self.rec, self.svg
        shown = [self.seat] if self.seat is not None else list(range(self.n))
        for s in shown:
            cards = int(rec["hand"][s].sum())
            self.seat_square(s, FA_MARGIN, y)
            who = "Your hand" if s == self.seat else f"{self.row_name(s)}'s hand"
            svg.text(FA_HAND_X, y, f"{who} ({self.colour_name(s)}): {count_noun(cards, 'card')}",
                     size=FA_TEXT_SIZE, weight="bold")
            y += FA_PLOT_PAD
            x = FA_HAND_X
            for colour in range(f.NUM_HAND_COLOURS):
                if rec["hand"][s, colour].any():
                    if x + int(rec["hand"][s, colour].sum()) * FA_CHIP_STEP > FA_WIDTH - FA_MARGIN:
                        x, y = FA_HAND_X, y + FA_CHIP_H + FA_PLOT_PAD
                    x = self.chips(colour, rec["hand"][s, colour], x, y) + FA_COLOUR_GAP
            y += FA_CHIP_H + FA_LINE + FA_PLOT_PAD
        return y
