"""The one door for an action into any game's engine (spec/architecture.md: "checked verbs").

Every game's ``apply_action``, ``step`` and ``describe_action`` take an action from outside
through here, so that each refuses the same things with the same words: anything but a Python
or numpy integer (bools included) is a ValueError naming the allowed ids, an id outside the
action space or illegal at the pending decision is a ValueError naming the seat, the decision
and the legal actions, and the record is left as it was. Only a checked Python ``int`` inside
the space ever reaches compiled code, so no integer (``2**64``, say) can fail in numba's typing
or overflow int64 on the way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np

ApplyKernel = Callable[[np.ndarray, int, int], int]  # (states, i, action) -> 0 when applied


def is_int(x: object) -> bool:
    """True for Python and numpy integers, False for bools and everything else."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def int_action(action: object, num_actions: int) -> int:
    """``action`` as a Python int (any size); ValueError unless it is a Python or numpy integer."""
    if not is_int(action):
        raise ValueError(f"action must be an int in 0..{num_actions - 1} (a Python or numpy integer), "
                         f"got {action!r} of type {type(action).__name__}")
    return int(action)


def in_space(action: int, num_actions: int) -> bool:
    """True when the int ``action`` is an id of the action space 0..num_actions-1."""
    return 0 <= action < num_actions


def action_id(action: object, num_actions: int) -> int:
    """``action`` as an id of the action space; ValueError unless it is a Python or numpy integer
    (not a bool) in 0..num_actions-1."""
    action = int_action(action, num_actions)
    if not in_space(action, num_actions):
        raise ValueError(f"action {action} is outside the action space 0..{num_actions - 1}")
    return action


def check_writeable(array: np.ndarray, verb: str) -> None:
    """ValueError when ``verb``, which changes ``array`` in place, is given a read-only array."""
    if not array.flags.writeable:
        raise ValueError(f"{verb} changes the state in place, but this array is read-only (e.g. "
                         "np.frombuffer of saved bytes); pass a writeable copy, e.g. from load_state")


def refusal_text(action: int, num_actions: int, describe: Callable[[int], str], seat: int,
                 decision: str, legal: Iterable[int]) -> str:
    """The words of a refused action: what it is, whose decision it was and what is legal
    (``seat`` -1: the game is over)."""
    words = describe(action) if in_space(action, num_actions) else \
        f"outside the action space 0..{num_actions - 1}"
    if seat < 0:
        return f"action {action} ({words}): the game is over, no action is legal"
    return (f"illegal action {action} ({words}) for seat {seat}, whose pending decision is "
            f"'{decision}'; legal actions: " + ", ".join(f"{a} ({describe(int(a))})" for a in legal))


def apply_checked(batch: np.ndarray, action: object, num_actions: int, apply_kernel: ApplyKernel,
                  explain: Callable[[int], str]) -> None:
    """Apply ``action`` to the one-game view ``batch`` (shape (1,)) through the game's compiled
    ``apply_kernel``; a ValueError otherwise, with ``explain(action)`` for an id outside the space
    or illegal, and the record unchanged (the kernels refuse an illegal id without writing)."""
    check_writeable(batch, "apply_action")
    action = int_action(action, num_actions)
    if not in_space(action, num_actions) or apply_kernel(batch, 0, action) != 0:
        raise ValueError(explain(action))
