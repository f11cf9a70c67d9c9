"""The turn: take money, buy and pay, keep or give, pass; the end of the turn with its refills
and scorings; the end of the game (rules: Playing the game, Scoring, End of the game, Special
rules for 2 players; rulings Y3-Y9). ``apply_unchecked`` plays one decision and then the
automatic steps (bots) up to the next agent decision or the end."""

import numpy as np

from ...core.jit import jit
from ...core.move_log import clear_moves, record_move
from .actions import BUY, KEEP, NUM_ACTIONS, PASS, PAY, PAY_DONE, TAKE_MONEY
from .bots import bot_action
from .cards import add_to_hand, building_price, building_type, draw_building, shuffle, slot_currency
from .data import DIRK_CARDS_AFTER_A, DIRK_SHARE_AFTER_B, DISPLAY_SLOTS, NUM_VALUES
from .legal import fill_legal_mask
from .scoring import distribute_display, score, set_winners
from .setup import give_dirk_buildings
from .state import (
    BOT_NONE,
    DEC_CHOOSE,
    DEC_DIRK,
    DEC_GAME_OVER,
    DEC_PAY,
    DIRK_ROW,
    NO_CARD,
    SCORING_A,
    SCORING_B,
)

SCORING_INDEX_A, SCORING_INDEX_B, SCORING_INDEX_C = 0, 1, 2
ILLEGAL = 1  # apply's status for an illegal action (0: applied)


@jit
def take_money(st, subset):
    """Take the display cards of ``subset`` into the hand (Take money); the turn ends."""
    for slot in range(DISPLAY_SLOTS):
        if subset >> slot & 1:
            add_to_hand(st, st["actor"], st["money_display"][slot])
            st["money_display"][slot] = NO_CARD
    end_turn(st)


@jit
def start_buying(st, slot):
    """Start paying for the building in display ``slot`` (Buy one building card)."""
    st["buy_slot"] = slot
    st["paid"] = 0
    st["decision"] = DEC_PAY


@jit
def pay_card(st, value_index):
    """One card of value ``value_index + 1`` from the hand into the payment (no change is given)."""
    currency = slot_currency(st["buy_slot"])
    st["hand"][st["actor"], currency, value_index] -= 1
    st["payment"][value_index] += 1
    st["paid"] += value_index + 1


@jit
def finish_payment(st):
    """The payment goes to the discard pile, the building leaves the display (not refilled
    during the turn); with two players the buyer then keeps it or gives it to Dirk."""
    slot = st["buy_slot"]
    card = st["building_display"][slot]
    currency = slot_currency(slot)
    for v in range(NUM_VALUES):
        for _ in range(st["payment"][v]):
            st["discard"][st["discard_count"]] = currency * NUM_VALUES + v
            st["discard_count"] += 1
        st["payment"][v] = 0
    st["paid_exactly"] = 1 if st["paid"] == building_price(card) else 0
    st["paid"] = 0
    st["building_display"][slot] = NO_CARD
    st["buy_slot"] = NO_CARD
    if st["has_dirk"]:
        st["pending_building"] = card
        st["decision"] = DEC_DIRK
    else:
        st["buildings"][st["actor"], building_type(card)] += 1
        after_purchase(st)


@jit
def place_pending(st, row):
    """Two players: the bought building goes to the buyer (KEEP) or to Dirk (GIVE_TO_DIRK)."""
    st["buildings"][row, building_type(st["pending_building"])] += 1
    st["pending_building"] = NO_CARD
    after_purchase(st)


@jit
def after_purchase(st):
    """Paying the price sharp gives one more action; otherwise the turn ends."""
    if st["paid_exactly"]:
        st["paid_exactly"] = 0
        st["actions_in_turn"] += 1
        st["decision"] = DEC_CHOOSE
    else:
        end_turn(st)


@jit
def draw_money(st):
    """The top money card; an empty deck is first replaced by the shuffled discard pile (Y8);
    NO_CARD when both are empty."""
    if st["money_count"] == 0:
        if st["discard_count"] == 0:
            return NO_CARD
        for k in range(st["discard_count"]):
            st["money_deck"][k] = st["discard"][k]
        st["money_count"] = st["discard_count"]
        st["discard_count"] = 0
        for k in range(st["pile_bottom"].shape[0]):
            st["pile_bottom"][k] = 0  # the piles are gone (both scoring cards were in them)
        shuffle(st["money_deck"], st["money_count"], st["rng"])
    st["money_count"] -= 1
    return st["money_deck"][st["money_count"]]


