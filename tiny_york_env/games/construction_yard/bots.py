"""The engine's automatic players ("bots"): random and greedy (compiled).

The greedy heuristic, decision by decision:

- **Choose.** Rate each affordable building: its type's value on the reference card (i + 1),
  +3 when buying it gives the actor the outright majority of that type, +4 when it can be paid
  exactly (another action follows), minus half the smallest overpayment. Buy the best one rated
  at least ``BUY_THRESHOLD``; otherwise take the money subset with the largest total (ties: the
  first). Pass when nothing else is legal.
- **Pay.** Pay the cards of a smallest covering payment (exact when the hand allows), the
  largest first; finish once covered.
- **Keep or give.** Keep, unless the opponent leads that type and giving the card to Dirk takes
  the lead from the opponent without costing the actor its own rank.

Random picks uniformly among the legal actions with the record's generator.
"""

import numpy as np

from ...core.jit import jit
from ...core.rng import randbelow
from .actions import BUY, GIVE_TO_DIRK, KEEP, NUM_SUBSETS, PASS, PAY, PAY_DONE, TAKE_MONEY
from .cards import building_price, building_type, money_value, slot_currency
from .data import DISPLAY_SLOTS, NUM_VALUES
from .legal import pick_legal
from .state import BOT_RANDOM, DEC_CHOOSE, DEC_DIRK, DEC_PAY, DIRK_ROW

MAJORITY_BONUS = 3.0
EXACT_BONUS = 4.0
OVERPAY_PENALTY = 0.5
BUY_THRESHOLD = 3.0
MAX_PAYMENT = NUM_VALUES * NUM_VALUES * 3  # every card of one currency


@jit
def smallest_cover(st, seat, currency, price):
    """The smallest total >= ``price`` that a subset of ``seat``'s cards in ``currency`` makes
    (bounded subset sum), or -1 when none does."""
    reach = np.zeros(MAX_PAYMENT + 1, np.bool_)
    reach[0] = True
    top = 0
    for v in range(NUM_VALUES):
        for _ in range(st["hand"][seat, currency, v]):
            for s in range(top, -1, -1):
                if reach[s]:
                    reach[s + v + 1] = True
            top += v + 1
    for s in range(price, top + 1):
        if reach[s]:
            return s
    return -1


@jit
def buy_rating(st, slot):
    """How much the greedy bot wants the building in ``slot`` (see the module doc)."""
    seat = st["actor"]
    card = st["building_display"][slot]
    t = building_type(card)
    price = building_price(card)
    rating = float(t + 1)
    mine = st["buildings"][seat, t] + 1
    best_other = 0
    for row in range(st["buildings"].shape[0]):
        if row != seat:
            best_other = max(best_other, st["buildings"][row, t])
    if mine > best_other:
        rating += MAJORITY_BONUS
    cover = smallest_cover(st, seat, slot_currency(slot), price)
    if cover == price:
        rating += EXACT_BONUS
    rating -= OVERPAY_PENALTY * (cover - price)
    return rating


@jit
def choose(st, mask):
    """Greedy choice between buying, taking money and passing."""
    best_slot = -1
    best_rating = BUY_THRESHOLD
    for slot in range(DISPLAY_SLOTS):
        if mask[BUY + slot]:
            rating = buy_rating(st, slot)
            if rating >= best_rating:
                best_slot, best_rating = slot, rating
    if best_slot >= 0:
        return BUY + best_slot
    best_take = -1
    best_total = -1
    for subset in range(1, NUM_SUBSETS + 1):
        if mask[TAKE_MONEY + subset - 1]:
            total = 0
            for slot in range(DISPLAY_SLOTS):
                if subset >> slot & 1:
                    total += money_value(st["money_display"][slot])
            if total > best_total:
                best_take, best_total = TAKE_MONEY + subset - 1, total
    if best_take >= 0:
        return best_take
    for slot in range(DISPLAY_SLOTS):
        if mask[BUY + slot]:
            return BUY + slot
    return PASS


@jit
def pay(st, mask):
    """The next card of a smallest covering payment (exact when one exists), or PAY_DONE once
    the payment covers the price: a card whose value plus the smallest cover of what is then
    still owed, from the cards left, equals the smallest cover of what is owed now."""
    if mask[PAY_DONE]:
        return PAY_DONE
    seat = st["actor"]
    currency = slot_currency(st["buy_slot"])
    owed = building_price(st["building_display"][st["buy_slot"]]) - st["paid"]
    best = smallest_cover(st, seat, currency, owed)
    for v in range(NUM_VALUES, 0, -1):
        if not mask[PAY + v - 1]:
            continue
        if v >= owed:
            if v == best:
                return PAY + v - 1
            continue
        st["hand"][seat, currency, v - 1] -= 1  # try it: the rest must still make the best cover
        rest = smallest_cover(st, seat, currency, owed - v)
        st["hand"][seat, currency, v - 1] += 1
        if rest >= 0 and v + rest == best:
            return PAY + v - 1
    for v in range(1, NUM_VALUES + 1):
        if mask[PAY + v - 1]:
            return PAY + v - 1
    return PAY_DONE


@jit
def keep_or_give(st):
    """Keep the building unless giving it to Dirk takes the opponent's lead of that type while
    the actor keeps its place (two players)."""
    seat = st["actor"]
    other = 1 - seat
    t = building_type(st["pending_building"])
    mine, theirs, dirk = st["buildings"][seat, t], st["buildings"][other, t], st["buildings"][DIRK_ROW, t]
    if theirs > mine + 1 and dirk + 1 >= theirs:
        return GIVE_TO_DIRK
    return KEEP


@jit
def greedy_action(st, mask):
    """The greedy heuristic's action (module doc); always one ``mask`` allows."""
    decision = st["decision"]
    if decision == DEC_CHOOSE:
        return choose(st, mask)
    if decision == DEC_PAY:
        return pay(st, mask)
    if decision == DEC_DIRK:
        return keep_or_give(st)
    return pick_legal(mask, 0)


@jit
def bot_action(st, mask):
    """The action of the bot to move (its kind in ``bot_kind``); ``mask`` holds its legal actions."""
    if st["bot_kind"][st["actor"]] == BOT_RANDOM:
        return pick_legal(mask, randbelow(st["rng"], mask.sum()))
    return greedy_action(st, mask)
