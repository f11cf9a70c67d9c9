"""The engine verbs of the game contract, written once over a game's compiled kernels.

A game's ``api.py`` makes one ``EngineVerbs`` from its kernels and exports its methods as the
module's functions (``new_game = VERBS.new_game``, ...): a single game is a 0-d numpy array of the
game's ``STATE_DTYPE``, a batch a 1-d array of them. What differs between games (scores, winners,
breakdowns) stays in each ``api.py``; a game that words its refusals its own way passes its
``VerbTexts``, and one whose documented names must be plain functions of its ``api`` (Tiny York's:
autodoc, ``tests/test_typing.py``) wraps the methods with ``module_function``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

import numpy as np
from numpy.typing import NDArray

from .checked import apply_checked, check_writeable, refusal_text
from .seeds import normal_seed


@dataclass(frozen=True)
class VerbTexts:
    """The words of the verbs' refusals: ``str.format`` templates over ``title`` (the game's) and
    what was given (``type``: its type's name, ``shape``, ``dtype``; each may go unused)."""

    not_a_state: str = ("state must be a numpy array of {title}'s STATE_DTYPE, as returned by its "
                        "new_game")
    not_single: str = "expected a single game (shape ()), got a batch of shape {shape}"
    not_a_batch: str = "states must be a 1-d numpy array of {title}'s STATE_DTYPE"
    not_a_config: str = "config must be a {title} GameConfig, got {type}"
    not_over: str = "the game is not over yet: final scores exist only after the final scoring"

    def say(self, template: str, title: str, given: object = None) -> str:
        """``template`` filled in for the game ``title`` and the value ``given``."""
        return template.format(title=title, type=type(given).__name__, shape=getattr(given, "shape", ""),
                               dtype=getattr(given, "dtype", "")).rstrip()


SHARED_TEXTS = VerbTexts()


def single_game_batch(state: np.ndarray, state_dtype: np.dtype, title: str,
                      texts: VerbTexts = SHARED_TEXTS) -> np.ndarray:
    """A (1,)-shaped view of a single game of ``title`` (records of ``state_dtype``), sharing its
    memory; ValueError for anything else (in the words of ``texts``)."""
    if not isinstance(state, np.ndarray) or state.dtype != state_dtype:
        raise ValueError(texts.say(texts.not_a_state, title, state))
    if state.shape in ((), (1,)):
        return state.reshape(1)
    raise ValueError(texts.say(texts.not_single, title, state))


P = ParamSpec("P")
R = TypeVar("R")


def module_function(method: Callable[P, R], module: str) -> Callable[P, R]:
    """``method`` (a verb of an ``EngineVerbs``) as a plain function of ``module``, with its name,
    docstring and signature."""
    @functools.wraps(method)
    def verb(*args: P.args, **kwargs: P.kwargs) -> R:
        return method(*args, **kwargs)

    verb.__module__ = module
    verb.__qualname__ = method.__name__
    return verb


def _python_form(kernel):
    """A compiled function's plain Python form (the function itself when it is not compiled)."""
    # a compiled function takes microseconds to type a record argument on each call from Python
    # (about 20 us against 1.5 us), and the verbs that read a field or two of a record are asked often
    # (the envs ask current_player each step, the rewards is_terminal several times a game end)
    return getattr(kernel, "py_func", kernel)


@dataclass(frozen=True)
class EngineVerbs:
    """The verbs of one game (docs/games.md), over its compiled kernels:
    ``init_record(states, i, params, seed)``, ``actor_of(rec)``, ``is_over(rec)``,
    ``legal_mask_kernel(states, i, mask)``, ``apply_kernel(states, i, action) -> status`` and,
    for the batch verbs, ``legal_masks_batch(states, masks)`` and ``apply_batch(states, actions,
    status)``."""

    title: str  # for messages: "Construction Yard"
    state_dtype: np.dtype
    num_actions: int
    config_type: type
    config_params: Callable[[Any], np.ndarray]
    init_record: Callable[..., None]
    actor_of: Callable[..., int]
    is_over: Callable[..., bool]
    legal_mask_kernel: Callable[..., None]
    apply_kernel: Callable[..., int]
    describe_action: Callable[[int], str]
    decision_names: Sequence[str]
    legal_masks_batch: Callable[..., None] | None = None
    apply_batch: Callable[..., None] | None = None
    texts: VerbTexts = SHARED_TEXTS  # the words of its refusals

    def check_config(self, config: Any) -> Any:
        """``config`` (the default config for None); ValueError for anything else."""
        config = self.config_type() if config is None else config
        if not isinstance(config, self.config_type):
            raise ValueError(self.texts.say(self.texts.not_a_config, self.title, config))
        return config

    def as_batch(self, state: np.ndarray) -> np.ndarray:
        """A (1,)-shaped view of a single game, sharing its memory; ValueError for anything else."""
        return single_game_batch(state, self.state_dtype, self.title, self.texts)

    def check_batch(self, states: np.ndarray) -> np.ndarray:
        """``states`` when it is a 1-d array of the game's records; ValueError otherwise."""
        if not isinstance(states, np.ndarray) or states.dtype != self.state_dtype or states.ndim != 1:
            raise ValueError(self.texts.say(self.texts.not_a_batch, self.title, states))
        return states

    def new_game(self, config: Any = None, seed: int | np.integer | None = None) -> np.ndarray:
        """A fresh game for ``config`` (the default config for None), seeded ``seed`` (random when
        None), set up and run to the first agent decision."""
        config = self.check_config(config)
        state = np.zeros((), dtype=self.state_dtype)
        self.init_record(state.reshape(1), 0, self.config_params(config), normal_seed(seed))
        return state

    def new_games(self, config: Any, seeds: Iterable[int | np.integer | None]) -> np.ndarray:
        """A batch of fresh games, one per seed."""
        config = self.check_config(config)
        seeds = [normal_seed(s) for s in seeds]
        states = np.zeros(len(seeds), dtype=self.state_dtype)
        params = self.config_params(config)
        for i, seed in enumerate(seeds):
            self.init_record(states, i, params, seed)
        return states

    def current_player(self, state: np.ndarray) -> int:
        """The seat to decide, or -1 when the game is over."""
        return int(_python_form(self.actor_of)(self.as_batch(state)[0]))

    def legal_mask(self, state: np.ndarray) -> NDArray[np.bool_]:
        """bool[num_actions]: the actions the seat to move may take (all False only at the end)."""
        mask = np.zeros(self.num_actions, dtype=np.bool_)
        self.legal_mask_kernel(self.as_batch(state), 0, mask)
        return mask

    def legal_actions(self, state: np.ndarray) -> NDArray[np.intp]:
        """The legal action ids, ascending."""
        return np.flatnonzero(self.legal_mask(state))

    def pending_decision(self, state: np.ndarray) -> str:
        """The pending decision in words."""
        return self.decision_names[int(self.as_batch(state)[0]["decision"])]

    def apply_action(self, state: np.ndarray, action: int | np.integer) -> None:
        """Apply ``action`` in place (then the engine's automatic participants); a ValueError names
        an illegal action (the pending decision and the legal ones) and leaves the state as it was."""
        apply_checked(self.as_batch(state), action, self.num_actions, self.apply_kernel,
                      lambda a: refusal_text(a, self.num_actions, self.describe_action,
                                             self.current_player(state), self.pending_decision(state),
                                             self.legal_actions(state)))

    def step(self, state: np.ndarray, action: int | np.integer) -> np.ndarray:
        """The pure form of ``apply_action``: a new state; the input is not changed."""
        self.as_batch(state)
        new = state.copy()
        self.apply_action(new, action)
        return new

    def is_terminal(self, state: np.ndarray) -> bool:
        """True once the game's final scoring is done."""
        return bool(_python_form(self.is_over)(self.as_batch(state)[0]))

    def require_terminal(self, state: np.ndarray) -> np.void:
        """The record of a finished game; ValueError while it is not over."""
        if not self.is_terminal(state):
            raise ValueError(self.texts.not_over)
        return self.as_batch(state)[0]

    def legal_masks(self, states: np.ndarray) -> NDArray[np.bool_]:
        """bool[B, num_actions] for a batch of games."""
        self.check_batch(states)
        masks = np.zeros((states.shape[0], self.num_actions), dtype=np.bool_)
        if self.legal_masks_batch is not None:
            self.legal_masks_batch(states, masks)
        else:
            for i in range(states.shape[0]):
                self.legal_mask_kernel(states, i, masks[i])
        return masks

    def apply_actions(self, states: np.ndarray,
                      actions: NDArray[np.integer] | Sequence[int]) -> NDArray[np.bool_]:
        """Apply one action per game in place; True where it was illegal (that game unchanged)."""
        self.check_batch(states)
        check_writeable(states, "apply_actions")
        actions = np.asarray(actions)
        if actions.shape != states.shape or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be integers, one per game ({states.shape[0]}); got "
                             f"shape {actions.shape} of {actions.dtype}")
        clipped = np.clip(actions, -1, self.num_actions).astype(np.int64)
        status = np.zeros(states.shape[0], dtype=np.int64)
        if self.apply_batch is not None:
            self.apply_batch(states, clipped, status)
        else:
            for i in range(states.shape[0]):
                status[i] = self.apply_kernel(states, i, clipped[i])
        return status != 0
