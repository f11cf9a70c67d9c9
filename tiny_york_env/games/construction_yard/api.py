"""The engine verbs of Construction Yard (the game contract, docs/games.md): thin Python wrappers
over the compiled kernels. A single game is a 0-d numpy array of ``STATE_DTYPE``; a batch is a
1-d array of them."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ...core.verbs import EngineVerbs
from . import batch, kernels
from .actions import NUM_ACTIONS, describe_action
from .config import GameConfig
from .data import MAX_PLAYERS, SCORING_NAMES
from .setup import NUM_PARAMS, PARAM_AGENTS, PARAM_BOTS, PARAM_PLAYERS
from .state import DECISION_NAMES, DIRK_ROW, GAME_TITLE, STATE_DTYPE


def config_params(config: GameConfig) -> NDArray[np.int64]:
    """The int64 parameter vector of ``config`` for ``kernels.init_record``."""
    params = np.zeros(NUM_PARAMS, dtype=np.int64)
    params[PARAM_PLAYERS] = config.num_players
    params[PARAM_AGENTS] = config.num_agents
    params[PARAM_BOTS:PARAM_BOTS + MAX_PLAYERS][:config.num_players] = config.bot_kinds()
    return params


VERBS = EngineVerbs(
    title=GAME_TITLE, state_dtype=STATE_DTYPE, num_actions=NUM_ACTIONS, config_type=GameConfig,
    config_params=config_params, init_record=kernels.init_record, actor_of=kernels.actor_of,
    is_over=kernels.is_over, legal_mask_kernel=batch.legal_mask_kernel,
    apply_kernel=batch.apply_kernel, describe_action=describe_action,
    decision_names=DECISION_NAMES,
    legal_masks_batch=batch.legal_masks_batch, apply_batch=batch.apply_batch)
as_batch = VERBS.as_batch
new_game = VERBS.new_game
new_games = VERBS.new_games
current_player = VERBS.current_player
legal_mask = VERBS.legal_mask
legal_actions = VERBS.legal_actions
pending_decision = VERBS.pending_decision
apply_action = VERBS.apply_action
step = VERBS.step
is_terminal = VERBS.is_terminal
legal_masks = VERBS.legal_masks
apply_actions = VERBS.apply_actions


def final_scores(state: np.ndarray) -> NDArray[np.int64]:
    """int array, one total per seat; only after the end (Dirk's is ``dirk_score``)."""
    rec = VERBS.require_terminal(state)
    return rec["score_lines"][:int(rec["num_players"])].sum(axis=1).astype(np.int64)


def dirk_score(state: np.ndarray) -> int | None:
    """Dirk's total (two-player games), None without Dirk."""
    rec = as_batch(state)[0]
    return int(rec["score_lines"][DIRK_ROW].sum()) if rec["has_dirk"] else None


def winners(state: np.ndarray) -> tuple[int, ...]:
    """Every seat with the highest total (tied players share the win; Dirk never wins)."""
    VERBS.require_terminal(state)
    mask = int(as_batch(state)[0]["winner_mask"])
    return tuple(seat for seat in range(MAX_PLAYERS) if mask >> seat & 1)


def placings(state: np.ndarray) -> NDArray[np.float64]:
    """Each seat's place by total, 0 = first; tied seats share the mean of their places."""
    scores = final_scores(state).astype(np.float64)
    return np.array([np.sum(scores > s) + (np.sum(scores == s) - 1) / 2.0 for s in scores])


def score_breakdown(state: np.ndarray) -> list[dict[str, int]]:
    """One dict per seat: points of scoring A, B and C, plus ``'total'``."""
    rec = VERBS.require_terminal(state)
    out = []
    for seat in range(int(rec["num_players"])):
        lines = {name: int(rec["score_lines"][seat, k]) for k, name in enumerate(SCORING_NAMES)}
        lines["total"] = sum(lines.values())
        out.append(lines)
    return out


def greedy_choice(state: np.ndarray) -> int:
    """The greedy heuristic's action for the seat to move (bots.py)."""
    if is_terminal(state):
        raise ValueError("the game is over: there is nothing to choose")
    return int(kernels.greedy_kernel(as_batch(state), 0, np.zeros(NUM_ACTIONS, dtype=np.bool_)))
