"""The batch loops every game's envs run, written once and compiled per game (game contract).

Each kernel loops over B games in compiled code: start games, apply one action per game (the
engine runs the automatic participants), encode the learning seat's observation and fill its
legal mask. They call a game's compiled functions (``contract.GameKernels``) by the names bound
below. A game's ``batch`` module (``tiny_york_env/games/tiny_york/batch.py``,
``tiny_york_env/games/construction_yard/batch.py``) imports its own functions under these names and
calls ``specialise(globals(), __file__)``: the loops below are compiled again in that module, so
each call is direct and numba caches them on disk beside it (closures or functions passed as
arguments would be recompiled in every process: their cache keys change).

Actions are checked for every game before any game changes, so a refused step changes nothing.
The ``*_threads`` kernels do the same work with the games split over numba's threads (``prange``;
``use_threads`` sets how many): every game touches only its own rows, and what must be in game
order (the list of ended games) is made afterwards on one thread, so their results equal the
one-thread kernels' exactly. While a game plays, the next game's record is prefetched
(``core/prefetch.py``): a batch larger than the caches no longer waits on each of its fields.
``step_kernel`` restarts an ended game in the same step (SB3's convention, the ended record and
observation copied out first), ``next_step_kernel`` in the next one (Gymnasium's
``AutoresetMode.NEXT_STEP``, the ended record kept in place until then). Illegal actions (an id
in 0..NUM_ACTIONS-1 that the mask forbids): with ``terminate_illegal`` the game ends, its state
otherwise unchanged, flagged in ``illegal``; else the whole step is refused (the caller raises
the engine's ``ValueError``). An action outside 0..NUM_ACTIONS-1 is always refused.
"""

from pathlib import Path

import numpy as np
from numba import types
from numba.core.errors import TypingError
from numba.extending import overload

from .compact import COMPACT_DTYPE, quantize_row
from .jit import jit, jit_threads, prange
from .network import accumulated_argmax, start_accumulator, update_accumulator
from .network import masked_argmax as network_argmax
from .network import scan_buffers as network_scan_buffers
from .network import tower_output as network_output
from .prefetch import prefetch_row
from .rng import randbelow
from .seeds import next_seed

LEARNING_SEAT = 0  # automatic participants take the seats after the agents: the one agent is seat 0
# The game's names the loops call; each game's batch module binds its own before specialising.
GAME_NAMES = ("init_record", "fill_legal_mask", "apply_checked", "apply_unchecked", "is_over",
              "actor_of", "encode_record", "NUM_ACTIONS")
init_record = fill_legal_mask = apply_checked = apply_unchecked = None
is_over = actor_of = encode_record = None
NUM_ACTIONS = 0
# A game's compact-observation multipliers (core/compact.py), bound by its batch module beside
# the names above; a game without them (None) observes in float32 only.
OBS_QUANTA = None
ACCUMULATED_SEATS = 6  # seats whose first layer a playout keeps and updates (the most a built-in
# game seats; a seat beyond is evaluated whole)
REFUSED = -2  # apply_at's answer for an illegal action (else the next seat to decide, -1 at the end)
LOOPS_MARKER = "# --- the loops (compiled again in each game's batch module) ---"


