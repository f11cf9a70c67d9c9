"""``validate_state``: is a record one Construction Yard's engine could have made? (the door check)

The compiled engine trusts its record: it indexes arrays with the record's counts, card codes,
seats and slots. A record from outside (a saved game, a socket, a damaged checkpoint) is checked
here first, and a ValueError names the first field that is wrong and what is allowed. Checked:

- the setup: players 2-6, agent seats, each seat's kind (agents first, then bots), Dirk exactly
  in two-player games, the start player;
- the pending decision and whose it is (an agent's seat while the game runs: the engine plays
  its bots itself), with what each decision needs (a payment's slot and building, and money
  enough left in the slot's currency to finish it, as there was when the building was bought;
  a bought building waiting for keep-or-give only with Dirk) and nothing stale;
- the money cards: deck, discard and display codes, the scoring cards A and B (each in the deck
  until its scoring, never twice, inside its own pile), the piles' bottoms (a layout setup makes
  for some number of cards, fixed until the first reshuffle sets them all to 0: the piles are
  used up from the top, so a bottom may lie above today's deck, which never holds more cards than
  were stacked), and conservation: every card of the game (three of each currency and value, two
  with two players) is in exactly one place (deck, discard, display, a hand or the payment being
  made);
- the building cards: every card 0-53 in exactly one place (deck, display, the purchase
  waiting for keep-or-give) or counted by type in a row of buildings or in ``removed``, with no
  type owned more often than it is printed;
- scores, scorings done, the generator's words, unused seats and rows all zero;
- the bot log (``bot_moves.py``): (a bot's seat, an action) below its count, zeros beyond.
"""

from __future__ import annotations

import functools

import numpy as np

from ...core.move_log import move_log_problem
from .actions import NUM_ACTIONS
from .api import as_batch
from .data import (
    BUILDING_COUNTS,
    BUILDING_PRICE,
    BUILDING_TYPE,
    COPIES,
    COPIES_TWO_PLAYERS,
    DIRK_PLAYERS,
    DISPLAY_SLOTS,
    MAX_PLAYERS,
    MAX_VALUE,
    MIN_PLAYERS,
    MIN_VALUE,
    NUM_BUILDINGS,
    NUM_PILES,
    NUM_SCORINGS,
    NUM_VALUES,
    SCORING_A_PILE,
    SCORING_B_PILE,
    SLOT_CURRENCY,
    START_CAPITAL,
    TAKE_LIMIT,
)
from .setup import pile_bottoms
from .state import (
    BOT_GREEDY,
    BOT_NONE,
    DEC_DIRK,
    DEC_GAME_OVER,
    DEC_PAY,
    DIRK_ROW,
    MAX_MONEY_CARDS,
    MONEY_DECK_CAPACITY,
    NO_CARD,
    NUM_DECISIONS,
    NUM_MONEY_CODES,
    SCORING_CARDS,
    STATE_DTYPE,
)

