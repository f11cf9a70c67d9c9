"""Short human labels for components, shared by ``describe_action``, ``render_text`` and the pictures."""

from ...core.labels import seat_name
from .components import (
    CARD_NAMES,
    CHARACTER_FREE,
    CHARACTER_PHASE,
    COLOUR_NAMES,
    NEUTRAL,
    PHASE_NAMES,
    PRESTIGE_TILE_COLOUR,
    PRESTIGE_TILE_VALUE,
    TILE_CHARACTER,
    TILE_VALUE,
)

NEUTRAL_LABEL = "N"  # the pictures' short label of the neutral player
NEUTRAL_NAME = "neutral"  # the texts' name of the neutral player
VOWELS = "aeiou"


def seat_label(seat):
    """'seat 0'..'seat 3' for seats, 'neutral' for the neutral player: every text's names."""
    return NEUTRAL_NAME if seat == NEUTRAL else seat_name(seat)


def short_seat_label(seat):
    """'seat 0'..'seat 3' for seats (as every text names them), 'N' for the neutral player: the
    pictures' labels, where room is short."""
    return NEUTRAL_LABEL if seat == NEUTRAL else seat_name(seat)


def a_card(card_type):
    """'a press card', 'an elevator card'."""
    name = CARD_NAMES[card_type]
    return f"{'an' if name[0] in VOWELS else 'a'} {name} card"


def tile_label(tile):
    """A character tile as '#12(v1,II)': character number, value, phase; '*' marks free tiles."""
    c = int(TILE_CHARACTER[tile])
    free = "*" if CHARACTER_FREE[c] else ""
    return f"#{c}(v{int(TILE_VALUE[tile])},{PHASE_NAMES[CHARACTER_PHASE[c]]}{free})"


def prestige_label(tile):
    """A prestige tile as 'yellow 4'."""
    return f"{COLOUR_NAMES[PRESTIGE_TILE_COLOUR[tile]]} {int(PRESTIGE_TILE_VALUE[tile])}"


# One line per ability (addendum), for describe_action and people.
CHARACTER_SUMMARY = {
    1: "+1 point; discard hand cards, draw as many", 2: "take two single cards from two pairs",
    3: "+1 point; a face-up card into a reserve one larger", 4: "take both pairs at once",
    5: "draw 3 cards, discard 2", 6: "+2 dollars",
    7: "give up a character for one up to 1 value higher",
    8: "take cards matching the pair from the reserve", 9: "draw 1 card, +1 dollar",
    10: "draw 2 cards", 11: "replace a neutral skyscraper with one of yours",
    12: "+1 point; discard reserve cards and refill", 13: "play any card as this round's type",
    14: "go back 1-2 press spaces, each a wild", 15: "play a matching card from the reserve",
    16: "+1 wild to the bid", 17: "+1 prestige card to the bid", 18: "+1 dollar and bid last",
    19: "double the prestige points of the bid", 20: "play any card as two of this round's type",
    21: "one more skyscraper from the supply when building",
    22: "take up to 2 played cards back to the hand", 23: "+2 points",
    24: "+1 point, +1 skyscraper to the board", 25: "+3 points",
    26: "+1 skyscraper to the board, +1 press space", 27: "advance on the press track by your rank",
}

# What a card choice (CHARACTER_CARD) does for each ability that asks for one.
CHARACTER_CARD_PURPOSE = {
    1: "discard it from the hand", 5: "discard it from the hand",
    8: "take it from the reserve to the hand", 12: "discard it from the reserve",
    13: "play it as one card of this round's type", 15: "play it from the reserve",
    20: "play it as two cards of this round's type", 22: "take it back to the hand",
}