def specialise(namespace: dict, filename: str) -> None:
    """Define the loops below in ``namespace`` (a game's batch module, whose file is
    ``filename``), calling the game functions it binds under ``GAME_NAMES``."""
    missing = [name for name in GAME_NAMES if name not in namespace]
    if missing:
        raise ValueError(f"a game's batch module must bind {missing} before specialise()")
    namespace.setdefault("OBS_QUANTA", None)
    namespace.update(np=np, jit=jit, overload=overload, types=types, TypingError=TypingError,
                     quantize_row=quantize_row, COMPACT_DTYPE=COMPACT_DTYPE, jit_threads=jit_threads,
                     prange=prange, next_seed=next_seed,
                     randbelow=randbelow, LEARNING_SEAT=LEARNING_SEAT, REFUSED=REFUSED,
                     network_argmax=network_argmax, network_output=network_output,
                     accumulated_argmax=accumulated_argmax, start_accumulator=start_accumulator,
                     update_accumulator=update_accumulator, ACCUMULATED_SEATS=ACCUMULATED_SEATS,
                     network_scan_buffers=network_scan_buffers, prefetch_row=prefetch_row)
    source = Path(__file__).read_text()
    start = source.index(LOOPS_MARKER)
    lines_before = source.count("\n", 0, start)  # keep line numbers (tracebacks, cache names)
    exec(compile("\n" * lines_before + source[start:], filename, "exec"), namespace)


# --- the loops (compiled again in each game's batch module) ---


def observe(record, seat, out):
    """``seat``'s observation of ``record`` into ``out``: float32 as the encoder writes it, or the
    compact uint8 form (core/compact.py) for a uint8 ``out``. Compiled code picks the form by
    ``out``'s type when it compiles (``observe_typed``), so the float32 loops are unchanged."""
    if out.dtype == COMPACT_DTYPE:
        row = np.empty(out.shape[0], np.float32)
        encode_record(record, seat, row)
        quantize_row(row, OBS_QUANTA, out)
    else:
        encode_record(record, seat, out)


@overload(observe)
def observe_typed(record, seat, out):
    """``observe`` for compiled callers: the encoder into a float32 ``out``; into a uint8 one, the
    encoder into a scratch row, then its bytes."""
    if out.dtype == types.float32:
        def encode_float(record, seat, out):
            encode_record(record, seat, out)
        return encode_float
    if out.dtype == types.uint8 and OBS_QUANTA is not None:
        def encode_compact(record, seat, out):
            row = np.empty(out.shape[0], np.float32)
            encode_record(record, seat, row)
            quantize_row(row, OBS_QUANTA, out)
        return encode_compact
    raise TypingError(f"observations are float32, or uint8 for a game with compact ones; got {out}")


@jit
def restart_game(states, raw, i, seed, params):
    """Game ``i`` becomes a fresh game seeded ``seed`` (on a zeroed record, as ``new_game``)."""
    for b in range(raw.shape[1]):
        raw[i, b] = 0
    init_record(states, i, params, seed)

@jit
def reset_one(states, raw, seeds, which, params, obs, masks, i):
    """Game ``i`` of ``reset_kernel``."""
    if which[i]:
        restart_game(states, raw, i, seeds[i], params)
        fill_legal_mask(states[i], masks[i])
    observe(states[i], LEARNING_SEAT, obs[i])

@jit
def reset_kernel(states, raw, seeds, which, params, obs, masks):
    """New games with ``seeds`` where ``which``, their legal masks into ``masks`` (the other
    rows are left alone); every game's observation into ``obs``."""
    for i in range(states.shape[0]):
        reset_one(states, raw, seeds, which, params, obs, masks, i)

@jit_threads
def reset_kernel_threads(states, raw, seeds, which, params, obs, masks):
    """``reset_kernel`` with the games split over numba's threads."""
    for i in prange(states.shape[0]):
        reset_one(states, raw, seeds, which, params, obs, masks, i)

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
def step_one(states, raw, actions, seeds, params, obs, masks, dones, ended_raw, ended_obs,
             illegal, i):
    """Game ``i`` of ``step_kernel``: play, and if it ended keep it in row i and restart it."""
    prefetch_row(raw, i + 1)  # the next game's record, on its way while this one plays
    if illegal[i]:
        dones[i] = True
    else:
        # The mask is the engine's own legality predicate, checked for every game before any
        # changes, so the unchecked apply cannot take an illegal action.
        apply_unchecked(states[i], actions[i])
        dones[i] = is_over(states[i])
    if dones[i]:
        for b in range(raw.shape[1]):
            ended_raw[i, b] = raw[i, b]
        observe(states[i], LEARNING_SEAT, ended_obs[i])
        seeds[i] = next_seed(seeds[i])
        restart_game(states, raw, i, seeds[i], params)
    observe(states[i], LEARNING_SEAT, obs[i])
    fill_legal_mask(states[i], masks[i])

