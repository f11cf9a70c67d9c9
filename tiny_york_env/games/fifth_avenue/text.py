"""``render_text``: a 5th Avenue position for people (the ansi/human render)."""

import numpy as np

from ...core.labels import count_noun, seat_name
from .data import (
    CARD_COLOURS,
    CARD_VALUES,
    CITY_HALL,
    COMMISSIONER_NAMES,
    NUM_CARD_COLOURS,
    NUM_DISTRICTS,
    PLACE_NAMES,
    PLAYER_COLOURS,
    PLOT_COLOUR_ORDER,
    PLOTS_PER_DISTRICT,
    SUPPLY_SETS,
)
from .state import ALEA_ROW, BLACK, DEC_GAME_OVER, DECISION_NAMES, NO_BUSINESS, NO_CARD, NO_PLAYER

BUSINESS_LETTERS = "BJGP"  # boutique, jeweler, gallery, perfume shop


def _record(state):
    return state.reshape(-1)[0] if state.ndim else state[()]


def _owner(rec, row):
    """'seat 1', or 'Alea'."""
    if row == ALEA_ROW:
        return "Alea"
    return seat_name(row)


def _plot(rec, p):
    """'orange: seat 1 x2' or 'gray: B J' or 'brown: -'."""
    parts = [BUSINESS_LETTERS[t] for t in rec["plot_business"][p] if t != NO_BUSINESS]
    owner = rec["plot_owner"][p]
    if owner != NO_PLAYER:
        parts.append(f"{_owner(rec, owner)} x{int(rec['plot_skyscrapers'][p])}")
    return " ".join(parts) or "-"


def _top(rec, colour):
    """'gray 5': a coloured stack's face-up top card, or 'gray -' when the stack is empty."""
    count = rec["coloured_count"][colour]
    if not count:
        return f"{CARD_COLOURS[colour]} -"
    return f"{CARD_COLOURS[colour]} {CARD_VALUES[rec['coloured_stack'][colour, count - 1]]}"


def _place(place):
    return "City Hall" if place == CITY_HALL else PLACE_NAMES[place]


def in_auction(rec) -> bool:
    """Whether a set of auctions is under way (a commissioner went back to City Hall)."""
    return bool(rec["auction_at"] < rec["auction_count"]) and rec["decision"] != DEC_GAME_OVER


def _bid(rec, row) -> str:
    """'seat 0 9 in orange', 'seat 1 passed', 'seat 0 no bid yet', 'Alea 8' or 'Alea out'."""
    who = _owner(rec, row)
    if row == ALEA_ROW:
        return f"{who} {int(rec['bid_total'][row])}" if rec["alea_in"] else f"{who} out"
    if rec["passed"][row]:
        return f"{who} passed"
    if not rec["bid_total"][row]:
        return f"{who} no bid yet"
    colour = rec["bid_colour"][row]
    named = f" in {CARD_COLOURS[colour]}" if colour != NO_CARD else ""
    return f"{who} {int(rec['bid_total'][row])}{named}"


def auction_line(rec) -> str:
    """The auction in progress (rules, 'The auction'): where, the high bid and every bidder's."""
    place = _place(int(rec["auction_places"][rec["auction_at"]]))
    high = ("no bid yet" if rec["high_bidder"] == NO_PLAYER
            else f"high bid {int(rec['high_bid'])} by {_owner(rec, int(rec['high_bidder']))}")
    rows = [*range(int(rec["num_players"])), *((ALEA_ROW,) if rec["has_alea"] else ())]
    return (f"auction {int(rec['auction_at']) + 1} of {int(rec['auction_count'])} in {place}: {high}; "
            + ", ".join(_bid(rec, row) for row in rows))


def phase_text(state: np.ndarray) -> str:
    """The stage of play for people: the turns (with the building stops so far), a set of
    auctions, or the end; the terminal game shows the whole board when it changes."""
    rec = _record(state)
    if rec["decision"] == DEC_GAME_OVER:
        return "game over"
    if in_auction(rec):
        return "auctions"
    return f"turns, {count_noun(int(rec['building_stops']), 'building stop')}"


