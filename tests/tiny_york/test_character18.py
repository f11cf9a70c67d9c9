"""Character 18, declared before the first bid of a bidding round (rulebook addendum 18: "Take 1
dollar from the supply. This character changes the bidding order for the current bidding round
(only), making you the last player. No other player may play character 18 in the current
bidding round (ties broken by the Press Track)."; rulings R2, R3, R11, R19; docs/rules.md P17).

Each scenario starts a bidding round by hand (the stage that opens it runs as in a game), gives
character 18 to some seats and checks who is asked, in which order, what using it costs and
brings, and the bidding order that follows.
"""

import numpy as np
import pytest

from tests.tiny_york.scenario import (
    bidding_round,
    give_character,
    pass_until,
    rec,
    resume,
    set_cards,
    set_press,
)
from tiny_york_env.games.tiny_york import GameConfig, apply_action, legal_actions, new_game
from tiny_york_env.games.tiny_york.actions import BID_CARD, BID_DONE, END_TURN, USE_CHARACTER
from tiny_york_env.games.tiny_york.components import (
    CHARACTER_FREE,
    DOLLARS,
    ELEVATOR,
    NUM_ACTIVE_CHARACTERS,
    NUM_TILES,
    TILE_CHARACTER,
)
from tiny_york_env.games.tiny_york.state import (
    DEC_BID,
    DEC_DECLARE_BID_LAST,
    DEC_NONE,
    DEC_PICK_PAIR,
    LOC_OWNED,
    STAGE_BID_START,
    STAGE_BIDDING,
    STAGE_DECLARE_BID_LAST,
)

BID_LAST = 18
USE_18 = USE_CHARACTER + BID_LAST - 1


def _mask(state):
    return set(legal_actions(state).tolist())


def _uses(state):
    """The characters the pending decision offers."""
    last = USE_CHARACTER + NUM_ACTIVE_CHARACTERS
    return {a - USE_CHARACTER + 1 for a in _mask(state) if USE_CHARACTER <= a < last}


def _declaration(num_agents, holders, press, dollars, bid_round=DOLLARS, start_seat=0, hands=None):
    """A game at the start of bidding round ``bid_round`` (not the first, so ``start_seat``
    keeps the lead, R3), ``holders`` {seat: copies of 18}, ``press`` the press spaces (ties: the
    lower seat on top), ``dollars`` per seat and ``hands`` {seat: {type: n}}; the stage that
    opens the bidding round has run up to the first decision. Returns (state, {seat: tiles})."""
    state = bidding_round(num_agents, bid_round, start_seat=start_seat)
    tiles = {seat: [give_character(state, seat, BID_LAST) for _ in range(n)]
             for seat, n in holders.items()}
    r = rec(state)
    r["dollars"][:num_agents] = dollars
    set_press(state, press)
    for seat in range(num_agents):
        set_cards(state, seat, hand=(hands or {}).get(seat, {}))
    r["stage"] = STAGE_BID_START
    r["decision"] = DEC_NONE
    resume(state)
    return state, tiles


def _assert_asked(state, seat):
    """``seat`` is asked to declare 18 before any bid: USE_CHARACTER 18 or END_TURN only."""
    r = rec(state)
    assert r["stage"] == STAGE_DECLARE_BID_LAST and r["decision"] == DEC_DECLARE_BID_LAST
    assert r["actor"] == seat
    assert _mask(state) == {USE_18, END_TURN}
    assert not r["bid_done"].any(), "nobody has bid yet"
    agents = r["is_tom"] == 0  # a Tom may have played a wild at once after his draw (T4)
    assert not r["played"][agents].any()


def _bid(state, seat, cards):
    r = rec(state)
    assert r["decision"] == DEC_BID and r["actor"] == seat
    for _ in range(cards):
        apply_action(state, BID_CARD)
    apply_action(state, BID_DONE)


