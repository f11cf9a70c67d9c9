"""The global state: one float32 vector of everything in a game, hidden parts included, for a
centralized critic (PettingZoo's ``state()`` / ``state_space``).

An observation (``observation.encode``) holds what one seat may know (R25). The global state is
the public state plus every part some seat cannot see, so a critic that trains beside the
policies (CTDE: MAPPO, QMIX, ...) may use it; a policy that acts must not. It is:

* ``public``: seat 0's observation. Seen from seat 0, relative seats are the absolute seats, so
  every per-seat part of docs/observation.md reads seat 0, 1, 2, 3 in order.
* the context the observation gives only to the seat to move (the ability being resolved, the
  choices made in it, exchanges left, the build in progress), from that seat's own view;
* the per-seat bid flags the observation gives only to their owner;
* everything determinize resamples (game/determinize.py, R25 "private to its owner" and "hidden
  from all"): every hand (a Tom's supply is his hand row) and every reserve by type, face-down
  cards included; the discard pile's and the draw pile's make-up and the draw pile's order; each
  elevator stack's characters and order; the face-down prestige tiles in order; the start
  stacks never revealed;
* engine facts the observation leaves out: the cards each seat played from its hand with their
  own icon (character abilities read them) and the dollars lying on character tiles.

Orders are coded compactly as ``(id + 1) / number of ids`` per position (0 past the last item);
the make-up by type beside each is the part a network learns from most easily. Left out: the
random generator's words (bits with no meaning to a critic; the future they decide is the
piles' order, which is in) and the engine's cursors (which seat of the turn order is next is
already the ``roles`` one-hot). Values lie in [0, ``GLOBAL_STATE_HIGH``], finite everywhere.
docs/global-state.md is the parts table (``global_state_table_markdown``).
"""

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from ...core.jit import jit
from .components import (
    CARDS_PER_TYPE,
    MAX_ELEVATOR_STACK,
    MAX_SEATS,
    NUM_CARD_TYPES,
    NUM_CARDS,
    NUM_CHARACTERS,
    NUM_PRESTIGE_TILES,
    NUM_START_STACKS,
    NUM_TILE_VALUES,
    NUM_TILES,
    PRESTIGE_TILE_COLOUR,
    PRESTIGE_TILE_VALUE,
    TILE_CHARACTER,
)
from .observation import (
    CARDS_SCALE,
    COPIES_SCALE,
    NUM_VESSEL_COLOURS,
    OBS_SIZE,
    OBS_SLICES,
    OBSERVATION_HIGH,
    PRESTIGE_VALUE_SCALE,
    RESERVE_SCALE,
    encode_record,
    part_slices,
)
from .state import EMPTY, STACK_HIDDEN, STATE_DTYPE

# The observation parts that only the seat to move gets filled (observation._encode_context).
ACTOR_CONTEXT_PARTS = ("bid_context", "ability", "ability_count", "ability_pair", "build")
ACTOR_CONTEXT_SIZE = sum(OBS_SLICES[name].stop - OBS_SLICES[name].start for name in ACTOR_CONTEXT_PARTS)
PRESTIGE_FEATURES = NUM_VESSEL_COLOURS + 1  # colour one-hot, value (as observation.prestige_revealed)

# (name, size, meaning) in vector order.
GLOBAL_STATE_PARTS = (
    ("public", OBS_SIZE, "seat 0's observation (docs/observation.md); its relative seats are absolute"),
    ("actor_context", ACTOR_CONTEXT_SIZE,
     "the seat to move's own " + ", ".join(f"`{name}`" for name in ACTOR_CONTEXT_PARTS)
     + " (zero at the end)"),
    ("seat_bid_base", MAX_SEATS, "per seat: its bid holds a card of the round or a substitute"),
    ("seat_double_prestige", MAX_SEATS, "per seat: character 19 is active this bidding round"),
    ("seat_hand", MAX_SEATS * NUM_CARD_TYPES, "per seat: hand (a Tom's supply) by type / 10"),
    ("seat_reserve", MAX_SEATS * NUM_CARD_TYPES, "per seat: reserve by type, face-down cards included / 5"),
    ("seat_icons_played", MAX_SEATS * NUM_CARD_TYPES,
     "per seat: cards played from the hand with their own icon, by type / 10"),
    ("discard", NUM_CARD_TYPES, "discard pile by type / 10"),
    ("draw_pile", NUM_CARD_TYPES, "draw pile by type / 10"),
    ("draw_order", NUM_CARDS, "draw pile from the top: (card type + 1) / 7, 0 past the last card"),
    ("elevator_stack_characters", NUM_TILE_VALUES * NUM_CHARACTERS,
     "per value's face-down stack: its tiles by character / 2"),
    ("elevator_order", NUM_TILE_VALUES * MAX_ELEVATOR_STACK,
     "per value's stack from the top: character / 42, 0 past the last tile"),
    ("prestige_stack", NUM_PRESTIGE_TILES * PRESTIGE_FEATURES,
     "face-down prestige tiles from the next one: colour one-hot, value / 5 (zero past the last)"),
    ("start_stacks_hidden", NUM_START_STACKS * NUM_CHARACTERS,
     "per start stack never revealed: its two characters"),
    ("tile_dollars", NUM_TILES, "per character tile: a dollar lies on it"),
)


