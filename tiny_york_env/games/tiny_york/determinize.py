"""Determinization: a copy of a game in which everything one seat may not know is resampled (R25).

Search agents plan on ``determinize(state, seat, seed)``: a new record that agrees with ``state``
on everything ``seat`` may know and draws everything else afresh, consistently with what it
knows, so reading or playing out the copy reveals nothing hidden. ``determinize_into`` is the
compiled core, callable from compiled search loops.

Resampled (R25 "private to its owner" and "hidden from all"):

* ``draw_pile`` (its first ``draw_count`` cards), ``discard`` (counts per type), ``hand`` of
  every other seat (a Tom's row is his supply) and the face-down part of ``reserve`` of every
  other seat: the unseen cards of all of them form one pool, shuffled and dealt back so that
  the draw pile, the discard pile, each hand and each reserve keep their sizes. Face-up reserve
  cards (character 3, ``reserve_faceup``) are public and stay where they are (R25, D7). Stale
  entries of ``draw_pile`` beyond ``draw_count`` (cards drawn earlier) are cleared to ``EMPTY``.
* ``elevator_stack``: each value's face-down stack is shuffled within itself.
* ``prestige_stack`` from ``prestige_next`` on: the face-down prestige tiles are shuffled.
* ``start_stacks`` never revealed (setup step 4, R4, P5): their value-1 tiles are shuffled among
  them, and so are their value-5 tiles.
* ``rng``: reseeded from ``seed`` (the resampling above draws from it).

Everything resampled is first put in a fixed order (cards by type, tiles by id), so the view is
a function of what ``seat`` knows and of ``seed`` only: two games that differ only in what
``seat`` cannot know give byte-identical views.

Kept: every other field. That is the public state (R25: board, tracks, characters, dollars,
skyscrapers, vessels, played cards, pair display, elevator display, revealed prestige and start
tiles, hand and reserve sizes, face-up reserve cards, the progress of the game and the pending
decision) and the seat's own hand and reserve.

Rulings (D1-D5, D7, for docs/rules.md):

* **D1 The discard pile is unseen.** The rulebook never lets a player look through the discard
  pile, and it holds cards nobody saw (hands discarded at round end, R19; cards discarded by
  characters 1, 5 and 12); the observation shows only its size. Its contents are therefore part
  of the unseen pool; keeping them would reveal the exact make-up of the other hands.
* **D2 No memory of other seats' cards.** Cards a seat saw others take (face-up pairs, Tom's
  draws) or play earlier are not tracked: the unseen pool is dealt uniformly at random, every
  hand and reserve alike.
* **D3 The observer's own rows are kept** whoever the observer is, as in the observation
  encoder; a Tom observer keeps his supply.
* **D4 What Tom's rules reveal is kept.** Tom plays by fixed rules (R21), so his bids show
  something of his supply, and the deal respects it: during a bidding round he holds no card of
  an earlier round, nor of this one once he has bid; a finished bid with cards of the round that
  still does not beat every earlier bid shows he held fewer wilds (building plans included)
  than it would take; a wild played at once before his bid shows he holds a card of the round.
  The deal is drawn uniformly and redrawn until these hold; after MAX_DEAL_TRIES redraws, Toms
  are dealt a card of the round first and wilds only up to their limit.
* **D5 The seat to move can answer.** When ``seat`` is not the one to move, the mover's hidden
  cards are redrawn (as in D4) until its pending decision is one the engine could have asked:
  a character turn (8, 22, Phase III) needs a usable character, an ability in progress a legal
  choice (character 15 started, so a reserve card it can play is there).
* **D7 Face-up reserve cards are kept.** The card character 3 places face up in a reserve is
  public (R25) while it stays there (P24): every seat's ``reserve_faceup`` cards stay in that
  reserve, and only the rest of a hidden reserve is dealt from the unseen pool.
"""

import numpy as np