@jit
def list_ended(dones, ended):
    """The ended games' indices, in order, into ``ended``; how many."""
    n = 0
    for i in range(dones.shape[0]):
        if dones[i]:
            ended[n] = i
            n += 1
    return n

@jit
def step_kernel(states, raw, actions, seeds, params, obs, masks, dones, ended, ended_raw,
                ended_obs, illegal, terminate_illegal):
    """Apply ``actions`` to every game, restarting ended games at once (SB3's convention);
    returns how many games ended, or ``-1 - i`` when game ``i``'s action is refused (then no
    game is changed).

    ``masks`` must hold the current legal masks (as this kernel and ``reset_kernel`` leave
    them). An illegal action ends its game unapplied when ``terminate_illegal``
    (``illegal[i]`` is set). An ended game i's record and final observation go to row i of
    ``ended_raw`` and ``ended_obs``, its index to ``ended`` (in order, as many as returned), and
    it restarts with ``next_seed``; every game's observation and next mask go to ``obs`` and
    ``masks``."""
    refused = check_actions(actions, masks, np.zeros(actions.shape[0], np.bool_), illegal,
                            terminate_illegal)
    if refused >= 0:
        return -1 - refused
    for i in range(states.shape[0]):
        step_one(states, raw, actions, seeds, params, obs, masks, dones, ended_raw, ended_obs,
                 illegal, i)
    return list_ended(dones, ended)

@jit_threads
def step_kernel_threads(states, raw, actions, seeds, params, obs, masks, dones, ended, ended_raw,
                        ended_obs, illegal, terminate_illegal):
    """``step_kernel`` with the games split over numba's threads (the same results)."""
    refused = check_actions(actions, masks, np.zeros(actions.shape[0], np.bool_), illegal,
                            terminate_illegal)
    if refused >= 0:
        return -1 - refused
    for i in prange(states.shape[0]):
        step_one(states, raw, actions, seeds, params, obs, masks, dones, ended_raw, ended_obs,
                 illegal, i)
    return list_ended(dones, ended)

@jit
def advance_one(states, raw, action, seeds, params, terminated, autoreset, illegal, i):
    """Game ``i``'s step with next-step autoreset: it restarts with ``next_seed`` if it ended at
    the previous step, ends unchanged on an ``illegal`` action, else plays ``action`` (legal by
    the engine's own predicate: the mask, checked by the caller)."""
    if autoreset[i]:
        terminated[i] = False
        seeds[i] = next_seed(seeds[i])
        restart_game(states, raw, i, seeds[i], params)
    elif illegal[i]:
        terminated[i] = True
    else:
        apply_unchecked(states[i], action)
        terminated[i] = is_over(states[i])
    autoreset[i] = terminated[i]

@jit
def next_step_one(states, raw, actions, seeds, params, obs, masks, terminated, autoreset, illegal, i):
    """Game ``i`` of ``next_step_kernel``."""
    prefetch_row(raw, i + 1)  # the next game's record, on its way while this one plays
    advance_one(states, raw, actions[i], seeds, params, terminated, autoreset, illegal, i)
    observe(states[i], LEARNING_SEAT, obs[i])
    if terminated[i]:
        for a in range(NUM_ACTIONS):
            masks[i, a] = False
    else:
        fill_legal_mask(states[i], masks[i])

