"""The envs' observation dtype (``obs_dtype``) and the compact form's conversions
(docs/compact-observations.md).

``obs_dtype="float32"`` (the default) observes the encoder's scaled values; ``"uint8"`` the
compact observation: each entry the whole game quantity behind it (core/compact.py), a quarter
of the bytes, the same information (Construction Yard's scores in steps of two points).
``decode_observation`` gives back the float32 one (within the stated steps, exactly elsewhere up
to float32 rounding), ``compact_observation`` makes the compact one of a float32 one,
``sparse_observation`` lists the set entries of either (the input of an embedding bag).
"""

from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from ..contract import Game
from ..core.compact import (
    COMPACT_DTYPE,
    FLOAT_DTYPE,
    check_obs_dtype,
    compact_high,
    compact_steps,
    dequantize,
    quantize,
)
from ..registry import get_game
from .batch import batch_kernels

SPACE_SLACK = 1e-6  # float32 rounding above a bound that an encoded value may show

__all__ = ["check_game_obs_dtype", "observation_in", "compact_observation", "compact_observation_space",
           "compact_table_markdown", "decode_observation", "env_observation_space", "sparse_observation"]


def check_game_obs_dtype(game: Game, obs_dtype: Any) -> np.dtype:
    """``obs_dtype`` as a numpy dtype for ``game``'s envs; ValueError for another value, or for
    "uint8" where the game has no compact observation."""
    dtype = check_obs_dtype(obs_dtype)
    if dtype == COMPACT_DTYPE:
        check_compact_contract(game)
    return dtype


def check_compact_contract(game: Game) -> None:
    """ValueError unless ``game`` has a compact observation its batch kernels share: float32
    ``obs_quanta`` and ``obs_denominators`` of ``obs_size`` entries, the batch module's
    ``OBS_QUANTA`` the same array."""
    if game.obs_quanta is None:
        raise ValueError(f"{game.title} has no compact observation (its contract gives no obs_quanta): "
                         "use obs_dtype='float32'")
    quanta, denominators = np.asarray(game.obs_quanta), np.asarray(game.obs_denominators)
    if quanta.dtype != np.float32 or quanta.shape != (game.obs_size,) \
            or denominators.shape != (game.obs_size,) or not (quanta > 0).all():
        raise ValueError(f"{game.title}'s obs_quanta must be positive float32 and obs_denominators "
                         f"given, {game.obs_size} entries each (core/compact.py's observation_quanta)")
    if getattr(batch_kernels(game), "OBS_QUANTA", None) is not game.obs_quanta:
        raise ValueError(f"{game.title}'s batch module must bind the contract's obs_quanta as "
                         "OBS_QUANTA (its compiled loops write the compact rows)")


def compact_observation_space(game: str | Game) -> spaces.Box:
    """``Box(0, high, (obs_size,), uint8)``: the compact observation's space, ``high`` the float
    space's bounds in bytes."""
    game = _compact_game(game)
    return spaces.Box(low=0, high=compact_high(game.observation_space().high, game.obs_quanta),
                      shape=(game.obs_size,), dtype=COMPACT_DTYPE)


def env_observation_space(game: Game, dtype: np.dtype) -> spaces.Box:
    """The observation space of ``game``'s envs for a checked ``dtype`` (``check_game_obs_dtype``)."""
    return game.observation_space() if dtype == FLOAT_DTYPE else compact_observation_space(game)


def observation_in(game: Game, obs: NDArray[np.float32], dtype: np.dtype) -> NDArray:
    """An encoder's float32 observation in a checked env ``dtype``: itself, or its bytes (the
    single-game envs; the batch envs write the bytes in compiled code)."""
    return obs if dtype == FLOAT_DTYPE else quantize(obs, game.obs_quanta)


def compact_observation(game: str | Game, obs: NDArray) -> NDArray[np.uint8]:
    """The compact (uint8) form of ``game``'s float32 observations ``obs`` (one, or any leading
    shape): the bytes a ``obs_dtype="uint8"`` env gives for them."""
    game = _compact_game(game)
    rows = _rows(game, obs, FLOAT_DTYPE)
    high = game.observation_space().high
    if not ((rows >= 0) & (rows <= high + SPACE_SLACK)).all():  # NaN fails too
        raise ValueError(f"observations outside {game.title}'s observation space (0 to its bounds, "
                         "observation_space().high) have no compact form")
    return quantize(rows, game.obs_quanta)


def decode_observation(game: str | Game, compact: NDArray) -> NDArray[np.float32]:
    """The float32 observations of ``game``'s compact ones (one, or any leading shape): exact up to
    float32 rounding where a compact step is one unit, else within half a step
    (docs/compact-observations.md lists the steps)."""
    game = _compact_game(game)
    return dequantize(_rows(game, compact, COMPACT_DTYPE), game.obs_quanta)


def sparse_observation(obs: NDArray) -> tuple[NDArray[np.int64], NDArray]:
    """(indices, values) of one observation's non-zero entries, of either dtype: the input of an
    embedding bag (``torch.nn.EmbeddingBag(..., mode="sum")`` with the values as
    ``per_sample_weights``), which sums only the rows of the set entries."""
    obs = np.asarray(obs)
    if obs.ndim != 1:
        raise ValueError(f"sparse_observation takes one observation (1-d), got shape {obs.shape}")
    indices = np.flatnonzero(obs)
    return indices, obs[indices]


def _compact_game(game: str | Game) -> Game:
    """The game (by name or record), which must have a compact observation."""
    game = get_game(game)
    check_game_obs_dtype(game, COMPACT_DTYPE)
    return game


def _rows(game: Game, values: Any, dtype: np.dtype) -> NDArray:
    """``values`` as an array of ``dtype`` whose last axis is ``game``'s observation; ValueError
    otherwise."""
    array = np.asarray(values)
    if array.dtype != dtype or array.ndim < 1 or array.shape[-1] != game.obs_size:
        raise ValueError(f"expected {dtype} observations of {game.obs_size} entries a row for "
                         f"{game.title}, got {array.dtype} of shape {array.shape}")
    return array


def compact_table_markdown(game: str | Game) -> str:
    """The table of docs/compact-observations.md for ``game``: each observation part's slice, its
    entries' denominators (a byte is the float entry times it), the game units of a step and the
    largest byte (the compact space's bound)."""
    game = _compact_game(game)
    steps = compact_steps(game.obs_denominators, game.obs_quanta)
    high = compact_observation_space(game).high
    lines = ["| slice | part | denominator | step | largest byte |", "|---|---|---|---|---|"]
    for name, part in game.obs_slices.items():
        denominators = ", ".join(dict.fromkeys(f"{d:g}" for d in game.obs_denominators[part]))
        step = ", ".join(dict.fromkeys(str(s) for s in steps[part]))
        lines.append(f"| {part.start}:{part.stop} | `{name}` | {denominators} | {step} | "
                     f"{int(high[part].max())} |")
    return "\n".join(lines)