from ...core.jit import jit
from ...core.rng import seed_rng
from .abilities import any_character_usable
from .actions import NUM_ACTIONS
from .api import SEED_LIMIT, _as_batch
from .bots import is_wild_for_tom
from .components import (
    MAX_SEATS,
    NUM_BIDDING_ROUNDS,
    NUM_CARD_TYPES,
    NUM_CARDS,
    NUM_PRESTIGE_TILES,
    NUM_START_STACKS,
    NUM_TILE_VALUES,
    PLANS,
    SKYSCRAPERS,
    WILD,
)
from .legal import fill_legal_mask
from .press import ahead
from .setup import shuffle_in_place
from .state import (
    DEC_AFTER_EVALUATION,
    DEC_AFTER_PICK,
    DEC_DECLARE_BID_LAST,
    DEC_GAME_OVER,
    DEC_PHASE3,
    EMPTY,
    STAGE_BID_END,
    STAGE_BID_START,
    STAGE_BIDDING,
    STAGE_DECLARE_BID_LAST,
    STAGE_EVALUATE,
    STAGE_RETURN_CARDS,
    STATE_DTYPE,
)
from .validate import validate_state

NO_CAP = NUM_CARDS  # no limit on the wilds in a Tom's supply
MAX_DEAL_TRIES = 64  # uniform deals tried before one built to fit Tom's limits (D4, D5)
LOW_TILE, HIGH_TILE = 0, 1  # start_stacks columns: the value-1 and the value-5 tile (setup step 4)


@jit
def _unseen_cards(st, seat, pool):
    """Write the cards ``seat`` cannot see into ``pool``, sorted by type, and return how many:
    the draw pile, the discard pile (D1), and the hands and face-down reserve cards of every
    other seat (R25, D7).

    Sorted, the pool depends only on what ``seat`` knows, never on the hidden order."""
    counts = np.zeros(NUM_CARD_TYPES, np.int64)
    for k in range(st["draw_count"]):
        counts[st["draw_pile"][k]] += 1
    for t in range(NUM_CARD_TYPES):
        counts[t] += st["discard"][t]
        for other in range(st["num_seats"]):
            if other != seat:
                hidden = st["reserve"][other, t] - st["reserve_faceup"][other, t]
                counts[t] += st["hand"][other, t] + hidden
    n = 0
    for t in range(NUM_CARD_TYPES):
        for _ in range(counts[t]):
            pool[n] = t
            n += 1
    return n


@jit
def _in_bidding_round(st):
    """A bidding round is running (its bids, its evaluation, character 22 after it)."""
    stage = st["stage"]
    running = (stage == STAGE_BID_START or stage == STAGE_DECLARE_BID_LAST
               or stage == STAGE_BIDDING or stage == STAGE_EVALUATE
               or stage == STAGE_BID_END or stage == STAGE_RETURN_CARDS)
    return running and 0 <= st["bid_round"] < NUM_BIDDING_ROUNDS


@jit
def tom_may_hold(st, tom, t):
    """R21: on his turn Tom plays every supply card of the round's type, and a drawn card of an
    earlier round is discarded, so during a bidding round his supply holds no card of an
    earlier round, nor of this one once he has bid; wilds and building plans may stay."""
    if is_wild_for_tom(t) or not _in_bidding_round(st):
        return True
    r = st["bid_round"]
    return t > r or (t == r and st["bid_done"][tom] == 0)


@jit
def bidding_turn(st, seat):
    """``seat``'s place in this bidding round's order: clockwise from the start player (R3),
    the user of character 18 last (R11). During the bids ``order`` holds it; later (the
    evaluation reuses ``order``) the clockwise place, right only when 18 was not used."""
    n = st["num_seats"]
    if st["stage"] == STAGE_BIDDING:
        for i in range(n):
            if st["order"][i] == seat:
                return i
    return (seat - st["bid_start"]) % n


