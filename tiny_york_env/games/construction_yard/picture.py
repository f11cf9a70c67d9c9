"""Construction Yard's picture (``render_rgb``) for the envs' ``render_mode="rgb_array"``.

``render_rgb(state)`` draws the public table of one Construction Yard record with pillow into a
fixed ``PICTURE_SHAPE`` (600 x 900 x 3, uint8). On top, the money display (each card in its
currency's colour with its value) and the building display (each building's type and price,
framed in the colour of the currency its slot is paid in; the one being paid for highlighted).
Below, the sizes of the money deck, the discard pile and the building deck, the buildings that
left the game, the scorings done and where the next scoring card lies (the piles' sizes are
public), the discard pile's cards by currency, and the payment on the table or the building
waiting to be kept or given to Dirk. Then a row per seat (and Dirk's in two-player games): who
plays it, its hand size, its buildings by type and its points from scorings A, B, C and in all;
the seat to move (or, at the end, each winner) highlighted. Last, the reference card.

Only what every player sees is drawn: no card of any hand (only its size), nothing of the
money deck's or the building deck's order, not the record's generator. Two records that differ
only there give the same picture (tests/construction_yard/test_picture.py).

The game's contract imports it only when a picture is asked for (it needs pillow). The currency
colours are the browser board's (``board_svg.py``).

``python -m tiny_york_env.games.construction_yard.picture PATH`` writes a mid-game position as a
PNG (docs/images/construction-yard-board.png).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ...core.labels import count_noun
from ...core.picture import INK, Canvas, default_font, picture_command, play_randomly_until, write_png
from . import GameConfig, apply_action, is_terminal, legal_mask, new_game
from . import data as D
from . import state as S
from .board_svg import CURRENCY_RGB
from .cards import building_price, building_type, money_currency, money_value

__all__ = ["PICTURE_SHAPE", "main", "mid_game_state", "render_rgb", "save_png"]

HEIGHT, WIDTH = 600, 900
PICTURE_SHAPE = (HEIGHT, WIDTH, 3)
RGB = tuple[int, int, int]

# Colours (RGB) beyond the currencies: the browser board's background, muted text, empty slots
# and highlight, which it writes in place
BACKGROUND = (250, 248, 242)
FAINT = (110, 110, 110)
WHITE = (255, 255, 255)
EMPTY_OUTLINE = (170, 170, 170)
HIGHLIGHT = (255, 240, 170)

# Fonts: pillow's default at these sizes
FONT_SIZE, TITLE_SIZE, SMALL_SIZE, VALUE_SIZE, TOTAL_SIZE = 13, 16, 11, 26, 15
NUDGE = 1  # a pixel's shift that sets a square level with a line of text

# Header
MARGIN = 10
TITLE_Y, TURN_Y = 6, 27

# The displays: four money cards on the left, the four building slots on the right
DISPLAY_LABEL_Y = 52
CARD_Y = 70
CARD_W, CARD_H = 100, 56
CARD_STEP = 110
CARD_RADIUS = 6
MONEY_X = MARGIN
BUILDING_X = WIDTH // 2 + MARGIN
CARD_PAD = 6  # text inside a card, from its edge
SLOT_OUTLINE = 3  # a building slot's frame in its currency's colour
SLOT_LINE = 16  # a building slot's lines of text

# The lines below the displays
INFO_Y = CARD_Y + CARD_H + 10
LINE_H = 16
SQUARE = 11  # a currency's square before its count
SQUARE_GAP = 4  # between a square and its label
GROUP_GAP = 16  # between one currency's count and the next square
CHIP_W, CHIP_H = 16, 18  # a card of the payment on the table
CHIP_STEP = 19
CHIP_INSET = (4, 3)
CHIP_RADIUS = 3

# The seats' rows
TABLE_Y = 222
ROW_H = 24
HIGHLIGHT_PAD = 3
HAND_X = 200
TYPES_X, TYPE_STEP = 268, 68
SCORING_X, SCORING_STEP = 690, 45
TOTAL_X = SCORING_X + D.NUM_SCORINGS * SCORING_STEP + 10
SCORING_LETTERS = "ABC"
RANK_NAMES = ("1st", "2nd", "3rd")

# The reference card, below the rows (its columns are the rows' building types)
REFERENCE_GAP = 18
REFERENCE_ROW_H = 20
FOOTNOTE = "Public table only: hands are counted, never shown; decks are counted, never their order."

# A mid-game position for the docs picture: two players and Dirk, random legal play, stopped
# after scoring A while a seat pays for a building with cards on the table.
DEMO_CONFIG = GameConfig(num_players=2)
DEMO_SEED = 3
DEMO_TURN = 30
DEMO_PAID_CARDS = 2
DEFAULT_PNG = Path("docs/images/construction-yard-board.png")


def _rec(state):
    """The record of one Construction Yard game; ValueError for anything else."""
    if not isinstance(state, np.ndarray) or state.dtype != S.STATE_DTYPE or state.size != 1:
        dtype, shape = getattr(state, "dtype", None), getattr(state, "shape", None)
        raise ValueError("render_rgb takes one Construction Yard game record (construction_yard.new_game), "
                         f"got {type(state).__name__} of dtype {dtype} and shape {shape}")
    rec = state.reshape(1)[0]
    n = int(rec["num_players"])
    if not D.MIN_PLAYERS <= n <= D.MAX_PLAYERS or not 0 <= int(rec["decision"]) < S.NUM_DECISIONS:
        raise ValueError(f"not a Construction Yard position: {n} players, decision {int(rec['decision'])}")
    return rec


def _row_name(row: int) -> str:
    """'seat 0', 'Dirk', as the text view names them."""
    return "Dirk" if row == S.DIRK_ROW else f"seat {row}"


def _letters(flags) -> str:
    """'A, B' for the scorings flagged in ``flags``; 'none' when none is."""
    return ", ".join(SCORING_LETTERS[k] for k, done in enumerate(flags) if done) or "none"


class _Table(Canvas):
    """One drawing of a record: the canvas, the fonts and the record."""

    def __init__(self, rec) -> None:
        """A blank canvas for the record ``rec``."""
        self.rec = rec
        self.n = int(rec["num_players"])
        self.over = rec["decision"] == S.DEC_GAME_OVER
        super().__init__(WIDTH, HEIGHT, BACKGROUND)
        self.font, self.title, self.small, self.value, self.total = (
            default_font(FONT_SIZE), default_font(TITLE_SIZE), default_font(SMALL_SIZE),
            default_font(VALUE_SIZE), default_font(TOTAL_SIZE))

    # --- helpers ----------------------------------------------------------------------------------

    def rows(self) -> list[int]:
        """The seats' rows, then Dirk's in a two-player game."""
        return [*range(self.n), *([S.DIRK_ROW] if self.rec["has_dirk"] else [])]

    def seat_label(self, seat: int) -> str:
        """'seat 0 (agent)', 'seat 2 (greedy bot)'."""
        kind = int(self.rec["bot_kind"][seat])
        return f"seat {seat} ({S.BOT_NAMES[kind]}{'' if kind == S.BOT_NONE else ' bot'})"

    def next_scoring(self) -> int | None:
        """The scoring card (0 for A, 1 for B) still in the money deck, None once both are drawn."""
        for k in range(len(S.SCORING_CARDS)):
            if not self.rec["scorings_done"][k]:
                return k
        return None

    # --- the whole ----------------------------------------------------------------------------------
    def render(self) -> NDArray[np.uint8]:
        """The picture as a uint8 array of ``PICTURE_SHAPE``."""
        self.header()
        self.money_display()
        self.building_display()
        self.info(INFO_Y)
        y = self.seats(TABLE_Y)
        self.reference(y + REFERENCE_GAP)
        self.text((MARGIN, HEIGHT - MARGIN - LINE_H), FOOTNOTE, fill=FAINT, font=self.small)
        return np.asarray(self.image, dtype=np.uint8)

    def header(self) -> None:
        """The title line and who is to move with the pending decision."""
        rec = self.rec
        title = f"Construction Yard - {self.n} players" + (" and Dirk" if rec["has_dirk"] else "")
        title += f" - turn {int(rec['turn']) + 1}"
        if self.over:
            winners = [_row_name(s) for s in range(self.n) if int(rec["winner_mask"]) >> s & 1]
            title += " - game over - winner: " + (", ".join(winners) or "-")
            turn = "Final scores in the points columns; the winners' rows are highlighted."
        else:
            actor = int(rec["actor"])
            turn = (f"To move: {self.seat_label(actor)} - {S.DECISION_NAMES[int(rec['decision'])]}; "
                    f"action {int(rec['actions_in_turn']) + 1} of this turn; "
                    f"start player: {_row_name(int(rec['start_player']))}")
        self.text((MARGIN, TITLE_Y), title, font=self.title)
        self.text((MARGIN, TURN_Y), turn)

    # --- the displays -------------------------------------------------------------------------------
    def money_display(self) -> None:
        """The four face-up money cards, each in its currency's colour with its value."""
        self.text((MONEY_X, DISPLAY_LABEL_Y), "Money display")
        for k, card in enumerate(self.rec["money_display"]):
            x = MONEY_X + k * CARD_STEP
            box = (x, CARD_Y, x + CARD_W, CARD_Y + CARD_H)
            if card == S.NO_CARD:
                self.draw.rounded_rectangle(box, radius=CARD_RADIUS, outline=EMPTY_OUTLINE)
                continue
            currency, value = int(money_currency(int(card))), str(int(money_value(int(card))))
            self.draw.rounded_rectangle(box, radius=CARD_RADIUS, fill=CURRENCY_RGB[currency], outline=INK)
            self.text((x + CARD_PAD, CARD_Y + CARD_PAD), D.CURRENCY_NAMES[currency], fill=WHITE,
                      font=self.small)
            self.text((x + (CARD_W - self.width(value, self.value)) / 2, CARD_Y + CARD_H / 2 - CARD_PAD),
                      value, fill=WHITE, font=self.value)

    def building_display(self) -> None:
        """The building slots: type and price, framed in the slot's currency; the one paid for highlighted."""
        rec = self.rec
        self.text((BUILDING_X, DISPLAY_LABEL_Y), "Building display (price, paid in the slot's currency)")
        paying = int(rec["buy_slot"]) if rec["decision"] == S.DEC_PAY else None
        for k in range(D.DISPLAY_SLOTS):
            x = BUILDING_X + k * CARD_STEP
            box = (x, CARD_Y, x + CARD_W, CARD_Y + CARD_H)
            card = int(rec["building_display"][k])
            currency = D.SLOT_CURRENCY[k]
            if card == S.NO_CARD:
                self.draw.rounded_rectangle(box, radius=CARD_RADIUS, outline=CURRENCY_RGB[currency],
                                            width=SLOT_OUTLINE)
                self.text((x + CARD_PAD, CARD_Y + CARD_PAD), "(empty)", fill=FAINT, font=self.small)
                continue
            self.draw.rounded_rectangle(box, radius=CARD_RADIUS, fill=HIGHLIGHT if k == paying else WHITE,
                                        outline=CURRENCY_RGB[currency], width=SLOT_OUTLINE)
            lines = (D.BUILDING_TYPE_NAMES[int(building_type(card))], f"price {int(building_price(card))}",
                     f"in {D.CURRENCY_NAMES[currency]}")
            for j, line in enumerate(lines):
                self.text((x + CARD_PAD + NUDGE, CARD_Y + CARD_PAD + j * SLOT_LINE), line,
                          font=self.font if j == 0 else self.small)

    # --- decks, scorings, discard pile, the decision in progress ------------------------------------
    def info(self, y: int) -> None:
        """Deck sizes, scorings and the next scoring card, the discard pile, a payment or pending building."""
        rec = self.rec
        removed = int(rec["removed"])
        line = (f"Money deck {count_noun(int(rec['money_count']), 'card')}, "
                f"discard pile {int(rec['discard_count'])}, building deck {int(rec['building_count'])}")
        if removed:
            line += f"; {count_noun(removed, 'building')} left the game"
        self.text((MARGIN, y), line, font=self.small)
        y += LINE_H
        self.text((MARGIN, y), f"Scorings done: {_letters(rec['scorings_done'])}; " + self.next_line(),
                  font=self.small)
        y += LINE_H
        self.discard(y)
        y += LINE_H
        if rec["decision"] == S.DEC_PAY:
            self.payment(y)
        elif rec["decision"] == S.DEC_DIRK and rec["pending_building"] != S.NO_CARD:
            name = D.BUILDING_TYPE_NAMES[int(building_type(int(rec["pending_building"])))]
            buyer = _row_name(int(rec["actor"])).capitalize()
            self.text((MARGIN, y), f"{buyer} bought a {name}: keeps it or gives it to Dirk", font=self.small)

    def next_line(self) -> str:
        """Where the next scoring card lies in the money deck (the piles' sizes are public), or scoring C."""
        rec = self.rec
        k = self.next_scoring()
        if self.over:
            return "the game is over"
        if k is None:
            return "scoring C comes at the end of the game"
        pile = (D.SCORING_A_PILE, D.SCORING_B_PILE)[k]
        count = int(rec["money_count"])
        top = count if pile == 0 else min(int(rec["pile_bottom"][pile - 1]), count)
        bottom = int(rec["pile_bottom"][pile])
        name = f"the scoring {SCORING_LETTERS[k]} card"
        if top <= bottom:
            return f"next: {name}"
        return f"next: {name}, among the money deck's cards {count - top + 1}-{count - bottom} from the top"

    def discard(self, y: int) -> None:
        """The discard pile's cards by currency (every paid card was shown)."""
        rec = self.rec
        self.text((MARGIN, y), "Discard pile by currency:", font=self.small)
        counts = np.zeros(D.NUM_CURRENCIES, dtype=np.int64)
        for code in rec["discard"][:int(rec["discard_count"])]:
            counts[int(money_currency(int(code)))] += 1
        x = MARGIN + self.width("Discard pile by currency:", self.small) + SQUARE_GAP
        for c in range(D.NUM_CURRENCIES):
            self.draw.rectangle((x, y + NUDGE, x + SQUARE, y + NUDGE + SQUARE), fill=CURRENCY_RGB[c],
                                outline=INK)
            label = f"{int(counts[c])} card{'' if counts[c] == 1 else 's'}"
            x += SQUARE + SQUARE_GAP
            self.text((x, y), label, font=self.small)
            x += self.width(label, self.small) + GROUP_GAP

    def payment(self, y: int) -> None:
        """The cards paid so far for the building in ``buy_slot``, as chips in the slot's currency."""
        rec = self.rec
        slot = int(rec["buy_slot"])
        card = int(rec["building_display"][slot])
        currency = D.SLOT_CURRENCY[slot]
        payer = _row_name(int(rec["actor"])).capitalize()
        name = D.BUILDING_TYPE_NAMES[int(building_type(card))]
        head = (f"{payer} pays for the {name} (price {int(building_price(card))} in "
                f"{D.CURRENCY_NAMES[currency]}): paid {int(rec['paid'])}")
        self.text((MARGIN, y), head, font=self.small)
        x = MARGIN + self.width(head, self.small) + GROUP_GAP
        for v, count in enumerate(rec["payment"]):
            for _ in range(int(count)):
                self.draw.rounded_rectangle((x, y - NUDGE, x + CHIP_W, y - NUDGE + CHIP_H),
                                            radius=CHIP_RADIUS, fill=CURRENCY_RGB[currency], outline=INK)
                self.text((x + CHIP_INSET[0], y - NUDGE + CHIP_INSET[1]), str(v + D.MIN_VALUE), fill=WHITE,
                          font=self.small)
                x += CHIP_STEP

    # --- the seats ----------------------------------------------------------------------------------
    def seats(self, y: int) -> int:
        """A row per seat (Dirk last): hand size, buildings by type, points by scoring and in all; next y."""
        rec = self.rec
        heads = [(HAND_X, "hand"),
                 *((TYPES_X + t * TYPE_STEP, name) for t, name in enumerate(D.BUILDING_TYPE_NAMES)),
                 *((SCORING_X + k * SCORING_STEP, SCORING_LETTERS[k]) for k in range(D.NUM_SCORINGS)),
                 (TOTAL_X, "points")]
        for x, head in heads:
            self.text((x, y), head, fill=FAINT, font=self.small)
        for row in self.rows():
            y += ROW_H
            won = self.over and row != S.DIRK_ROW and int(rec["winner_mask"]) >> row & 1
            if won or (not self.over and row == rec["actor"]):
                self.draw.rectangle((MARGIN - HIGHLIGHT_PAD, y - HIGHLIGHT_PAD, WIDTH - MARGIN,
                                     y + ROW_H - 2 * HIGHLIGHT_PAD), fill=HIGHLIGHT)
            if row == S.DIRK_ROW:
                self.text((MARGIN, y), "Dirk (scores, never wins)")
                self.text((HAND_X, y), "-", fill=FAINT)
            else:
                self.text((MARGIN, y), self.seat_label(row))
                # the hand's size only, never its cards
                self.text((HAND_X, y), count_noun(int(rec["hand"][row].sum()), "card"))
            for t in range(D.NUM_TYPES):
                count = int(rec["buildings"][row, t])
                self.text((TYPES_X + t * TYPE_STEP, y), str(count), fill=INK if count else FAINT)
            for k in range(D.NUM_SCORINGS):
                done = rec["scorings_done"][k]
                points = str(int(rec["score_lines"][row, k])) if done else "-"
                self.text((SCORING_X + k * SCORING_STEP, y), points, fill=INK if done else FAINT)
            self.text((TOTAL_X, y - NUDGE), str(int(rec["score_lines"][row].sum())), font=self.total)
        return y + ROW_H

    def reference(self, y: int) -> None:
        """The reference card: each scoring's points per rank and type; the next scoring highlighted."""
        self.text((MARGIN, y), "Reference card: points for the 1st / 2nd / 3rd most buildings of a type",
                  font=self.small)
        k_next = self.next_scoring()
        k_next = D.NUM_SCORINGS - 1 if k_next is None and not self.over else k_next
        for k in range(D.NUM_SCORINGS):
            y += REFERENCE_ROW_H
            if k == k_next:
                self.draw.rectangle((MARGIN - HIGHLIGHT_PAD, y - HIGHLIGHT_PAD, WIDTH - MARGIN,
                                     y + REFERENCE_ROW_H - 2 * HIGHLIGHT_PAD), fill=HIGHLIGHT)
            done = self.rec["scorings_done"][k]
            ranks = " / ".join(RANK_NAMES[:k + 1])
            self.text((MARGIN, y), f"{D.SCORING_NAMES[k]} ({ranks})" + (" - done" if done else ""),
                      fill=FAINT if done else INK, font=self.small)
            for t in range(D.NUM_TYPES):
                points = " / ".join(str(int(p)) for p in D.REFERENCE_POINTS[k, :k + 1, t])
                self.text((TYPES_X + t * TYPE_STEP, y), points, fill=FAINT if done else INK, font=self.small)


