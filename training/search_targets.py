"""The search's statistics of a decision and the policy targets expert iteration fits to them.

``PolicySearchAgent.search`` leaves, for every searched decision, the prior over the legal
actions, each action's playouts (``visits``: sequential halving's share) and their mean result
(``means``). A ``SearchStats`` keeps them with the decision's place in its game, so a game record
(``training.search_game_files``) can hold them as a few small arrays.

Two policy targets (``POLICY_TARGETS``):

- ``chosen``: the action the search played, one-hot (the search's choice as the label);
- ``improved``: the completed-Q policy of Gumbel MuZero (Danihelka et al., 2022, "Policy
  improvement by planning with Gumbel"): ``softmax(log prior + q / temperature)`` over the legal
  actions. ``v_mix`` is the prior-weighted mean of the played-out actions' means (without a
  value-head term); an action not played out has ``q = v_mix``, and a played-out one its mean
  shrunk toward ``v_mix`` by its playouts, ``(n mean + n0 v_mix) / (n + n0)`` with
  ``n0 = SHRINK_PLAYOUTS``: sequential halving drops candidates after a few playouts, and the
  best of their noisy means would otherwise win the target (measured at the default temperature
  over the 11,925 searched decisions of generation 4 of ``records/exit-tiny-york-256-32``: the
  target's most likely action was the search's choice in 70.3% of them without the shrinking,
  75.0% with it). The target keeps the prior's shape over
  what the search did not try and moves mass toward what it found better, by how much better;
  the visits alone would not do: sequential halving gives its last two candidates the same
  playouts, so they cannot tell its choice from the runner-up.

``temperature`` is in result units (a playout's result: its win, 0 or 1, plus the margin
weight times its margin): at ``DEFAULT_TARGET_TEMPERATURE`` a (shrunk) mean better by 0.02
weighs e times more.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

POLICY_TARGETS = ("chosen", "improved")
DEFAULT_POLICY_TARGET = POLICY_TARGETS[0]
DEFAULT_TARGET_TEMPERATURE = 0.02
SHRINK_PLAYOUTS = 8  # n0: a mean of n playouts counts n / (n + n0) beside v_mix
PRIOR_FLOOR = 1e-12  # log(0) kept finite: an action the prior rules out stays (almost) out
MIN_TEMPERATURE = 1e-4  # below it q / temperature leaves float64's range on any mean: NaN targets
PRIOR_SUM_TOLERANCE = 1e-3  # a stored prior (float32) sums to 1 within this
# a game record's arrays of its searched decisions (all or none: records from before them have none)
SEARCH_ARRAYS = ("search_steps", "search_prior", "search_visits", "search_means")


@dataclass
class SearchStats:
    """One searched decision: its index among the game's actions (``step``), and over its legal
    actions (in action order) the search's ``prior``, ``visits`` and ``means``."""

    step: int
    prior: np.ndarray  # float32[L]
    visits: np.ndarray  # int64[L]: playouts after each legal action (0: not a candidate)
    means: np.ndarray  # float32[L]: their mean result (0 where none)


def stats_of_search(search: dict, step: int) -> SearchStats:
    """The ``SearchStats`` of ``PolicySearchAgent.last_search`` at the game's action ``step``."""
    return SearchStats(int(step), np.asarray(search["prior"], np.float32),
                       np.asarray(search["visits"], np.int64), np.asarray(search["means"], np.float32))


def check_target_settings(policy_target: object, temperature: object) -> None:
    """ValueError unless ``policy_target`` is one of ``POLICY_TARGETS`` and ``temperature`` a
    finite number of at least ``MIN_TEMPERATURE``."""
    if policy_target not in POLICY_TARGETS:
        raise ValueError(f"policy_target must be one of {POLICY_TARGETS}, got {policy_target!r}")
    if (isinstance(temperature, bool) or not isinstance(temperature, (int, float))
            or not np.isfinite(temperature) or temperature < MIN_TEMPERATURE):
        raise ValueError(f"target_temperature must be a positive number of at least {MIN_TEMPERATURE} "
                         f"(result units), got {temperature!r}")


