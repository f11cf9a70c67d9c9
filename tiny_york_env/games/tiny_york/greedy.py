"""``GreedyAgent``: Tiny York's greedy player, one-step lookahead on the engine with a hand-written
evaluation; ``greedy_action``: the same heuristic as the record's ``greedy_action``.

For every legal action the agent copies its seat-safe view, applies the action (the engine
runs Toms and automatic steps) and scores the result with
``heuristic.relative_value`` (its estimate of its final score minus the best
other participant's). The best action wins; ties go to the agent's seeded generator.

Compound decisions are scored by what they lead to: while the result still waits for this
seat to go on with the same decision (a bid being built, the vessel and borough of a prestige
tile, selling while building, a character's choices), the agent searches those continuations
depth first and an action is worth the best of them. A bid is thus worth the best complete
bid that starts with it: parts are tried in one canonical order (a bid is a multiset of parts),
each node is scored as if the bid ended there (``BID_DONE``), and exchanges and characters are
tried only as the first step. ``NODE_BUDGET`` bounds each search.

Character 18's declaration before the bids (R11) is the one decision the lookahead cannot
weigh: after declining, the seat's own bid may come next and be searched, while after using 18
its bid comes only after every other seat's. A rule decides instead (``declare_bid_last``):
use 18 when the hand can make a bid in this bidding round (bidding last, the seat sees every
other bid first, and the dollar paid comes straight back), else keep the tile for a later
bidding round of the game round.

The hidden cards of the view are redrawn ``samples`` times (R25, ``determinize_into``) and the
scores averaged; one redraw is the default, as averaging several did not play better against
Tom or TomRulesAgent and costs proportionally more. Everything runs in one compiled call per
decision: about 0.16 ms on average with two agents, 0.36 ms with four (one core).

``greedy_action(state)`` is the heuristic as a function of the state alone (the game record's
``greedy_action``: the opponent model of a policy search): one redraw seeded from the record's
own generator words, ties to the lowest action, so equal states give equal actions.
"""

import numpy as np
from numpy.typing import NDArray

from ...core.jit import jit
from ...core.options import check_int
from ...core.seeds import SEED_LIMIT
from .abilities import BID_LAST
from .actions import (
    BID_CARD,
    BID_DONE,
    BID_PAIR,
    BID_WILD,
    BID_WILD_PAIR,
    CHARACTER_DONE,
    END_TURN,
    NUM_ACTIONS,
    USE_CHARACTER,
)
from .components import NUM_BIDDING_ROUNDS, NUM_CARD_TYPES, WILD
from .determinize import determinize_into
from .heuristic import NEG_INF, check_seat_to_move, record_of, relative_value
from .legal import decision_range, fill_legal_mask, is_legal
from .rules import apply
from .state import (
    DEC_BID,
    DEC_BUILD,
    DEC_CHARACTER_BOROUGH,
    DEC_CHARACTER_CARD,
    DEC_CHARACTER_ELEVATOR,
    DEC_CHARACTER_PAIR,
    DEC_CHARACTER_PAIR_CARD,
    DEC_CHARACTER_STEPS,
    DEC_CHARACTER_TILE,
    DEC_DECLARE_BID_LAST,
    DEC_PRESTIGE_BOROUGH,
    DEC_PRESTIGE_VESSEL,
    STATE_DTYPE,
)

# Bid parts in the canonical order of the search (R10, docs/actions.md): a bid is a multiset of
# parts, so only non-decreasing index sequences are tried.
CANONICAL_PARTS = np.array([BID_CARD] + [BID_WILD_PAIR + t for t in range(WILD)]
                           + [BID_PAIR + t for t in range(NUM_CARD_TYPES)] + [BID_WILD],
                           dtype=np.int64)
NUM_PARTS = len(CANONICAL_PARTS)
PART_INDEX = np.full(NUM_ACTIONS, -1, dtype=np.int64)
PART_INDEX[CANONICAL_PARTS] = np.arange(NUM_PARTS)
DONE_INDEX = NUM_PARTS  # after the parts, a bid node offers BID_DONE
EXHAUSTED = -1
NODE_BUDGET = 96  # states scored per root action, at most
SEARCH_SLOTS = 32  # scratch records: root, its child, and the continuation depth
TIE_TOLERANCE = 1e-9
DEFAULT_SAMPLES = 1  # redraws of the hidden cards averaged per decision (more did not help)
USE_BID_LAST = USE_CHARACTER + BID_LAST - 1
DECLARE_PREFERENCE = 0.01  # the rule's margin between the two answers at 18's declaration
SUBSTITUTE_PAIR = 2  # two identical cards of another type make one card of the round (R10)


