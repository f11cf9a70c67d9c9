"""What the seat to move may do (``fill_legal_mask``), per pending decision (rules: Playing the
game; rulings Y3, Y4, Y8)."""

from ...core.jit import jit
from .actions import BUY, GIVE_TO_DIRK, KEEP, NUM_ACTIONS, NUM_SUBSETS, PASS, PAY, PAY_DONE, TAKE_MONEY
from .cards import building_price, currency_total, money_value, slot_currency
from .data import DISPLAY_SLOTS, NUM_VALUES, TAKE_LIMIT
from .state import DEC_CHOOSE, DEC_DIRK, DEC_PAY, NO_CARD


@jit
def may_take(st, subset):
    """Take money (Y3): every slot of ``subset`` (bitmask 1..15) shows a card, and it is one
    card of any value or several whose total is at most TAKE_LIMIT (5)."""
    cards = 0
    total = 0
    for slot in range(DISPLAY_SLOTS):
        if subset >> slot & 1:
            card = st["money_display"][slot]
            if card == NO_CARD:
                return False
            cards += 1
            total += money_value(card)
    return cards == 1 or total <= TAKE_LIMIT


@jit
def may_buy(st, slot):
    """Buy (Y4): the slot shows a building and the actor's money in its currency covers the
    price (no change is given, so any covering subset can be paid)."""
    card = st["building_display"][slot]
    if card == NO_CARD:
        return False
    return currency_total(st, st["actor"], slot_currency(slot)) >= building_price(card)


@jit
def payment_price(st):
    """The price of the building being paid for."""
    return building_price(st["building_display"][st["buy_slot"]])


@jit
def fill_legal_mask(st, mask):
    """``mask[a]`` True for each legal action of the seat to move; all False at the end.

    - Choosing: each takeable subset and each affordable building; PASS only when there is
      neither (Y8: deck, discard and display empty and nothing affordable).
    - Paying: one more card of any value the actor still holds in the slot's currency; PAY_DONE
      once the payment covers the price.
    - Two players, after a purchase: KEEP or GIVE_TO_DIRK.
    """
    for a in range(NUM_ACTIONS):
        mask[a] = False
    decision = st["decision"]
    if decision == DEC_CHOOSE:
        any_legal = False
        for subset in range(1, NUM_SUBSETS + 1):
            if may_take(st, subset):
                mask[TAKE_MONEY + subset - 1] = True
                any_legal = True
        for slot in range(DISPLAY_SLOTS):
            if may_buy(st, slot):
                mask[BUY + slot] = True
                any_legal = True
        if not any_legal:
            mask[PASS] = True
    elif decision == DEC_PAY:
        currency = slot_currency(st["buy_slot"])
        for v in range(NUM_VALUES):
            if st["hand"][st["actor"], currency, v] > 0:
                mask[PAY + v] = True
        if st["paid"] >= payment_price(st):
            mask[PAY_DONE] = True
    elif decision == DEC_DIRK:
        mask[KEEP] = True
        mask[GIVE_TO_DIRK] = True


@jit
def pick_legal(mask, k):
    """The ``k``-th legal action (0-based) of ``mask``."""
    for a in range(mask.shape[0]):
        if mask[a]:
            if k == 0:
                return a
            k -= 1
    return -1