def test_the_user_bids_last_pays_a_dollar_and_takes_one():
    """Addendum 18: "Take 1 dollar from the supply ... making you the last player": declared
    before the first bid, the user pays 1 dollar onto the tile (rulebook "Characters"; 18 is not
    free), takes 1 dollar and bids after everyone else; the others keep their clockwise order."""
    assert CHARACTER_FREE[BID_LAST] == 0
    state, tiles = _declaration(3, {0: 1}, press=[0, 0, 0], dollars=1,
                                hands={0: {DOLLARS: 2}, 1: {DOLLARS: 1}, 2: {DOLLARS: 2}})
    r = rec(state)
    _assert_asked(state, 0)
    apply_action(state, USE_18)
    (tile,) = tiles[0]
    assert r["tile_used"][tile] == 1 and r["tile_dollar"][tile] == 1
    assert r["dollars"][0] == 1  # paid 1, took 1
    assert r["character18_used"] == 1
    assert list(r["order"][:3]) == [1, 2, 0]
    assert r["stage"] == STAGE_BIDDING
    _bid(state, 1, 1)
    _bid(state, 2, 2)
    assert r["decision"] == DEC_BID and r["actor"] == 0
    assert 18 not in _uses(state)
    _bid(state, 0, 2)
    # R12: 0 and 2 tie with 2; 0 is ahead on the press track (seat 0 on top of space 0).
    assert r["bid_round"] == ELEVATOR
    assert list(r["order"][:3]) == [0, 1, 2], "only the current bidding round (R3)"


def test_holders_are_asked_in_press_order_not_bidding_order():
    """Addendum 18 "ties broken by the Press Track", R11: seat 2, ahead on the press track, is
    asked before seat 1, although seat 1 bids before it clockwise; seat 2 uses it, so seat 1 is
    not asked and its 18 is not offered on its bidding turn either."""
    state, tiles = _declaration(4, {1: 1, 2: 1}, press=[0, 1, 3, 0], dollars=1)
    r = rec(state)
    assert list(r["order"][:4]) == [0, 1, 2, 3]
    _assert_asked(state, 2)
    apply_action(state, USE_18)
    assert list(r["order"][:4]) == [0, 1, 3, 2]
    assert r["tile_used"][tiles[1][0]] == 0 and r["dollars"][1] == 1
    _bid(state, 0, 0)
    assert r["decision"] == DEC_BID and r["actor"] == 1
    assert 18 not in _uses(state)
    _bid(state, 1, 0)
    _bid(state, 3, 0)
    _bid(state, 2, 0)
    assert r["bid_round"] == ELEVATOR


def test_the_first_declines_the_next_takes_it():
    """R11: holders are asked one after the other in press order until one uses 18."""
    state, tiles = _declaration(4, {1: 1, 2: 1}, press=[0, 1, 3, 0], dollars=1)
    r = rec(state)
    _assert_asked(state, 2)
    apply_action(state, END_TURN)
    assert r["tile_used"][tiles[2][0]] == 0 and r["dollars"][2] == 1
    _assert_asked(state, 1)
    apply_action(state, USE_18)
    assert list(r["order"][:4]) == [0, 2, 3, 1]
    assert r["dollars"][1] == 1 and r["tile_dollar"][tiles[1][0]] == 1
    assert r["decision"] == DEC_BID and r["actor"] == 0


def test_all_decline_keeps_the_clockwise_order():
    """R3: without 18 the bidding round runs clockwise from its start player."""
    state, _ = _declaration(3, {0: 1, 1: 1}, press=[2, 1, 0], dollars=1, start_seat=1)
    r = rec(state)
    _assert_asked(state, 0)
    apply_action(state, END_TURN)
    _assert_asked(state, 1)
    apply_action(state, END_TURN)
    assert r["character18_used"] == 0
    assert list(r["order"][:3]) == [1, 2, 0]
    assert r["decision"] == DEC_BID and r["actor"] == 1


def test_a_holder_who_cannot_pay_is_not_asked():
    """Rulebook "Characters": a character is used by placing 1 dollar on it; seat 2, ahead on
    the press track but without a dollar, is skipped and seat 1 is asked."""
    state, _ = _declaration(3, {1: 1, 2: 1}, press=[0, 1, 3], dollars=[1, 1, 0])
    _assert_asked(state, 1)
    apply_action(state, END_TURN)
    r = rec(state)
    assert r["decision"] == DEC_BID and r["actor"] == 0