WORD_LIMIT = 2 ** 32  # the generator's words are 32-bit values (core/rng.py)
MAX_ACTIONS_IN_TURN = TAKE_LIMIT  # four exact payments and one more action at most
MAX_SCORE = 10_000  # far above any reachable total (a game's points stay below 300)
MAX_TURNS = 10_000  # far above any real game (about 100-250 turns)
MIN_START_CARDS = -(-START_CAPITAL // MAX_VALUE)  # 20 in values of at most 9: 3 cards at least
MAX_PAID = NUM_VALUES * (NUM_VALUES + 1) // 2 * COPIES  # every card of one currency


class StateError(ValueError):
    """A record the engine could not have made (a ValueError naming the field)."""


def _fail(index: int | None, message: str) -> None:
    where = "" if index is None else f"record {index}: "
    raise StateError(f"invalid Construction Yard state: {where}{message}")


def _in_range(value: int, low: int, high: int, field: str, index: int | None) -> int:
    value = int(value)
    if not low <= value <= high:
        _fail(index, f"{field} is {value}, allowed {low}..{high}")
    return value


def _check_setup(rec, index):
    n = _in_range(rec["num_players"], MIN_PLAYERS, MAX_PLAYERS, "num_players", index)
    agents = _in_range(rec["num_agents"], 0, n, "num_agents", index)
    if int(rec["has_dirk"]) != int(n == DIRK_PLAYERS):
        _fail(index, f"has_dirk is {int(rec['has_dirk'])} with {n} players (Dirk plays exactly "
                     f"in two-player games)")
    for seat in range(MAX_PLAYERS):
        kind = int(rec["bot_kind"][seat])
        allowed = (BOT_NONE,) if seat < agents or seat >= n else tuple(range(BOT_NONE + 1, BOT_GREEDY + 1))
        if kind not in allowed:
            _fail(index, f"bot_kind[{seat}] is {kind}, allowed {allowed} (agents in seats "
                         f"0..{agents - 1}, bots after them, nothing beyond seat {n - 1})")
    _in_range(rec["start_player"], 0, n - 1, "start_player", index)
    _in_range(rec["turn"], 0, MAX_TURNS, "turn", index)
    return n


def _check_decision(rec, n, index):
    decision = _in_range(rec["decision"], 0, NUM_DECISIONS - 1, "decision", index)
    actor = _in_range(rec["actor"], 0, n - 1, "actor", index)
    if decision != DEC_GAME_OVER and rec["bot_kind"][actor] != BOT_NONE:
        _fail(index, f"actor is {actor}, a bot's seat, in a running game: the engine plays its bots "
                     f"itself, so the seat to move is an agent's (0..{int(rec['num_agents']) - 1})")
    _in_range(rec["actions_in_turn"], 0, MAX_ACTIONS_IN_TURN, "actions_in_turn", index)
    buy_slot, pending = int(rec["buy_slot"]), int(rec["pending_building"])
    if decision == DEC_PAY:
        slot = _in_range(buy_slot, 0, DISPLAY_SLOTS - 1, "buy_slot (paying)", index)
        if rec["building_display"][slot] == NO_CARD:
            _fail(index, f"paying for slot {slot}, which holds no building")
        _in_range(rec["paid"], 0, MAX_PAID, "paid", index)
        if int(rec["paid"]) != int(np.dot(np.arange(1, NUM_VALUES + 1), rec["payment"])):
            _fail(index, "paid is not the total of the payment's cards")
    else:
        if buy_slot != NO_CARD or rec["paid"] != 0 or rec["payment"].any():
            _fail(index, f"buy_slot, paid and payment must be empty outside a payment "
                         f"(decision {decision})")
    if decision == DEC_DIRK:
        if not rec["has_dirk"]:
            _fail(index, "keep-or-give-to-Dirk is pending in a game without Dirk")
        _in_range(pending, 0, NUM_BUILDINGS - 1, "pending_building", index)
    elif pending != NO_CARD:
        _fail(index, f"pending_building is {pending} while no keep-or-give is pending")
    if rec["paid_exactly"] not in (0, 1) or (rec["paid_exactly"] and decision != DEC_DIRK):
        _fail(index, "paid_exactly is 0 or 1, and 1 only while keep-or-give is pending")
    winners = int(rec["winner_mask"])
    if decision == DEC_GAME_OVER:
        _in_range(winners, 1, (1 << n) - 1, "winner_mask (game over)", index)
    elif winners:
        _fail(index, "winner_mask is set before the game is over")
    return decision


def _check_money(rec, n, index):
    count = _in_range(rec["money_count"], 0, MONEY_DECK_CAPACITY, "money_count", index)
    discards = _in_range(rec["discard_count"], 0, MAX_MONEY_CARDS, "discard_count", index)
    deck = rec["money_deck"][:count].astype(np.int64)
    if deck.size and (deck.min() < 0 or deck.max() > max(SCORING_CARDS)):
        _fail(index, f"money_deck holds a code outside 0..{max(SCORING_CARDS)}")
    for scoring, card in enumerate(SCORING_CARDS):
        in_deck = int(np.sum(deck == card))
        if in_deck + int(rec["scorings_done"][scoring]) != 1:
            _fail(index, f"scoring card {'AB'[scoring]} must be in the money deck exactly until its "
                         f"scoring (in deck {in_deck}, scorings_done {int(rec['scorings_done'][scoring])})")
    if rec["scorings_done"][NUM_SCORINGS - 1] and rec["decision"] != DEC_GAME_OVER:
        _fail(index, "scoring C is done but the game is not over")
    _check_piles(rec, n, deck, index)
    discard = rec["discard"][:discards].astype(np.int64)
    display = rec["money_display"].astype(np.int64)
    for codes, field in ((discard, "discard"), (display[display != NO_CARD], "money_display")):
        if codes.size and (codes.min() < 0 or codes.max() >= NUM_MONEY_CODES):
            _fail(index, f"{field} holds a code outside 0..{NUM_MONEY_CODES - 1}")
    hands = rec["hand"].astype(np.int64)
    if hands.min() < 0 or hands[n:].any():
        _fail(index, f"hand counts must be non-negative, and zero beyond seat {n - 1}")
    payment = rec["payment"].astype(np.int64)
    if payment.min() < 0:
        _fail(index, "payment counts must be non-negative")
    counts = np.bincount(np.concatenate([deck[deck < NUM_MONEY_CODES], discard,
                                         display[display != NO_CARD]]), minlength=NUM_MONEY_CODES)
    counts += hands.sum(axis=0).reshape(NUM_MONEY_CODES)
    if rec["decision"] == DEC_PAY:
        currency = int(SLOT_CURRENCY[rec["buy_slot"]])
        counts[currency * NUM_VALUES:(currency + 1) * NUM_VALUES] += payment
    copies = COPIES_TWO_PLAYERS if n == DIRK_PLAYERS else COPIES
    if np.any(counts != copies):
        code = int(np.flatnonzero(counts != copies)[0])
        _fail(index, f"money card {code} (currency {code // NUM_VALUES}, value {code % NUM_VALUES + 1}) "
                     f"is in {int(counts[code])} places; every card is in exactly one of {copies} "
                     f"copies (deck, discard, display, hands, payment)")


@functools.cache
def setup_pile_bottoms(num_players: int) -> dict[tuple[int, ...], int]:
    """Every ``pile_bottom`` setup can make with ``num_players`` players -> the stack's size: the
    piles are laid out from the number of money cards left after the start capital and the
    display (Setup, Y1), which each hand's 3 or more cards (20 in values of at most 9) bound."""
    cards = NUM_MONEY_CODES * (COPIES_TWO_PLAYERS if num_players == DIRK_PLAYERS else COPIES)
    most = cards - DISPLAY_SLOTS - MIN_START_CARDS * num_players
    layouts = {}
    for m in range(most + 1):
        bottoms = np.zeros(NUM_PILES, np.int64)
        # m = 5k and 5k + 1 give the same bottoms (only the top pile differs): keep the larger stack
        layouts[tuple(bottoms.tolist())] = pile_bottoms(m, bottoms)
    return layouts


def _check_piles(rec, n, deck, index):
    """The piles' bottoms are setup's (Setup, Y1) until the first reshuffle, when they are all 0
    (Y8: both scoring cards were drawn by then); the deck only shrinks from the top meanwhile, and
    an undrawn scoring card lies in its own pile."""
    bottoms = tuple(int(b) for b in rec["pile_bottom"])
    if not any(bottoms):
        if not rec["scorings_done"][:len(SCORING_CARDS)].all():
            _fail(index, "pile_bottom is all 0 (the piles are gone after a reshuffle), but a scoring "
                         "card is still in the money deck")
        return
    stack = setup_pile_bottoms(n).get(bottoms)
    if stack is None:
        _fail(index, f"pile_bottom {list(bottoms)} is not a layout setup makes with {n} players (five "
                     f"piles as equal as possible, scoring cards in the second and fourth), nor all 0")
    if deck.size > stack:
        _fail(index, f"money_count is {deck.size}, more than the {stack} cards stacked at setup, "
                     "before any reshuffle")
    for name, card, pile in zip("AB", SCORING_CARDS, (SCORING_A_PILE, SCORING_B_PILE), strict=True):
        low, high = bottoms[pile], bottoms[pile - 1]  # neither is the top pile
        for at in np.flatnonzero(deck == card):
            if not low <= at < high:
                _fail(index, f"scoring card {name} lies at deck index {at}, outside its pile {pile + 1} "
                             f"({low}..{high - 1})")


def _check_payment_can_finish(rec, index):
    """The payer could afford the building when buying it (Buy one building card, Y4), so the
    money left in the slot's currency and the payment cover the price: the payment can finish."""
    currency = int(SLOT_CURRENCY[rec["buy_slot"]])
    price = int(BUILDING_PRICE[rec["building_display"][rec["buy_slot"]]])
    left = int(np.dot(np.arange(MIN_VALUE, MAX_VALUE + 1), rec["hand"][int(rec["actor"]), currency]))
    if left + int(rec["paid"]) < price:
        _fail(index, f"seat {int(rec['actor'])} pays {int(rec['paid'])} for a building of price {price} "
                     f"with {left} left in its currency: a purchase is only started when it can be paid")


def _check_buildings(rec, n, index):
    count = _in_range(rec["building_count"], 0, NUM_BUILDINGS, "building_count", index)
    cards = [int(c) for c in rec["building_deck"][:count]]
    cards += [int(c) for c in rec["building_display"] if c != NO_CARD]
    if rec["pending_building"] != NO_CARD:
        cards.append(int(rec["pending_building"]))
    if any(not 0 <= c < NUM_BUILDINGS for c in cards) or len(set(cards)) != len(cards):
        _fail(index, "building cards in the deck, display and pending purchase must be distinct "
                     f"ids 0..{NUM_BUILDINGS - 1}")
    owned = rec["buildings"].astype(np.int64)
    rows = [*range(n)] + ([DIRK_ROW] if rec["has_dirk"] else [])
    unused = np.ones(owned.shape[0], bool)
    unused[rows] = False
    if owned.min() < 0 or owned[unused].any():
        _fail(index, "buildings must be non-negative counts, zero in rows of absent participants")
    removed = _in_range(rec["removed"], 0, NUM_BUILDINGS, "removed", index)
    loose = np.bincount(BUILDING_TYPE[cards], minlength=len(BUILDING_COUNTS)) if cards else 0
    by_type = owned.sum(axis=0) + loose
    if np.any(by_type > np.asarray(BUILDING_COUNTS)):
        _fail(index, f"more buildings of a type than printed: {by_type.tolist()} > {list(BUILDING_COUNTS)}")
    if len(cards) + int(owned.sum()) + removed != NUM_BUILDINGS:
        _fail(index, f"the {NUM_BUILDINGS} building cards are not all accounted for: {len(cards)} in "
                     f"deck/display/purchase, {int(owned.sum())} owned, {removed} removed")


def _check_scores_and_rng(rec, n, index):
    done = rec["scorings_done"]
    if np.any((done != 0) & (done != 1)):
        _fail(index, "scorings_done entries are 0 or 1")
    lines = rec["score_lines"].astype(np.int64)
    rows = [*range(n)] + ([DIRK_ROW] if rec["has_dirk"] else [])
    unused = np.ones(lines.shape[0], bool)
    unused[rows] = False
    if lines.min() < 0 or lines.max() > MAX_SCORE or lines[unused].any():
        _fail(index, f"score_lines must be 0..{MAX_SCORE}, zero in rows of absent participants")
    if lines[:, ~done.astype(bool)].any():
        _fail(index, "points are recorded for a scoring not yet done")
    words = rec["rng"].astype(np.int64)
    if words.min() < 0 or words.max() >= WORD_LIMIT or not words.any():
        _fail(index, "the generator's words must be 32-bit values, not all zero")


def validate_record(rec: np.void, index: int | None = None) -> None:
    """ValueError (``StateError``) naming the first thing wrong with one record."""
    n = _check_setup(rec, index)
    _check_decision(rec, n, index)
    _check_money(rec, n, index)
    _check_buildings(rec, n, index)
    if rec["decision"] == DEC_PAY:
        _check_payment_can_finish(rec, index)
    _check_scores_and_rng(rec, n, index)
    problem = move_log_problem(rec, n, NUM_ACTIONS, MAX_TURNS)
    if problem:
        _fail(index, problem)


def validate_state(state: np.ndarray) -> None:
    """ValueError unless ``state`` (one game of shape ``()`` or a 1-d batch of STATE_DTYPE) holds
    only records the engine could have made; see the module doc for what is checked."""
    if not isinstance(state, np.ndarray) or state.dtype != STATE_DTYPE or state.ndim > 1:
        raise StateError("validate_state takes a numpy array of Construction Yard's STATE_DTYPE: one "
                         "game (shape ()) or a 1-d batch")
    if state.ndim == 0:
        validate_record(as_batch(state)[0])
        return
    for i in range(state.shape[0]):
        validate_record(state[i], i)

