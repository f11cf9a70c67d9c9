"""Helpers to build Construction Yard positions for rule scenarios: a real game set up by the
engine, then the fields a scenario describes overwritten."""

import numpy as np

from tiny_york_env.construction_yard import GameConfig, new_game
from tiny_york_env.construction_yard.actions import BUY, PAY, PAY_DONE, TAKE_MONEY
from tiny_york_env.construction_yard.api import apply_action
from tiny_york_env.construction_yard.data import BUILDING_PRICE, BUILDING_TYPE, CURRENCY_NAMES, NUM_VALUES
from tiny_york_env.construction_yard.state import NO_CARD

CURRENCY = {name: k for k, name in enumerate(CURRENCY_NAMES)}


def money(currency, value):
    """The card code of a money card, e.g. ``money("blue", 3)``."""
    return CURRENCY[currency] * NUM_VALUES + value - 1


def building(type_index, price):
    """A building card id of ``type_index`` with ``price`` (the edition has one)."""
    ids = np.flatnonzero((BUILDING_TYPE == type_index) & (BUILDING_PRICE == price))
    assert len(ids), f"no building of type {type_index} at price {price}"
    return int(ids[0])


def position(num_players=3, seed=0, actor=0, hands=None, money_display=None, buildings=None):
    """A game after setup with: empty hands except ``hands`` ({seat: [(currency, value), ...]}),
    the money display ``money_display`` (list of (currency, value) or None per slot), the building
    display ``buildings`` (list of card ids or None per slot) and ``actor`` to move."""
    state = new_game(GameConfig(num_players=num_players), seed=seed)
    rec = state.reshape(1)[0]
    rec["hand"][:] = 0
    for seat, cards in (hands or {}).items():
        for currency, value in cards:
            rec["hand"][seat, CURRENCY[currency], value - 1] += 1
    if money_display is not None:
        for slot, card in enumerate(money_display):
            rec["money_display"][slot] = NO_CARD if card is None else money(*card)
    if buildings is not None:
        for slot, card in enumerate(buildings):
            rec["building_display"][slot] = NO_CARD if card is None else card
    rec["actor"] = actor
    return state


def take(state, *slots):
    """Take the money cards of display ``slots`` (0-based)."""
    apply_action(state, TAKE_MONEY + sum(1 << s for s in slots) - 1)


def buy(state, slot, pay):
    """Buy the building of display ``slot`` paying the card values ``pay`` in its currency."""
    apply_action(state, BUY + slot)
    for value in pay:
        apply_action(state, PAY + value - 1)
    apply_action(state, PAY_DONE)
