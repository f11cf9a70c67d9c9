"""The engine verbs of Sealed Bids (the game contract, docs/games.md): thin Python wrappers over
the compiled kernels. A single game is a 0-d numpy array of ``STATE_DTYPE``; a batch is a 1-d
array of them. Actions from outside come in through ``core/checked.py``."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numpy.typing import NDArray

from tiny_york_env.contract import placings_from_scores
from tiny_york_env.core.checked import apply_checked, refusal_text
from tiny_york_env.core.seeds import normal_seed

from . import batch, kernels
from .actions import NUM_ACTIONS, describe_action
from .config import GameConfig
from .setup import NUM_PARAMS, PARAM_AGENTS, PARAM_BOTS, PARAM_PLAYERS
from .state import DEC_GAME_OVER, DECISION_NAMES, MAX_PLAYERS, NO_SEAT, STATE_DTYPE


def config_params(config: GameConfig) -> NDArray[np.int64]:
    """The int64 parameter vector of ``config`` for ``kernels.init_record``."""
    params = np.zeros(NUM_PARAMS, dtype=np.int64)
    params[PARAM_PLAYERS] = config.num_players
    params[PARAM_AGENTS] = config.num_agents
    params[PARAM_BOTS:PARAM_BOTS + MAX_PLAYERS][:config.num_players] = config.bot_kinds()
    return params


def _check_config(config):
    config = GameConfig() if config is None else config
    if not isinstance(config, GameConfig):
        raise ValueError(f"config must be a Sealed Bids GameConfig, got {type(config).__name__}")
    return config


def as_batch(state: np.ndarray) -> np.ndarray:
    """A (1,)-shaped view of a single game, sharing its memory; ValueError for anything else."""
    if not isinstance(state, np.ndarray) or state.dtype != STATE_DTYPE:
        raise ValueError("state must be a numpy array of Sealed Bids' STATE_DTYPE, as returned by "
                         "new_game")
    if state.shape == ():
        return state.reshape(1)
    if state.shape == (1,):
        return state
    raise ValueError(f"expected a single game (shape ()), got a batch of shape {state.shape}")


def new_game(config: GameConfig | None = None, seed: int | np.integer | None = None) -> np.ndarray:
    """A fresh game for ``config`` (default: two agents), set up and waiting for the first agent
    decision."""
    config = _check_config(config)
    state = np.zeros((), dtype=STATE_DTYPE)
    kernels.init_record(state.reshape(1), 0, config_params(config), normal_seed(seed))
    return state


def new_games(config: GameConfig | None, seeds: Iterable[int | np.integer | None]) -> np.ndarray:
    """A batch of fresh games, one per seed."""
    config = _check_config(config)
    seeds = [normal_seed(s) for s in seeds]
    states = np.zeros(len(seeds), dtype=STATE_DTYPE)
    params = config_params(config)
    for i, seed in enumerate(seeds):
        kernels.init_record(states, i, params, seed)
    return states


def is_terminal(state: np.ndarray) -> bool:
    """True once the last round is resolved (R6)."""
    return bool(as_batch(state)[0]["decision"] == DEC_GAME_OVER)


def current_player(state: np.ndarray) -> int:
    """The seat to decide, or -1 when the game is over."""
    return NO_SEAT if is_terminal(state) else int(kernels.actor_of(as_batch(state)[0]))


def legal_mask(state: np.ndarray) -> NDArray[np.bool_]:
    """bool[NUM_ACTIONS]: the actions the seat to move may take (all False only at the end)."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    batch.legal_mask_kernel(as_batch(state), 0, mask)
    return mask


def legal_actions(state: np.ndarray) -> NDArray[np.intp]:
    """The legal action ids, ascending."""
    return np.flatnonzero(legal_mask(state))


def pending_decision(state: np.ndarray) -> str:
    """The pending decision in words."""
    return DECISION_NAMES[int(as_batch(state)[0]["decision"])]


def apply_action(state: np.ndarray, action: int | np.integer) -> None:
    """Apply ``action`` in place; a ValueError names an illegal action (the pending decision and
    the legal ones) and leaves the state as it was."""
    apply_checked(as_batch(state), action, NUM_ACTIONS, batch.apply_kernel,
                  lambda a: refusal_text(a, NUM_ACTIONS, describe_action, current_player(state),
                                         pending_decision(state), legal_actions(state)))


def step(state: np.ndarray, action: int | np.integer) -> np.ndarray:
    """The pure form of ``apply_action``: a new state; the input is not changed."""
    as_batch(state)
    new = state.copy()
    apply_action(new, action)
    return new


def _require_terminal(state):
    if not is_terminal(state):
        raise ValueError("the game is not over yet: final scores exist only after the last round")


def final_scores(state: np.ndarray) -> NDArray[np.int64]:
    """int array, one total of prize values per seat; only after the end."""
    _require_terminal(state)
    rec = as_batch(state)[0]
    return rec["score"][:int(rec["num_players"])].astype(np.int64)


def winners(state: np.ndarray) -> tuple[int, ...]:
    """Every seat with the highest score (tied seats share the win, R6)."""
    _require_terminal(state)
    mask = int(as_batch(state)[0]["winner_mask"])
    return tuple(seat for seat in range(MAX_PLAYERS) if mask >> seat & 1)


def placings(state: np.ndarray) -> NDArray[np.float64]:
    """Each seat's place by score, 0 = first; tied seats share the mean of their places."""
    return placings_from_scores(final_scores(state))


def score_breakdown(state: np.ndarray) -> list[dict[str, int]]:
    """One dict per seat: the number of prizes won and ``'total'``, their value."""
    _require_terminal(state)
    rec = as_batch(state)[0]
    return [{"prizes_won": int(np.sum(rec["round_winner"] == seat)), "total": int(rec["score"][seat])}
            for seat in range(int(rec["num_players"]))]


def greedy_choice(state: np.ndarray) -> int:
    """The greedy bot's action for the seat to move (bots.py)."""
    if is_terminal(state):
        raise ValueError("the game is over: there is nothing to choose")
    return int(kernels.greedy_kernel(as_batch(state), 0, np.zeros(NUM_ACTIONS, dtype=np.bool_)))
