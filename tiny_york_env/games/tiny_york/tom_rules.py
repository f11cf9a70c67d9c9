"""``TomRulesAgent``: plays a full player's seat by the rulebook's automatic-player rules.

Where the solo chapter ("Solo rules - You versus TOM", rulings R14, R21-R24) says what Tom does,
the agent does the same, through the action codec, as a human seat would play it. Where Tom
never decides, a simple documented rule decides. Ties are broken with the agent's own seeded
generator, so a seed makes it reproducible.

=====================  ================================================================
decision               rule (source)
=====================  ================================================================
start stack (R4)       the first revealed stack, as the Toms take theirs (T1)
take a pair (R6)       the pair that leaves the hand holding the most cards of its two
                       cards' types, a wild counting as the hand's most common type;
                       ties at random (own rule: Tom never picks)
Phase I characters     only free ones: character 4 takes both pairs at once, each by the
                       rule above ("Tom ... may not use them"; a free one costs nothing)
8, 18, 22, Phase III   END_TURN: never pays a dollar (solo rules, general rules); 18's
                       declaration before the bids (R11) is declined too
exchanges (R9)         none (Tom has no reserve, R5)
bid (R21)              every card of the round's type, then the fewest wilds that beat
                       every bid made so far (ties by press order), none if no number
                       does; without a card of the round's type: pass
skyscraper round       every skyscraper card and every wild; without a skyscraper card
                       two wilds as one, then the rest; a lone wild: pass (R21)
building-plans round   bid like any round: plans cards are not wild for a player's seat
                       (own rule: Tom skips it because his skyscrapers come from the
                       supply, R22, while this seat builds from its board)
Phase II characters    never (21 is automatic)
elevator (R14)         the leftmost tile of the highest row it may take
prestige tile (R15)    never forfeits; R23's four steps: reachable boroughs, fewest own
                       skyscrapers, highest letter, the vessel to the highest letter; of
                       two tiles of one colour the higher
sell or stop (R16)     BUILD_STOP: never moves a skyscraper (own rule: Tom never sells)
anything else          the lowest legal action (a fallback the rules above never reach)
=====================  ================================================================
"""

import numpy as np
from numpy.typing import NDArray

from .actions import (
    BID_CARD,
    BID_DONE,
    BID_PAIR,
    BID_WILD,
    BUILD_STOP,
    ELEVATOR_TAKE,
    END_TURN,
    PICK_PAIR,
    PRESTIGE_BOROUGH,
    PRESTIGE_TILE,
    PRESTIGE_VESSEL,
    START_STACK,
    USE_CHARACTER,
)
from .components import (
    ELEVATOR_COLUMNS,
    MAX_PAIRS,
    NUM_START_STACKS,
    NUM_TILE_VALUES,
    NUM_VESSELS,
    PRESTIGE_REVEALED_PER_ROUND,
    PRESTIGE_TILE_COLOUR,
    PRESTIGE_TILE_VALUE,
    SKYSCRAPERS,
    VESSEL_COLOUR,
    VESSEL_ENDS,
    WILD,
)
from .heuristic import check_seat_to_move, record_of
from .state import (
    DEC_AFTER_EVALUATION,
    DEC_AFTER_PICK,
    DEC_BID,
    DEC_BUILD,
    DEC_CHARACTER_PAIR,
    DEC_DECLARE_BID_LAST,
    DEC_ELEVATOR,
    DEC_PHASE3,
    DEC_PICK_PAIR,
    DEC_PRESTIGE_BOROUGH,
    DEC_PRESTIGE_TILE,
    DEC_PRESTIGE_VESSEL,
    DEC_START_STACK,
    EMPTY,
    VESSEL_ON_BOARD,
)