@jit
def next_step_kernel(states, raw, actions, seeds, params, obs, masks, terminated, autoreset,
                     ended, illegal, terminate_illegal):
    """Apply ``actions`` with Gymnasium's next-step autoreset; returns how many games ended, or
    ``-1 - i`` when game ``i``'s action is refused (then no game is changed).

    A game flagged in ``autoreset`` (it ended at the previous step) ignores its action and
    restarts with ``next_seed``; the others play theirs (``masks`` must hold the current
    legal masks). A game that ends, or takes an illegal action when ``terminate_illegal``
    (``illegal[i]`` set, the action unapplied), is ``terminated``, gets an all-False mask and
    the ``autoreset`` flag, and its index goes to ``ended``; its record stays as it ended
    until the next step. Every game's observation goes to ``obs``."""
    refused = check_actions(actions, masks, autoreset, illegal, terminate_illegal)
    if refused >= 0:
        return -1 - refused
    for i in range(states.shape[0]):
        next_step_one(states, raw, actions, seeds, params, obs, masks, terminated, autoreset,
                      illegal, i)
    return list_ended(terminated, ended)

@jit_threads
def next_step_kernel_threads(states, raw, actions, seeds, params, obs, masks, terminated, autoreset,
                             ended, illegal, terminate_illegal):
    """``next_step_kernel`` with the games split over numba's threads (the same results)."""
    refused = check_actions(actions, masks, autoreset, illegal, terminate_illegal)
    if refused >= 0:
        return -1 - refused
    for i in prange(states.shape[0]):
        next_step_one(states, raw, actions, seeds, params, obs, masks, terminated, autoreset,
                      illegal, i)
    return list_ended(terminated, ended)


# Turn-based batches (every agent seat a learner: RLlib's multi-agent vector env). The seat to
# decide is each game's actor; the engine plays its automatic participants inside the apply.

@jit
def observe_actor(states, obs, masks, actors, terminated, i):
    """Game ``i``'s seat to decide into ``actors`` (-1 once ``terminated``), its observation into
    ``obs`` and its legal mask into ``masks`` (all False once ``terminated``)."""
    if terminated[i]:
        actors[i] = -1
        for a in range(NUM_ACTIONS):
            masks[i, a] = False
        return
    actors[i] = actor_of(states[i])
    observe(states[i], actors[i], obs[i])
    fill_legal_mask(states[i], masks[i])

@jit
def turn_reset_one(states, raw, seeds, which, params, obs, masks, actors, terminated, i):
    """Game ``i`` of ``turn_reset_kernel``."""
    if which[i]:
        restart_game(states, raw, i, seeds[i], params)
        terminated[i] = False
    observe_actor(states, obs, masks, actors, terminated, i)

@jit
def turn_reset_kernel(states, raw, seeds, which, params, obs, masks, actors, terminated):
    """New games with ``seeds`` where ``which``; every game's seat to decide, its observation and
    its legal mask into ``actors``, ``obs`` and ``masks`` (``terminated`` games: -1, all False)."""
    for i in range(states.shape[0]):
        turn_reset_one(states, raw, seeds, which, params, obs, masks, actors, terminated, i)

@jit_threads
def turn_reset_kernel_threads(states, raw, seeds, which, params, obs, masks, actors, terminated):
    """``turn_reset_kernel`` with the games split over numba's threads."""
    for i in prange(states.shape[0]):
        turn_reset_one(states, raw, seeds, which, params, obs, masks, actors, terminated, i)

@jit
def turn_step_one(states, raw, actions, seeds, params, obs, masks, actors, terminated, autoreset,
                  illegal, i):
    """Game ``i`` of ``turn_step_kernel``."""
    prefetch_row(raw, i + 1)  # the next game's record, on its way while this one plays
    a = actions[i]
    illegal[i] = not autoreset[i] and (a < 0 or a >= NUM_ACTIONS or not masks[i, a])
    advance_one(states, raw, a, seeds, params, terminated, autoreset, illegal, i)
    observe_actor(states, obs, masks, actors, terminated, i)

