"""``GameConfig``: who plays (R1). Agents take the first seats; Toms, when built, the rest."""

from __future__ import annotations

from collections.abc import Sequence, Set
from dataclasses import dataclass
from string import digits

import numpy as np

from ...core.labels import count_noun
from .components import MAX_SEATS, MIN_PARTICIPANTS, TOM_LEVEL_CODES, TOM_MAX_DRAW, TOM_MIN_DRAW, TOM_MODES

MIN_AGENTS = 1
NUM_TOM_LEVELS = len(TOM_LEVEL_CODES)
TOM_CODE_LENGTH = 2
ALLOWED_TOMS = (f"a level 1-{NUM_TOM_LEVELS} or a code of mode {'/'.join(TOM_MODES)} and "
                f"Phase-I draw count {TOM_MIN_DRAW}-{TOM_MAX_DRAW}, e.g. 'B4'")


def _is_int(x: object) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def tom_code(spec: int | str) -> str:
    """The code ('A6'..'C9') of a Tom given as a level 1-12 or a code (solo rules' table)."""
    if _is_int(spec):
        if not 1 <= spec <= NUM_TOM_LEVELS:
            raise ValueError(f"Tom level {spec} is out of range: a Tom is {ALLOWED_TOMS}")
        return TOM_LEVEL_CODES[int(spec) - 1]
    if isinstance(spec, str):
        code = spec.strip().upper()
        # ASCII digits only: str.isdigit() also passes '²' and '४', which int() reads or refuses.
        if (len(code) == TOM_CODE_LENGTH and code[0] in TOM_MODES and code[1] in digits
                and TOM_MIN_DRAW <= int(code[1]) <= TOM_MAX_DRAW):
            return code
    raise ValueError(f"bad Tom {spec!r}: a Tom is {ALLOWED_TOMS}")


def _check_tom_sequence(toms: object) -> None:
    """ValueError unless ``toms`` is an ordered sequence (the Toms take the seats in its order)."""
    ordered = (isinstance(toms, Sequence) and not isinstance(toms, (str, bytes, bytearray))) or (
        isinstance(toms, np.ndarray) and toms.ndim == 1)
    if not ordered:
        if isinstance(toms, (str, bytes, bytearray)) or not hasattr(toms, "__iter__"):
            why = "a single value or a string is not a list of Toms"
        elif isinstance(toms, Set):
            why = "a set has no fixed order, so the Toms' seats would be arbitrary"
        else:
            why = "other collections and iterators (dicts, generators) are refused"
        raise ValueError(f"toms must be a sequence such as a tuple or list of Tom levels (1-12) or "
                         f"codes like 'B4', one per Tom in seat order; got {toms!r} of type "
                         f"{type(toms).__name__} ({why})")


def tom_level(code: str) -> int:
    """The level 1-12 of a Tom code from the rulebook's table, or 0 for another combination."""
    return TOM_LEVEL_CODES.index(code) + 1 if code in TOM_LEVEL_CODES else 0


def tom_label(spec: int | str) -> str:
    """A Tom for people: 'Tom 5 (B4)', or 'Tom (B9)' for a code outside the rulebook's table."""
    code = tom_code(spec)
    level = tom_level(code)
    return f"Tom {level} ({code})" if level else f"Tom ({code})"


@dataclass(frozen=True)
class GameConfig:
    """Who plays (R1): ``num_agents`` seats decided from outside (1-4) and 0-3 Toms run by the
    engine, 2-4 participants in all. Each Tom is a level 1-12 or a code like ``"B4"`` (mode A,
    B or C and Phase-I draw count 2-9 in ASCII digits, the solo rules); codes are kept
    normalised. ``toms`` is a sequence (tuple, list, 1-d array) in seat order: the Toms take the
    seats after the agents in that order, so sets and other unordered collections are refused."""

    num_agents: int = 2
    toms: Sequence[int | str] = ()  # kept as a tuple of codes after checking

    def __post_init__(self) -> None:
        if isinstance(self.num_agents, (bool, np.bool_)) or not isinstance(
                self.num_agents, (int, np.integer)):
            raise ValueError(f"num_agents must be an int from {MIN_AGENTS} to {MAX_SEATS}, "
                             f"got {self.num_agents!r}")
        object.__setattr__(self, "num_agents", int(self.num_agents))
        if not MIN_AGENTS <= self.num_agents <= MAX_SEATS:
            raise ValueError(f"num_agents must be {MIN_AGENTS}-{MAX_SEATS} (R1), "
                             f"got {self.num_agents}")
        _check_tom_sequence(self.toms)
        object.__setattr__(self, "toms", tuple(tom_code(t) for t in self.toms))
        participants = self.num_agents + len(self.toms)
        if not MIN_PARTICIPANTS <= participants <= MAX_SEATS:
            raise ValueError(f"a game has {MIN_PARTICIPANTS}-{MAX_SEATS} participants (agents + "
                             f"Toms, R1); got {count_noun(self.num_agents, 'agent')} and "
                             f"{count_noun(len(self.toms), 'Tom')}")

    @property
    def tom_levels(self) -> tuple[int, ...]:
        """Each Tom's level 1-12 (0 for a code outside the rulebook's table)."""
        return tuple(tom_level(code) for code in self.toms)

    @property
    def num_participants(self) -> int:
        """Agents plus Toms."""
        return self.num_agents + len(self.toms)
