"""Compiled entry points over a batch of records: ``states[i]`` is one game."""

import numpy as np

from .actions import NUM_ACTIONS
from .jit import jit
from .legal import fill_legal_mask, pick_legal
from .rng import randbelow
from .rules import advance, apply
from .setup import init_game
from .state import DEC_GAME_OVER


@jit
def new_game_kernel(states, i, num_agents, num_toms, tom_modes, tom_draws, tom_levels, seed):
    """Set up game ``i`` and run it to the first decision."""
    init_game(states[i], num_agents, num_toms, tom_modes, tom_draws, tom_levels, seed)
    advance(states[i])


@jit
def legal_mask_kernel(states, i, mask):
    """Write game ``i``'s legal actions into ``mask``."""
    fill_legal_mask(states[i], mask)


@jit
def apply_kernel(states, i, action):
    """Apply ``action`` to game ``i``; returns the engine's status code (0 = done)."""
    return apply(states[i], action)


@jit
def legal_masks_batch(states, masks):
    """Legal masks of every game in the batch."""
    for i in range(states.shape[0]):
        fill_legal_mask(states[i], masks[i])


@jit
def apply_batch(states, actions, status):
    """Apply ``actions[i]`` to game ``i`` for the whole batch; status codes into ``status``."""
    for i in range(states.shape[0]):
        status[i] = apply(states[i], actions[i])


@jit
def play_random_kernel(states, i, rng_words, max_decisions):
    """Play game ``i`` to the end (or ``max_decisions``) with uniformly random legal actions
    drawn from the generator ``rng_words``; returns the number of decisions taken."""
    st = states[i]
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    n = 0
    while st["decision"] != DEC_GAME_OVER and n < max_decisions:
        fill_legal_mask(st, mask)
        k = randbelow(rng_words, np.sum(mask))
        apply(st, pick_legal(mask, k))
        n += 1
    return n


def empty_mask():
    """A bool array of NUM_ACTIONS to be filled by the mask kernels."""
    return np.zeros(NUM_ACTIONS, dtype=np.bool_)


@jit
def advance_kernel(states, i):
    """Run game ``i``'s automatic steps up to the next decision (for hand-built positions)."""
    advance(states[i])
