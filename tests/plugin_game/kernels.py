"""Compiled entry points of the game contract over a batch of records: ``states[i]`` is one game."""


from tiny_york_env.core.jit import jit

from .bots import greedy_action
from .legal import fill_legal_mask
from .rules import advance, apply, apply_unchecked
from .setup import init_game
from .state import BOT_GREEDY, DEC_GAME_OVER, NO_SEAT

__all__ = ["apply", "apply_unchecked", "fill_legal_mask"]


@jit
def init_record(states, i, params, seed):
    """Set up game ``i`` (a zeroed record) from ``params`` and run it to the first agent decision."""
    init_game(states[i], params, seed)
    advance(states[i])


@jit
def is_over(st):
    """True once the last round is resolved."""
    return st["decision"] == DEC_GAME_OVER


@jit
def actor_of(st):
    """The seat to decide, or NO_SEAT (-1) at the end."""
    if st["decision"] == DEC_GAME_OVER:
        return NO_SEAT
    return st["actor"]





@jit
def greedy_kernel(states, i, mask):
    """The greedy bot's action for the seat to move in game ``i`` (``mask`` is scratch)."""
    fill_legal_mask(states[i], mask)
    return greedy_action(states[i], mask)


@jit
def greedy_playout(states, i):
    """Play game ``i`` to its end with the engine's greedy bot in every seat (search playouts)."""
    st = states[i]
    for seat in range(st["num_players"]):
        st["bot_kind"][seat] = BOT_GREEDY
    advance(st)