@jit
def scoring_card_drawn(st, card):
    """A scoring card drawn while refilling: that scoring now (Y5); with two players Dirk then
    gets 6 more buildings after A, a third of the face-down deck (rounded down) after B (Y7)."""
    if card == SCORING_A:
        score(st, SCORING_INDEX_A)
        if st["has_dirk"]:
            give_dirk_buildings(st, DIRK_CARDS_AFTER_A)
    else:
        score(st, SCORING_INDEX_B)
        if st["has_dirk"]:
            give_dirk_buildings(st, st["building_count"] // DIRK_SHARE_AFTER_B)


@jit
def refill_money(st):
    """Fill the money display to four, left to right, scoring cards scored as they come (Y5)."""
    for slot in range(DISPLAY_SLOTS):
        while st["money_display"][slot] == NO_CARD:
            card = draw_money(st)
            if card == NO_CARD:
                return
            if card == SCORING_A or card == SCORING_B:
                scoring_card_drawn(st, card)
            else:
                st["money_display"][slot] = card


@jit
def refill_buildings(st):
    """Fill the building display left to right; False when it cannot be filled to four."""
    full = True
    for slot in range(DISPLAY_SLOTS):
        if st["building_display"][slot] == NO_CARD:
            card = draw_building(st)
            if card == NO_CARD:
                full = False
            else:
                st["building_display"][slot] = card
    return full


@jit
def end_game(st):
    """The display goes to the richest in each slot's currency, then scoring C (End of the game)."""
    distribute_display(st)
    score(st, SCORING_INDEX_C)
    set_winners(st)
    st["decision"] = DEC_GAME_OVER


@jit
def end_turn(st):
    """Buildings are refilled first; if the display cannot be filled to four the game ends at
    once (the money display is then not refilled, Y8); else the money display is refilled and
    the next player clockwise begins."""
    if not refill_buildings(st):
        end_game(st)
        return
    refill_money(st)
    st["actor"] = (st["actor"] + 1) % st["num_players"]
    st["actions_in_turn"] = 0
    st["turn"] += 1
    st["decision"] = DEC_CHOOSE


@jit
def play(st, a):
    """Apply the legal action ``a`` of the seat to move (no automatic steps)."""
    if st["decision"] == DEC_CHOOSE:
        if a < BUY:
            take_money(st, a - TAKE_MONEY + 1)
        elif a < PAY:
            start_buying(st, a - BUY)
        elif a == PASS:
            end_turn(st)
    elif st["decision"] == DEC_PAY:
        if a < PAY_DONE:
            pay_card(st, a - PAY)
        else:
            finish_payment(st)
    elif st["decision"] == DEC_DIRK:
        place_pending(st, st["actor"] if a == KEEP else DIRK_ROW)


@jit
def advance(st):
    """Let the bots decide until an agent seat must decide or the game is over."""
    if st["decision"] == DEC_GAME_OVER or st["bot_kind"][st["actor"]] == BOT_NONE:
        return
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    while st["decision"] != DEC_GAME_OVER and st["bot_kind"][st["actor"]] != BOT_NONE:
        fill_legal_mask(st, mask)
        seat, action = st["actor"], bot_action(st, mask)
        play(st, action)
        record_move(st, seat, action)


@jit
def apply_unchecked(st, a):
    """Apply an action the legal mask allows, then the automatic steps."""
    clear_moves(st)  # the log holds what follows this decision
    play(st, a)
    advance(st)


@jit
def apply(st, a):
    """Apply ``a`` if it is legal (status 0) or leave the record unchanged (status ILLEGAL)."""
    if a < 0 or a >= NUM_ACTIONS or st["decision"] == DEC_GAME_OVER:
        return ILLEGAL
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    fill_legal_mask(st, mask)
    if not mask[a]:
        return ILLEGAL
    apply_unchecked(st, a)
    return 0


