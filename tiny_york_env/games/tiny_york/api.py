"""The engine verbs (``spec/architecture.md``): thin Python wrappers over compiled kernels.

A single game is a 0-d numpy array of ``STATE_DTYPE``; a batch is a 1-d array of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import NDArray

from ...core.checked import apply_checked, check_writeable, refusal_text
from ...core.seeds import SEED_LIMIT, check_seed, normal_seed  # noqa: F401  (re-exported: game.api.SEED_LIMIT, check_seed)
from . import batch, kernels
from .actions import NUM_ACTIONS, describe_action
from .components import BOROUGH_NAMES, FIRST_END_GAME_CHARACTER, MAX_SEATS, TILE_CHARACTER, TOM_MODES
from .config import GameConfig
from .press import press_rank
from .state import (
    DEC_GAME_OVER,
    DECISION_NAMES,
    LOC_OWNED,
    NO_SEAT,
    NUM_SCORE_LINES,
    SCORE_BOROUGH,
    SCORE_LINE_NAMES,
    STATE_DTYPE,
)


def tom_arrays(config: GameConfig) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Each Tom's mode index (A=0, B=1, C=2), Phase-I draw count and level, as int arrays."""
    modes = np.zeros(MAX_SEATS, dtype=np.int64)
    draws = np.zeros(MAX_SEATS, dtype=np.int64)
    levels = np.zeros(MAX_SEATS, dtype=np.int64)
    for k, code in enumerate(config.toms):
        modes[k] = TOM_MODES.index(code[0])
        draws[k] = int(code[1])
        levels[k] = config.tom_levels[k]
    return modes, draws, levels


def config_params(config: GameConfig) -> NDArray[np.int64]:
    """The game contract's int64 parameter vector of ``config`` for ``kernels.init_record``."""
    params = np.zeros(kernels.NUM_PARAMS, dtype=np.int64)
    params[kernels.PARAM_NUM_AGENTS] = config.num_agents
    params[kernels.PARAM_NUM_TOMS] = len(config.toms)
    params[kernels.PARAM_TOMS:] = np.concatenate(tom_arrays(config))
    return params


def _as_batch(state):
    """A (1,)-shaped view of a single game, sharing its memory."""
    if not isinstance(state, np.ndarray) or state.dtype != STATE_DTYPE:
        raise ValueError("state must be a numpy array of STATE_DTYPE, as returned by new_game")
    if state.shape == ():
        return state.reshape(1)
    if state.shape == (1,):
        return state
    raise ValueError(f"expected a single game (shape ()), got a batch of shape {state.shape}; "
                     "use the batch functions for batches")


def _check_batch(states):
    """``states`` must be a 1-d array of STATE_DTYPE."""
    if not isinstance(states, np.ndarray) or states.dtype != STATE_DTYPE or states.ndim != 1:
        raise ValueError("states must be a 1-d numpy array of STATE_DTYPE (a batch from new_games); "
                         f"got {type(states).__name__} "
                         f"{getattr(states, 'shape', '')} {getattr(states, 'dtype', '')}".rstrip())
    return states


def _check_config(config):
    config = GameConfig() if config is None else config
    if not isinstance(config, GameConfig):
        raise ValueError(f"config must be a GameConfig, got {type(config).__name__}")
    return config


def new_game(config: GameConfig | None = None, seed: int | np.integer | None = None) -> np.ndarray:
    """A fresh game for ``config`` (default: 2 agents), set up and waiting for the first decision."""
    config = _check_config(config)
    state = np.zeros((), dtype=STATE_DTYPE)
    kernels.new_game_kernel(state.reshape(1), 0, config.num_agents, len(config.toms),
                            *tom_arrays(config), normal_seed(seed))
    return state


def new_games(config: GameConfig | None, seeds: Iterable[int | np.integer | None]) -> np.ndarray:
    """A batch of fresh games, one per seed."""
    config = _check_config(config)
    seeds = [normal_seed(s) for s in seeds]
    states = np.zeros(len(seeds), dtype=STATE_DTYPE)
    toms = tom_arrays(config)
    for i, seed in enumerate(seeds):
        kernels.new_game_kernel(states, i, config.num_agents, len(config.toms), *toms, seed)
    return states


def current_player(state: np.ndarray) -> int:
    """The seat to decide, or -1 when the game is over."""
    batch = _as_batch(state)
    return NO_SEAT if batch[0]["decision"] == DEC_GAME_OVER else int(batch[0]["actor"])


def legal_mask(state: np.ndarray) -> NDArray[np.bool_]:
    """bool[NUM_ACTIONS]: the actions the seat to move may take (all False only at the end).
    The record is trusted (``load_state`` / ``validate_state`` check records from outside)."""
    mask = kernels.empty_mask()
    batch.legal_mask_kernel(_as_batch(state), 0, mask)
    return mask


def legal_actions(state: np.ndarray) -> NDArray[np.intp]:
    """The legal action ids, ascending."""
    return np.flatnonzero(legal_mask(state))