@jit
def tom_wild_cap(st, tom):
    """R21: Tom adds the fewest wilds that make his bid beat every earlier bid of the round, so
    when his finished bid, made with cards of the round, still does not beat them all, he holds
    fewer wilds than that takes. NO_CAP otherwise, and also after the evaluation (the press
    order may have changed since his turn) or, once 18 was used, in the evaluation (the record
    no longer shows who bid before him). 18 is declared before the first bid, so its user bids
    after Tom and never counts among the bids he had to beat."""
    r = st["bid_round"]
    if not _in_bidding_round(st) or r == PLANS or r == SKYSCRAPERS:
        return NO_CAP
    if st["bid_done"][tom] == 0 or st["played"][tom, r] == 0:
        return NO_CAP
    if st["stage"] != STAGE_BIDDING and st["character18_used"] != 0:
        return NO_CAP
    if st["stage"] == STAGE_BID_END or st["stage"] == STAGE_RETURN_CARDS:
        return NO_CAP
    n = st["num_seats"]
    turn = bidding_turn(st, tom)
    value = st["bid_value"][tom]
    needed = 0
    for other in range(n):
        if other == tom or st["bid_done"][other] == 0 or bidding_turn(st, other) >= turn:
            continue
        gap = st["bid_value"][other] - value + (0 if ahead(st, tom, other) else 1)
        needed = max(needed, gap)
    if needed <= 0:
        return NO_CAP
    return needed - 1


@jit
def tom_needs_round_card(st, tom):
    """Solo Phase II: a wild Tom drew before the round is played at once only when his supply
    holds a card of the round, so before his bid such a wild in play shows he holds one."""
    r = st["bid_round"]
    if not _in_bidding_round(st) or r == PLANS or st["bid_done"][tom] != 0:
        return False
    return st["played"][tom, PLANS] + st["played"][tom, WILD] > 0


@jit
def _take_for_tom(st, tom, pool, n, taken, size, wild_cap):
    """Give Tom the first ``size`` cards of ``pool`` (in its order) that he may hold, wilds only
    up to ``wild_cap``; returns how many he got."""
    row = st["hand"][tom]
    got = 0
    wilds = 0
    for k in range(n):
        if got >= size:  # never more than asked, whatever size a record implies
            break
        t = pool[k]
        if taken[k] or not tom_may_hold(st, tom, t):
            continue
        if is_wild_for_tom(t):
            if wilds == wild_cap:
                continue
            wilds += 1
        taken[k] = True
        row[t] += 1
        got += 1
    return got


@jit
def _tom_deal_fits(st, tom, size):
    """Tom's dealt supply keeps R21's limits (wild cap, a card of the round when needed)."""
    row = st["hand"][tom]
    if _row_size(row) != size or row[PLANS] + row[WILD] > tom_wild_cap(st, tom):
        return False
    return not tom_needs_round_card(st, tom) or row[st["bid_round"]] > 0


@jit
def _deal_toms(st, seat, pool, n, taken, sizes, strict):
    """Deal the Toms' supplies (other than ``seat``'s) from the shuffled ``pool``, those who have
    bid first (they may hold fewer kinds). ``strict``: uniform, True when every limit holds;
    otherwise a card of the round first and wilds only up to the cap (always within limits)."""
    fits = True
    for done in (1, 0):
        for tom in range(st["num_seats"]):
            if tom == seat or st["is_tom"][tom] == 0 or (st["bid_done"][tom] != 0) != (done == 1):
                continue
            for t in range(NUM_CARD_TYPES):
                st["hand"][tom, t] = 0
            if strict:
                _take_for_tom(st, tom, pool, n, taken, sizes[tom], NO_CAP)
            else:
                if tom_needs_round_card(st, tom):
                    _take_round_card(st, tom, pool, n, taken)
                _take_for_tom(st, tom, pool, n, taken, sizes[tom] - _row_size(st["hand"][tom]),
                              tom_wild_cap(st, tom))
            fits = fits and _tom_deal_fits(st, tom, sizes[tom])
    return fits


@jit
def _take_round_card(st, tom, pool, n, taken):
    """Give Tom the first card of the round's type left in ``pool``."""
    r = st["bid_round"]
    for k in range(n):
        if not taken[k] and pool[k] == r:
            taken[k] = True
            st["hand"][tom, r] += 1
            return


