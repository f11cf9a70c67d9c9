"""Checks of numeric options at the door: a ValueError that names the option, says what it may be
and shows the value given (bools are refused as numbers: ``True`` is not a budget)."""

from __future__ import annotations

import math

import numpy as np


def _explained(text: str, meaning: str) -> str:
    """``text``, with ``meaning`` in brackets after it when there is one."""
    return f"{text} ({meaning})" if meaning else text


def check_int(name: str, value: object, least: int = 1, meaning: str = "") -> int:
    """``value`` as an int; ValueError naming ``name`` unless it is an int >= ``least``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < least:
        kind = "a positive int" if least == 1 else f"an int >= {least}"
        raise ValueError(f"{name} must be {_explained(kind, meaning)}, got {value!r}")
    return int(value)


def check_number(name: str, value: object, least: float = 0.0, strict: bool = False,
                 meaning: str = "") -> float:
    """``value`` as a float; ValueError naming ``name`` unless it is a finite real number >=
    ``least`` (> ``least`` when ``strict``)."""
    real = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)
    try:
        finite = real and math.isfinite(value)
    except OverflowError:  # an int too large for a float
        finite = False
    if not finite or not (value > least if strict else value >= least):
        kind = f"a finite number {'>' if strict else '>='} {least:g}"
        raise ValueError(f"{name} must be {_explained(kind, meaning)}, got {value!r}")
    return float(value)
