"""The exchange allowance after a refill of the reserve on one's own bidding turn (R9: "any
number of times"; docs/rules.md P1; addendum 12: "Discard any number of cards from your reserve
and refill it to its current reserve size"; addendum 15 note: "You may exchange the refilled card
immediately with a card from your hand and play it this round").

Each bidding turn allows as many exchanges as the reserve holds; a refill during that turn (12,
15) starts the allowance afresh, so the new reserve cards can be swapped in too.
"""

from tests.tiny_york.scenario import bidding_round, give_character, rec, set_cards
from tiny_york_env.games.tiny_york import apply_action, legal_actions
from tiny_york_env.games.tiny_york.actions import BID_CARD, CHARACTER_CARD, EXCHANGE, USE_CHARACTER
from tiny_york_env.games.tiny_york.components import (
    DOLLARS,
    ELEVATOR,
    NUM_CARD_TYPES,
    PLANS,
    PRESS,
    SKYSCRAPERS,
    WILD,
)
from tiny_york_env.games.tiny_york.state import DEC_BID

OWNER = 0
REFRESH_RESERVE, PLAY_FROM_RESERVE = 12, 15


def _exchange(h, r):
    return EXCHANGE + h * NUM_CARD_TYPES + r


def _exchanges(state):
    return {a for a in legal_actions(state).tolist() if EXCHANGE <= a < BID_CARD}


def _put_on_top(state, cards):
    """Arrange the draw pile so that ``cards`` are drawn next, in order (swapping them up from
    lower in the pile, so the pile keeps its cards)."""
    r = rec(state)
    n = int(r["draw_count"])
    for k, t in enumerate(cards):
        slot = n - 1 - k
        below = [i for i in range(slot + 1) if r["draw_pile"][i] == t]
        assert below, f"no card of type {t} left in the draw pile"
        i = below[-1]
        r["draw_pile"][i], r["draw_pile"][slot] = r["draw_pile"][slot], r["draw_pile"][i]


def _turn(character, hand, reserve, top):
    """Seat 0's bidding turn in the press round with ``character``, 3 dollars, ``hand`` and a
    ``reserve`` of its size, ``top`` the next cards drawn."""
    state = bidding_round(2, PRESS, start_seat=OWNER)
    give_character(state, OWNER, character)
    r = rec(state)
    r["dollars"][OWNER] = 3
    set_cards(state, OWNER, hand=hand, reserve=reserve)
    r["reserve_size"][OWNER] = sum(reserve.values())
    r["exchanges_left"] = r["reserve_size"][OWNER]
    _put_on_top(state, top)
    assert r["decision"] == DEC_BID and r["actor"] == OWNER
    return state


def test_two_swaps_then_12_then_a_swap_of_a_refilled_card():
    """P1: a reserve of 2 allows two exchanges; 12 discards both reserve cards and refills the
    reserve; the allowance starts afresh, so a refilled card can be swapped into the hand, and
    two swaps later the allowance is used up again (every game stays finite)."""
    state = _turn(REFRESH_RESERVE, hand={PRESS: 1, DOLLARS: 1, ELEVATOR: 1},
                  reserve={PLANS: 1, SKYSCRAPERS: 1}, top=(PRESS, WILD))
    r = rec(state)
    apply_action(state, _exchange(DOLLARS, PLANS))
    apply_action(state, _exchange(ELEVATOR, SKYSCRAPERS))
    assert r["exchanges_left"] == 0 and not _exchanges(state)
    apply_action(state, USE_CHARACTER + REFRESH_RESERVE - 1)
    apply_action(state, CHARACTER_CARD + DOLLARS)
    apply_action(state, CHARACTER_CARD + ELEVATOR)  # the reserve is empty: 12 refills it
    assert r["decision"] == DEC_BID and r["actor"] == OWNER
    assert r["reserve"][OWNER, PRESS] == 1 and r["reserve"][OWNER, WILD] == 1
    assert r["exchanges_left"] == r["reserve_size"][OWNER] == 2
    assert _exchange(PLANS, PRESS) in _exchanges(state)
    apply_action(state, _exchange(PLANS, PRESS))
    assert r["hand"][OWNER, PRESS] == 2 and r["reserve"][OWNER, PLANS] == 1
    apply_action(state, _exchange(SKYSCRAPERS, WILD))
    assert r["exchanges_left"] == 0 and not _exchanges(state)
    apply_action(state, BID_CARD)
    apply_action(state, BID_CARD)
    assert r["bid_value"][OWNER] == 2


def test_15_refill_gives_a_fresh_allowance_after_it_was_used_up():
    """Addendum 15 note and P1: after the turn's exchanges are used up, 15 plays a reserve card
    and refills the reserve; the allowance is the reserve size again, so the refilled card can be
    exchanged and played at once."""
    state = _turn(PLAY_FROM_RESERVE, hand={PRESS: 1, DOLLARS: 1, ELEVATOR: 1},
                  reserve={PRESS: 1, PLANS: 1}, top=(PRESS,))
    r = rec(state)
    apply_action(state, _exchange(DOLLARS, PLANS))
    apply_action(state, _exchange(PLANS, DOLLARS))
    assert r["exchanges_left"] == 0 and not _exchanges(state)
    apply_action(state, BID_CARD)
    apply_action(state, USE_CHARACTER + PLAY_FROM_RESERVE - 1)
    apply_action(state, CHARACTER_CARD + PRESS)
    assert r["decision"] == DEC_BID and r["bid_value"][OWNER] == 2
    assert r["reserve"][OWNER, PRESS] == 1  # the refill
    assert r["exchanges_left"] == r["reserve_size"][OWNER] == 2
    apply_action(state, _exchange(DOLLARS, PRESS))
    apply_action(state, BID_CARD)
    assert r["bid_value"][OWNER] == 3
    apply_action(state, _exchange(ELEVATOR, DOLLARS))
    assert r["exchanges_left"] == 0 and not _exchanges(state)