def improved_policy(stats: SearchStats, temperature: float, shrink: float = SHRINK_PLAYOUTS) -> np.ndarray:
    """The completed-Q policy (module doc; ``shrink``: n0) over the decision's legal actions,
    float64[L]."""
    visited = stats.visits > 0
    prior = stats.prior.astype(np.float64)
    means = stats.means.astype(np.float64)
    weight = prior[visited].sum()
    mixed = (prior[visited] @ means[visited] / weight if weight > 0 else means[visited].mean()
             ) if visited.any() else 0.0
    playouts = stats.visits.astype(np.float64)
    q = np.where(visited, (playouts * means + shrink * mixed) / np.maximum(playouts + shrink, 1.0), mixed)
    logits = np.log(np.maximum(prior, PRIOR_FLOOR)) + q / temperature
    weights = np.exp(logits - logits.max())
    return weights / weights.sum()


def policy_targets(stats: Sequence[SearchStats | None], actions: np.ndarray, masks: np.ndarray,
                   temperature: float) -> np.ndarray:
    """float32[N, A]: each decision's improved policy where it was searched (spread over its
    legal actions, ``masks`` bool[N, A]), else the action played, one-hot; ValueError unless
    there is one entry of ``stats`` a decision, each over as many actions as its mask allows."""
    if len(stats) != len(actions):
        raise ValueError(f"one search statistics entry (or None) a decision: {len(stats)} for "
                         f"{len(actions)} decisions")
    targets = np.zeros(masks.shape, np.float32)
    targets[np.arange(len(actions)), actions] = 1.0
    for row, decision in enumerate(stats):
        if decision is not None:
            legal = np.flatnonzero(masks[row])
            if decision.prior.size != legal.size:
                raise ValueError(f"decision {row}: its search statistics cover {decision.prior.size} "
                                 f"actions, its mask {legal.size}")
            targets[row] = 0.0
            targets[row, legal] = improved_policy(decision, temperature)
    return targets


def pack_searches(searches: Sequence[SearchStats]) -> dict[str, np.ndarray]:
    """A game's searched decisions as a record's ``SEARCH_ARRAYS`` (the per-action ones joined)."""
    def joined(name: str, dtype) -> np.ndarray:
        parts = [getattr(s, name) for s in searches]
        return np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype)
    return {"search_steps": np.asarray([s.step for s in searches], np.int64),
            "search_prior": joined("prior", np.float32), "search_visits": joined("visits", np.int64),
            "search_means": joined("means", np.float32)}


def unpack_searches(arrays: dict[str, np.ndarray], legal_counts: Sequence[int]) -> list[SearchStats]:
    """The ``SearchStats`` of a record's ``SEARCH_ARRAYS`` whose decisions have ``legal_counts``
    legal actions at each action of the game (the replay's); ValueError saying what is wrong."""
    steps = arrays["search_steps"]
    if steps.dtype != np.int64 or steps.ndim != 1:
        raise ValueError(f"search_steps must be int64 [searched], got {steps.dtype} {steps.shape}")
    if steps.size and (steps.min() < 0 or steps.max() >= len(legal_counts) or (np.diff(steps) <= 0).any()):
        raise ValueError(f"search_steps must be increasing indices of the game's {len(legal_counts)} actions")
    widths = [int(legal_counts[s]) for s in steps.tolist()]
    total = sum(widths)
    for name, dtype in (("search_prior", np.float32), ("search_visits", np.int64),
                        ("search_means", np.float32)):
        if arrays[name].dtype != dtype or arrays[name].shape != (total,):
            raise ValueError(f"{name} must be {np.dtype(dtype)} ({total},): one entry a legal action of "
                             f"each searched decision, got {arrays[name].dtype} {arrays[name].shape}")
    bounds = np.cumsum([0, *widths])
    searches = []
    for k, step in enumerate(steps.tolist()):
        part = slice(bounds[k], bounds[k + 1])
        stats = SearchStats(step, arrays["search_prior"][part], arrays["search_visits"][part],
                            arrays["search_means"][part])
        if not (np.isfinite(stats.prior).all() and np.isfinite(stats.means).all()):
            raise ValueError(f"the search at action {step}: prior and means must be finite")
        if (stats.prior < 0).any() or abs(float(stats.prior.sum()) - 1.0) > PRIOR_SUM_TOLERANCE:
            raise ValueError(f"the search at action {step}: its prior must be a distribution")
        if (stats.visits < 0).any() or stats.visits.sum() == 0:
            raise ValueError(f"the search at action {step}: visits must be counts, not all 0")
        searches.append(stats)
    return searches
