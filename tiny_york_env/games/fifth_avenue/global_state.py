"""The global state (PettingZoo's ``state()``, for a centralized critic): every seat's observation
in seat order, each from its own side, so every hand is in it; the decks' order is not
(``core/seat_views.py``). A policy that acts must not read it."""

from ...core.seat_views import SeatViews
from .api import as_batch
from .data import MAX_PLAYERS
from .observation import encode, observation_space

SEAT_VIEWS = SeatViews(encode, observation_space, lambda state: int(as_batch(state)[0]["num_players"]),
                       MAX_PLAYERS)
encode_global_state = SEAT_VIEWS.encode_state
global_state_space = SEAT_VIEWS.space