@jit
def turn_step_kernel(states, raw, actions, seeds, params, obs, masks, actors, terminated,
                     autoreset, ended, illegal):
    """One action per game for its actor (the seat in ``actors``), with Gymnasium's next-step
    autoreset (a game flagged in ``autoreset`` ignores its action and restarts with
    ``next_seed``); returns how many games ended, their indices in ``ended``.

    ``masks`` must hold the current legal masks (as this kernel and ``turn_reset_kernel`` leave
    them). An action outside 0..NUM_ACTIONS-1 or forbidden by the mask ends its game unapplied
    (``illegal[i]`` set), as RLlib's multi-agent env does. Afterwards ``actors``, ``obs`` and
    ``masks`` hold each game's next seat to decide, its observation and its legal mask (-1 and
    all False for a game that ended, whose record stays as it ended until the next step)."""
    for i in range(states.shape[0]):
        turn_step_one(states, raw, actions, seeds, params, obs, masks, actors, terminated,
                      autoreset, illegal, i)
    return list_ended(terminated, ended)

@jit_threads
def turn_step_kernel_threads(states, raw, actions, seeds, params, obs, masks, actors, terminated,
                             autoreset, ended, illegal):
    """``turn_step_kernel`` with the games split over numba's threads (the same results)."""
    for i in prange(states.shape[0]):
        turn_step_one(states, raw, actions, seeds, params, obs, masks, actors, terminated,
                      autoreset, illegal, i)
    return list_ended(terminated, ended)

@jit
def apply_at(states, i, action):
    """Apply ``action`` to game ``i``: the next seat to decide (-1 at the end), or REFUSED when
    it is illegal (the game unchanged); one compiled call per AEC step."""
    if apply_checked(states[i], action) != 0:
        return REFUSED
    return actor_of(states[i])


@jit
def mask_at(states, i, mask):
    """Game ``i``'s legal actions into ``mask``."""
    fill_legal_mask(states[i], mask)


@jit
def encode_at(states, i, seat, out):
    """``seat``'s observation of game ``i`` into ``out``."""
    observe(states[i], seat, out)


@jit
def actor_at(states, i):
    """The seat to decide in game ``i``, -1 at the end."""
    return actor_of(states[i])


legal_mask_kernel = mask_at  # the engine verbs' name (core/verbs.py)


@jit
def apply_kernel(states, i, action):
    """Apply ``action`` to game ``i`` (checked): the engine's status code, 0 when applied (the
    game unchanged otherwise); the engine verbs' ``apply_action``."""
    return apply_checked(states[i], action)


@jit
def legal_masks_batch(states, masks):
    """Legal masks of every game in the batch."""
    for i in range(states.shape[0]):
        fill_legal_mask(states[i], masks[i])


@jit
def apply_batch(states, actions, status):
    """Apply ``actions[i]`` (checked) to game ``i`` for the whole batch; status codes into ``status``."""
    for i in range(states.shape[0]):
        status[i] = apply_checked(states[i], actions[i])


@jit
def play_random_kernel(states, i, rng_words, max_decisions):
    """Play game ``i`` to the end (or ``max_decisions``) with uniformly random legal actions drawn
    from the generator ``rng_words`` (the k-th legal action for k drawn below their number);
    returns the number of decisions taken."""
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    n = 0
    while not is_over(states[i]) and n < max_decisions:
        fill_legal_mask(states[i], mask)
        k = randbelow(rng_words, np.sum(mask))
        for a in range(NUM_ACTIONS):
            if mask[a]:
                if k == 0:
                    apply_unchecked(states[i], a)
                    break
                k -= 1
        n += 1
    return n


@jit
def play_random_batch(states, rng_words, max_decisions):
    """Play every game of the batch to the end (or ``max_decisions`` each) with uniformly random
    legal actions drawn from the generator ``rng_words``; the total number of decisions (the
    engine benchmark, benchmarks/engine.py)."""
    total = 0
    for i in range(states.shape[0]):
        total += play_random_kernel(states, i, rng_words, max_decisions)
    return total


