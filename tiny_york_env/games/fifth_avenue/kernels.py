"""Compiled entry points over a batch of 5th Avenue records: ``states[i]`` is one game."""

import numpy as np

from ...core.jit import jit
from .bots import greedy_action
from .config import BOT_GREEDY
from .data import MAX_PLAYERS
from .engine import advance, apply, play
from .legal import fill_legal_mask
from .setup import NUM_BUSINESSES, init_game
from .state import DEC_GAME_OVER, NO_PLAYER

PARAM_PLAYERS, PARAM_AGENTS, PARAM_BOTS = 0, 1, 2  # bots: each seat's kind (config.bot_kinds)
NUM_PARAMS = PARAM_BOTS + MAX_PLAYERS

__all__ = ["apply", "fill_legal_mask", "play"]


@jit
def init_record(states, i, params, seed):
    """Set up game ``i`` (a zeroed record) from ``params`` (players, agents, seat kinds) and run
    the engine's bots to the first agent decision."""
    st = states[i]
    init_game(st, params[PARAM_PLAYERS], params[PARAM_AGENTS], seed, np.empty(NUM_BUSINESSES, np.int64))
    for seat in range(params[PARAM_AGENTS], params[PARAM_PLAYERS]):
        st["bot_kind"][seat] = params[PARAM_BOTS + seat]
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
def greedy_kernel(states, i, mask):
    """The greedy heuristic's action for game ``i``'s actor (``mask``: scratch for its legal actions)."""
    fill_legal_mask(states[i], mask)
    return greedy_action(states[i], mask)


@jit
def greedy_playout(states, i):
    """Play game ``i`` to its end with the engine's greedy bot in every seat (search playouts)."""
    st = states[i]
    for seat in range(st["num_players"]):
        st["bot_kind"][seat] = BOT_GREEDY
    advance(st)

