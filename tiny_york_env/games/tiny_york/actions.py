"""The action codec: one flat ``Discrete(NUM_ACTIONS)`` space for every phase and player count.

Layout (id = block start + payload); the table ``ACTION_BLOCKS`` below is the single source::

    START_STACK        + start-character stack 0..5            setup (R4)
    PICK_PAIR          + pair slot 0..8                          Phase I (R6)
    EXCHANGE           + hand type * 7 + reserve type            Phase II, own turn (R9)
    BID_CARD           (one card of the round's type)            Phase II bid (R10)
    BID_PAIR           + type 0..6 (two identical cards as one)  substitute; wild pair only first
    BID_WILD_PAIR      + type 0..5 (one wild + that card)        substitute
    BID_WILD           (one more wild)                           needs a card or substitute first
    BID_DONE           (the bid is final; nothing played = pass)
    ELEVATOR_TAKE      + display slot row * 4 + column           elevator round (R14)
    PRESTIGE_TILE      + revealed tile slot 0..1                 prestige round (R15)
    PRESTIGE_FORFEIT
    PRESTIGE_VESSEL    + vessel 0..9
    PRESTIGE_BOROUGH   + borough 0..5
    SELL_FROM          + borough 0..5 (move own skyscraper)      building, empty board (R16)
    BUILD_STOP
    USE_CHARACTER      + character 1..27 (payload = number - 1)  abilities (issue: characters)
    CHARACTER_CARD     + card type 0..6                          an ability's card choice
    CHARACTER_TILE     + character tile 0..75                    an ability's tile choice (7)
    CHARACTER_PAIR_CARD + pair slot * 2 + card 0..1              an ability's single card (2)
    CHARACTER_BOROUGH  + borough 0..5                            an ability's borough (11)
    CHARACTER_STEPS    + steps - 1 (1..2)                        an ability's count (14)
    CHARACTER_DONE                                               stop an ability's choices
    END_TURN                                                     end a Phase III turn

The blocks after BUILD_STOP belong to character abilities: their ids are fixed now so the
space never changes shape; the engine offers them once abilities are implemented.
"""

import numpy as np

from ...core.checked import action_id, is_int
from .components import (
    BOROUGH_NAMES,
    CARD_NAMES,
    ELEVATOR_COLUMNS,
    ELEVATOR_SLOTS,
    MAX_PAIRS,
    NUM_ACTIVE_CHARACTERS,
    NUM_BOROUGHS,
    NUM_CARD_TYPES,
    NUM_START_STACKS,
    NUM_TILES,
    NUM_VESSELS,
    PRESTIGE_REVEALED_PER_ROUND,
    VESSEL_ENDS,
    VESSEL_KIND,
    VESSEL_KIND_NAMES,
    WILD,
)
from .labels import CHARACTER_CARD_PURPOSE, CHARACTER_SUMMARY, a_card, prestige_label, tile_label
from .state import EMPTY

CHARACTER_14_MAX_STEPS = 2

# (name, size, payload meaning). Order is the id order.
ACTION_BLOCKS = (
    ("START_STACK", NUM_START_STACKS, "start-character stack"),
    ("PICK_PAIR", MAX_PAIRS, "pair slot"),
    ("EXCHANGE", NUM_CARD_TYPES * NUM_CARD_TYPES, "hand type * 7 + reserve type"),
    ("BID_CARD", 1, None),
    ("BID_PAIR", NUM_CARD_TYPES, "card type"),
    ("BID_WILD_PAIR", WILD, "card type (not wild)"),
    ("BID_WILD", 1, None),
    ("BID_DONE", 1, None),
    ("ELEVATOR_TAKE", ELEVATOR_SLOTS, "display slot (row * 4 + column)"),
    ("PRESTIGE_TILE", PRESTIGE_REVEALED_PER_ROUND, "revealed tile slot"),
    ("PRESTIGE_FORFEIT", 1, None),
    ("PRESTIGE_VESSEL", NUM_VESSELS, "vessel"),
    ("PRESTIGE_BOROUGH", NUM_BOROUGHS, "borough"),
    ("SELL_FROM", NUM_BOROUGHS, "borough"),
    ("BUILD_STOP", 1, None),
    ("USE_CHARACTER", NUM_ACTIVE_CHARACTERS, "character number - 1"),
    ("CHARACTER_CARD", NUM_CARD_TYPES, "card type"),
    ("CHARACTER_TILE", NUM_TILES, "character tile"),
    ("CHARACTER_PAIR_CARD", MAX_PAIRS * 2, "pair slot * 2 + card"),
    ("CHARACTER_BOROUGH", NUM_BOROUGHS, "borough"),
    ("CHARACTER_STEPS", CHARACTER_14_MAX_STEPS, "steps - 1"),
    ("CHARACTER_DONE", 1, None),
    ("END_TURN", 1, None),
)


