"""``SearchAgent``: flat Monte Carlo search (UCB1 at the root) over determinized games.

Each decision runs ``simulations`` playouts inside one compiled call. A playout redraws the view
with ``determinize_into`` (the hidden cards and stacks resampled anew, R25), plays one of the
legal root actions, chosen by UCB1, then plays uniformly random legal actions to the end of the
game. Its result for the searching seat is

    1 for a win (the engine's winner, R20 ties included), else 0,
    + ``margin_weight`` * clip((own total - best other total) / MARGIN_SCALE, -1, 1),

so wins count first and the score margin only tells apart actions that win (or lose) equally
often. The most visited root action is played, ties going to the better mean. Given its seed
the agent is deterministic.
"""

import math

import numpy as np
from numpy.typing import NDArray

from tiny_york_env.agents.game_search import check_search_options
from tiny_york_env.core.jit import jit
from tiny_york_env.core.rng import next32, randbelow, seed_rng
from tiny_york_env.games.tiny_york import STATE_DTYPE, current_player, legal_actions
from tiny_york_env.games.tiny_york.actions import NUM_ACTIONS
from tiny_york_env.games.tiny_york.components import MAX_SEATS
from tiny_york_env.games.tiny_york.determinize import SEED_LIMIT, determinize_into
from tiny_york_env.games.tiny_york.legal import fill_legal_mask, pick_legal
from tiny_york_env.games.tiny_york.rules import OK, apply
from tiny_york_env.games.tiny_york.state import DEC_GAME_OVER, NUM_SCORE_LINES, RNG_WORDS

DEFAULT_SIMULATIONS = 64
DEFAULT_EXPLORATION = math.sqrt(2.0)  # UCB1's constant for results in [0, 1]
DEFAULT_MARGIN_WEIGHT = 0.1
MARGIN_SCALE = 50.0  # a large final-score margin
MAX_PLAYOUT_DECISIONS = 5_000  # far above any real game (about 200-450 decisions)
SEED_SHIFT = 31  # two 32-bit outputs, the first shifted by 31, make a seed below 2**63


@jit
def playout_result(st, seat, margin_weight):
    """The finished game ``st`` for ``seat``: 1 for a win, plus the weighted score margin."""
    totals = np.zeros(MAX_SEATS, np.int64)
    for s in range(st["num_seats"]):
        for k in range(NUM_SCORE_LINES):
            totals[s] += st["score_lines"][s, k]
    best_other = -1
    for s in range(st["num_seats"]):
        if s != seat and (best_other < 0 or totals[s] > totals[best_other]):
            best_other = s
    margin = (totals[seat] - totals[best_other]) / MARGIN_SCALE
    margin = min(1.0, max(-1.0, margin))
    won = 1.0 if st["winner"] == seat else 0.0
    return won + margin_weight * margin


@jit
def play_random_to_end(st, words, mask):
    """Play uniformly random legal actions (drawn from ``words``) until the game ends."""
    n = 0
    while st["decision"] != DEC_GAME_OVER and n < MAX_PLAYOUT_DECISIONS:
        fill_legal_mask(st, mask)
        legal = 0
        for a in range(mask.shape[0]):
            legal += mask[a]
        apply(st, pick_legal(mask, randbelow(words, legal)))
        n += 1


@jit
def ucb1_pick(visits, totals, played, exploration):
    """The root action with the highest UCB1 value (mean + exploration * sqrt(ln N / n))."""
    best = 0
    best_value = -np.inf
    log_total = math.log(played)
    for k in range(visits.shape[0]):
        if visits[k] == 0:
            continue
        value = totals[k] / visits[k] + exploration * math.sqrt(log_total / visits[k])
        if value > best_value:
            best = k
            best_value = value
    return best


@jit
def search_kernel(views, seat, actions, simulations, seed, exploration, margin_weight, scratch,
                  visits, totals):
    """Run ``simulations`` playouts from game ``views[0]`` for ``seat`` over the root ``actions``;
    visit counts and summed results per action into ``visits`` and ``totals``."""
    words = np.zeros(RNG_WORDS, np.int64)
    seed_rng(words, seed)
    n = actions.shape[0]
    order = np.arange(n)  # each action is tried once first, in a random order
    for i in range(n - 1, 0, -1):
        j = randbelow(words, i + 1)
        order[i], order[j] = order[j], order[i]
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    played = 0
    for sim in range(simulations):
        k = order[sim] if sim < n else ucb1_pick(visits, totals, played, exploration)
        playout_seed = (next32(words) << SEED_SHIFT) ^ next32(words)
        determinize_into(views, 0, scratch, 0, seat, playout_seed)
        st = scratch[0]
        if apply(st, actions[k]) == OK:
            play_random_to_end(st, words, mask)
            totals[k] += playout_result(st, seat, margin_weight)
        visits[k] += 1
        played += 1


class SearchAgent:
    """Flat Monte Carlo search with UCB1 over determinized games; plays through ``act_state``."""

    def __init__(self, simulations: int = DEFAULT_SIMULATIONS, seed: int | None = None,
                 exploration: float = DEFAULT_EXPLORATION,
                 margin_weight: float = DEFAULT_MARGIN_WEIGHT) -> None:
        check_search_options(simulations, exploration, margin_weight)
        self.simulations = int(simulations)
        self.exploration = float(exploration)
        self.margin_weight = float(margin_weight)
        self.rng = np.random.default_rng(seed)
        self._scratch = np.zeros(1, dtype=STATE_DTYPE)

    def act(self, observation: NDArray[np.float32], action_mask: NDArray[np.bool_]) -> int:
        """Refused: a search needs the engine view, not the observation vector."""
        raise ValueError("SearchAgent plans on the engine's view, not on an observation: play it "
                         "with tiny_york_env.agents.base.choose_action(agent, state, rng), which calls "
                         "act_state(view, seat) with a determinized view")

    def search(self, view: np.ndarray,
               seat: int) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64]]:
        """(legal actions, visits, mean results) of one search from ``view`` for ``seat``."""
        legal = legal_actions(view).astype(np.int64)
        visits = np.zeros(legal.size, dtype=np.int64)
        totals = np.zeros(legal.size, dtype=np.float64)
        search_kernel(view.reshape(1), seat, legal, self.simulations, int(self.rng.integers(SEED_LIMIT)),
                      self.exploration, self.margin_weight, self._scratch, visits, totals)
        return legal, visits, totals / np.maximum(visits, 1)

    def act_state(self, view: np.ndarray, seat: int) -> int:
        """The action for ``seat``, the seat to move in ``view`` (a determinized game)."""
        if not isinstance(view, np.ndarray) or view.dtype != STATE_DTYPE or view.shape != ():
            raise ValueError("view must be a single game record (determinize(state, seat, seed))")
        mover = current_player(view)
        if mover < 0:
            raise ValueError("the game is over: there is no action to choose")
        if seat != mover:
            raise ValueError(f"seat {seat} is not to move in this view: seat {mover} is")
        legal = legal_actions(view)
        if legal.size == 1:
            return int(legal[0])
        legal, visits, means = self.search(view, int(seat))
        best = np.lexsort((-means, -visits))[0]  # most visits, then the best mean
        return int(legal[best])
