"""Where 5th Avenue's actions are on the browser board: ``action_place(action, state)`` names the
places of ``board_svg``'s drawing an action refers to (keys of its ``data-place``): a plot (a
starting skyscraper, a business put down), a district to score, a space of the supply row, the
face-up cards taken (a pair names both), the place a commissioner moves to. Choosing an option of
the turn, bidding from the hand, building and a building stop stay in the list."""

from __future__ import annotations

import numpy as np

from .actions import COLOUR_PAIRS, DEST_CENTRAL_PARK, DEST_CITY_HALL, NUM_DESTINATIONS, decode

CENTRAL_PARK_PLACE, CITY_HALL_PLACE = "central-park", "city-hall"


def plot_place(plot: int) -> str:
    """A building plot of a district."""
    return f"plot-{plot}"


def district_place(district: int) -> str:
    """A district's box on the map."""
    return f"district-{district}"


def space_place(space: int) -> str:
    """A space of the supply row."""
    return f"space-{space}"


def card_place(colour: int) -> str:
    """The face-up top card of a coloured stack."""
    return f"card-{colour}"


def destination_place(destination: int) -> str:
    """A place a commissioner can stand: a district, Central Park or City Hall."""
    if destination == DEST_CENTRAL_PARK:
        return CENTRAL_PARK_PLACE
    if destination == DEST_CITY_HALL:
        return CITY_HALL_PLACE
    return district_place(destination)


PLACES = {
    "place_start": lambda k: (plot_place(k),),
    "place_business": lambda k: (plot_place(k),),
    "score_district": lambda k: (district_place(k),),
    "take_space": lambda k: (space_place(k),),
    "take_pair": lambda k: tuple(card_place(c) for c in COLOUR_PAIRS[k]),
    "take_one": lambda k: (card_place(k),),
    "move": lambda k: (destination_place(k % NUM_DESTINATIONS),),
}


def action_place(action: int, state: np.ndarray) -> tuple[str, ...]:
    """The board places ``action`` refers to (see the module), or none."""
    name, k = decode(action)
    places = PLACES.get(name)
    return places(k) if places is not None else ()