@jit
def rollout_observe(states, live, obs, masks):
    """For each ``live`` game the legal mask and the observation of the seat to decide; a game
    that has ended leaves ``live``. Returns how many are live (agents/policy_search.py)."""
    count = 0
    for i in range(states.shape[0]):
        if not live[i]:
            continue
        seat = actor_of(states[i])
        if seat < 0:
            live[i] = False
            continue
        fill_legal_mask(states[i], masks[i])
        encode_record(states[i], seat, obs[i])
        count += 1
    return count


@jit
def rollout_apply(states, live, actions):
    """Apply ``actions[i]`` (legal: the caller chose it from the mask) to every ``live`` game."""
    for i in range(states.shape[0]):
        if live[i]:
            apply_unchecked(states[i], actions[i])


@jit
def network_playout(states, i, seat, policy_first, policy_params, policy_widths, value_first,
                    value_params, value_widths, activation, value_depth, max_decisions, obs,
                    previous, accumulators, flags, indices, mask, logits):
    """Play game ``i`` on: every agent seat takes the policy tower's most probable legal action
    (the engine plays its automatic participants), to the end, or ``max_decisions``, or (when
    ``value_depth >= 0``) until ``value_depth`` decisions were taken: then the value tower's
    output for ``seat``'s observation, else NaN. Returns (that value, the decisions taken).

    Each seat's first layer is kept from its last decision and updated by what changed
    (``previous[s]``, ``accumulators[s]``, rows for the first ``len(previous)`` seats; a seat
    beyond them is evaluated whole)."""
    steps = 0
    started = np.zeros(previous.shape[0], np.bool_)
    while steps < max_decisions:
        actor = actor_of(states[i])
        if actor < 0:
            break
        if value_depth >= 0 and steps >= value_depth:
            encode_record(states[i], seat, obs)
            value = network_output(obs, value_first, value_params, value_widths, activation)
            return value[0], steps
        fill_legal_mask(states[i], mask)
        encode_record(states[i], actor, obs)
        if actor >= previous.shape[0]:
            action = network_argmax(obs, mask, policy_first, policy_params, policy_widths,
                                    activation, logits)
        else:
            if started[actor]:
                update_accumulator(obs, policy_first, previous[actor], accumulators[actor], flags,
                                   indices)
            else:
                start_accumulator(obs, policy_first, policy_params, previous[actor],
                                  accumulators[actor])
                started[actor] = True
            action = accumulated_argmax(accumulators[actor], mask, policy_first, policy_params,
                                        policy_widths, activation, logits)
        apply_unchecked(states[i], action)
        steps += 1
    return np.nan, steps


@jit
def network_playouts(states, seat, policy_first, policy_params, policy_widths, value_first,
                     value_params, value_widths, activation, value_depth, max_decisions, leaf):
    """Every game of the batch played on by ``network_playout`` in one compiled call (no return
    to Python between steps); each game's value cut-off (or NaN) into ``leaf``. Returns the
    policy evaluations made (agents/policy_search.py)."""
    obs = np.zeros(policy_first.shape[0], np.float32)
    previous = np.zeros((ACCUMULATED_SEATS, policy_first.shape[0]), np.float32)
    accumulators = np.zeros((ACCUMULATED_SEATS, policy_first.shape[1]), np.float32)
    flags, indices = network_scan_buffers(policy_first.shape[0])
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    logits = np.zeros(NUM_ACTIONS, np.float32)
    total = 0
    for i in range(states.shape[0]):
        leaf[i], steps = network_playout(states, i, seat, policy_first, policy_params,
                                         policy_widths, value_first, value_params, value_widths,
                                         activation, value_depth, max_decisions, obs, previous,
                                         accumulators, flags, indices, mask, logits)
        total += steps
    return total
