"""Short human labels for components, shared by ``describe_action`` and ``render_text``."""

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

NEUTRAL_LABEL = "N"
VOWELS = "aeiou"


def seat_label(seat):
    """'P0'..'P3' for seats, 'N' for the neutral player."""
    return NEUTRAL_LABEL if seat == NEUTRAL else f"P{seat}"


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
