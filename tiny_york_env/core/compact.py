"""Compact observations: every float32 observation entry as one byte (docs/compact-observations.md).

Every entry a game's encoder writes is a whole game quantity over a fixed denominator (a count
/ 10, a one-hot's 1, a pair's cards / 2), so ``round(entry * denominator)`` is that quantity, a
small whole number. The compact observation stores it as ``uint8``: counts and one-hots exactly.
An entry whose quantity may exceed ``COMPACT_MAX`` (Construction Yard's scores, up to 400) is
stored in steps of ``ceil(quantity / COMPACT_MAX)`` units, its ``quanta`` entry smaller by that
factor; docs/compact-observations.md states each such step.

A game states its denominators part by part (``observation_quanta``); ``quanta[j]`` is then
what entry ``j`` is multiplied by: ``compact = floor(obs * quanta + 0.5)`` (in float32),
``obs ~= compact / quanta`` (exactly, up to float32 rounding, where the step is one unit).
The batch loops write compact rows in compiled code (``quantize_row``), the single envs and
``compact_observation`` through the same function, so every env gives the same bytes.
"""

import numpy as np
from numpy.typing import NDArray

from .jit import jit

COMPACT_DTYPE = np.dtype(np.uint8)
FLOAT_DTYPE = np.dtype(np.float32)
COMPACT_MAX = int(np.iinfo(np.uint8).max)  # the largest quantity one byte holds
OBS_DTYPES = {"float32": FLOAT_DTYPE, "uint8": COMPACT_DTYPE}  # obs_dtype's choices
# how far from a whole number ``obs * denominator`` may be (float32 sums of thirds); the tests hold
# every game's encoder to it
INTEGRAL_TOLERANCE = 1e-3


def part_denominators(parts: tuple, denominators: dict) -> NDArray[np.float64]:
    """float64[size]: each entry's denominator in an observation of ``parts`` (``(name, size,
    words)`` rows). ``denominators`` maps a part's name to its denominator, or to a tuple of them
    repeated over the part (a slot's one-hot, then its value); parts not named are one-hots and
    flags (1)."""
    names = {name for name, _, _ in parts}
    unknown = set(denominators) - names
    if unknown:
        raise ValueError(f"denominators name parts the observation does not have: {sorted(unknown)}")
    entries = []
    for name, size, _ in parts:
        pattern = denominators.get(name, 1.0)
        pattern = pattern if isinstance(pattern, tuple) else (pattern,)
        if size % len(pattern):
            raise ValueError(f"part {name!r} of size {size} is not a whole number of {pattern}")
        entries.extend(float(d) for d in pattern * (size // len(pattern)))
    return read_only(np.array(entries, dtype=np.float64))


def observation_quanta(denominators: NDArray, high: NDArray) -> NDArray[np.float32]:
    """float32[size]: the multiplier of each entry into its compact byte: its denominator, divided
    by the step (``compact_steps``) where its largest quantity (``high * denominator``) needs more
    than one byte. float32 (the compiled rows multiply in float32); ValueError unless each is
    exact in float32."""
    denominators = np.asarray(denominators, np.float64)
    if denominators.shape != np.shape(high):
        raise ValueError(f"{denominators.size} denominators for {np.size(high)} bounds")
    largest = np.rint(np.asarray(high, np.float64) * denominators)
    quanta = denominators / np.maximum(np.ceil(largest / COMPACT_MAX), 1.0)
    if (quanta.astype(np.float32) != quanta).any():
        raise ValueError("every quantum must be exact in float32")
    return read_only(quanta.astype(np.float32))


def read_only(array: NDArray) -> NDArray:
    """``array``, made read-only (compiled code freezes a copy of a game's tables: one the caller
    changed in place would make the single and batch envs disagree)."""
    array.setflags(write=False)
    return array


def compact_steps(denominators: NDArray, quanta: NDArray) -> NDArray[np.int64]:
    """int64[size]: the game units one compact step stands for (1 but where a quantity needs more
    than a byte)."""
    return np.rint(np.asarray(denominators, np.float64) / quanta).astype(np.int64)


def compact_high(high: NDArray, quanta: NDArray) -> NDArray[np.uint8]:
    """uint8[size]: the compact space's upper bounds (``high`` in bytes)."""
    return np.floor(np.asarray(high, np.float64) * quanta + 0.5).astype(COMPACT_DTYPE)


@jit
def quantize_row(row, quanta, out):
    """``out[j] = floor(row[j] * quanta[j] + 0.5)`` as a byte (``row`` and ``quanta`` float32, as
    long; a value outside a byte saturates at 0 or ``COMPACT_MAX``): one SIMD pass in float32."""
    for j in range(row.shape[0]):
        out[j] = np.uint8(min(max(np.int32(row[j] * quanta[j] + np.float32(0.5)), 0), COMPACT_MAX))


@jit
def quantize_rows(rows, quanta, out):
    """``quantize_row`` of every row of ``rows`` into ``out``."""
    for i in range(rows.shape[0]):
        quantize_row(rows[i], quanta, out[i])


def check_obs_dtype(obs_dtype: object) -> np.dtype:
    """The observation dtype named by ``obs_dtype`` ("float32" or "uint8", or those numpy dtypes);
    ValueError otherwise."""
    try:
        dtype = np.dtype(obs_dtype)
    except (TypeError, ValueError):
        dtype = None
    if isinstance(obs_dtype, bool) or obs_dtype is None or dtype not in OBS_DTYPES.values():
        raise ValueError(f"obs_dtype must be one of {sorted(OBS_DTYPES)} (float32: scaled values, the "
                         f"default; uint8: the compact observation), got {obs_dtype!r}")
    return dtype


def quantize(obs: NDArray, quanta: NDArray) -> NDArray[np.uint8]:
    """uint8 observations (any leading shape) of float32 ones, with ``quanta``."""
    rows = np.ascontiguousarray(obs, dtype=np.float32).reshape(-1, len(quanta))
    out = np.empty(rows.shape, dtype=COMPACT_DTYPE)
    quantize_rows(rows, quanta, out)
    return out.reshape(np.shape(obs))


def dequantize(compact: NDArray, quanta: NDArray) -> NDArray[np.float32]:
    """float32 observations (any leading shape) of compact ones: ``compact / quanta``."""
    compact = np.asarray(compact)
    if compact.dtype != COMPACT_DTYPE or compact.shape[-1:] != (len(quanta),):
        raise ValueError(f"a compact observation is uint8 with {len(quanta)} entries a row, got "
                         f"{compact.dtype} of shape {compact.shape}")
    return (compact / quanta.astype(np.float64)).astype(np.float32)  # as the encoders round