GLOBAL_STATE_SLICES, GLOBAL_STATE_SIZE = part_slices(GLOBAL_STATE_PARTS)
_G = {name: s.start for name, s in GLOBAL_STATE_SLICES.items()}  # offsets, readable by compiled code
(G_PUBLIC, G_ACTOR_CONTEXT, G_BID_BASE, G_DOUBLE_PRESTIGE, G_HAND, G_RESERVE, G_ICONS, G_DISCARD,
 G_DRAW_PILE, G_DRAW_ORDER, G_ELEVATOR_CHARS, G_ELEVATOR_ORDER, G_PRESTIGE, G_START_HIDDEN,
 G_TILE_DOLLARS) = (_G[name] for name, _, _ in GLOBAL_STATE_PARTS)
# (start in the observation, length) of each actor-context part, copied in this order.
_CONTEXT_STARTS = np.array([OBS_SLICES[name].start for name in ACTOR_CONTEXT_PARTS], dtype=np.int64)
_CONTEXT_SIZES = np.array([OBS_SLICES[name].stop - OBS_SLICES[name].start for name in ACTOR_CONTEXT_PARTS],
                          dtype=np.int64)


def global_state_high() -> NDArray[np.float32]:
    """float32[GLOBAL_STATE_SIZE]: an upper bound of every element (the lower bound is 0)."""
    high = np.ones(GLOBAL_STATE_SIZE, dtype=np.float32)
    high[GLOBAL_STATE_SLICES["public"]] = OBSERVATION_HIGH
    high[GLOBAL_STATE_SLICES["actor_context"]] = np.concatenate(
        [OBSERVATION_HIGH[OBS_SLICES[name]] for name in ACTOR_CONTEXT_PARTS])
    for name in ("seat_hand", "seat_icons_played", "discard", "draw_pile"):
        high[GLOBAL_STATE_SLICES[name]] = CARDS_PER_TYPE / CARDS_SCALE
    high[GLOBAL_STATE_SLICES["seat_reserve"]] = CARDS_PER_TYPE / RESERVE_SCALE
    high[GLOBAL_STATE_SLICES["elevator_stack_characters"]] = np.bincount(TILE_CHARACTER).max() / COPIES_SCALE
    prestige = high[GLOBAL_STATE_SLICES["prestige_stack"]].reshape(NUM_PRESTIGE_TILES, PRESTIGE_FEATURES)
    prestige[:, NUM_VESSEL_COLOURS] = max(1.0, PRESTIGE_TILE_VALUE.max() / PRESTIGE_VALUE_SCALE)
    return high


GLOBAL_STATE_HIGH = global_state_high()
assert np.isfinite(GLOBAL_STATE_HIGH).all() and (GLOBAL_STATE_HIGH > 0).all()


def global_state_space() -> spaces.Box:
    """``Box(0, GLOBAL_STATE_HIGH, (GLOBAL_STATE_SIZE,), float32)``: the space of ``state()``."""
    return spaces.Box(low=0.0, high=GLOBAL_STATE_HIGH, shape=(GLOBAL_STATE_SIZE,), dtype=np.float32)


@jit
def _encode_cards(st, out):
    """Every seat's hand, reserve and own-icon plays; the discard pile; the draw pile."""
    for seat in range(st["num_seats"]):
        for t in range(NUM_CARD_TYPES):
            out[G_HAND + seat * NUM_CARD_TYPES + t] = st["hand"][seat, t] / CARDS_SCALE
            out[G_RESERVE + seat * NUM_CARD_TYPES + t] = st["reserve"][seat, t] / RESERVE_SCALE
            out[G_ICONS + seat * NUM_CARD_TYPES + t] = st["icons_played"][seat, t] / CARDS_SCALE
        out[G_BID_BASE + seat] = st["bid_base"][seat]
        out[G_DOUBLE_PRESTIGE + seat] = st["double_prestige"][seat]
    for t in range(NUM_CARD_TYPES):
        out[G_DISCARD + t] = st["discard"][t] / CARDS_SCALE
    n = st["draw_count"]
    counts = np.zeros(NUM_CARD_TYPES, dtype=np.int64)  # counted first: summed fractions drift
    for k in range(n):
        card = st["draw_pile"][n - 1 - k]  # the top is the last card
        counts[card] += 1
        out[G_DRAW_ORDER + k] = (card + 1) / NUM_CARD_TYPES
    for t in range(NUM_CARD_TYPES):
        out[G_DRAW_PILE + t] = counts[t] / CARDS_SCALE


