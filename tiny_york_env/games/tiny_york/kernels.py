"""Compiled entry points over a batch of records: ``states[i]`` is one game."""

import numpy as np

from ...core.jit import jit
from .actions import NUM_ACTIONS
from .components import MAX_SEATS
from .rules import advance
from .setup import init_game
from .state import DEC_GAME_OVER, NO_SEAT

# The game contract's ``config_params`` layout (api.config_params): num_agents, num_toms, then
# MAX_SEATS Tom modes, MAX_SEATS Phase-I draw counts and MAX_SEATS Tom levels.
PARAM_NUM_AGENTS, PARAM_NUM_TOMS, PARAM_TOMS = 0, 1, 2
NUM_PARAMS = PARAM_TOMS + 3 * MAX_SEATS


@jit
def new_game_kernel(states, i, num_agents, num_toms, tom_modes, tom_draws, tom_levels, seed):
    """Set up game ``i`` and run it to the first decision."""
    init_game(states[i], num_agents, num_toms, tom_modes, tom_draws, tom_levels, seed)
    advance(states[i])


@jit
def init_record(states, i, params, seed):
    """The game contract's set-up kernel: game ``i`` from ``params`` (``config_params``)."""
    modes = params[PARAM_TOMS:PARAM_TOMS + MAX_SEATS]
    draws = params[PARAM_TOMS + MAX_SEATS:PARAM_TOMS + 2 * MAX_SEATS]
    levels = params[PARAM_TOMS + 2 * MAX_SEATS:PARAM_TOMS + 3 * MAX_SEATS]
    new_game_kernel(states, i, params[PARAM_NUM_AGENTS], params[PARAM_NUM_TOMS], modes, draws,
                    levels, seed)


@jit
def is_over(st):
    """True once the final scoring is done."""
    return st["decision"] == DEC_GAME_OVER


@jit
def actor_of(st):
    """The seat to decide, or NO_SEAT (-1) at the end."""
    if st["decision"] == DEC_GAME_OVER:
        return NO_SEAT
    return st["actor"]







def empty_mask():
    """A bool array of NUM_ACTIONS to be filled by the mask kernels."""
    return np.zeros(NUM_ACTIONS, dtype=np.bool_)


@jit
def advance_kernel(states, i):
    """Run game ``i``'s automatic steps up to the next decision (for hand-built positions)."""
    advance(states[i])
