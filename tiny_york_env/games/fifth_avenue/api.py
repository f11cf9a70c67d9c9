"""5th Avenue's engine verbs on single games (0-d records), as the game contract names them."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ...core.verbs import EngineVerbs
from . import batch, kernels
from .actions import NUM_ACTIONS, describe_action
from .config import GameConfig
from .state import DECISION_NAMES, STATE_DTYPE


def config_params(config: GameConfig) -> NDArray[np.int64]:
    """The set-up kernel's parameters: players, agents, then each seat's kind (``kernels``)."""
    params = np.zeros(kernels.NUM_PARAMS, dtype=np.int64)
    params[kernels.PARAM_PLAYERS] = config.num_players
    params[kernels.PARAM_AGENTS] = config.num_agents
    params[kernels.PARAM_BOTS:kernels.PARAM_BOTS + config.num_players] = config.bot_kinds()
    return params


VERBS = EngineVerbs(
    title="5th Avenue", state_dtype=STATE_DTYPE, num_actions=NUM_ACTIONS, config_type=GameConfig,
    config_params=config_params, init_record=kernels.init_record, actor_of=kernels.actor_of,
    is_over=kernels.is_over, legal_mask_kernel=batch.legal_mask_kernel,
    apply_kernel=batch.apply_kernel, describe_action=describe_action,
    decision_names=DECISION_NAMES)
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
    """VP per seat at the end."""
    rec = VERBS.require_terminal(state)
    return rec["score"][:rec["num_players"]].astype(np.int64)


def winners(state: np.ndarray) -> tuple[int, ...]:
    """Every winning seat: the most VP, ties broken by the most cards left in hand, then shared."""
    rec = VERBS.require_terminal(state)
    return tuple(s for s in range(int(rec["num_players"])) if rec["winner_mask"] >> s & 1)


def placings(state: np.ndarray) -> NDArray[np.float64]:
    """Places per seat (0 = first) by VP then cards in hand; tied seats share the mean place."""
    rec = VERBS.require_terminal(state)
    n = int(rec["num_players"])
    keys = [(int(rec["score"][s]), int(rec["hand"][s].sum())) for s in range(n)]
    out = np.zeros(n, np.float64)
    for s in range(n):
        better = sum(1 for t in range(n) if keys[t] > keys[s])
        tied = sum(1 for t in range(n) if keys[t] == keys[s])
        out[s] = better + (tied - 1) / 2
    return out


def score_breakdown(state: np.ndarray) -> list[dict[str, int]]:
    """Per seat: the total and the cards left in hand (the tie rule)."""
    rec = VERBS.require_terminal(state)
    return [{"total": int(rec["score"][s]), "cards in hand": int(rec["hand"][s].sum())}
            for s in range(int(rec["num_players"]))]


def greedy_choice(state: np.ndarray) -> int:
    """The greedy heuristic's action for the seat to move (bots.py)."""
    if is_terminal(state):
        raise ValueError("the game is over: there is nothing to choose")
    return int(kernels.greedy_kernel(as_batch(state), 0, np.zeros(NUM_ACTIONS, dtype=np.bool_)))