BOTH_PAIRS_CHARACTER = 4  # free (addendum): "take both pairs at once"
USE_BOTH_PAIRS = USE_CHARACTER + BOTH_PAIRS_CHARACTER - 1
WILD_PAIR = BID_PAIR + WILD  # R21 skyscraper round: "2 wild cards as 1 skyscraper card"
END_TURN_DECISIONS = (DEC_AFTER_PICK, DEC_AFTER_EVALUATION, DEC_PHASE3, DEC_DECLARE_BID_LAST)


def press_ahead(rec, a, b):
    """R2: token ``a`` ranks ahead of token ``b`` (higher space, then higher in the stack)."""
    if rec["press_space"][a] != rec["press_space"][b]:
        return rec["press_space"][a] > rec["press_space"][b]
    return rec["press_height"][a] > rec["press_height"][b]


def beats_every_bid_so_far(rec, seat, value):
    """R21, T4: ``value`` beats every finished bid of this bidding round, ties by press order."""
    for other in range(int(rec["num_seats"])):
        if other == seat or rec["bid_done"][other] == 0:
            continue
        theirs = rec["bid_value"][other]
        if theirs > value or (theirs == value and press_ahead(rec, other, seat)):
            return False
    return True


def fewest_wilds_to_lead(rec, seat, value, wilds):
    """R21: the fewest of ``wilds`` extra wild cards that make ``value`` beat every bid so far;
    0 when no number does."""
    for extra in range(wilds + 1):
        if beats_every_bid_so_far(rec, seat, value + extra):
            return extra
    return 0


def tom_bid_part(rec, seat):
    """R21: the next part of Tom's bid for ``seat``, or BID_DONE when it is complete."""
    hand = rec["hand"][seat]
    round_type = int(rec["bid_round"])
    if hand[round_type] > 0:
        return BID_CARD
    has_base = rec["bid_base"][seat] != 0
    if round_type == SKYSCRAPERS:
        if has_base and hand[WILD] > 0:
            return BID_WILD
        if not has_base and hand[WILD] >= 2:
            return WILD_PAIR
        return BID_DONE
    if not has_base:
        return BID_DONE  # nothing of the round's type: Tom passes
    extra = fewest_wilds_to_lead(rec, seat, int(rec["bid_value"][seat]), int(hand[WILD]))
    return BID_WILD if extra > 0 else BID_DONE


def tom_elevator_slot(mask):
    """R14: the leftmost legal tile of the highest row (rows are values 1..5)."""
    for row in range(NUM_TILE_VALUES - 1, -1, -1):
        for col in range(ELEVATOR_COLUMNS):
            if mask[ELEVATOR_TAKE + row * ELEVATOR_COLUMNS + col]:
                return ELEVATOR_TAKE + row * ELEVATOR_COLUMNS + col
    raise ValueError("no elevator tile is legal")


def _candidate_vessels(rec, mask):
    """The vessels the pending prestige step may still lead to (R23 step 1's 'vessels')."""
    d = rec["decision"]
    if d == DEC_PRESTIGE_BOROUGH:
        return [int(rec["chosen_vessel"])]
    if d == DEC_PRESTIGE_VESSEL:
        return [v for v in range(NUM_VESSELS) if mask[PRESTIGE_VESSEL + v]]
    colours = {int(PRESTIGE_TILE_COLOUR[rec["prestige_revealed"][slot]])
               for slot in range(PRESTIGE_REVEALED_PER_ROUND) if mask[PRESTIGE_TILE + slot]}
    return [v for v in range(NUM_VESSELS)
            if rec["vessel_owner"][v] == VESSEL_ON_BOARD and int(VESSEL_COLOUR[v]) in colours]


def tom_prestige_plan(rec, seat, mask):
    """R23: (borough, vessel) by the four steps over the vessels still open to this step."""
    vessels = _candidate_vessels(rec, mask)
    boroughs = sorted({int(b) for v in vessels for b in VESSEL_ENDS[v]})
    letter = rec["borough_sequence"]
    # Steps 2-3: fewest of own skyscrapers, then the highest letter (X is the highest).
    borough = min(boroughs, key=lambda b: (rec["skyscrapers"][b, seat], -letter[b]))

    def other_end(v):
        a, b = VESSEL_ENDS[v]
        return int(b) if a == borough else int(a)

    touching = [v for v in vessels if borough in VESSEL_ENDS[v]]
    vessel = max(touching, key=lambda v: letter[other_end(v)])  # step 4
    return borough, vessel