def test_nobody_able_to_use_it_goes_straight_to_the_bids():
    """No declaration is asked when no agent can pay for an unused 18."""
    state, _ = _declaration(2, {0: 1, 1: 1}, press=[0, 0], dollars=0)
    r = rec(state)
    assert r["decision"] == DEC_BID and r["actor"] == 0 and r["stage"] == STAGE_BIDDING


def test_a_tom_is_never_asked():
    """Solo rules: Tom may not use character abilities; an agent holding 18 behind him on the
    press track is asked."""
    state = new_game(GameConfig(1, toms=(5,)), seed=3)
    pass_until(state, lambda q: q["decision"] == DEC_PICK_PAIR)
    r = rec(state)
    give_character(state, 1, BID_LAST)
    give_character(state, 0, BID_LAST)
    r["dollars"][:2] = 2
    set_press(state, [0, 4])
    pass_until(state, lambda q: q["decision"] in (DEC_DECLARE_BID_LAST, DEC_BID))
    _assert_asked(state, 0)


def test_one_tile_once_per_game_round_a_second_tile_in_a_later_bidding_round():
    """Rulebook "Characters": once per game round per tile (R19); addendum 18: one use per
    bidding round. With one tile used in a bidding round, the next round asks nobody; a second
    tile is declared there."""
    for copies in (1, 2):
        state, tiles = _declaration(2, {0: copies}, press=[0, 0], dollars=2, bid_round=DOLLARS)
        r = rec(state)
        _assert_asked(state, 0)
        apply_action(state, USE_18)
        _bid(state, 1, 0)
        _bid(state, 0, 0)
        assert r["bid_round"] == ELEVATOR and r["character18_used"] == 0
        if copies == 1:
            assert r["decision"] == DEC_BID and r["actor"] == 0
            continue
        _assert_asked(state, 0)
        apply_action(state, USE_18)
        assert all(r["tile_used"][t] == 1 and r["tile_dollar"][t] == 1 for t in tiles[0])
        assert r["dollars"][0] == 2
        assert list(r["order"][:2]) == [1, 0]


def _press_ranking(r):
    """Seats in press order (R2), computed from the record independently of the engine."""
    n = int(r["num_seats"])
    return sorted(range(n), key=lambda s: (-int(r["press_space"][s]), -int(r["press_height"][s])))


def _able(r, seat):
    """``seat`` could use 18 now: an unused tile of it and a dollar (independent of the engine)."""
    return r["dollars"][seat] >= 1 and any(
        r["tile_loc"][t] == LOC_OWNED and r["tile_owner"][t] == seat and r["tile_used"][t] == 0
        and TILE_CHARACTER[t] == BID_LAST for t in range(NUM_TILES))


@pytest.mark.parametrize("seed", range(3))
def test_random_games_ask_able_holders_in_press_order(seed):
    """Over random play with 18 given to two agents of three: in every bidding round the able
    holders are asked before any bid, in press order, until one uses it; a holder ahead on the
    press track is never skipped, and nobody is asked after a use."""
    state = new_game(GameConfig(3), seed=seed)
    pass_until(state, lambda q: q["decision"] == DEC_PICK_PAIR)
    for seat in (1, 2):
        give_character(state, seat, BID_LAST)
    rng = np.random.default_rng(seed)
    r = rec(state)
    asked, key, declarations = [], None, 0
    while r["round"] < 4:
        if (int(r["round"]), int(r["bid_round"])) != key:
            key, asked = (int(r["round"]), int(r["bid_round"])), []
        if r["decision"] == DEC_DECLARE_BID_LAST:
            declarations += 1
            seat = int(r["actor"])
            assert not r["bid_done"].any() and r["character18_used"] == 0
            assert _mask(state) == {USE_18, END_TURN} and _able(r, seat)
            ranking = _press_ranking(r)
            ahead = ranking[: ranking.index(seat)]
            assert all(s in asked for s in ahead if _able(r, s)), "an able holder ahead skipped"
            asked.append(seat)
        legal = legal_actions(state)
        apply_action(state, int(legal[rng.integers(legal.size)]))
    assert declarations > 0