@jit
def is_continuation(st, seat, bidding_round):
    """The state waits for ``seat`` to go on with a compound decision (module docstring); a bid
    only within ``bidding_round`` (game round * NUM_BIDDING_ROUNDS + bidding round), so the
    search never runs on into the seat's next bidding turn."""
    if st["actor"] != seat:
        return False
    d = st["decision"]
    if d == DEC_BID:
        return bidding_round_of(st) == bidding_round
    return (d == DEC_PRESTIGE_VESSEL or d == DEC_PRESTIGE_BOROUGH
            or d == DEC_BUILD or d == DEC_CHARACTER_CARD or d == DEC_CHARACTER_TILE
            or d == DEC_CHARACTER_ELEVATOR or d == DEC_CHARACTER_PAIR_CARD
            or d == DEC_CHARACTER_PAIR or d == DEC_CHARACTER_BOROUGH
            or d == DEC_CHARACTER_STEPS)


@jit
def bidding_round_of(st):
    """A number for the bidding round under way, unique over the game."""
    return st["round"] * NUM_BIDDING_ROUNDS + st["bid_round"]


@jit
def next_child(st, cursor, depth, first_part):
    """The next action to try at a search node, advancing ``cursor[depth]``; EXHAUSTED at the
    end. A bid node offers parts from ``first_part`` on in canonical order, then BID_DONE;
    other nodes their legal choices (no characters: those are tried at the root only)."""
    d = st["decision"]
    if d == DEC_BID:
        k = max(cursor[depth], first_part)
        while k < NUM_PARTS:
            if is_legal(st, CANONICAL_PARTS[k]):
                cursor[depth] = k + 1
                return CANONICAL_PARTS[k]
            k += 1
        if k == DONE_INDEX:
            cursor[depth] = DONE_INDEX + 1
            return BID_DONE
        return EXHAUSTED
    first, end = decision_range(d)
    a = cursor[depth]
    if a == EXHAUSTED:
        return EXHAUSTED
    a = max(a, first)
    while a < end:
        if is_legal(st, a):
            cursor[depth] = a + 1
            return a
        a += 1
    if d == DEC_CHARACTER_CARD:
        cursor[depth] = EXHAUSTED
        return CHARACTER_DONE if is_legal(st, CHARACTER_DONE) else EXHAUSTED
    cursor[depth] = EXHAUSTED
    return EXHAUSTED


@jit
def continuation_value(buf, top, seat, first_part):
    """The best ``relative_value`` reachable from ``buf[top]`` while ``seat`` goes on with the
    compound decision of the root ``buf[0]``, searched depth first in ``buf[top:]`` within
    NODE_BUDGET states; a finished bid is a leaf."""
    bidding_round = bidding_round_of(buf[0])
    if not is_continuation(buf[top], seat, bidding_round):
        return relative_value(buf[top], seat)
    max_depth = buf.shape[0] - top - 1
    cursor = np.zeros(max_depth + 1, np.int64)
    first = np.zeros(max_depth + 1, np.int64)
    best = np.full(max_depth + 1, NEG_INF)
    first[0] = first_part
    depth = 0
    scored = 0
    result = NEG_INF
    while depth >= 0:
        node = buf[top + depth]
        a = EXHAUSTED
        if scored < NODE_BUDGET and depth < max_depth:
            a = next_child(node, cursor, depth, first[depth])
        if a == EXHAUSTED:
            value = best[depth] if best[depth] > NEG_INF else relative_value(node, seat)
            depth -= 1
            if depth >= 0:
                best[depth] = max(best[depth], value)
            else:
                result = value
            continue
        buf[top + depth + 1] = node
        child = buf[top + depth + 1]
        apply(child, a)
        scored += 1
        goes_on = a != BID_DONE and is_continuation(child, seat, bidding_round)
        if goes_on and depth + 1 < max_depth:
            depth += 1
            cursor[depth] = 0
            first[depth] = max(PART_INDEX[a], 0)
            best[depth] = NEG_INF
        else:
            best[depth] = max(best[depth], relative_value(child, seat))
    return result


@jit
def add_action_values(buf, seat, mask, values):
    """Add the score of every legal action of the position in ``buf[0]`` for ``seat`` to
    ``values``; ``buf[1:]`` is scratch."""
    root = buf[0]
    for a in range(mask.shape[0]):
        if not mask[a]:
            continue
        buf[1] = root
        apply(buf[1], a)
        if a == BID_DONE:
            values[a] += relative_value(buf[1], seat)
        else:
            values[a] += continuation_value(buf, 1, seat, max(PART_INDEX[a], 0))


