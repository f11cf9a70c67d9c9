"""Building Construction Yard positions for rule scenarios: a real game set up by the engine
(``new_game``), then the fields a rulebook example talks about written straight into the record
(hands, displays, decks, owned buildings, the seat to move), then actions played by name through
the public ``apply_action``. Cards written this way replace what was there: the card count is not
kept, so these positions are for rule scenarios, not for the conservation invariants."""

import numpy as np

from tiny_york_env.games.construction_yard import GameConfig, apply_action, legal_actions, new_game
from tiny_york_env.games.construction_yard.actions import (
    BUY,
    GIVE_TO_DIRK,
    KEEP,
    NUM_SUBSETS,
    PASS,
    PAY,
    PAY_DONE,
    TAKE_MONEY,
)
from tiny_york_env.games.construction_yard.data import (
    BUILDING_PRICE,
    BUILDING_TYPE,
    CURRENCY_NAMES,
    DISPLAY_SLOTS,
    NUM_VALUES,
)
from tiny_york_env.games.construction_yard.state import DEC_DIRK, NO_CARD, SCORING_A, SCORING_B

CURRENCY = {name: k for k, name in enumerate(CURRENCY_NAMES)}
MUSEUM, THEATER, STATION, CHURCH, PARK, SKYSCRAPER = range(6)
SCORING_CARD = {"A": SCORING_A, "B": SCORING_B}


def rec(state):
    """The record behind a single game; writes go straight into ``state``."""
    return state.reshape(1)[0]


def money(currency, value):
    """The card code of a money card, e.g. ``money("blue", 3)``."""
    return CURRENCY[currency] * NUM_VALUES + value - 1


def card_code(card):
    """A money card given as (currency, value), or "A"/"B" for a scoring card, as its code."""
    return SCORING_CARD[card] if isinstance(card, str) else money(*card)


def building(type_index, price, nth=0):
    """The ``nth`` building card id of ``type_index`` with ``price`` (the default edition has one
    or two of each)."""
    ids = np.flatnonzero((BUILDING_TYPE == type_index) & (BUILDING_PRICE == price))
    assert len(ids) > nth, f"no building #{nth} of type {type_index} at price {price}"
    return int(ids[nth])


def set_hands(state, hands):
    """Empty every hand, then give each seat of ``hands`` ({seat: [(currency, value), ...]})
    those cards."""
    r = rec(state)
    r["hand"][:] = 0
    for seat, cards in hands.items():
        for currency, value in cards:
            r["hand"][seat, CURRENCY[currency], value - 1] += 1


def set_money_deck(state, draws):
    """The face-down money deck becomes ``draws`` in drawing order (the first is drawn first);
    the piles are gone (``pile_bottom`` all 0)."""
    r = rec(state)
    codes = [card_code(c) for c in draws]
    r["money_deck"][:] = NO_CARD
    r["money_deck"][:len(codes)] = codes[::-1]
    r["money_count"] = len(codes)
    r["pile_bottom"][:] = 0


def set_discard(state, cards):
    """The money discard pile becomes ``cards`` ((currency, value) pairs)."""
    r = rec(state)
    r["discard"][:] = NO_CARD
    r["discard"][:len(cards)] = [money(*c) for c in cards]
    r["discard_count"] = len(cards)


def set_building_deck(state, draws):
    """The face-down building deck becomes the card ids ``draws`` in drawing order."""
    r = rec(state)
    r["building_deck"][:] = NO_CARD
    r["building_deck"][:len(draws)] = list(draws)[::-1]
    r["building_count"] = len(draws)


def building_deck_draws(state):
    """The face-down building deck as card ids in drawing order."""
    r = rec(state)
    return [int(c) for c in r["building_deck"][:r["building_count"]][::-1]]


def money_deck_draws(state):
    """The face-down money deck as card codes in drawing order."""
    r = rec(state)
    return [int(c) for c in r["money_deck"][:r["money_count"]][::-1]]


def set_owned(state, counts):
    """Every participant row's buildings become ``counts`` ({(row, type): n}; Dirk's row is
    ``state.DIRK_ROW``), the rest zero."""
    r = rec(state)
    r["buildings"][:] = 0
    for (row, t), n in counts.items():
        r["buildings"][row, t] = n


def position(num_players=3, seed=0, actor=0, hands=None, money_display=None, buildings=None,
             money_draws=None, building_draws=None, owned=None, discard=None, bots=()):
    """A game after setup (``GameConfig(num_players, bots)``, ``seed``) with, where given: the
    hands (``set_hands``: the others empty), the money display (per slot (currency, value) or
    None), the building display (per slot a card id or None), the money and building decks in
    drawing order, the discard pile, the owned buildings (``set_owned``) and ``actor`` to move."""
    state = new_game(GameConfig(num_players=num_players, bots=bots), seed=seed)
    r = rec(state)
    set_hands(state, hands or {})
    if money_display is not None:
        for slot, card in enumerate(money_display):
            r["money_display"][slot] = NO_CARD if card is None else money(*card)
    if buildings is not None:
        for slot, card in enumerate(buildings):
            r["building_display"][slot] = NO_CARD if card is None else card
    if money_draws is not None:
        set_money_deck(state, money_draws)
    if building_draws is not None:
        set_building_deck(state, building_draws)
    if discard is not None:
        set_discard(state, discard)
    if owned is not None:
        set_owned(state, owned)
    r["actor"] = actor
    return state


def take_action(*slots):
    """The action id taking the money display ``slots`` (0-based)."""
    subset = sum(1 << s for s in slots)
    assert 1 <= subset <= NUM_SUBSETS, slots
    return TAKE_MONEY + subset - 1


def take(state, *slots):
    """Take the money cards of display ``slots`` (0-based)."""
    apply_action(state, take_action(*slots))


def takes(state):
    """The take-money choices the mask allows, as sorted tuples of slots."""
    out = []
    for a in legal_actions(state):
        if TAKE_MONEY <= a < TAKE_MONEY + NUM_SUBSETS:
            subset = a - TAKE_MONEY + 1
            out.append(tuple(k for k in range(DISPLAY_SLOTS) if subset >> k & 1))
    return sorted(out)


def pay(state, *values):
    """Put cards of ``values`` into the payment, one by one."""
    for value in values:
        apply_action(state, PAY + value - 1)


def buy(state, slot, pay_values, keep=None):
    """Buy the building of display ``slot`` paying the card values ``pay_values`` in its currency;
    with two players then keep it (``keep=True``) or give it to Dirk (``keep=False``)."""
    apply_action(state, BUY + slot)
    pay(state, *pay_values)
    apply_action(state, PAY_DONE)
    if keep is not None:
        assert rec(state)["decision"] == DEC_DIRK
        apply_action(state, KEEP if keep else GIVE_TO_DIRK)


def pass_turn(state):
    """Pass (only legal when nothing else is)."""
    apply_action(state, PASS)
