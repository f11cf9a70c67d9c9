"""Compiled batch kernels shared by the batched envs (``TinyYorkVecEnv`` for stable-baselines3,
``TinyYorkVectorEnv`` for Gymnasium).

Each kernel loops over B games in compiled code: start games, apply one action per game (the
engine runs the Toms), encode the learning seat's observation and fill its legal mask. Actions
are checked for every game before any game changes, so a refused step changes nothing. The two
envs differ only in when an ended game restarts: ``step_kernel`` restarts it in the same step
(SB3's convention, the ended record and observation copied out first), ``next_step_kernel`` in
the next one (Gymnasium's ``AutoresetMode.NEXT_STEP``, the ended record kept in place until then).
This module imports neither stable-baselines3 nor Gymnasium's vector envs.

Illegal actions (an id in 0..NUM_ACTIONS-1 that the game's mask forbids; the modes are
``rewards.ILLEGAL_ACTION_MODES``): ``"raise"`` refuses the whole step (the caller raises the
engine's ``ValueError`` naming the env index), while ``"terminate"`` ends that game, its state
otherwise unchanged, and flags it in ``illegal``. An action outside 0..NUM_ACTIONS-1 is refused
in both modes.
"""

import numpy as np
from numpy.typing import NDArray

from ..game import NUM_ACTIONS, STATE_DTYPE
from ..game.jit import jit
from ..game.kernels import new_game_kernel
from ..game.legal import fill_legal_mask
from ..game.rules import apply_unchecked
from ..game.state import DEC_GAME_OVER
from ..observation import encode_record
from .single import next_seed

LEARNING_SEAT = 0  # Toms take the seats after the agents (GameConfig), so the one agent is seat 0


def byte_view(records: NDArray) -> NDArray[np.uint8]:
    """uint8[B, itemsize] view of a 1-d record array (compiled code zeroes and copies rows)."""
    return records.view(np.uint8).reshape(records.shape[0], STATE_DTYPE.itemsize)


@jit
def restart_game(states, raw, i, seed, num_agents, num_toms, tom_modes, tom_draws, tom_levels):
    """Game ``i`` becomes a fresh game seeded ``seed`` (on a zeroed record, as ``new_game``)."""
    for b in range(raw.shape[1]):
        raw[i, b] = 0
    new_game_kernel(states, i, num_agents, num_toms, tom_modes, tom_draws, tom_levels, seed)


@jit
def reset_kernel(states, raw, seeds, which, num_agents, num_toms, tom_modes, tom_draws, tom_levels,
                 obs, masks):
    """New games with ``seeds`` where ``which``, their legal masks into ``masks`` (the other
    rows are left alone); every game's observation into ``obs``."""
    for i in range(states.shape[0]):
        if which[i]:
            restart_game(states, raw, i, seeds[i], num_agents, num_toms, tom_modes, tom_draws,
                         tom_levels)
            fill_legal_mask(states[i], masks[i])
        encode_record(states[i], LEARNING_SEAT, obs[i])


@jit
def check_actions(actions, masks, skip, illegal, terminate_illegal):
    """-1 when the step may go on, else the index of the first game whose action is outside
    0..NUM_ACTIONS-1, or (unless ``terminate_illegal``) forbidden by its mask. Games where
    ``skip`` only need an action in range; ``illegal[i]`` says game i's action is forbidden."""
    for i in range(actions.shape[0]):
        a = actions[i]
        if a < 0 or a >= NUM_ACTIONS:
            return i
        illegal[i] = not skip[i] and not masks[i, a]
        if illegal[i] and not terminate_illegal:
            return i
    return -1


@jit
def step_kernel(states, raw, actions, seeds, num_agents, num_toms, tom_modes, tom_draws,
                tom_levels, obs, masks, dones, ended, ended_raw, ended_obs, illegal, terminate_illegal):
    """Apply ``actions`` to every game, restarting ended games at once (SB3's convention);
    returns how many games ended, or ``-1 - i`` when game ``i``'s action is refused (then no
    game is changed).

    ``masks`` must hold the current legal masks (as this kernel and ``reset_kernel`` leave them).
    An illegal action ends its game unapplied when ``terminate_illegal`` (``illegal[i]`` is set).
    An ended game's record, final observation and index go to row k of ``ended_raw``,
    ``ended_obs`` and ``ended`` (k counts the ended games), and it restarts with ``next_seed``;
    every game's observation and next mask go to ``obs`` and ``masks``."""
    for i in range(states.shape[0]):
        a = actions[i]
        if a < 0 or a >= NUM_ACTIONS:
            return -1 - i
        illegal[i] = not masks[i, a]
        if illegal[i] and not terminate_illegal:
            return -1 - i
    n = 0
    for i in range(states.shape[0]):
        if illegal[i]:
            dones[i] = True
        else:
            # The mask is the engine's own legality predicate (legal.is_legal), checked above for
            # every game before any changes, so the unchecked apply cannot take an illegal action.
            apply_unchecked(states[i], actions[i])
            dones[i] = states[i]["decision"] == DEC_GAME_OVER
        if dones[i]:
            ended[n] = i
            for b in range(raw.shape[1]):
                ended_raw[n, b] = raw[i, b]
            encode_record(states[i], LEARNING_SEAT, ended_obs[n])
            n += 1
            seeds[i] = next_seed(seeds[i])
            restart_game(states, raw, i, seeds[i], num_agents, num_toms, tom_modes, tom_draws,
                         tom_levels)
        encode_record(states[i], LEARNING_SEAT, obs[i])
        fill_legal_mask(states[i], masks[i])
    return n


@jit
def next_step_kernel(states, raw, actions, seeds, num_agents, num_toms, tom_modes, tom_draws,
                     tom_levels, obs, masks, terminated, autoreset, ended, illegal,
                     terminate_illegal):
    """Apply ``actions`` with Gymnasium's next-step autoreset; returns how many games ended, or
    ``-1 - i`` when game ``i``'s action is refused (then no game is changed).

    A game flagged in ``autoreset`` (it ended at the previous step) ignores its action and
    restarts with ``next_seed``; the others play theirs (``masks`` must hold the current legal
    masks). A game that ends, or takes an illegal action when ``terminate_illegal``
    (``illegal[i]`` set, the action unapplied), is ``terminated``, gets an all-False mask and the
    ``autoreset`` flag, and its index goes to ``ended``; its record stays as it ended until the
    next step. Every game's observation goes to ``obs``."""
    refused = check_actions(actions, masks, autoreset, illegal, terminate_illegal)
    if refused >= 0:
        return -1 - refused
    n = 0
    for i in range(states.shape[0]):
        if autoreset[i]:
            terminated[i] = False
            seeds[i] = next_seed(seeds[i])
            restart_game(states, raw, i, seeds[i], num_agents, num_toms, tom_modes, tom_draws,
                         tom_levels)
        elif illegal[i]:
            terminated[i] = True
        else:
            # Legal by the engine's own predicate (the mask, checked above for every game).
            apply_unchecked(states[i], actions[i])
            terminated[i] = states[i]["decision"] == DEC_GAME_OVER
        autoreset[i] = terminated[i]
        encode_record(states[i], LEARNING_SEAT, obs[i])
        if terminated[i]:
            ended[n] = i
            n += 1
            for a in range(NUM_ACTIONS):
                masks[i, a] = False
        else:
            fill_legal_mask(states[i], masks[i])
    return n