@jit
def can_bid(st, seat):
    """R10: ``seat``'s hand can make a bid in this bidding round: a card of the round's type,
    two identical cards of another type, or a wild with any other card."""
    hand = st["hand"][seat]
    r = st["bid_round"]
    if hand[r] > 0:
        return True
    others = 0
    for t in range(NUM_CARD_TYPES):
        if t != r:
            if hand[t] >= SUBSTITUTE_PAIR:
                return True
            others += hand[t]
    return hand[WILD] > 0 and others > hand[WILD]


@jit
def declare_bid_last(st, seat, mask, values):
    """The rule at character 18's declaration (module docstring): both answers score the
    position as it stands; using 18 gets DECLARE_PREFERENCE more when the hand can bid in this
    round, less otherwise."""
    now = relative_value(st, seat)
    for a in range(mask.shape[0]):
        values[a] = NEG_INF
    values[END_TURN] = now
    if mask[USE_BID_LAST]:
        values[USE_BID_LAST] = now + (DECLARE_PREFERENCE if can_bid(st, seat)
                                      else -DECLARE_PREFERENCE)


@jit
def score_actions(view, buf, seat, seeds, mask, values):
    """Score every legal action of ``view[0]`` for ``seat`` into ``values`` (NEG_INF where
    illegal): the mean over one redraw of the hidden information per seed (R25); at 18's
    declaration, the rule of ``declare_bid_last``."""
    fill_legal_mask(view[0], mask)
    if view[0]["decision"] == DEC_DECLARE_BID_LAST:
        declare_bid_last(view[0], seat, mask, values)
        return
    for a in range(mask.shape[0]):
        values[a] = 0.0
    for k in range(seeds.shape[0]):
        determinize_into(view, 0, buf, 0, seat, seeds[k])
        add_action_values(buf, seat, mask, values)
    for a in range(mask.shape[0]):
        values[a] = values[a] / seeds.shape[0] if mask[a] else NEG_INF


class GreedyAgent:
    """One-step lookahead with a hand-written evaluation (module docstring); needs the engine
    view: use ``act_state``."""

    def __init__(self, seed: int | None = None, samples: int = DEFAULT_SAMPLES) -> None:
        check_int("samples", samples, 1, "redraws of the hidden cards per decision")
        self.rng = np.random.default_rng(seed)
        self.samples = int(samples)
        self._view = np.zeros(1, dtype=STATE_DTYPE)
        self._buffer = np.zeros(SEARCH_SLOTS, dtype=STATE_DTYPE)
        self._mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        self._values = np.zeros(NUM_ACTIONS, dtype=np.float64)

    def act(self, observation: NDArray[np.float32], action_mask: NDArray[np.bool_]) -> int:
        """Not supported: this agent plans on the engine state. ValueError saying what to call."""
        raise ValueError("GreedyAgent plans on the engine state: call "
                         "tiny_york_env.agents.base.choose_action(agent, state, rng), which passes a "
                         "seat-safe view to act_state(view, seat); act(observation, action_mask) is "
                         "not supported")

    def action_values(self, view: np.ndarray, seat: int) -> NDArray[np.float64]:
        """Each action's score for ``seat`` in ``view`` (NEG_INF where illegal); a copy."""
        check_seat_to_move(view, seat)
        self._view[0] = view
        seeds = self.rng.integers(SEED_LIMIT, size=self.samples)
        score_actions(self._view, self._buffer, int(seat), seeds, self._mask, self._values)
        return self._values.copy()

    def act_state(self, view: np.ndarray, seat: int) -> int:
        """The best-scoring legal action for ``seat`` in the seat-safe ``view`` (ties at random)."""
        values = self.action_values(view, seat)
        best = np.flatnonzero(values >= values.max() - TIE_TOLERANCE)
        return int(best[0]) if best.size == 1 else int(self.rng.choice(best))


def state_seed(view: np.ndarray) -> int:
    """A seed below SEED_LIMIT from the record's own generator words (equal records, equal seeds)."""
    words = record_of(view)["rng"]
    return int(np.random.SeedSequence([int(w) for w in words]).generate_state(1, np.uint64)[0]) % SEED_LIMIT


def greedy_action(state: np.ndarray) -> int:
    """The greedy heuristic's action for the seat to move (the record's ``greedy_action``): the
    best-scoring legal action over one redraw seeded by ``state_seed``, ties to the lowest."""
    rec = record_of(state)
    seat = int(rec["actor"])
    check_seat_to_move(state, seat)
    view = np.zeros(1, dtype=STATE_DTYPE)
    view[0] = rec
    buffer = np.zeros(SEARCH_SLOTS, dtype=STATE_DTYPE)
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    values = np.zeros(NUM_ACTIONS, dtype=np.float64)
    score_actions(view, buffer, seat, np.array([state_seed(state)], dtype=np.int64), mask, values)
    return int(np.flatnonzero(values >= values.max() - TIE_TOLERANCE)[0])