@jit
def _encode_tiles(st, out):
    """The elevator stacks, the face-down prestige tiles, the hidden start stacks, tile dollars."""
    for row in range(NUM_TILE_VALUES):
        n = st["elevator_count"][row]
        for k in range(n):
            c = TILE_CHARACTER[st["elevator_stack"][row, n - 1 - k]]  # the top is the last tile
            out[G_ELEVATOR_CHARS + row * NUM_CHARACTERS + c - 1] += 1.0 / COPIES_SCALE
            out[G_ELEVATOR_ORDER + row * MAX_ELEVATOR_STACK + k] = c / NUM_CHARACTERS
    for k in range(NUM_PRESTIGE_TILES - st["prestige_next"]):
        tile = st["prestige_stack"][st["prestige_next"] + k]
        base = G_PRESTIGE + k * PRESTIGE_FEATURES
        out[base + PRESTIGE_TILE_COLOUR[tile]] = 1.0
        out[base + NUM_VESSEL_COLOURS] = PRESTIGE_TILE_VALUE[tile] / PRESTIGE_VALUE_SCALE
    for k in range(NUM_START_STACKS):
        if st["start_stack_status"][k] == STACK_HIDDEN:
            for j in range(2):
                tile = st["start_stacks"][k, j]
                if tile != EMPTY:
                    out[G_START_HIDDEN + k * NUM_CHARACTERS + TILE_CHARACTER[tile] - 1] = 1.0
    for tile in range(NUM_TILES):
        out[G_TILE_DOLLARS + tile] = 1.0 if st["tile_dollar"][tile] != 0 else 0.0


@jit
def encode_global_record(st, out, scratch):
    """Fill ``out`` (float32[GLOBAL_STATE_SIZE]) with record ``st``'s global state; ``scratch`` is
    a float32[OBS_SIZE] work array (the seat to move's observation)."""
    for i in range(out.shape[0]):
        out[i] = 0.0
    encode_record(st, 0, out[G_PUBLIC:G_PUBLIC + OBS_SIZE])
    actor = st["actor"]
    if 0 <= actor < st["num_seats"]:
        encode_record(st, actor, scratch)
        k = G_ACTOR_CONTEXT
        for p in range(_CONTEXT_STARTS.shape[0]):
            for j in range(_CONTEXT_SIZES[p]):
                out[k] = scratch[_CONTEXT_STARTS[p] + j]
                k += 1
    _encode_cards(st, out)
    _encode_tiles(st, out)


@jit
def encode_global_batch_kernel(states, out):
    """Row ``i`` of ``out`` = the global state of game ``i``."""
    scratch = np.empty(OBS_SIZE, dtype=np.float32)
    for i in range(states.shape[0]):
        encode_global_record(states[i], out[i], scratch)


def encode_global_state(state: np.ndarray) -> NDArray[np.float32]:
    """float32[GLOBAL_STATE_SIZE]: everything in single game ``state``, hidden parts included
    (ValueError unless it is one game record; the record itself is trusted)."""
    if not isinstance(state, np.ndarray) or state.dtype != STATE_DTYPE or state.size != 1:
        raise ValueError("state must be a single game as returned by new_game")
    out = np.zeros((1, GLOBAL_STATE_SIZE), dtype=np.float32)
    encode_global_batch_kernel(state.reshape(1), out)
    return out[0]


def global_state_table_markdown() -> str:
    """The parts table of docs/global-state.md."""
    rows = ["| slice | name | size | meaning | upper bound |", "|---|---|---|---|---|"]
    for name, size, meaning in GLOBAL_STATE_PARTS:
        s = GLOBAL_STATE_SLICES[name]
        highs = sorted({float(h) for h in GLOBAL_STATE_HIGH[s]}, reverse=True)
        bound = " / ".join(f"{h:g}" for h in highs) if len(highs) <= 2 else f"up to {highs[0]:g}"
        rows.append(f"| {s.start}-{s.stop - 1} | `{name}` | {size} | {meaning} | {bound} |")
    return "\n".join(rows)