def _offsets():
    starts, total = {}, 0
    for name, size, _ in ACTION_BLOCKS:
        starts[name] = total
        total += size
    return starts, total


BLOCK_START, NUM_ACTIONS = _offsets()
BLOCK_SIZE = {name: size for name, size, _ in ACTION_BLOCKS}

# Plain int constants, readable by compiled code.
START_STACK = BLOCK_START["START_STACK"]
PICK_PAIR = BLOCK_START["PICK_PAIR"]
EXCHANGE = BLOCK_START["EXCHANGE"]
BID_CARD = BLOCK_START["BID_CARD"]
BID_PAIR = BLOCK_START["BID_PAIR"]
BID_WILD_PAIR = BLOCK_START["BID_WILD_PAIR"]
BID_WILD = BLOCK_START["BID_WILD"]
BID_DONE = BLOCK_START["BID_DONE"]
ELEVATOR_TAKE = BLOCK_START["ELEVATOR_TAKE"]
PRESTIGE_TILE = BLOCK_START["PRESTIGE_TILE"]
PRESTIGE_FORFEIT = BLOCK_START["PRESTIGE_FORFEIT"]
PRESTIGE_VESSEL = BLOCK_START["PRESTIGE_VESSEL"]
PRESTIGE_BOROUGH = BLOCK_START["PRESTIGE_BOROUGH"]
SELL_FROM = BLOCK_START["SELL_FROM"]
BUILD_STOP = BLOCK_START["BUILD_STOP"]
USE_CHARACTER = BLOCK_START["USE_CHARACTER"]
CHARACTER_CARD = BLOCK_START["CHARACTER_CARD"]
CHARACTER_TILE = BLOCK_START["CHARACTER_TILE"]
CHARACTER_PAIR_CARD = BLOCK_START["CHARACTER_PAIR_CARD"]
CHARACTER_BOROUGH = BLOCK_START["CHARACTER_BOROUGH"]
CHARACTER_STEPS = BLOCK_START["CHARACTER_STEPS"]
CHARACTER_DONE = BLOCK_START["CHARACTER_DONE"]
END_TURN = BLOCK_START["END_TURN"]


def encode(name, payload=0):
    """The action id of block ``name`` with ``payload``; ValueError if either is out of range."""
    if not isinstance(name, str) or name not in BLOCK_START:
        raise ValueError(f"unknown action block {name!r}; blocks are {list(BLOCK_START)}")
    size = BLOCK_SIZE[name]
    if not is_int(payload) or not 0 <= payload < size:
        raise ValueError(f"payload {payload} out of range for {name}: allowed 0..{size - 1}")
    return BLOCK_START[name] + payload


def decode(action):
    """(block name, payload) of an action id; ValueError if the id is outside the space."""
    action = action_id(action, NUM_ACTIONS)
    for name, size, _ in ACTION_BLOCKS:
        start = BLOCK_START[name]
        if action < start + size:
            return name, action - start
    raise AssertionError("unreachable: blocks cover the space")


def _vessel_words(v):
    a, b = VESSEL_ENDS[v]
    return f"{VESSEL_KIND_NAMES[VESSEL_KIND[v]]} {v} ({BOROUGH_NAMES[a]}-{BOROUGH_NAMES[b]})"


def _pair_words(pair):
    cards = [CARD_NAMES[c] for c in pair if c != EMPTY]
    return " + ".join(cards) if cards else "nothing"


ROUND_TYPE_BIDS = ("BID_CARD", "BID_PAIR", "BID_WILD_PAIR")  # their words say "this round's type"
BIDDING_ROUND_TYPES = 6  # bidding round k asks for card type k (as text.py's header names it)