@jit
def _deal_rest(st, seat, pool, n, taken, sizes):
    """Deal the cards of ``pool`` not yet taken, in order: draw pile, discard pile, then each
    other agent's hand and reserve, each to its former size; a reserve's face-up cards stay
    and only its face-down rest is dealt (D7)."""
    k = 0
    for i in range(st["draw_pile"].shape[0]):
        if i < st["draw_count"]:
            while taken[k]:
                k += 1
            st["draw_pile"][i] = pool[k]
            k += 1
        else:
            st["draw_pile"][i] = EMPTY
    k = _deal_row(st["discard"], pool, taken, k, _row_size(st["discard"]))
    for other in range(st["num_seats"]):
        if other == seat:
            continue
        if st["is_tom"][other] == 0:
            k = _deal_row(st["hand"][other], pool, taken, k, sizes[other])
        reserve = st["reserve"][other]
        faceup = st["reserve_faceup"][other]
        k = _deal_row(reserve, pool, taken, k, _row_size(reserve) - _row_size(faceup))
        for t in range(NUM_CARD_TYPES):
            reserve[t] += faceup[t]


@jit
def _deal_row(row, pool, taken, k, count):
    """Set the per-type counts ``row`` to the next ``count`` untaken cards of ``pool`` from
    index ``k`` on; returns the index after them."""
    for t in range(NUM_CARD_TYPES):
        row[t] = 0
    for _ in range(count):
        while taken[k]:
            k += 1
        row[pool[k]] += 1
        k += 1
    return k


@jit
def _row_size(row):
    """How many cards a per-type count row holds."""
    n = 0
    for t in range(NUM_CARD_TYPES):
        n += row[t]
    return n


@jit
def deal_unseen_cards(st, seat):
    """Shuffle the cards ``seat`` cannot see and deal them back: draw pile, discard pile, other
    hands, supplies and reserves each keep their size (R25, D1, D2). The deal is redrawn, up to
    MAX_DEAL_TRIES times, until Toms' supplies keep R21's limits (D4) and the seat to move can
    answer its decision (D5)."""
    pool = np.empty(NUM_CARDS, np.int16)
    n = _unseen_cards(st, seat, pool)
    sizes = np.zeros(MAX_SEATS, np.int64)
    for other in range(st["num_seats"]):
        sizes[other] = _row_size(st["hand"][other])
    taken = np.zeros(n, np.bool_)
    for attempt in range(MAX_DEAL_TRIES + 1):
        shuffle_in_place(st, pool, n)
        taken[:] = False
        toms_fit = _deal_toms(st, seat, pool, n, taken, sizes, attempt < MAX_DEAL_TRIES)
        _deal_rest(st, seat, pool, n, taken, sizes)
        if toms_fit and mover_can_answer(st, seat):
            break


@jit
def mover_can_answer(st, seat):
    """D5: the seat to move (when not ``seat``) holds cards that let it answer its pending
    decision: the engine asks a character turn only when a character is usable, and an ability
    in progress was started because its cards were there (P12)."""
    mover = st["actor"]
    d = st["decision"]
    if mover == seat or mover < 0 or d == DEC_GAME_OVER:
        return True
    if (d == DEC_AFTER_PICK or d == DEC_AFTER_EVALUATION or d == DEC_PHASE3
            or d == DEC_DECLARE_BID_LAST):
        return any_character_usable(st, mover, d)
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    fill_legal_mask(st, mask)
    for a in range(NUM_ACTIONS):
        if mask[a]:
            return True
    return False


@jit
def sort_in_place(arr, n):
    """Insertion sort of ``arr[:n]`` (a few tiles): forgets the order before a fresh shuffle."""
    for i in range(1, n):
        value = arr[i]
        k = i - 1
        while k >= 0 and arr[k] > value:
            arr[k + 1] = arr[k]
            k -= 1
        arr[k + 1] = value


@jit
def reshuffle_in_place(st, arr, n):
    """A fresh shuffle of ``arr[:n]`` that depends on its contents only, not on their order."""
    sort_in_place(arr, n)
    shuffle_in_place(st, arr, n)


@jit
def shuffle_elevator_stacks_order(st):
    """Setup step 3: the elevator stacks are face down; shuffle each value's stack in itself."""
    for row in range(NUM_TILE_VALUES):
        reshuffle_in_place(st, st["elevator_stack"][row], st["elevator_count"][row])


