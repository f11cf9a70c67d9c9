"""5th Avenue's engine verbs on single games (0-d records), as the game contract names them."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ..core.checked import apply_checked, refusal_text
from ..core.seeds import normal_seed
from . import kernels
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


def as_batch(state: np.ndarray) -> np.ndarray:
    """A one-game view (shape (1,)) of a single game's record; ValueError for anything else."""
    if not isinstance(state, np.ndarray) or state.dtype != STATE_DTYPE or state.size != 1:
        raise ValueError("state must be one 5th Avenue game (a record of fifth_avenue.STATE_DTYPE)")
    return state.reshape(1)


def new_game(config: GameConfig | None = None, seed: int | np.integer | None = None) -> np.ndarray:
    """A new game (0-d record) for ``config`` (default: two players), seeded ``seed`` (random when
    None), run to the first agent decision."""
    config = GameConfig() if config is None else config
    if not isinstance(config, GameConfig):
        raise ValueError(f"config must be a fifth_avenue.GameConfig, got {config!r}")
    seed = normal_seed(seed)
    states = np.zeros(1, STATE_DTYPE)
    kernels.init_record(states, 0, config_params(config), seed)
    return states.reshape(())


def current_player(state: np.ndarray) -> int:
    """The seat to decide, or -1 at the end."""
    return int(kernels.actor_of(as_batch(state)[0]))


def legal_mask(state: np.ndarray) -> NDArray[np.bool_]:
    """bool[NUM_ACTIONS]: the legal actions of the pending decision (all False at the end)."""
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    kernels.legal_mask_kernel(as_batch(state), 0, mask)
    return mask


def legal_actions(state: np.ndarray) -> NDArray[np.intp]:
    """The legal action ids."""
    return np.flatnonzero(legal_mask(state))


def pending_decision(state: np.ndarray) -> str:
    """The pending decision in words."""
    return DECISION_NAMES[int(as_batch(state)[0]["decision"])]


def apply_action(state: np.ndarray, action: int | np.integer) -> None:
    """Play ``action`` in place (then the engine's bots); a ValueError names an illegal action
    (the pending decision and the legal ones) and leaves the state as it was."""
    apply_checked(as_batch(state), action, NUM_ACTIONS, kernels.apply_kernel,
                  lambda a: refusal_text(a, NUM_ACTIONS, describe_action, current_player(state),
                                         pending_decision(state), legal_actions(state)))


def step(state: np.ndarray, action: int | np.integer) -> np.ndarray:
    """The pure form: a new record with ``action`` played; ``state`` is unchanged."""
    as_batch(state)
    out = state.copy()
    apply_action(out, action)
    return out


def is_terminal(state: np.ndarray) -> bool:
    """True after the final scoring."""
    return bool(kernels.is_over(as_batch(state)[0]))


def _require_terminal(state):
    if not is_terminal(state):
        raise ValueError("the game is not over yet")


def final_scores(state: np.ndarray) -> NDArray[np.int64]:
    """VP per seat at the end."""
    _require_terminal(state)
    rec = as_batch(state)[0]
    return rec["score"][:rec["num_players"]].astype(np.int64)


def winners(state: np.ndarray) -> tuple[int, ...]:
    """Every winning seat: the most VP, ties broken by the most cards left in hand, then shared."""
    _require_terminal(state)
    rec = as_batch(state)[0]
    return tuple(s for s in range(int(rec["num_players"])) if rec["winner_mask"] >> s & 1)


def placings(state: np.ndarray) -> NDArray[np.float64]:
    """Places per seat (0 = first) by VP then cards in hand; tied seats share the mean place."""
    _require_terminal(state)
    rec = as_batch(state)[0]
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
    _require_terminal(state)
    rec = as_batch(state)[0]
    return [{"total": int(rec["score"][s]), "cards in hand": int(rec["hand"][s].sum())}
            for s in range(int(rec["num_players"]))]


def greedy_choice(state: np.ndarray) -> int:
    """The greedy heuristic's action for the seat to move (bots.py)."""
    if is_terminal(state):
        raise ValueError("the game is over: there is nothing to choose")
    return int(kernels.greedy_kernel(as_batch(state), 0, np.zeros(NUM_ACTIONS, dtype=np.bool_)))
