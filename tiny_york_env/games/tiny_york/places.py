"""Where Tiny York's actions are on the browser board: ``action_place(action, state)`` names the
place of ``board_svg``'s drawing an action refers to (a key of its ``data-place``), for the board
to click; actions on the cards in a hand (exchanges, bids) and the decisions with no object (pass,
stop, done) have none and stay in the list."""

from __future__ import annotations

import numpy as np

from .actions import decode
from .components import ELEVATOR_COLUMNS


def stack_place(stack: int) -> str:
    """A start-character stack (R4)."""
    return f"stack-{stack}"


def pair_place(pair: int) -> str:
    """A card pair of Phase I (R6)."""
    return f"pair-{pair}"


def elevator_place(row: int, column: int) -> str:
    """A slot of the elevator display (R14)."""
    return f"elevator-{row}-{column}"


def prestige_place(slot: int) -> str:
    """A revealed prestige tile (R15)."""
    return f"prestige-{slot}"


def vessel_place(vessel: int) -> str:
    """A vessel on the map."""
    return f"vessel-{vessel}"


def borough_place(borough: int) -> str:
    """A borough of the map."""
    return f"borough-{borough}"


def tile_place(tile: int) -> str:
    """A character tile, wherever it is drawn (the display, a start stack, a seat's tiles)."""
    return f"tile-{tile}"


def character_place(number: int) -> str:
    """The tiles of a character the seat to move owns (to use its ability)."""
    return f"character-{number}"


PAYLOAD_PLACES = {
    "START_STACK": stack_place,
    "PICK_PAIR": pair_place,
    "ELEVATOR_TAKE": lambda slot: elevator_place(*divmod(slot, ELEVATOR_COLUMNS)),
    "PRESTIGE_TILE": prestige_place,
    "PRESTIGE_VESSEL": vessel_place,
    "PRESTIGE_BOROUGH": borough_place,
    "SELL_FROM": borough_place,
    "CHARACTER_BOROUGH": borough_place,
    "CHARACTER_TILE": tile_place,
    "USE_CHARACTER": lambda payload: character_place(payload + 1),
    "CHARACTER_PAIR_CARD": lambda payload: pair_place(payload // 2),
}


def action_place(action: int, state: np.ndarray) -> tuple[str, ...]:
    """The board place ``action`` refers to (see the module), or none."""
    name, payload = decode(action)
    place = PAYLOAD_PLACES.get(name)
    return (place(payload),) if place is not None else ()
