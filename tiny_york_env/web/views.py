"""What the browser board shows of a state: an SVG of the table and the seat's own cards.

``board_view(game, state, seat)`` gives ``{"svg", "text", "status"}``: the SVG draws the public
table and, for ``seat``, that seat's hand (None: a replay or a watched game of policies, where
everything is shown); ``text`` is the game's ``render_text`` for the same viewer. The drawing is
the game record's ``board_svg`` (each game's ``board_svg.py``, every string in it escaped); a game
without one shows its text.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..contract import Game


def option_text(game: Game, action: int, state: np.ndarray) -> str:
    """An action in words, naming what it refers to in ``state`` where the game can."""
    if game.describe_option is not None:
        return game.describe_option(action, state)
    return game.describe_action(action)


def board_view(game: Game, state: np.ndarray, seat: int | None) -> dict[str, Any]:
    """The SVG, the text and a one-line status of ``state`` as ``seat`` may see it."""
    text = game.render_text(state, seat)
    svg = game.board_svg(state, seat) if game.board_svg is not None else ""
    return {"svg": svg, "text": text, "status": text.splitlines()[0] if text else ""}
