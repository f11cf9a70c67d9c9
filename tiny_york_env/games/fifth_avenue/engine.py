"""5th Avenue's engine entry points, compiled: an agent's action (checked or not), then the
engine's bots (``bots.py``) up to the next agent decision, their moves logged
(``core/move_log.py``)."""

import numpy as np

from ...core.jit import jit
from ...core.move_log import clear_moves, record_move
from .actions import NUM_ACTIONS
from .bots import bot_action
from .config import BOT_NONE
from .legal import fill_legal_mask
from .rules import apply_unchecked
from .scoring import end_game
from .state import DEC_GAME_OVER

ILLEGAL = 1  # apply's status for an action the pending decision does not allow


@jit
def advance(st):
    """Let the engine's bots decide until an agent's seat must, or the game is over. A bot with
    no legal action (no live game has one: validate.py refuses such records) ends the game."""
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    while st["decision"] != DEC_GAME_OVER and st["bot_kind"][st["actor"]] != BOT_NONE:
        fill_legal_mask(st, mask)
        a = bot_action(st, mask)
        if a < 0:
            end_game(st)
            return
        record_move(st, st["actor"], a)
        apply_unchecked(st, a)


@jit
def play(st, a):
    """An agent's legal action, then the bots up to the next agent decision (logged)."""
    clear_moves(st)
    apply_unchecked(st, a)
    advance(st)


@jit
def apply(st, a):
    """Apply ``a`` if it is legal (0) or leave the record unchanged (ILLEGAL)."""
    if a < 0 or a >= NUM_ACTIONS or st["decision"] == DEC_GAME_OVER:
        return ILLEGAL
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    fill_legal_mask(st, mask)
    if not mask[a]:
        return ILLEGAL
    play(st, a)
    return 0