def _hand(rec, seat):
    cards = []
    for c in range(NUM_CARD_COLOURS + 1):
        name = "black" if c == BLACK else CARD_COLOURS[c]
        for v, value in enumerate(CARD_VALUES):
            cards += [f"{name} {value}"] * int(rec["hand"][seat, c, v])
    return ", ".join(cards) or "-"


def render_text(state: np.ndarray, seat: int | None = None) -> str:
    """The position: districts and their plots, commissioners, the supply row, Central Park,
    each player's public counts (``seat``'s own hand in full; None: every hand, for replays)."""
    rec = _record(state)
    n = int(rec["num_players"])
    over = rec["decision"] == DEC_GAME_OVER
    lines = [f"5th Avenue, {n} players" + (" and Alea" if rec["has_alea"] else "")
             + f", turn {int(rec['turn']) + 1} - "
             + ("game over" if over else f"{DECISION_NAMES[rec['decision']]} ({seat_name(rec['actor'])})")]
    for d in range(NUM_DISTRICTS):
        if rec["stopped"][d]:
            lines.append(f"  {PLACE_NAMES[d]:<17} building stop")
            continue
        plots = [f"{CARD_COLOURS[PLOT_COLOUR_ORDER[d][k]]}: {_plot(rec, d * PLOTS_PER_DISTRICT + k)}"
                 for k in range(PLOTS_PER_DISTRICT)]
        lines.append(f"  {PLACE_NAMES[d]:<17} " + " | ".join(plots))
    for c, name in enumerate(COMMISSIONER_NAMES):
        markers = [PLACE_NAMES[m] for m in rec["commissioner_markers"][c] if m >= 0]
        lines.append(f"{name} commissioner: {_place(int(rec['commissioner_place'][c]))}"
                     + (f"; markers: {', '.join(markers)}" if markers else ""))
    row, start = [], 0
    for size in SUPPLY_SETS:
        tiles = "".join(BUSINESS_LETTERS[t] if t != NO_BUSINESS else "."
                        for t in rec["supply_row"][start:start + size])
        row.append(tiles)
        start += size
    park = " ".join(BUSINESS_LETTERS[t] for t in rec["park_business"][:rec["park_business_count"]])
    lines.append(f"supply row: {' '.join(row)}  (B boutique, J jeweler, G gallery, P perfume shop)")
    lines.append(f"Central Park: businesses {park or '-'}; skyscrapers "
                 + (", ".join(f"{_owner(rec, r)} x{int(rec['park_skyscrapers'][r])}"
                              for r in range(n) if rec["park_skyscrapers"][r]) or "-"))
    tops = ", ".join(_top(rec, c) for c in range(NUM_CARD_COLOURS))
    black = int(rec["black_count"] + rec["black_returned_count"])
    lines.append(f"face-up cards: {tops}; black stack {black}")
    if in_auction(rec):
        lines.append(auction_line(rec))
    for s in range(n):
        coloured = int(rec["hand"][s, :BLACK].sum())
        black = int(rec["hand"][s, BLACK].sum())
        line = (f"{seat_name(s)} ({PLAYER_COLOURS[s]}): {int(rec['score'][s])} VP, "
                f"supply {int(rec['supply'][s])}, general {int(rec['general'][s])}, "
                f"hand {coloured} coloured + {black} black")
        if seat is None or seat == s:
            line += f"\n    hand: {_hand(rec, s)}"
        lines.append(line)
    if rec["has_alea"]:
        colour = PLAYER_COLOURS[int(rec["alea_colour"])]
        lines.append(f"Alea ({colour}): general {int(rec['general'][ALEA_ROW])}")
    if over:
        winners = [seat_name(s) for s in range(n) if rec["winner_mask"] >> s & 1]
        lines.append("winner: " + ", ".join(winners))
    return "\n".join(lines)
