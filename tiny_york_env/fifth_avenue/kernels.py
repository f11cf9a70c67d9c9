"""Compiled entry points over a batch of 5th Avenue records: ``states[i]`` is one game."""

import numpy as np

from ..core.jit import jit
from .rules import advance, apply, fill_legal_mask, play
from .setup import NUM_BUSINESSES, init_game
from .state import DEC_GAME_OVER, NO_PLAYER

PARAM_PLAYERS, PARAM_AGENTS = 0, 1
NUM_PARAMS = 2

__all__ = ["apply", "fill_legal_mask", "play"]


@jit
def init_record(states, i, params, seed):
    """Set up game ``i`` (a zeroed record) from ``params`` (players, agents) and run the engine's
    bots to the first agent decision."""
    init_game(states[i], params[PARAM_PLAYERS], params[PARAM_AGENTS], seed,
              np.empty(NUM_BUSINESSES, np.int64))
    advance(states[i])


@jit
def is_over(st):
    """True after the final scoring."""
    return st["decision"] == DEC_GAME_OVER


@jit
def actor_of(st):
    """The seat to decide, or -1 at the end."""
    if st["decision"] == DEC_GAME_OVER:
        return NO_PLAYER
    return st["actor"]


@jit
def apply_kernel(states, i, action):
    """Apply ``action`` to game ``i`` (then the bots); 0 when applied, else ILLEGAL."""
    return apply(states[i], action)


@jit
def legal_mask_kernel(states, i, mask):
    """Game ``i``'s legal actions into ``mask``."""
    fill_legal_mask(states[i], mask)
