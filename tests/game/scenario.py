"""Building positions for rule scenarios: reach a decision, then set the fields a rulebook
example talks about. Tests read and write the record through ``rec(state)``."""

import numpy as np

from tiny_york_env.game import GameConfig, apply_action, legal_actions, new_game
from tiny_york_env.game.components import NEUTRAL, NUM_BOROUGHS, NUM_CARD_TYPES
from tiny_york_env.game.kernels import advance_kernel
from tiny_york_env.game.state import DEC_BID, DEC_NONE, STAGE_BIDDING


def rec(state):
    """The record behind a single game; writes go straight into ``state``."""
    return state.reshape(1)[0]


def play_until(state, predicate, max_steps=10_000):
    """Take the lowest legal action until ``predicate(rec)`` holds."""
    for _ in range(max_steps):
        if predicate(rec(state)):
            return state
        apply_action(state, legal_actions(state)[0])
    raise AssertionError("predicate never held")


def set_press(state, spaces, heights=None):
    """Put each seat's token on ``spaces[seat]``; ``heights`` orders tokens on one space
    (higher = nearer the top). Default heights keep seat order: seat 0 on top."""
    r = rec(state)
    n = int(r["num_seats"])
    for seat in range(n):
        r["press_space"][seat] = spaces[seat]
        r["press_height"][seat] = heights[seat] if heights is not None else 100 - seat
    # Later arrivals must stack above every height set here (the engine counts moves).
    r["press_moves"] = max(int(r["press_moves"]), int(r["press_height"][:n].max()))


def set_cards(state, seat, hand=None, reserve=None):
    """Replace ``seat``'s hand and/or reserve with {card type: count}."""
    r = rec(state)
    for field, cards in (("hand", hand), ("reserve", reserve)):
        if cards is None:
            continue
        r[field][seat] = np.zeros(NUM_CARD_TYPES, np.int16)
        for t, n in cards.items():
            r[field][seat, t] = n


def clear_skyscrapers(state, neutral=0):
    """Empty every borough of participants' skyscrapers; ``neutral`` neutral ones in each."""
    r = rec(state)
    for b in range(NUM_BOROUGHS):
        r["skyscrapers"][b] = 0
        r["skyscrapers"][b, NEUTRAL] = neutral


def bidding_round(num_agents, bid_round, seed=0, start_seat=0):
    """A game in round 1 at the start of bidding round ``bid_round`` (0 = press ... 5 =
    skyscrapers), ``start_seat`` bidding first and the others clockwise (R3). Hands are as
    dealt; tests overwrite what they need before the first bid."""
    state = new_game(GameConfig(num_agents=num_agents), seed=seed)
    play_until(state, lambda r: r["decision"] == DEC_BID)
    r = rec(state)
    n = int(r["num_seats"])
    r["bid_round"] = bid_round
    r["bid_start"] = start_seat
    for i in range(n):
        r["order"][i] = (start_seat + i) % n
        r["bid_value"][i] = 0
        r["bid_done"][i] = 0
    r["cursor"] = 0
    r["stage"] = STAGE_BIDDING
    r["decision"] = DEC_NONE
    resume(state)
    return state


def resume(state):
    """Let the engine run on from a hand-edited position to the next decision."""
    advance_kernel(state.reshape(1), 0)
