"""Building positions for rule scenarios: reach a decision through the public verbs, then write
the fields a rulebook example talks about straight into the record (``rec(state)``), and let the
engine's ``advance`` kernel run on from there (``resume``). Tests using these helpers say in their
docstrings which parts of a position are written and which are played."""

import numpy as np

from tiny_york_env.games.tiny_york import GameConfig, apply_action, legal_actions, new_game
from tiny_york_env.games.tiny_york import actions as A
from tiny_york_env.games.tiny_york import components as C
from tiny_york_env.games.tiny_york import state as S
from tiny_york_env.games.tiny_york.components import NEUTRAL, NUM_BOROUGHS, NUM_CARD_TYPES
from tiny_york_env.games.tiny_york.elevator import refill_display_slot
from tiny_york_env.games.tiny_york.kernels import advance_kernel
from tiny_york_env.games.tiny_york.state import DEC_BID, DEC_NONE, STAGE_BIDDING


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


def _pile(r):
    """The draw pile as a list of card types, bottom first (the last one is drawn next)."""
    return [int(c) for c in r["draw_pile"][: int(r["draw_count"])]]


def _set_pile(r, cards):
    r["draw_pile"][:] = S.EMPTY
    r["draw_pile"][: len(cards)] = cards
    r["draw_count"] = len(cards)


def _take_card(r, card_type):
    """Take one card of ``card_type`` out of the game's supply: the draw pile, lowest first (the
    top of the pile stays as it is), else the discard pile."""
    pile = _pile(r)
    if card_type in pile:
        pile.remove(card_type)
        _set_pile(r, pile)
    elif r["discard"][card_type] > 0:
        r["discard"][card_type] -= 1
    else:
        raise AssertionError(f"no card of type {card_type} left in the draw or discard pile")


def set_cards(state, seat, hand=None, reserve=None):
    """Replace ``seat``'s hand and/or reserve with {card type: count}, written into the record.
    The card count is not kept: the cards replaced vanish and the new ones appear. Where the
    whole record is checked afterwards (``validate_state``, ``determinize``), use ``deal_cards``."""
    r = rec(state)
    for field, cards in (("hand", hand), ("reserve", reserve)):
        if cards is None:
            continue
        r[field][seat] = np.zeros(NUM_CARD_TYPES, np.int16)
        for t, n in cards.items():
            r[field][seat, t] = n


def deal_cards(state, seat, hand=None, reserve=None):
    """Like ``set_cards``, with every card still accounted for (15 of each type): the cards
    replaced go to the bottom of the draw pile, the new ones come out of the draw pile (lowest
    first, so the next cards drawn stay the same where they can), else the discard pile."""
    r = rec(state)
    for field, cards in (("hand", hand), ("reserve", reserve)):
        if cards is None:
            continue
        old = [t for t in range(NUM_CARD_TYPES) for _ in range(int(r[field][seat, t]))]
        _set_pile(r, old + _pile(r))
        r[field][seat] = np.zeros(NUM_CARD_TYPES, np.int16)
        for t, n in cards.items():
            for _ in range(n):
                _take_card(r, t)
            r[field][seat, t] = n


def clear_skyscrapers(state, neutral=0):
    """Empty every borough of participants' skyscrapers; ``neutral`` neutral ones in each."""
    r = rec(state)
    for b in range(NUM_BOROUGHS):
        r["skyscrapers"][b] = 0
        r["skyscrapers"][b, NEUTRAL] = neutral


def bidding_round(num_agents, bid_round, seed=0, start_seat=0, characters=False):
    """A game in round 1 at the start of bidding round ``bid_round`` (0 = press ... 5 =
    skyscrapers), ``start_seat`` bidding first and the others clockwise (R3). Played through the
    verbs up to the first bid (lowest legal action each time); then the bidding round, its start
    seat and order are written into the record (the earlier bidding rounds are skipped, not
    played) and the engine runs on to the first bid. Hands are as dealt; tests overwrite what
    they need before the first bid. Characters are stripped unless ``characters`` (base-game
    examples assume none act)."""
    state = new_game(GameConfig(num_agents=num_agents), seed=seed)
    play_until(state, lambda r: r["decision"] == DEC_BID)
    if not characters:
        strip_characters(state)
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


def strip_characters(state):
    """Remove every owned character tile from the game (written into the record), so
    base-game rules act alone."""
    r = rec(state)
    for tile in range(C.NUM_TILES):
        if r["tile_loc"][tile] == S.LOC_OWNED:
            r["tile_loc"][tile] = S.LOC_REMOVED
            r["tile_owner"][tile] = S.NO_SEAT


def give_character(state, seat, character, start=False):
    """Give ``seat`` a tile of ``character`` (a start tile if ``start``) taken from wherever it
    lies, written into the record, keeping the elevator stacks and display consistent; returns
    the tile id."""
    r = rec(state)
    candidates = [t for t in range(C.NUM_TILES)
                  if C.TILE_CHARACTER[t] == character and bool(C.TILE_IS_START[t]) == start
                  and r["tile_loc"][t] != S.LOC_OWNED]
    if not candidates:
        raise AssertionError(f"no free tile of character {character} (start={start})")
    order = {S.LOC_REMOVED: 0, S.LOC_START_STACK: 1, S.LOC_ELEVATOR_STACK: 2, S.LOC_DISPLAY: 3}
    tile = min(candidates, key=lambda t: order[int(r["tile_loc"][t])])
    loc = int(r["tile_loc"][tile])
    if loc == S.LOC_ELEVATOR_STACK:
        row = int(C.TILE_VALUE[tile]) - 1
        n = int(r["elevator_count"][row])
        stack = [int(x) for x in r["elevator_stack"][row, :n] if x != tile]
        r["elevator_stack"][row] = S.EMPTY
        r["elevator_stack"][row, : n - 1] = stack
        r["elevator_count"][row] = n - 1
    elif loc == S.LOC_DISPLAY:
        row, col = map(int, np.argwhere(r["elevator_display"] == tile)[0])
        refill_display_slot(r, row, col)
    r["tile_loc"][tile] = S.LOC_OWNED
    r["tile_owner"][tile] = seat
    r["tile_used"][tile] = 0
    r["tile_dollar"][tile] = 0
    return tile


def phase1_pick(num_agents, seed=0, characters=False):
    """A game at the first pick of Phase I in round 1, played there through the verbs (lowest
    legal action); the drafted characters are then removed from the record unless asked."""
    state = new_game(GameConfig(num_agents=num_agents), seed=seed)
    play_until(state, lambda r: r["decision"] == S.DEC_PICK_PAIR)
    if not characters:
        strip_characters(state)
    return state


def pass_until(state, predicate, max_steps=10_000):
    """Answer every decision with its 'go on' choice (finish bid, end turn, stop, forfeit) or
    else the lowest legal action, until ``predicate(rec)`` holds."""
    go_on = (A.BID_DONE, A.END_TURN, A.CHARACTER_DONE, A.BUILD_STOP, A.PRESTIGE_FORFEIT)
    for _ in range(max_steps):
        if predicate(rec(state)):
            return state
        legal = set(int(a) for a in legal_actions(state))
        choice = next((a for a in go_on if a in legal), min(legal))
        apply_action(state, choice)
    raise AssertionError("predicate never held")
