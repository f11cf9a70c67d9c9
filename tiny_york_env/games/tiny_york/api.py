"""The engine verbs (``spec/architecture.md``): thin Python wrappers over compiled kernels.

A single game is a 0-d numpy array of ``STATE_DTYPE``; a batch is a 1-d array of them. The verbs
every game shares come from one ``EngineVerbs`` (``core/verbs.py``) over this game's kernels, in
Tiny York's own words (``TEXTS``), as plain functions of this module (``module_function``: the
docs and ``tests/test_typing.py`` show them as such); what is Tiny York's alone (the Toms of a
config, the winner by press order, the score lines and end-game characters) is written here. The
records are trusted: ``load_state`` / ``validate_state`` check records from outside, and a
read-only array is refused by the verbs that change a state in place.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ...core.seeds import SEED_LIMIT, check_seed  # noqa: F401  (re-exported: game.api.SEED_LIMIT, check_seed)
from ...core.verbs import EngineVerbs, VerbTexts, module_function
from . import batch, kernels
from .actions import NUM_ACTIONS, describe_action
from .components import (
    BOROUGH_NAMES,
    FIRST_END_GAME_CHARACTER,
    MAX_SEATS,
    NUM_GAME_ROUNDS,
    TILE_CHARACTER,
    TOM_MODES,
)
from .config import GameConfig
from .press import press_rank
from .state import DECISION_NAMES, LOC_OWNED, NUM_SCORE_LINES, SCORE_BOROUGH, SCORE_LINE_NAMES, STATE_DTYPE


def config_params(config: GameConfig) -> NDArray[np.int64]:
    """The game contract's int64 parameter vector of ``config`` for ``kernels.init_record``."""
    params = np.zeros(kernels.NUM_PARAMS, dtype=np.int64)
    params[kernels.PARAM_NUM_AGENTS] = config.num_agents
    params[kernels.PARAM_NUM_TOMS] = len(config.toms)
    modes, draws, levels = params[kernels.PARAM_TOMS:].reshape(-1, MAX_SEATS)  # views, filled here
    for k, code in enumerate(config.toms):
        modes[k] = TOM_MODES.index(code[0])
        draws[k] = int(code[1])
        levels[k] = config.tom_levels[k]
    return params


def tom_arrays(config: GameConfig) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Each Tom's mode index (A=0, B=1, C=2), Phase-I draw count and level, as int arrays."""
    modes, draws, levels = config_params(config)[kernels.PARAM_TOMS:].reshape(-1, MAX_SEATS)
    return modes, draws, levels


# Tiny York was the package's first game: its refusals name STATE_DTYPE and GameConfig unqualified
# and say what to use instead.
TEXTS = VerbTexts(
    not_a_state="state must be a numpy array of STATE_DTYPE, as returned by new_game",
    not_single="expected a single game (shape ()), got a batch of shape {shape}; use the batch "
               "functions for batches",
    not_a_batch="states must be a 1-d numpy array of STATE_DTYPE (a batch from new_games); got "
                "{type} {shape} {dtype}",
    not_a_config="config must be a GameConfig, got {type}",
    not_over=f"the game is not over yet: final scores exist only after round {NUM_GAME_ROUNDS}")

VERBS = EngineVerbs(
    title="Tiny York", state_dtype=STATE_DTYPE, num_actions=NUM_ACTIONS, config_type=GameConfig,
    config_params=config_params, init_record=kernels.init_record, actor_of=kernels.actor_of,
    is_over=kernels.is_over, legal_mask_kernel=batch.legal_mask_kernel,
    apply_kernel=batch.apply_kernel, describe_action=describe_action,
    decision_names=DECISION_NAMES,
    legal_masks_batch=batch.legal_masks_batch, apply_batch=batch.apply_batch, texts=TEXTS)
as_batch = VERBS.as_batch
_as_batch = as_batch  # the name determinize.py imports
new_game = module_function(VERBS.new_game, __name__)
new_games = module_function(VERBS.new_games, __name__)
current_player = module_function(VERBS.current_player, __name__)
legal_mask = module_function(VERBS.legal_mask, __name__)
legal_actions = module_function(VERBS.legal_actions, __name__)
pending_decision = module_function(VERBS.pending_decision, __name__)
apply_action = module_function(VERBS.apply_action, __name__)
step = module_function(VERBS.step, __name__)
is_terminal = module_function(VERBS.is_terminal, __name__)
legal_masks = module_function(VERBS.legal_masks, __name__)
apply_actions = module_function(VERBS.apply_actions, __name__)


def final_scores(state: np.ndarray) -> NDArray[np.int64]:
    """int array, one total per seat (R20); only after the end."""
    rec = VERBS.require_terminal(state)
    return rec["score_lines"][:int(rec["num_seats"])].sum(axis=1).astype(np.int64)


def winner(state: np.ndarray) -> int:
    """The winning seat (R20: highest total, ties to the one ahead in press order)."""
    return int(VERBS.require_terminal(state)["winner"])


def winners(state: np.ndarray) -> tuple[int, ...]:
    """The game contract's winners: ``(winner(state),)`` (R20 leaves no tie)."""
    return (winner(state),)


def placings(state: np.ndarray) -> NDArray[np.float64]:
    """Each seat's place, 0 = first (R20: total, then press order; no ties)."""
    rec = VERBS.require_terminal(state)
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
    rec = VERBS.require_terminal(state)
    names = score_line_names()
    out = []
    for seat in range(int(rec["num_seats"])):
        lines = {names[k]: int(rec["score_lines"][seat, k]) for k in range(NUM_SCORE_LINES)}
        lines["total"] = sum(lines.values())
        out.append(lines)
    return out


def end_character_points(state: np.ndarray) -> list[dict[int, int]]:
    """One dict per seat: each end-game character (28-42) it owns -> its final-scoring points (R20, P8)."""
    rec = VERBS.require_terminal(state)
    out = []
    for seat in range(int(rec["num_seats"])):
        owned = (rec["tile_loc"] == LOC_OWNED) & (rec["tile_owner"] == seat)
        characters = sorted({int(c) for c in TILE_CHARACTER[owned] if c >= FIRST_END_GAME_CHARACTER})
        out.append({c: int(rec["end_character_points"][seat, c - FIRST_END_GAME_CHARACTER])
                    for c in characters})
    return out
