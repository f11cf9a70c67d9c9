"""Tiny York's compiled flat Monte Carlo search: the whole search of one decision in one compiled
call (the record's ``search_kernel``, which ``agents/game_search.GameSearchAgent`` runs for its
random playouts).

Each playout redraws the view with ``determinize_into`` (the hidden cards and stacks resampled
anew, R25), plays one of the legal root actions, chosen by UCB1 (each once first, in a random
order), then plays uniformly random legal actions to the end of the game. Its result for the
searching seat is 1 for a win (the engine's winner, R20 ties included), else 0, plus
``margin_weight`` * clip((own total - best other total) / MARGIN_SCALE, -1, 1).
"""

import math

import numpy as np

from ...core.jit import jit
from ...core.rng import next32, randbelow, seed_rng
from .actions import NUM_ACTIONS
from .components import MAX_SEATS
from .determinize import determinize_into
from .legal import fill_legal_mask, pick_legal
from .rules import OK, apply
from .state import DEC_GAME_OVER, NUM_SCORE_LINES, RNG_WORDS

MARGIN_SCALE = 50.0  # a large final-score margin (the record's score_scale)
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