def render_rgb(state: np.ndarray) -> NDArray[np.uint8]:
    """The picture of one Construction Yard state's public table: uint8 array of ``PICTURE_SHAPE``."""
    return _Table(_rec(state)).render()


def save_png(state: np.ndarray, path: str | os.PathLike[str]) -> Path:
    """Write ``render_rgb(state)`` to ``path`` as a PNG (parent folders made)."""
    return write_png(render_rgb(state), path)


def mid_game_state(config: GameConfig = DEMO_CONFIG, seed: int = DEMO_SEED,
                   until_turn: int = DEMO_TURN) -> np.ndarray:
    """Random legal play from ``seed`` until turn ``until_turn`` during a payment (or the end)."""
    return play_randomly_until(
        new_game(config, seed), seed, legal_mask, apply_action, is_terminal,
        lambda state: (int(state["turn"]) >= until_turn and state["decision"] == S.DEC_PAY
                       and int(state["payment"].sum()) >= DEMO_PAID_CARDS))


def main(argv: Sequence[str] | None = None) -> Path:
    """Write the picture of a mid-game Construction Yard position to a PNG file."""
    return picture_command(argv, "Construction Yard", DEFAULT_PNG, DEMO_SEED,
                           ("turn", DEMO_TURN, "play until this turn, during a payment"),
                           lambda seed, stop: mid_game_state(seed=seed, until_turn=stop), save_png)


if __name__ == "__main__":
    main()