def tom_prestige_action(rec, seat, mask):
    """R23 as the action for the pending prestige step (tile, vessel or borough)."""
    borough, vessel = tom_prestige_plan(rec, seat, mask)
    d = rec["decision"]
    if d == DEC_PRESTIGE_BOROUGH:
        return PRESTIGE_BOROUGH + borough
    if d == DEC_PRESTIGE_VESSEL:
        return PRESTIGE_VESSEL + vessel
    # "If there are 2 prestige tiles of the same color give Tom that one with the higher value."
    slots = [s for s in range(PRESTIGE_REVEALED_PER_ROUND) if mask[PRESTIGE_TILE + s]
             and PRESTIGE_TILE_COLOUR[rec["prestige_revealed"][s]] == VESSEL_COLOUR[vessel]]
    slot = max(slots, key=lambda s: PRESTIGE_TILE_VALUE[rec["prestige_revealed"][s]])
    return PRESTIGE_TILE + slot


def pair_score(hand, pair):
    """How many cards of the pair's types the hand holds once it takes ``pair``; a wild counts
    as the hand's most common type (the pick rule of the module table)."""
    after = hand.astype(np.int64).copy()
    for card in pair:
        if card != EMPTY:
            after[card] += 1
    most_common = int(after[:WILD].max())
    return sum(most_common if card == WILD else int(after[card]) for card in pair if card != EMPTY)


class TomRulesAgent:
    """Plays by Tom's rules (module table); needs the engine view: use ``act_state``."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: NDArray[np.float32], action_mask: NDArray[np.bool_]) -> int:
        """Not supported: this agent reads the engine state. ValueError saying what to call."""
        raise ValueError("TomRulesAgent plays on the engine state: call "
                         "tiny_york_env.agents.base.choose_action(agent, state, rng), which passes a "
                         "seat-safe view to act_state(view, seat); act(observation, action_mask) is "
                         "not supported")

    def act_state(self, view: np.ndarray, seat: int) -> int:
        """The action Tom's rules choose for ``seat`` in the seat-safe ``view``."""
        mask = check_seat_to_move(view, seat)
        rec = record_of(view)
        d = int(rec["decision"])
        if d == DEC_START_STACK:
            return next(START_STACK + k for k in range(NUM_START_STACKS) if mask[START_STACK + k])
        if d == DEC_PICK_PAIR and mask[USE_BOTH_PAIRS]:
            return USE_BOTH_PAIRS
        if d in (DEC_PICK_PAIR, DEC_CHARACTER_PAIR):
            return self._best_pair(rec, seat, mask)
        if d in END_TURN_DECISIONS:
            return END_TURN
        if d == DEC_BID:
            return tom_bid_part(rec, seat)
        if d == DEC_ELEVATOR:
            return tom_elevator_slot(mask)
        if d in (DEC_PRESTIGE_TILE, DEC_PRESTIGE_VESSEL, DEC_PRESTIGE_BOROUGH):
            return tom_prestige_action(rec, seat, mask)
        if d == DEC_BUILD:
            return BUILD_STOP
        return int(np.flatnonzero(mask)[0])

    def _best_pair(self, rec, seat, mask):
        """The pick rule: the highest ``pair_score``, ties at random."""
        pairs = [p for p in range(MAX_PAIRS) if mask[PICK_PAIR + p]]
        scores = np.array([pair_score(rec["hand"][seat], rec["pairs"][p]) for p in pairs])
        best = np.flatnonzero(scores == scores.max())
        return PICK_PAIR + pairs[int(self.rng.choice(best))]