def _state_detail(name, p, rec):
    """What the action refers to in ``rec`` (a tile, a pair), or '' when nothing to add."""
    if name == "START_STACK":
        a, b = rec["start_stacks"][p]
        return f"{tile_label(a)} + {tile_label(b)}"
    if name == "PICK_PAIR":
        return _pair_words(rec["pairs"][p])
    if name == "ELEVATOR_TAKE":
        tile = rec["elevator_display"][p // ELEVATOR_COLUMNS, p % ELEVATOR_COLUMNS]
        return tile_label(tile) if tile != EMPTY else ""
    if name == "PRESTIGE_TILE":
        tile = rec["prestige_revealed"][p]
        return prestige_label(tile) if tile != EMPTY else ""
    if name == "CHARACTER_TILE":
        return tile_label(p)
    if name == "USE_CHARACTER":
        return CHARACTER_SUMMARY[p + 1]
    if name == "CHARACTER_CARD" and int(rec["ability"]) in CHARACTER_CARD_PURPOSE:
        return f"character {int(rec['ability'])}: {CHARACTER_CARD_PURPOSE[int(rec['ability'])]}"
    if name == "CHARACTER_PAIR_CARD":
        card = rec["pairs"][p // 2, p % 2]
        return CARD_NAMES[card] if card != EMPTY else ""
    if name in ROUND_TYPE_BIDS and 0 <= int(rec["bid_round"]) < BIDDING_ROUND_TYPES:
        return f"this round's type: {CARD_NAMES[int(rec['bid_round'])]}"
    return ""


def _describe_payload(name, p):
    if name == "EXCHANGE":
        h, r = divmod(p, NUM_CARD_TYPES)
        return f"exchange {a_card(h)} from hand for {a_card(r)} from reserve"
    if name == "BID_PAIR":
        return f"bid two {CARD_NAMES[p]} cards as one card of this round's type"
    if name == "BID_WILD_PAIR":
        return f"bid a wild card and {a_card(p)} as one card of this round's type"
    if name == "ELEVATOR_TAKE":
        row, col = divmod(p, ELEVATOR_COLUMNS)
        return f"take the value-{row + 1} character in elevator position {col}"
    if name == "PRESTIGE_VESSEL":
        return f"take the {_vessel_words(p)}"
    if name == "CHARACTER_PAIR_CARD":
        pair, card = divmod(p, 2)
        return f"take card {card} of pair {pair}"
    if name == "CHARACTER_STEPS":
        return f"go back {p + 1} press space{'s' if p else ''}"
    template = _DESCRIPTIONS[name]
    return template.format(p=p, card=a_card(p) if name == "CHARACTER_CARD" else "",
                           borough=BOROUGH_NAMES[p] if "borough" in template else "",
                           number=p + 1)


# Descriptions that need at most the payload, a borough or a character number.
_DESCRIPTIONS = {
    "START_STACK": "choose start-character stack {p}",
    "PICK_PAIR": "take card pair {p}",
    "BID_CARD": "bid one card of this round's type",
    "BID_WILD": "add a wild card to the bid",
    "BID_DONE": "finish the bid (pass if nothing was played)",
    "PRESTIGE_TILE": "take revealed prestige tile {p}",
    "PRESTIGE_FORFEIT": "forfeit the prestige tile",
    "PRESTIGE_BOROUGH": "place the prestige tile in {borough} and build there",
    "SELL_FROM": "sell a skyscraper from {borough} and rebuild it here",
    "BUILD_STOP": "stop building",
    "USE_CHARACTER": "use character {number}",
    "CHARACTER_CARD": "choose {card}",
    "CHARACTER_TILE": "choose character tile {p}",
    "CHARACTER_BOROUGH": "choose {borough}",
    "CHARACTER_DONE": "stop this character's choices",
    "END_TURN": "end the turn",
}


def describe_action(action: int, state: np.ndarray | None = None) -> str:
    """The action in plain words, e.g. ``'take card pair 3'``; given the ``state`` it was taken
    in, it also names what it refers to, e.g. ``'take card pair 3 (press + wild)'``."""
    name, payload = decode(action)
    words = _describe_payload(name, payload)
    if state is not None:
        detail = _state_detail(name, payload, state.reshape(1)[0])
        if detail:
            words += f" ({detail})"
    return words


def action_names():
    """An array of ``'BLOCK(payload)'`` labels, one per action id."""
    labels = []
    for name, size, _ in ACTION_BLOCKS:
        labels.extend(name if size == 1 else f"{name}({p})" for p in range(size))
    return np.array(labels)


def actions_table_markdown():
    """The codec as a markdown table (ids, block, payload, example): docs/actions.md embeds it."""
    rows = ["| ids | block | payload | example (first id) |", "|---|---|---|---|"]
    for name, size, payload in ACTION_BLOCKS:
        start = BLOCK_START[name]
        ids = str(start) if size == 1 else f"{start}-{start + size - 1}"
        rows.append(f"| {ids} | `{name}` | {payload or '-'} | {describe_action(start)} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(actions_table_markdown())
