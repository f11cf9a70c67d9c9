"""Setup (rules: Setup; Special rules for 2 players; rulings Y1, Y7)."""

import numpy as np

from ...core.jit import jit
from ...core.rng import randbelow, seed_rng
from .cards import add_to_hand, building_type, draw_building, hand_size, hand_total, money_value, shuffle
from .data import (
    COPIES,
    COPIES_TWO_PLAYERS,
    DIRK_PLAYERS,
    DIRK_SETUP_CARDS,
    DISPLAY_SLOTS,
    MAX_PLAYERS,
    NUM_BUILDINGS,
    NUM_CURRENCIES,
    NUM_PILES,
    NUM_VALUES,
    SCORING_A_PILE,
    SCORING_B_PILE,
    START_CAPITAL,
)
from .state import DEC_CHOOSE, DIRK_ROW, NO_CARD, SCORING_A, SCORING_B

# init_game's params (api.config_params): num_players, num_agents, then each seat's bot kind.
PARAM_PLAYERS, PARAM_AGENTS, PARAM_BOTS = 0, 1, 2
NUM_PARAMS = PARAM_BOTS + MAX_PLAYERS


@jit
def deal_buildings(st):
    """Shuffle the 54 building cards face down and lay the top 4 out left to right (Setup)."""
    for card in range(NUM_BUILDINGS):
        st["building_deck"][card] = card
    st["building_count"] = NUM_BUILDINGS
    shuffle(st["building_deck"], NUM_BUILDINGS, st["rng"])
    for slot in range(DISPLAY_SLOTS):
        st["building_display"][slot] = draw_building(st)


@jit
def give_dirk_buildings(st, count):
    """Up to ``count`` cards from the top of the building deck to Dirk's open display (Y7)."""
    for _ in range(count):
        card = draw_building(st)
        if card == NO_CARD:
            return
        st["buildings"][DIRK_ROW, building_type(card)] += 1


@jit
def shuffle_money(st):
    """The money deck: 108 cards, 72 with two players (one of each currency-value sorted out)."""
    copies = COPIES_TWO_PLAYERS if st["num_players"] == DIRK_PLAYERS else COPIES
    n = 0
    for c in range(NUM_CURRENCIES):
        for v in range(NUM_VALUES):
            for _ in range(copies):
                st["money_deck"][n] = c * NUM_VALUES + v
                n += 1
    st["money_count"] = n
    shuffle(st["money_deck"], n, st["rng"])


@jit
def pop_money(st):
    """The top card of the money deck (setup only: the deck is not empty)."""
    st["money_count"] -= 1
    return st["money_deck"][st["money_count"]]


@jit
def deal_start_capital(st):
    """Deal card after card to each player in seat order until their total is 20 or more."""
    for seat in range(st["num_players"]):
        total = 0
        while total < START_CAPITAL:
            card = pop_money(st)
            add_to_hand(st, seat, card)
            total += money_value(card)


@jit
def choose_start_player(st):
    """Fewest cards; then the smallest total; then a random choice among the tied (Y1)."""
    best_cards = 1 << 30
    best_total = 1 << 30
    tied = 0
    for seat in range(st["num_players"]):
        cards, total = hand_size(st, seat), hand_total(st, seat)
        if cards < best_cards or (cards == best_cards and total < best_total):
            best_cards, best_total, tied = cards, total, 1
        elif cards == best_cards and total == best_total:
            tied += 1
    pick = randbelow(st["rng"], tied)
    for seat in range(st["num_players"]):
        if hand_size(st, seat) == best_cards and hand_total(st, seat) == best_total:
            if pick == 0:
                return seat
            pick -= 1
    return 0


@jit
def pile_size(m, pile):
    """The money cards of ``pile`` (0 = the first, on top) when ``m`` cards are split into five
    piles as equal as possible, the larger piles on top (Setup, Y1); scoring cards not counted."""
    return m // NUM_PILES + (1 if pile < m % NUM_PILES else 0)


@jit
def holds_scoring_card(pile):
    """True for the second and the fourth pile, into which scoring cards A and B are shuffled."""
    return pile == SCORING_A_PILE or pile == SCORING_B_PILE


@jit
def pile_bottoms(m, bottoms):
    """Each pile's lowest deck index into ``bottoms`` when ``m`` money cards and both scoring cards
    are stacked, the first pile on top (the deck's bottom card has index 0); the stack's size."""
    n = 0
    for k in range(NUM_PILES - 1, -1, -1):
        bottoms[k] = n
        n += pile_size(m, k) + (1 if holds_scoring_card(k) else 0)
    return n


@jit
def stack_piles(st):
    """Split the rest of the money deck into five piles as equal as possible (larger piles on
    top), shuffle scoring card A into the second and B into the fourth at a uniform position,
    and stack them with the first pile on top (Setup, Y1, Y9)."""
    m = st["money_count"]
    old = st["money_deck"][:m].copy()
    top = m  # old[top - size_k : top] is pile k, pile 0 on top
    starts = np.zeros(NUM_PILES, np.int64)
    for k in range(NUM_PILES):
        top -= pile_size(m, k)
        starts[k] = top
    st["money_count"] = pile_bottoms(m, st["pile_bottom"])
    for k in range(NUM_PILES - 1, -1, -1):
        n = st["pile_bottom"][k]
        size = pile_size(m, k)
        scoring = SCORING_A if k == SCORING_A_PILE else SCORING_B if k == SCORING_B_PILE else -1
        at = randbelow(st["rng"], size + 1) if scoring >= 0 else -1
        for j in range(size + 1):
            if j == at:
                st["money_deck"][n] = scoring
                n += 1
            if j < size:
                st["money_deck"][n] = old[starts[k] + j]
                n += 1


@jit
def init_game(st, params, seed):
    """A fresh game on a zeroed record: seats, decks, start capital, start player, money
    display, piles and, with two players, Dirk's six buildings (Setup; Y1, Y7)."""
    seed_rng(st["rng"], seed)
    n = params[PARAM_PLAYERS]
    st["num_players"] = n
    st["num_agents"] = params[PARAM_AGENTS]
    st["has_dirk"] = 1 if n == DIRK_PLAYERS else 0
    for seat in range(MAX_PLAYERS):
        st["bot_kind"][seat] = params[PARAM_BOTS + seat]
    st["pending_building"] = NO_CARD
    st["buy_slot"] = NO_CARD
    deal_buildings(st)
    if st["has_dirk"]:
        give_dirk_buildings(st, DIRK_SETUP_CARDS)  # drawn after the four display cards (Y7)
    shuffle_money(st)
    deal_start_capital(st)
    st["start_player"] = choose_start_player(st)
    st["actor"] = st["start_player"]
    for slot in range(DISPLAY_SLOTS):
        st["money_display"][slot] = pop_money(st)
    stack_piles(st)
    st["decision"] = DEC_CHOOSE
