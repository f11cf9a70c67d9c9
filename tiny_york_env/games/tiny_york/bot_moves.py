"""What the engine did for the Toms since the last outside decision: a small log in the record.

Toms never decide through actions (``tom.py``): the engine plays them inside ``apply_action``.
So that a person, a replay or a web board can show Tom's moves without re-deriving them, every
Tom step writes one row to ``tom_events`` (kind, seat, three values). ``apply_action`` clears the
log before it carries out the action; ``new_game`` starts it empty. The log holds only what the
table sees (R25): a card Tom keeps face down in his supply is recorded as "a card", never by type.

``tom_event_count`` counts every event since the clear; the first ``TOM_EVENT_CAPACITY`` are kept
(the most one decision has produced is far below it: ``tests/tiny_york/test_tom_events.py`` measures
it over random games) and ``tom_events_of`` says when some were dropped.
"""

import numpy as np

from ...core.jit import jit
from .components import (
    BOROUGH_NAMES,
    CARD_NAMES,
    MAX_SEATS,
    NUM_BOROUGHS,
    NUM_CARD_TYPES,
    NUM_CARDS,
    NUM_PRESTIGE_TILES,
    NUM_START_STACKS,
    NUM_TILES,
    NUM_VESSELS,
)
from .labels import a_card, prestige_label, tile_label

TOM_EVENT_CAPACITY = 32  # the most seen in one decision is 13 (300 random games, 1-3 Toms)
TOM_EVENT_FIELDS = 5  # kind, seat, value a, value b, value c
EV_KIND, EV_SEAT, EV_A, EV_B, EV_C = range(TOM_EVENT_FIELDS)
NOTHING = -1  # a value an event does not use, or a card kept face down

# Event kinds (0 marks an unused row).
(TOM_NO_EVENT, TOM_START_STACK, TOM_PAIR, TOM_DRAW, TOM_BID, TOM_CHARACTER, TOM_PRESTIGE,
 TOM_BUILD) = range(8)
NUM_TOM_EVENT_KINDS = 8
# What happened to the card Tom drew before a bidding round (TOM_DRAW's value b).
DRAW_PLAYED, DRAW_KEPT, DRAW_DISCARDED, DRAW_NONE_LEFT = range(4)
NUM_DRAW_OUTCOMES = 4

# Each kind's allowed value ranges, (low, high) inclusive, for values a, b, c (validate.py).
_UNUSED = (NOTHING, NOTHING)
_CARD = (0, NUM_CARD_TYPES - 1)
_CARD_OR_HIDDEN = (NOTHING, NUM_CARD_TYPES - 1)
_TILE = (0, NUM_TILES - 1)
_BOROUGH = (0, NUM_BOROUGHS - 1)
_COUNT = (0, NUM_CARDS)
TOM_EVENT_RANGES = np.array([
    [_UNUSED, _UNUSED, _UNUSED],  # TOM_NO_EVENT
    [(0, NUM_START_STACKS - 1), _TILE, _TILE],  # stack, its two tiles
    [_CARD_OR_HIDDEN, _CARD_OR_HIDDEN, _COUNT],  # the pair's cards, cards drawn after it
    [_CARD_OR_HIDDEN, (0, NUM_DRAW_OUTCOMES - 1), _CARD],  # card (if shown), outcome, round
    [_COUNT, _CARD, _UNUSED],  # bid value, the round's type
    [_TILE, _COUNT, _UNUSED],  # tile taken, the bid value that chose the row
    [(0, NUM_PRESTIGE_TILES - 1), _BOROUGH, (0, NUM_VESSELS - 1)],  # tile, borough, vessel
    [_BOROUGH, _COUNT, _COUNT],  # borough, skyscrapers due, skyscrapers built
], np.int64)
EVENT_VALUE_HIGH = int(TOM_EVENT_RANGES.max())


@jit
def clear_tom_events(st):
    """Empty the log (its used rows zeroed, so equal games have equal records)."""
    for i in range(min(st["tom_event_count"], TOM_EVENT_CAPACITY)):
        for j in range(TOM_EVENT_FIELDS):
            st["tom_events"][i, j] = 0
    st["tom_event_count"] = 0


@jit
def record_tom_event(st, kind, seat, a, b, c):
    """Append one event; past the capacity it is only counted."""
    i = st["tom_event_count"]
    if i < TOM_EVENT_CAPACITY:
        st["tom_events"][i, EV_KIND] = kind
        st["tom_events"][i, EV_SEAT] = seat
        st["tom_events"][i, EV_A] = a
        st["tom_events"][i, EV_B] = b
        st["tom_events"][i, EV_C] = c
    st["tom_event_count"] = i + 1


# --- words ---------------------------------------------------------------------------------------
def _skyscrapers(n):
    return f"{n} skyscraper{'s' if n != 1 else ''}"


def describe_tom_event(row: np.ndarray) -> str:
    """One event row in plain words, without the seat ('took pair 3: press + wild')."""
    kind, _, a, b, c = (int(v) for v in row)
    if kind == TOM_START_STACK:
        return f"took start stack {a}: {tile_label(b)} and {tile_label(c)}"
    if kind == TOM_PAIR:
        cards = " + ".join(CARD_NAMES[x] for x in (a, b) if x != NOTHING)
        drawn = f", then drew {c} card{'s' if c != 1 else ''} into his supply" if c else ""
        return f"took the pair {cards}{drawn}"
    if kind == TOM_DRAW:
        if b == DRAW_NONE_LEFT:
            return "had no card to draw before the bidding round"
        if b == DRAW_KEPT:
            return "drew a card and kept it in his supply"
        verb = "played it at once" if b == DRAW_PLAYED else "discarded it"
        return f"drew {a_card(a)} and {verb}"
    if kind == TOM_BID:
        if a == 0:
            return f"passed in the {CARD_NAMES[b]} round"
        return f"bid {a} in the {CARD_NAMES[b]} round"
    if kind == TOM_CHARACTER:
        return f"took {tile_label(a)} from the elevator (action value {b})"
    if kind == TOM_PRESTIGE:
        return (f"placed prestige tile {prestige_label(a)} in {BOROUGH_NAMES[b]} "
                f"and kept vessel {c}")
    if kind == TOM_BUILD:
        lost = f" ({b - c} more would pass his 5 there)" if c < b else ""
        return f"built {_skyscrapers(c)} in {BOROUGH_NAMES[a]}{lost}"
    raise ValueError(f"unknown Tom event kind {kind}: must be 1-{NUM_TOM_EVENT_KINDS - 1}")


def tom_events_of(state: np.ndarray) -> list[tuple[int, str]]:
    """(seat, words) for each Tom event since the last action; a last line if some were
    dropped past the log's capacity."""
    rec = state.reshape(-1)[0] if state.ndim else state[()]
    count = int(rec["tom_event_count"])
    events = [(int(row[EV_SEAT]), describe_tom_event(row))
              for row in rec["tom_events"][:min(count, TOM_EVENT_CAPACITY)]]
    if count > TOM_EVENT_CAPACITY:
        events.append((int(events[-1][0]) if events else 0,
                       f"... and {count - TOM_EVENT_CAPACITY} more Tom moves not kept in the log"))
    return events


assert TOM_EVENT_RANGES.shape == (NUM_TOM_EVENT_KINDS, 3, 2)
assert EVENT_VALUE_HIGH < np.iinfo(np.int8).max and MAX_SEATS < np.iinfo(np.int8).max
