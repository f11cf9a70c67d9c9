"""``GameSearchAgent``: flat Monte Carlo search (UCB1 at the root), the one search of every game of
the registry (the agent registry's ``search`` is Tiny York's, ``agents/search_agent.py``).

Written against the game contract (docs/games.md), so it plays every game: each decision runs
``simulations`` playouts. A playout
redraws the seat's view with the game's ``determinize`` (everything the seat may not know
resampled anew), plays one legal root action chosen by UCB1 (each action once first, in a random
order), then plays the game to its end in compiled code: uniformly random legal actions
(``playout="random"``, ``core/batch_loops.play_random_batch``) or the game's greedy heuristic in
every seat (``playout="greedy"``, the contract's ``greedy_playout``: Construction Yard's and 5th
Avenue's engine bots), which judges a position by how good players would finish it. Its result
for the searching seat is

    1 / (number of winners) when the seat is among the winners, else 0,
    + ``margin_weight`` * clip((own score - best other score) / Game.score_scale, -1, 1),

so wins count first and the score margin only tells apart actions that win (or lose) equally
often. The most visited root action is played, ties going to the better mean. Given its seed the
agent is deterministic. The determinization and the bookkeeping run in Python (about 0.1 ms a
playout for Construction Yard), unless the game's record has a ``search_kernel``: then random
playouts run the whole search of a decision in one compiled call (Tiny York's,
``games/tiny_york/search.py``, where a win counts 1 and the margin is scaled by 50 points).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from tiny_york_env.contract import Game
from tiny_york_env.core.batch_loops import REFUSED
from tiny_york_env.core.options import check_int, check_number
from tiny_york_env.core.rng import seed_rng
from tiny_york_env.core.seeds import SEED_LIMIT
from tiny_york_env.envs.batch import batch_kernels
from tiny_york_env.registry import DEFAULT_GAME, get_game

DEFAULT_SIMULATIONS = 64
DEFAULT_EXPLORATION = math.sqrt(2.0)  # UCB1's constant for results in [0, 1]
DEFAULT_MARGIN_WEIGHT = 0.1
PLAYOUTS = ("random", "greedy")
MAX_PLAYOUT_DECISIONS = 5_000  # far above any real game of the project's games
RNG_WORDS = 4  # the compiled generator's state: seed_rng fills four words (core/rng.py)


def check_search_options(simulations: object, exploration: object, margin_weight: object) -> None:
    """ValueError naming the first bad search option."""
    check_int("simulations", simulations, 1, "playouts per decision")
    check_number("exploration", exploration, 0.0, meaning="UCB1's constant")
    check_number("margin_weight", margin_weight, 0.0)


def playout_value(game: Game, state: np.ndarray, seat: int, margin_weight: float) -> float:
    """The finished game ``state`` for ``seat``: its share of the win plus the weighted margin."""
    winners = game.winners(state)
    won = 1.0 / len(winners) if seat in winners else 0.0
    scores = np.asarray(game.final_scores(state), dtype=np.float64)
    others = np.delete(scores, seat)
    margin = (scores[seat] - others.max()) / game.score_scale if others.size else 0.0
    return won + margin_weight * min(1.0, max(-1.0, margin))


def ucb1_index(visits: NDArray[np.int64], totals: NDArray[np.float64], played: int,
               exploration: float) -> int:
    """The root action (index) with the highest UCB1 value; every action has a visit."""
    values = totals / visits + exploration * np.sqrt(math.log(played) / visits)
    return int(np.argmax(values))


def check_view(game: Game, view: object, seat: int) -> None:
    """ValueError unless ``view`` is one live record of ``game`` with ``seat`` to move."""
    if not isinstance(view, np.ndarray) or view.dtype != game.state_dtype or view.shape != ():
        raise ValueError(f"view must be a single {game.title} record "
                         f"(game.determinize(state, seat, rng))")
    mover = game.current_player(view)
    if mover < 0:
        raise ValueError("the game is over: there is no action to choose")
    if seat != mover:
        raise ValueError(f"seat {seat} is not to move in this view: seat {mover} is")


class GameSearchAgent:
    """Flat Monte Carlo search with UCB1 over determinized games of ``game`` (module doc); plays
    through ``act_state(view, seat)`` with a view from ``game.determinize``."""

    def __init__(self, game: str | Game = DEFAULT_GAME, simulations: int = DEFAULT_SIMULATIONS,
                 seed: int | None = None, exploration: float = DEFAULT_EXPLORATION,
                 margin_weight: float = DEFAULT_MARGIN_WEIGHT, playout: str = PLAYOUTS[0]) -> None:
        check_search_options(simulations, exploration, margin_weight)
        self.game = get_game(game)
        if playout not in PLAYOUTS:
            raise ValueError(f"playout must be one of {PLAYOUTS}, got {playout!r}")
        if playout == "greedy" and self.game.greedy_playout is None:
            raise ValueError(f"{self.game.title} has no compiled greedy heuristic for playouts; "
                             f"use playout='random'")
        self.playout_kind = playout
        self.simulations = int(simulations)
        self.exploration = float(exploration)
        self.margin_weight = float(margin_weight)
        self.rng = np.random.default_rng(seed)
        self._kernels = batch_kernels(self.game)
        self._words = np.zeros(RNG_WORDS, dtype=np.int64)
        # the game's compiled search runs random playouts where it has one
        self._compiled = self.game.search_kernel if playout == "random" else None
        self._scratch = np.zeros(1, dtype=self.game.state_dtype)

    def act(self, observation: NDArray[np.float32], action_mask: NDArray[np.bool_]) -> int:
        """Refused: a search needs the engine view, not the observation vector."""
        raise ValueError(f"{type(self).__name__} plans on the engine's view, not on an observation: play "
                         f"it with tiny_york_env.agents.base.choose_action(agent, state, rng), which calls "
                         f"act_state(view, seat) with a determinized view")

    def playout(self, view: np.ndarray, seat: int, action: int) -> float:
        """One playout: ``view`` redrawn for ``seat``, ``action`` played, then random or greedy
        play to the end."""
        batch = self.game.determinize(view, seat, self.rng).reshape(1)
        if self._kernels.apply_at(batch, 0, action) == REFUSED:
            raise ValueError(f"action {action} is illegal in a redrawn view: the game's determinize "
                             f"changed what seat {seat} may do")
        if self.playout_kind == "greedy":
            self.game.greedy_playout(batch, 0)
        else:
            seed_rng(self._words, int(self.rng.integers(SEED_LIMIT)))
            self._kernels.play_random_batch(batch, self._words, MAX_PLAYOUT_DECISIONS)
        return playout_value(self.game, batch.reshape(()), seat, self.margin_weight)

    def search(self, view: np.ndarray,
               seat: int) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64]]:
        """(legal actions, visits, mean results) of one search from ``view`` for ``seat``."""
        legal = np.flatnonzero(self.game.legal_mask(view)).astype(np.int64)
        visits = np.zeros(legal.size, dtype=np.int64)
        totals = np.zeros(legal.size, dtype=np.float64)
        if self._compiled is not None:
            self._compiled(view.reshape(1), seat, legal, self.simulations, int(self.rng.integers(SEED_LIMIT)),
                           self.exploration, self.margin_weight, self._scratch, visits, totals)
            return legal, visits, totals / np.maximum(visits, 1)
        order = self.rng.permutation(legal.size)  # each action is tried once first
        for sim in range(self.simulations):
            k = (int(order[sim]) if sim < legal.size
                 else ucb1_index(visits, totals, sim, self.exploration))
            totals[k] += self.playout(view, seat, int(legal[k]))
            visits[k] += 1
        return legal, visits, totals / np.maximum(visits, 1)

    def act_state(self, view: np.ndarray, seat: int) -> int:
        """The action for ``seat``, the seat to move in ``view`` (a determinized game)."""
        check_view(self.game, view, seat)
        legal = np.flatnonzero(self.game.legal_mask(view))
        if legal.size == 1:
            return int(legal[0])
        legal, visits, means = self.search(view, int(seat))
        best = np.lexsort((-means, -visits))[0]  # most visits, then the best mean
        return int(legal[best])