def pending_decision(state: np.ndarray) -> str:
    """The pending decision in words, e.g. ``'take a pair of cards'``."""
    return DECISION_NAMES[int(_as_batch(state)[0]["decision"])]


def apply_action(state: np.ndarray, action: int | np.integer) -> None:
    """Apply ``action`` in place; a ValueError names an illegal action and leaves the state as it was.
    The record is trusted (``load_state`` / ``validate_state`` check records from outside); a
    read-only array is refused."""
    apply_checked(_as_batch(state), action, NUM_ACTIONS, batch.apply_kernel,
                  lambda a: refusal_text(a, NUM_ACTIONS, describe_action, current_player(state),
                                         pending_decision(state), legal_actions(state)))


def step(state: np.ndarray, action: int | np.integer) -> np.ndarray:
    """The pure form of ``apply_action``: a new state; the input is not changed."""
    _as_batch(state)
    new = state.copy()
    apply_action(new, action)
    return new


def is_terminal(state: np.ndarray) -> bool:
    """True once the final scoring is done."""
    return bool(_as_batch(state)[0]["decision"] == DEC_GAME_OVER)


def _require_terminal(state):
    if not is_terminal(state):
        raise ValueError("the game is not over yet: final scores exist only after round 5")


def final_scores(state: np.ndarray) -> NDArray[np.int64]:
    """int array, one total per seat (R20); only after the end."""
    _require_terminal(state)
    rec = _as_batch(state)[0]
    n = int(rec["num_seats"])
    return rec["score_lines"][:n].sum(axis=1).astype(np.int64)


def winner(state: np.ndarray) -> int:
    """The winning seat (R20: highest total, ties to the one ahead in press order)."""
    _require_terminal(state)
    return int(_as_batch(state)[0]["winner"])


def winners(state: np.ndarray) -> tuple[int, ...]:
    """The game contract's winners: ``(winner(state),)`` (R20 leaves no tie)."""
    return (winner(state),)


def placings(state: np.ndarray) -> NDArray[np.float64]:
    """Each seat's place, 0 = first (R20: total, then press order; no ties)."""
    _require_terminal(state)
    rec = _as_batch(state)[0]
    scores = final_scores(state)
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], press_rank(rec, s)))
    out = np.empty(len(scores), dtype=np.float64)
    for place, seat in enumerate(order):
        out[seat] = place
    return out


def score_line_names() -> list[str]:
    """The names of the score breakdown lines, boroughs named."""
    names = list(SCORE_LINE_NAMES)
    for b, name in enumerate(BOROUGH_NAMES):
        names[SCORE_BOROUGH + b] = name
    return names


def score_breakdown(state: np.ndarray) -> list[dict[str, int]]:
    """One dict per seat: score line name -> points, plus ``'total'``."""
    _require_terminal(state)
    rec = _as_batch(state)[0]
    names = score_line_names()
    out = []
    for seat in range(int(rec["num_seats"])):
        lines = {names[k]: int(rec["score_lines"][seat, k]) for k in range(NUM_SCORE_LINES)}
        lines["total"] = sum(lines.values())
        out.append(lines)
    return out


def end_character_points(state: np.ndarray) -> list[dict[int, int]]:
    """One dict per seat: each end-game character (28-42) it owns -> its final-scoring points (R20, P8)."""
    _require_terminal(state)
    rec = _as_batch(state)[0]
    out = []
    for seat in range(int(rec["num_seats"])):
        owned = (rec["tile_loc"] == LOC_OWNED) & (rec["tile_owner"] == seat)
        characters = sorted({int(c) for c in TILE_CHARACTER[owned] if c >= FIRST_END_GAME_CHARACTER})
        out.append({c: int(rec["end_character_points"][seat, c - FIRST_END_GAME_CHARACTER])
                    for c in characters})
    return out


def legal_masks(states: np.ndarray) -> NDArray[np.bool_]:
    """bool[B, NUM_ACTIONS] for a batch of games."""
    _check_batch(states)
    masks = np.zeros((states.shape[0], NUM_ACTIONS), dtype=np.bool_)
    batch.legal_masks_batch(states, masks)
    return masks


def apply_actions(states: np.ndarray, actions: NDArray[np.integer] | Sequence[int]) -> NDArray[np.bool_]:
    """Apply one action per game in place; returns a bool array, True where it was illegal
    (those games are left unchanged). The records are trusted (``load_state`` /
    ``validate_state`` check records from outside); a read-only array is refused."""
    _check_batch(states)
    check_writeable(states, "apply_actions")
    actions = np.asarray(actions)
    if actions.shape != states.shape or not np.issubdtype(actions.dtype, np.integer):
        raise ValueError(f"actions must be integers, one per game ({states.shape[0]}); got "
                         f"shape {actions.shape} of {actions.dtype}")
    status = np.zeros(states.shape[0], dtype=np.int64)
    actions = np.clip(actions, -1, NUM_ACTIONS).astype(np.int64)  # out of range stays illegal
    batch.apply_batch(states, actions, status)
    return status != 0
