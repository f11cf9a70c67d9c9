"""Where Construction Yard's actions are on the browser board: ``action_place(action, state)``
names the place of ``board_svg``'s drawing an action refers to (its ``data-place`` key): a money
card taken alone from the display, a building bought from it. Taking two or more money cards
together, paying from the hand and the decisions with no object stay in the list."""

from __future__ import annotations

import numpy as np

from .actions import decode, subset_slots


def money_place(slot: int) -> str:
    """A slot of the money display."""
    return f"money-{slot}"


def building_place(slot: int) -> str:
    """A slot of the building display."""
    return f"building-{slot}"


def action_place(action: int, state: np.ndarray) -> tuple[str, ...]:
    """The board place ``action`` refers to (see the module), or none."""
    kind, payload = decode(action)
    if kind == "take_money":
        slots = subset_slots(payload)
        return (money_place(slots[0]),) if len(slots) == 1 else ()
    if kind == "buy":
        return (building_place(payload),)
    return ()
