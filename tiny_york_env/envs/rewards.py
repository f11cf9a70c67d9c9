"""End-of-game rewards shared by every env: ``"win"``, ``"rank"`` and ``"score"``; the
illegal-action options every env takes (``illegal_action``, ``illegal_reward``); and the error of
a call that needs a game before the first ``reset()``.

All rewards are zero until the game ends. Over all participants (Toms and bots included; not
Construction Yard's Dirk, who is not a player) "win" and "rank" sum to zero; agents receive their
own share. They are written once for every game through the contract (``winners``,
``placings``, ``final_scores``, ``score_scale``); the game is found from the record's dtype.

An *illegal* action is an id in the action space (0..NUM_ACTIONS-1) that the current mask
forbids; what happens then is the env's ``illegal_action`` option: ``"raise"`` (the engine's
``ValueError``, nothing changed) or ``"terminate"`` (PettingZoo classic's convention: the game
ends, the offender gets ``illegal_reward``, the others 0). Anything outside the action space
(out of range, a bool, a float, a string) is a ``ValueError`` whatever the option.
"""

import math
import warnings
from collections.abc import Sequence
from numbers import Real

import numpy as np

from ..contract import Game
from ..core.checked import action_id as checked_action_id
from ..core.checked import is_int
from ..registry import game_of_state

REWARD_KINDS = ("win", "rank", "score")
# "random" (play a random legal move instead) is deliberately not offered: it would train a
# policy on actions it did not choose; action masking is the tool for that.
ILLEGAL_ACTION_MODES = ("raise", "terminate")
DEFAULT_ILLEGAL_REWARD = -1.0  # PettingZoo classic's TerminateIllegalWrapper penalty



def not_reset_error(verb: str) -> ValueError:
    """The ValueError of every env for ``verb`` (step, action_masks, observe, ...) called before its
    first ``reset()``."""
    return ValueError(f"call reset() before {verb}(): there is no game yet")


def warn_first_illegal(env, i, action, infos_key):
    """Warn at ``env``'s first illegal action (game ``i``); later ones show only in ``infos_key``."""
    if not env._warned_illegal:
        env._warned_illegal = True
        warnings.warn(f"env {i}: illegal action {action} ended its game with reward "
                      f"{env.illegal_reward} (illegal_action='terminate'; further illegal "
                      f"actions are reported only in {infos_key})", stacklevel=4)


def check_illegal_action(mode: str) -> str:
    """``mode``; ValueError unless it is one of ILLEGAL_ACTION_MODES."""
    if not isinstance(mode, str) or mode not in ILLEGAL_ACTION_MODES:
        raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, got {mode!r}")
    return mode


def check_illegal_reward(reward: float) -> float:
    """``reward`` as a float; ValueError unless it is a finite real number."""
    if isinstance(reward, (bool, np.bool_)) or not isinstance(reward, Real) or not math.isfinite(reward):
        raise ValueError(f"illegal_reward must be a finite number, got {reward!r}")
    return float(reward)


def check_render_mode(render_mode: str | None, modes: Sequence[str]) -> str | None:
    """``render_mode`` when it is None or one of the env's ``modes``; ValueError naming them."""
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode must be None or one of {tuple(modes)}, got {render_mode!r}")
    return render_mode


def action_id(action: object, num_actions: int) -> int:
    """``action`` as an int of the action space; ValueError unless it is a Python or numpy int
    (not a bool) or a one-element integer array (as SB3 passes actions) in 0..num_actions-1.
    The range and its words are the engines' own
    (``core.checked``)."""
    if (isinstance(action, np.ndarray) and action.size == 1
            and np.issubdtype(action.dtype, np.integer)):
        action = action.reshape(())[()]
    if not is_int(action):
        raise ValueError(f"action must be an int in 0..{num_actions - 1} (a Python or numpy integer, "
                         f"or a one-element integer array), got {action!r}")
    return checked_action_id(action, num_actions)


def check_reward_kind(kind):
    """ValueError unless ``kind`` is one of REWARD_KINDS."""
    if kind not in REWARD_KINDS:
        raise ValueError(f"reward must be one of {REWARD_KINDS}, got {kind!r}")
    return kind


def final_rewards(state: np.ndarray, kind: str, game: Game | None = None) -> np.ndarray:
    """float64[participants]: each seat's reward for the finished game ``state`` (its game is
    found from the record when ``game`` is None).

    - "win": a seat's share of the win s (1 for a sole winner, 1/k for each of k tied winners,
      else 0) becomes (P * s - 1) / (P - 1): +1 to a sole winner and -1/(P-1) to each other
      participant (+1/-1 for two); zero-sum.
    - "rank": 1 - 2 * place / (P - 1), place 0 for first (the game's ``placings``: tied seats
      share the mean place); +1 for first down to -1 for last; zero-sum.
    - "score": (own total - best other total) / the game's ``score_scale`` (50 for Tiny York).
    """
    return final_outcome(state, kind, game)[0]


def final_outcome(state: np.ndarray, kind: str, game: Game | None = None) -> tuple[np.ndarray, dict]:
    """(``final_rewards``, ``final_info``) of the finished game ``state``, its scores and winners
    read once (the batch envs' path for every game that ends)."""
    check_reward_kind(kind)
    game = game_of_state(state) if game is None else game
    scores = game.final_scores(state)
    winners = game.winners(state)
    n = len(scores)
    if kind == "win":
        share = np.zeros(n)
        share[list(winners)] = 1.0 / len(winners)
        rewards = (n * share - 1.0) / (n - 1)
    elif kind == "rank":
        rewards = 1.0 - 2.0 * game.placings(state) / (n - 1)
    else:
        totals = scores.astype(np.float64)
        best_other = np.array([np.max(np.delete(totals, s)) for s in range(n)])
        rewards = (totals - best_other) / game.score_scale
    return rewards, end_info(scores, winners)


def final_info(game: Game, state: np.ndarray) -> dict:
    """The end-of-game info every env adds: ``final_scores`` (int array per seat) and ``winner``
    (the first winning seat; tied winners show in the scores and share the "win" reward)."""
    return end_info(game.final_scores(state), game.winners(state))


def end_info(scores: np.ndarray, winners: Sequence[int]) -> dict:
    """The end-of-game info of ``scores`` and ``winners``: ``final_scores`` and the first winner."""
    return {"final_scores": scores, "winner": winners[0]}