@jit
def shuffle_prestige_stack_order(st):
    """Setup step 7: the prestige tiles not yet revealed are face down; shuffle them."""
    start = st["prestige_next"]
    reshuffle_in_place(st, st["prestige_stack"][start:], NUM_PRESTIGE_TILES - start)


@jit
def revealed_start_stack_count(st):
    """R4 and P5: the first participants + 1 stacks are revealed, one per participant with Toms."""
    if st["num_agents"] < st["num_seats"]:
        return st["num_seats"]
    return st["num_seats"] + 1


@jit
def shuffle_hidden_start_stacks(st):
    """Setup step 4: stacks never revealed are face down; shuffle their value-1 tiles among them
    and their value-5 tiles among them."""
    first_hidden = revealed_start_stack_count(st)
    hidden = NUM_START_STACKS - first_hidden
    if hidden <= 1:
        return
    tiles = np.empty(hidden, np.int16)
    for column in (LOW_TILE, HIGH_TILE):
        for k in range(hidden):
            tiles[k] = st["start_stacks"][first_hidden + k, column]
        reshuffle_in_place(st, tiles, hidden)
        for k in range(hidden):
            st["start_stacks"][first_hidden + k, column] = tiles[k]


@jit
def resample_hidden(st, seat):
    """Resample in place, with the record's generator, everything ``seat`` may not know (R25)."""
    deal_unseen_cards(st, seat)
    shuffle_elevator_stacks_order(st)
    shuffle_prestige_stack_order(st)
    shuffle_hidden_start_stacks(st)


@jit
def determinize_into(src_states, j, dst_states, i, seat, seed):
    """``dst_states[i]`` = game ``src_states[j]`` as ``seat`` may know it, the hidden parts drawn
    from ``seed`` (0 <= seed < 2**63); the source is not changed."""
    dst_states[i] = src_states[j]
    dst = dst_states[i]
    seed_rng(dst["rng"], seed)
    resample_hidden(dst, seat)


def _seed_value(seed):
    """The int seed below 2**63 for ``seed``: a non-negative int, or drawn from a numpy Generator."""
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(SEED_LIMIT))
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative int or a numpy Generator, got {seed!r}")
    return int(seed) % SEED_LIMIT


def determinize(state: np.ndarray, seat: int | np.integer,
                seed: int | np.integer | np.random.Generator) -> np.ndarray:
    """A new game record: ``state`` as ``seat`` may know it, everything hidden resampled (R25).
    The record is checked first (``validate_state``: a ValueError names the first wrong field),
    since agents pass states from outside and the resampling trusts the card counts."""
    batch = _as_batch(state)
    validate_state(batch.reshape(()))
    num_seats = int(batch[0]["num_seats"])
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < num_seats:
        raise ValueError(f"seat {seat!r} is not a seat of this game: seats are 0..{num_seats - 1}")
    view = np.zeros((), dtype=STATE_DTYPE)
    determinize_into(batch, 0, view.reshape(1), 0, int(seat), _seed_value(seed))
    return view


@jit
def redraw_unseen_by_all(states, i, seed):
    """Reseed game ``i``'s generator from ``seed`` and redraw in place what no seat has seen (R25
    "hidden from all"): the draw pile's order, the face-down elevator, prestige and start tiles;
    every hand, reserve and the discard pile kept."""
    st = states[i]
    seed_rng(st["rng"], seed)
    reshuffle_in_place(st, st["draw_pile"], st["draw_count"])
    shuffle_elevator_stacks_order(st)
    shuffle_prestige_stack_order(st)
    shuffle_hidden_start_stacks(st)


def redraw_unseen(state: np.ndarray, seed: int | np.integer | np.random.Generator) -> np.ndarray:
    """A new game record: ``state`` with every hand and reserve kept and only what no seat has seen
    redrawn (``redraw_unseen_by_all``): a view for a search told every hand (a study of what hidden
    information costs, not a seat-safe view). The record is checked first (``validate_state``)."""
    batch = _as_batch(state)
    validate_state(batch.reshape(()))
    view = batch.copy()
    redraw_unseen_by_all(view, 0, _seed_value(seed))
    return view.reshape(())
