"""Phase II characters 12-22 (rulebook addendum "Phase II Characters" and its notes under 15;
rulebook "Characters": once per game round, only in its phase, 1 dollar placed on the tile;
rulings R10, R11, R12, R15, R16, R19; docs/actions.md "A bid, part by part" and "Character
abilities").

Each scenario builds its position with the scenario helpers, deals every card explicitly (so the
105 cards stay accounted for), plays the ability through the public verbs and checks its exact
effect, its cost (1 dollar from the board onto the tile, the tile marked used) and that the 105
cards are still 15 per type. Seat 0 is the character's owner unless a test says otherwise.
"""

import numpy as np
import pytest

from tests.tiny_york.scenario import (
    bidding_round,
    clear_skyscrapers,
    give_character,
    pass_until,
    phase1_pick,
    rec,
    set_press,
)
from tiny_york_env.games.tiny_york import apply_action, legal_actions
from tiny_york_env.games.tiny_york.actions import (
    BID_CARD,
    BID_DONE,
    BID_WILD,
    BUILD_STOP,
    CHARACTER_BOROUGH,
    CHARACTER_CARD,
    CHARACTER_DONE,
    CHARACTER_STEPS,
    END_TURN,
    EXCHANGE,
    PRESTIGE_BOROUGH,
    PRESTIGE_FORFEIT,
    PRESTIGE_TILE,
    PRESTIGE_VESSEL,
    SELL_FROM,
    USE_CHARACTER,
)
from tiny_york_env.games.tiny_york.components import (
    CARDS_PER_TYPE,
    DOLLARS,
    ELEVATOR,
    NUM_ACTIVE_CHARACTERS,
    NUM_BOROUGHS,
    NUM_CARD_TYPES,
    PLANS,
    PRESS,
    PRESTIGE,
    SKYSCRAPERS,
    WILD,
)
from tiny_york_env.games.tiny_york.state import (
    DEC_AFTER_EVALUATION,
    DEC_BID,
    DEC_BUILD,
    DEC_CHARACTER_CARD,
    DEC_CHARACTER_STEPS,
    DEC_PHASE3,
    DEC_PICK_PAIR,
    DEC_PRESTIGE_BOROUGH,
    DEC_PRESTIGE_TILE,
    DEC_PRESTIGE_VESSEL,
    EMPTY,
)

OWNER, OTHER, THIRD = 0, 1, 2
PHASE_II_CHARACTERS = tuple(range(12, 23))
# Offered on the bidding turn (R11); 21 and 22 are not, 18 is declared before the first bid.
BID_CHARACTERS = tuple(c for c in range(12, 21) if c != 18)


# --- private helpers -----------------------------------------------------------------------
def _use(c):
    return USE_CHARACTER + c - 1


def _card(t):
    return CHARACTER_CARD + t


def _steps(n):
    return CHARACTER_STEPS + n - 1


def _exchange(h, r):
    return EXCHANGE + h * NUM_CARD_TYPES + r


def _mask(state):
    return set(legal_actions(state).tolist())


def _uses(state):
    """The characters the pending decision offers."""
    last = USE_CHARACTER + NUM_ACTIVE_CHARACTERS
    return {a - USE_CHARACTER + 1 for a in _mask(state) if USE_CHARACTER <= a < last}


def _counts(row):
    return {t: int(row[t]) for t in range(NUM_CARD_TYPES) if row[t]}


def _pile_counts(r):
    pile = r["draw_pile"][: int(r["draw_count"])]
    return np.bincount(pile.astype(np.int64), minlength=NUM_CARD_TYPES)


def _assert_conserved(state):
    """105 cards, 15 per type, over the draw pile, discard, hands, reserves, pairs and played."""
    r = rec(state)
    total = _pile_counts(r) + r["discard"].astype(np.int64)
    for field in ("hand", "reserve", "played"):
        total = total + r[field].astype(np.int64).sum(axis=0)
    pairs = r["pairs"][: int(r["num_pairs"])].ravel()
    total = total + np.bincount(pairs[pairs != EMPTY].astype(np.int64), minlength=NUM_CARD_TYPES)
    assert list(total) == [CARDS_PER_TYPE] * NUM_CARD_TYPES, f"cards per type: {list(total)}"


def _deal(state, hands, reserves, top=()):
    """Redistribute all 105 cards: ``hands``/``reserves`` {seat: {type: n}} (seats not named get
    an empty hand and a reserve of one plans and one skyscraper card), ``top`` the next cards of
    the draw pile in drawing order, everything else below them; discard, played and pairs empty."""
    r = rec(state)
    n = int(r["num_seats"])
    pool = np.full(NUM_CARD_TYPES, CARDS_PER_TYPE, np.int64)
    for field, given, default in (("hand", hands, {}), ("reserve", reserves,
                                                         {PLANS: 1, SKYSCRAPERS: 1})):
        r[field][:] = 0
        for seat in range(n):
            for t, k in given.get(seat, default).items():
                r[field][seat, t] = k
                pool[t] -= k
    for t in top:
        pool[t] -= 1
    assert (pool >= 0).all(), "more cards dealt than the game has"
    rest = [t for t in range(NUM_CARD_TYPES) for _ in range(pool[t])]
    pile = rest + list(reversed(top))  # the top card is draw_pile[draw_count - 1]
    r["draw_pile"][:] = 0
    r["draw_pile"][: len(pile)] = pile
    r["draw_count"] = len(pile)
    r["discard"][:] = 0
    r["played"][:] = 0
    r["pairs"][:] = EMPTY
    for seat in range(n):
        r["reserve_size"][seat] = sum(r["reserve"][seat])
    _assert_conserved(state)


def _bid_turn(bid_round, chars, hands, reserves=None, top=(), dollars=3, num_agents=2,
              press=None, seed=0):
    """A game at seat 0's bidding turn in ``bid_round``, seat 0 owning ``chars`` (a list, repeats
    give further copies); returns (state, tile ids)."""
    state = bidding_round(num_agents, bid_round, seed=seed, start_seat=OWNER)
    tiles = [give_character(state, OWNER, c) for c in chars]
    _deal(state, hands, reserves or {OWNER: {PLANS: 1, SKYSCRAPERS: 1}}, top)
    r = rec(state)
    r["dollars"][:num_agents] = 0
    r["dollars"][OWNER] = dollars
    set_press(state, press or [0] * num_agents)
    assert r["decision"] == DEC_BID and r["actor"] == OWNER and r["bid_round"] == bid_round
    return state, tiles


def _assert_paid(state, tiles, dollars_before, seat=OWNER, gained=0):
    """Each of ``tiles`` carries the dollar paid for it and is used this round."""
    r = rec(state)
    for tile in tiles:
        assert r["tile_used"][tile] == 1, f"tile {tile} not marked used"
        assert r["tile_dollar"][tile] == 1, f"no dollar placed on tile {tile}"
    assert r["dollars"][seat] == dollars_before - len(tiles) + gained


def _assert_refused(state, action):
    """Not offered, and apply_action raises ValueError leaving the state byte-identical."""
    assert action not in _mask(state)
    before = state.tobytes()
    with pytest.raises(ValueError):
        apply_action(state, action)
    assert state.tobytes() == before


def _pass(state, seat):
    r = rec(state)
    assert r["decision"] == DEC_BID and r["actor"] == seat
    apply_action(state, BID_DONE)


def _first(state, lo, hi):
    return min(a for a in _mask(state) if lo <= a < hi)


def _rich_prestige_turn(chars, dollars, reserve=None):
    """The prestige round, seat 0 has bid one prestige card from the hand, holds more cards,
    has a prestige card in the reserve and stands on press space 3: each of 12-20 can act."""
    state, tiles = _bid_turn(
        PRESTIGE, chars,
        hands={OWNER: {PRESTIGE: 2, DOLLARS: 1, WILD: 1}, OTHER: {PRESS: 2}},
        reserves={OWNER: reserve or {PRESTIGE: 1, PLANS: 1}}, dollars=dollars, press=[3, 1])
    apply_action(state, BID_CARD)
    return state, tiles


def _resolve(state):
    """Finish the pending ability's choices: the fewest steps, the first card, or stop."""
    r = rec(state)
    while r["decision"] in (DEC_CHARACTER_CARD, DEC_CHARACTER_STEPS):
        mask = _mask(state)
        if r["decision"] == DEC_CHARACTER_STEPS:
            apply_action(state, _steps(1))
        elif CHARACTER_DONE in mask:
            apply_action(state, CHARACTER_DONE)
        else:
            apply_action(state, min(mask))


# --- 12 --------------------------------------------------------------------------------------
def test_12_point_discard_chosen_reserve_cards_then_refill():
    """Addendum 12: "Gain 1 point. Discard any number of cards from your reserve, then refill
    your reserve from the draw pile." (docs: CHARACTER_CARD per discard, CHARACTER_DONE to
    refill.)"""
    state, (tile,) = _bid_turn(PRESS, [12], hands={OWNER: {PRESS: 1}},
                               reserves={OWNER: {DOLLARS: 1, ELEVATOR: 1}},
                               top=(SKYSCRAPERS, PLANS))
    r = rec(state)
    points, count = int(r["points"][OWNER]), int(r["draw_count"])
    apply_action(state, _use(12))
    assert r["points"][OWNER] == points + 1
    assert r["decision"] == DEC_CHARACTER_CARD
    assert _mask(state) == {_card(DOLLARS), _card(ELEVATOR), CHARACTER_DONE}
    apply_action(state, _card(DOLLARS))
    assert r["discard"][DOLLARS] == 1 and _counts(r["reserve"][OWNER]) == {ELEVATOR: 1}
    assert r["decision"] == DEC_CHARACTER_CARD
    apply_action(state, CHARACTER_DONE)
    assert _counts(r["reserve"][OWNER]) == {ELEVATOR: 1, SKYSCRAPERS: 1}
    assert r["draw_count"] == count - 1
    assert _counts(r["hand"][OWNER]) == {PRESS: 1}
    assert r["decision"] == DEC_BID and r["actor"] == OWNER and r["bid_value"][OWNER] == 0
    _assert_paid(state, [tile], 3)
    _assert_conserved(state)


def test_12_discarding_the_whole_reserve_refills_it_to_its_size():
    """Addendum 12 "then refill your reserve": refilled to reserve_size (3 here, as after
    character 3, R8); discarding the last card ends the choices by itself."""
    state, (tile,) = _bid_turn(PRESS, [12], hands={OWNER: {PRESS: 1}},
                               reserves={OWNER: {DOLLARS: 2, WILD: 1}},
                               top=(PRESTIGE, PLANS, ELEVATOR, WILD))
    r = rec(state)
    assert r["reserve_size"][OWNER] == 3
    apply_action(state, _use(12))
    for t in (DOLLARS, WILD, DOLLARS):
        apply_action(state, _card(t))
    assert r["decision"] == DEC_BID
    assert _counts(r["reserve"][OWNER]) == {PRESTIGE: 1, PLANS: 1, ELEVATOR: 1}
    assert _counts(r["discard"]) == {DOLLARS: 2, WILD: 1}
    _assert_paid(state, [tile], 3)
    _assert_conserved(state)


# --- 13 --------------------------------------------------------------------------------------
def test_13_any_card_as_a_white_press_card():
    """Addendum 13 example: "If the current bidding round is for the white press cards, you may
    play any other card as if it were a white press card." The card gives the bid its base, so a
    wild may follow (docs: "Cards played with 13 ... give the bid a base")."""
    state, (tile,) = _bid_turn(PRESS, [13], hands={OWNER: {ELEVATOR: 1, WILD: 1}})
    r = rec(state)
    assert BID_WILD not in _mask(state) and BID_CARD not in _mask(state)
    apply_action(state, _use(13))
    assert r["decision"] == DEC_CHARACTER_CARD
    assert _mask(state) == {_card(ELEVATOR), _card(WILD)}
    apply_action(state, _card(ELEVATOR))
    assert r["bid_value"][OWNER] == 1
    assert _counts(r["played"][OWNER]) == {ELEVATOR: 1}
    assert _counts(r["hand"][OWNER]) == {WILD: 1}
    _assert_paid(state, [tile], 3)
    _assert_conserved(state)
    apply_action(state, BID_WILD)
    assert r["bid_value"][OWNER] == 2
    apply_action(state, BID_DONE)
    _pass(state, OTHER)
    # Press action: bid 2 + 1 highest-bid bonus.
    assert r["press_space"][OWNER] == 3


# --- 14 --------------------------------------------------------------------------------------
def test_14_addendum_example_three_character_cards_and_two_spaces_back_count_five():
    """Addendum 14 example: "This bidding round is for character cards. You have played 3
    character cards, and you go back 2 spaces on the press track. This counts as if you had
    played 5 character cards." """
    state, (tile,) = _bid_turn(ELEVATOR, [14], hands={OWNER: {ELEVATOR: 3}}, press=[4, 0])
    r = rec(state)
    for _ in range(3):
        apply_action(state, BID_CARD)
    apply_action(state, _use(14))
    assert r["decision"] == DEC_CHARACTER_STEPS
    assert _mask(state) == {_steps(1), _steps(2)}
    apply_action(state, _steps(2))
    assert r["bid_value"][OWNER] == 5
    assert r["press_space"][OWNER] == 2
    assert _counts(r["played"][OWNER]) == {ELEVATOR: 3}
    assert r["decision"] == DEC_BID and r["actor"] == OWNER
    _assert_paid(state, [tile], 3)
    _assert_conserved(state)


def test_14_needs_a_card_in_the_bid_and_press_spaces_to_go_back():
    """R11: "16 and 14 add wild value and need a card in the bid, like a wild"; addendum 14 "Go
    back 1 or 2 spaces": from space 1 only one step back is offered, from space 0 none."""
    state, (tile,) = _bid_turn(ELEVATOR, [14], hands={OWNER: {ELEVATOR: 1}}, press=[1, 0])
    r = rec(state)
    _assert_refused(state, _use(14))  # no card in the bid yet
    apply_action(state, BID_CARD)
    apply_action(state, _use(14))
    assert _mask(state) == {_steps(1)}
    _assert_refused(state, _steps(2))
    apply_action(state, _steps(1))
    assert r["bid_value"][OWNER] == 2 and r["press_space"][OWNER] == 0
    _assert_paid(state, [tile], 3)

    state, _ = _bid_turn(ELEVATOR, [14], hands={OWNER: {ELEVATOR: 1}}, press=[0, 0])
    apply_action(state, BID_CARD)
    _assert_refused(state, _use(14))  # on space 0 there is nowhere to go back to


# --- 15 --------------------------------------------------------------------------------------
def test_15_reserve_card_with_the_icon_of_a_hand_card_then_refill():
    """Addendum 15: "When you play at least 1 card from your hand, you may play 1 card with the
    same icon from your reserve additionally. Refill your reserve from the draw pile." R11: it
    counts as one card of the same type."""
    state, (tile,) = _bid_turn(PRESS, [15], hands={OWNER: {PRESS: 1, DOLLARS: 1}},
                               reserves={OWNER: {PRESS: 1, PLANS: 1}}, top=(PRESTIGE,))
    r = rec(state)
    _assert_refused(state, _use(15))  # nothing played from the hand yet
    apply_action(state, BID_CARD)
    apply_action(state, _use(15))
    assert r["decision"] == DEC_CHARACTER_CARD
    assert _mask(state) == {_card(PRESS)}  # plans: no plans card in the hand or the bid
    apply_action(state, _card(PRESS))
    assert r["bid_value"][OWNER] == 2
    assert _counts(r["played"][OWNER]) == {PRESS: 2}
    assert _counts(r["hand"][OWNER]) == {DOLLARS: 1}
    assert _counts(r["reserve"][OWNER]) == {PLANS: 1, PRESTIGE: 1}
    assert r["decision"] == DEC_BID and r["actor"] == OWNER
    _assert_paid(state, [tile], 3)
    _assert_conserved(state)


def test_15_two_copies_for_the_same_played_card():
    """Addendum 15 note: "If you have character 15 twice, you may use both for the same played
    card, meaning you may play 2 cards from your reserve in addition." """
    state, tiles = _bid_turn(PRESS, [15, 15], hands={OWNER: {PRESS: 1}},
                             reserves={OWNER: {PRESS: 2}}, top=(DOLLARS, ELEVATOR))
    r = rec(state)
    apply_action(state, BID_CARD)
    for expected_reserve in ({PRESS: 1, DOLLARS: 1}, {DOLLARS: 1, ELEVATOR: 1}):
        apply_action(state, _use(15))
        apply_action(state, _card(PRESS))
        assert _counts(r["reserve"][OWNER]) == expected_reserve
        _assert_conserved(state)
    assert r["bid_value"][OWNER] == 3
    assert _counts(r["played"][OWNER]) == {PRESS: 3}
    _assert_paid(state, tiles, 3)
    _assert_refused(state, _use(15))


def test_15_two_to_one_exchange_with_a_card_of_another_type():
    """Addendum 15 note: "you may play a card type not matching the current bidding round, then
    exchange that card combined with a card from your reserve in a ratio of 2:1 for a card
    matching that bidding round." (docs: "with a hand card of another type, as a 2:1 pair
    (+1)"); the reserve is refilled."""
    state, (tile,) = _bid_turn(PRESS, [15], hands={OWNER: {DOLLARS: 1, WILD: 1}},
                               reserves={OWNER: {DOLLARS: 1, PLANS: 1}}, top=(WILD,))
    r = rec(state)
    apply_action(state, _use(15))
    assert _mask(state) == {_card(DOLLARS)}
    apply_action(state, _card(DOLLARS))
    assert r["bid_value"][OWNER] == 1
    assert _counts(r["played"][OWNER]) == {DOLLARS: 2}
    assert _counts(r["hand"][OWNER]) == {WILD: 1}
    assert _counts(r["reserve"][OWNER]) == {PLANS: 1, WILD: 1}
    _assert_paid(state, [tile], 3)
    _assert_conserved(state)
    # The pair counts as a card of the round, so a wild may follow (R10).
    apply_action(state, BID_WILD)
    assert r["bid_value"][OWNER] == 2


def test_15_cannot_match_a_card_played_with_13():
    """Addendum 15 note: "You may not "re-use" a card using characters 13 ... in order to use it
    with character 15, because that card does not have the same icon." An elevator card played
    as a press card matches neither the press cards nor the elevator cards in the reserve."""
    state, tiles = _bid_turn(PRESS, [13, 15], hands={OWNER: {ELEVATOR: 1}},
                             reserves={OWNER: {PRESS: 1, ELEVATOR: 1}})
    r = rec(state)
    apply_action(state, _use(13))
    apply_action(state, _card(ELEVATOR))
    assert r["bid_value"][OWNER] == 1
    _assert_refused(state, _use(15))
    _assert_paid(state, tiles[:1], 3)
    assert r["tile_used"][tiles[1]] == 0


def test_15_refilled_card_may_be_exchanged_at_once_and_played():
    """Addendum 15 note: "You may exchange the refilled card immediately with a card from you
    hand and play it this round." docs: 15 refills the reserve, "which may then be exchanged
    again" - the refill gives a fresh allowance even after the turn's exchanges are used up
    (P1)."""
    state, (tile,) = _bid_turn(PRESS, [15], hands={OWNER: {PRESS: 1, DOLLARS: 1}},
                               reserves={OWNER: {PRESS: 1, PLANS: 1}}, top=(PRESS,))
    r = rec(state)
    apply_action(state, _exchange(DOLLARS, PLANS))
    apply_action(state, _exchange(PLANS, DOLLARS))
    assert not {a for a in _mask(state) if EXCHANGE <= a < BID_CARD}, "exchanges used up"
    apply_action(state, BID_CARD)
    apply_action(state, _use(15))
    apply_action(state, _card(PRESS))
    assert _counts(r["reserve"][OWNER]) == {PRESS: 1, PLANS: 1}
    apply_action(state, _exchange(DOLLARS, PRESS))
    apply_action(state, BID_CARD)
    assert r["bid_value"][OWNER] == 3
    assert _counts(r["played"][OWNER]) == {PRESS: 3}
    assert _counts(r["reserve"][OWNER]) == {PLANS: 1, DOLLARS: 1}
    assert not {a for a in _mask(state) if EXCHANGE <= a < BID_CARD}
    _assert_paid(state, [tile], 3)
    _assert_conserved(state)


# --- 16 --------------------------------------------------------------------------------------
def test_16_adds_one_wild_value_and_needs_a_card_in_the_bid():
    """Addendum 16: "Your bid is increased by 1 wild card"; R11: it needs a card in the bid,
    like a wild."""
    state, (tile,) = _bid_turn(PLANS, [16], hands={OWNER: {PLANS: 1}})
    r = rec(state)
    _assert_refused(state, _use(16))
    apply_action(state, BID_CARD)
    apply_action(state, _use(16))
    assert r["bid_value"][OWNER] == 2
    assert _counts(r["played"][OWNER]) == {PLANS: 1} and _counts(r["hand"][OWNER]) == {}
    assert r["decision"] == DEC_BID and r["actor"] == OWNER
    _assert_paid(state, [tile], 3)
    _assert_conserved(state)


# --- 17 --------------------------------------------------------------------------------------
def test_17_adds_a_prestige_card_and_wins_the_bonus_and_the_tile_choice():
    """Addendum 17: "Your bid is increased by 1 prestige card." R12/R15: the higher bid wins the
    bonus (tie would go to seat 1, ahead on the press track) and chooses the prestige tile
    first; every bidder gains its bid value in points."""
    state, (tile,) = _bid_turn(PRESTIGE, [17], hands={OWNER: {PRESTIGE: 1}, OTHER: {PRESTIGE: 1}},
                               press=[0, 2])
    r = rec(state)
    points = r["points"][:2].copy()
    apply_action(state, BID_CARD)
    apply_action(state, _use(17))
    assert r["bid_value"][OWNER] == 2
    assert _counts(r["played"][OWNER]) == {PRESTIGE: 1}
    _assert_paid(state, [tile], 3)
    _assert_conserved(state)
    apply_action(state, BID_DONE)
    apply_action(state, BID_CARD)
    apply_action(state, BID_DONE)
    assert r["bonus_winner"] == OWNER and r["runner_up"] == OTHER
    assert list(r["points"][:2] - points) == [2, 1]
    assert r["decision"] == DEC_PRESTIGE_TILE and r["actor"] == OWNER


def test_17_alone_makes_a_prestige_bid():
    """Addendum 17 in the prestige round with no card from the hand: the bid is one prestige
    card, worth 1 point (R15)."""
    state, (tile,) = _bid_turn(PRESTIGE, [17], hands={OWNER: {}})
    r = rec(state)
    points = int(r["points"][OWNER])
    apply_action(state, _use(17))
    assert r["bid_value"][OWNER] == 1
    _assert_paid(state, [tile], 3)
    apply_action(state, BID_DONE)
    _pass(state, OTHER)
    assert r["points"][OWNER] == points + 1
    assert r["decision"] == DEC_PRESTIGE_TILE and r["actor"] == OWNER


# --- 18 --------------------------------------------------------------------------------------
# Character 18 is declared before the first bid of a bidding round: tests/tiny_york/test_character18.py.


# --- 19 --------------------------------------------------------------------------------------
@pytest.mark.parametrize("with_17", [False, True])
def test_19_doubles_the_points_of_the_prestige_bid_17_included(with_17):
    """Addendum 19: "Gain twice the number of points for your bid of prestige cards. This applies
    as well if you play character 17 in addition to this character." (R15)"""
    chars = [19, 17] if with_17 else [19]
    state, tiles = _bid_turn(PRESTIGE, chars, hands={OWNER: {PRESTIGE: 2}, OTHER: {PRESTIGE: 1}})
    r = rec(state)
    points = r["points"][:2].copy()
    apply_action(state, BID_CARD)
    apply_action(state, BID_CARD)
    apply_action(state, _use(19))
    assert r["double_prestige"][OWNER] == 1 and r["bid_value"][OWNER] == 2
    if with_17:
        apply_action(state, _use(17))
    _assert_paid(state, tiles, 3)
    _assert_conserved(state)
    apply_action(state, BID_DONE)
    apply_action(state, BID_CARD)
    apply_action(state, BID_DONE)
    assert list(r["points"][:2] - points) == [6 if with_17 else 4, 1]


# --- 20 --------------------------------------------------------------------------------------
def test_20_one_press_card_counts_as_two_skyscraper_cards():
    """Addendum 20 example: "The current bidding round is for skyscrapers. You play 1 press card,
    it counts as 2 skyscraper cards." """
    state, (tile,) = _bid_turn(SKYSCRAPERS, [20], hands={OWNER: {PRESS: 1, SKYSCRAPERS: 1}})
    r = rec(state)
    apply_action(state, _use(20))
    assert r["decision"] == DEC_CHARACTER_CARD
    assert _mask(state) == {_card(PRESS), _card(SKYSCRAPERS)}
    apply_action(state, _card(PRESS))
    assert r["bid_value"][OWNER] == 2
    assert _counts(r["played"][OWNER]) == {PRESS: 1}
    assert _counts(r["hand"][OWNER]) == {SKYSCRAPERS: 1}
    assert r["decision"] == DEC_BID and r["actor"] == OWNER
    _assert_paid(state, [tile], 3)
    _assert_conserved(state)


def test_13_and_20_need_a_hand_card():
    """Addenda 13 and 20 play a card from the hand: with an empty hand they cannot act (docs:
    offered "only when the ability can have an effect")."""
    state, _ = _bid_turn(SKYSCRAPERS, [13, 20], hands={OWNER: {}})
    _assert_refused(state, _use(13))
    _assert_refused(state, _use(20))


# --- 21 --------------------------------------------------------------------------------------
def _prestige_placement(state, seat):
    """Take the first offered prestige tile, vessel and borough; return the borough."""
    r = rec(state)
    assert r["decision"] == DEC_PRESTIGE_TILE and r["actor"] == seat
    assert _use(21) not in _mask(state)
    apply_action(state, _first(state, PRESTIGE_TILE, PRESTIGE_FORFEIT))
    assert r["decision"] == DEC_PRESTIGE_VESSEL
    apply_action(state, _first(state, PRESTIGE_VESSEL, PRESTIGE_BOROUGH))
    assert r["decision"] == DEC_PRESTIGE_BOROUGH
    borough = _first(state, PRESTIGE_BOROUGH, SELL_FROM) - PRESTIGE_BOROUGH
    apply_action(state, PRESTIGE_BOROUGH + borough)
    return borough


@pytest.mark.parametrize("copies", [1, 2])
def test_21_prestige_round_one_supply_skyscraper_per_tile_in_the_tiles_borough(copies):
    """Addendum 21: "When building a skyscraper with the actions "Prestige" or "Skyscraper," you
    take 1 skyscraper from the general supply and build it in the same borough." Free (no
    dollar, components.md), automatic (docs), one per tile per building action (R16)."""
    state, tiles = _bid_turn(PRESTIGE, [21] * copies, hands={OWNER: {PRESTIGE: 1}}, dollars=0)
    r = rec(state)
    clear_skyscrapers(state)
    r["board_skyscrapers"][OWNER] = 4
    assert 21 not in _uses(state)
    apply_action(state, BID_CARD)
    apply_action(state, BID_DONE)
    _pass(state, OTHER)
    borough = _prestige_placement(state, OWNER)
    assert r["skyscrapers"][borough, OWNER] == 1 + copies
    assert r["skyscrapers"][:, OWNER].sum() == 1 + copies
    assert r["board_skyscrapers"][OWNER] == 3
    assert r["dollars"][OWNER] == 0
    assert all(r["tile_dollar"][t] == 0 for t in tiles)
    _assert_conserved(state)


@pytest.mark.parametrize("copies", [1, 2])
def test_21_skyscraper_round_once_per_building_action_in_the_mayors_borough(copies):
    """Addendum 21 / R16: building 3 skyscrapers (2 cards + bonus) in the Mayor's borough in one
    action adds one supply skyscraper per tile of 21 there, not one per skyscraper built."""
    state, tiles = _bid_turn(SKYSCRAPERS, [21] * copies, hands={OWNER: {SKYSCRAPERS: 2}}, dollars=0)
    r = rec(state)
    clear_skyscrapers(state)
    r["board_skyscrapers"][OWNER] = 5
    mayor = int(r["mayor"])
    assert 21 not in _uses(state)
    apply_action(state, BID_CARD)
    apply_action(state, BID_CARD)
    apply_action(state, BID_DONE)
    _pass(state, OTHER)
    assert r["skyscrapers"][mayor, OWNER] == 3 + copies
    assert r["skyscrapers"][:, OWNER].sum() == 3 + copies
    assert r["board_skyscrapers"][OWNER] == 2
    assert r["dollars"][OWNER] == 0
    assert all(r["tile_dollar"][t] == 0 for t in tiles)
    _assert_conserved(state)


def test_21_also_when_building_by_selling_with_an_empty_board():
    """R16: "With the board empty, for each skyscraper still to build the player may move one of
    their own skyscrapers from another borough ... Character 21 adds one skyscraper from the
    general supply to the same borough once per building action." """
    state, _ = _bid_turn(SKYSCRAPERS, [21], hands={OWNER: {SKYSCRAPERS: 1}}, dollars=0)
    r = rec(state)
    clear_skyscrapers(state)
    mayor = int(r["mayor"])
    away = [b for b in range(NUM_BOROUGHS) if b != mayor][:2]
    r["skyscrapers"][away[0], OWNER] = 2
    r["skyscrapers"][away[1], OWNER] = 1
    r["board_skyscrapers"][OWNER] = 0
    apply_action(state, BID_CARD)
    apply_action(state, BID_DONE)
    _pass(state, OTHER)
    assert r["decision"] == DEC_BUILD and r["actor"] == OWNER
    assert _mask(state) == {SELL_FROM + away[0], SELL_FROM + away[1], BUILD_STOP}
    apply_action(state, SELL_FROM + away[0])
    assert r["skyscrapers"][mayor, OWNER] == 2  # the moved one + 21's
    assert r["decision"] == DEC_BUILD
    apply_action(state, SELL_FROM + away[0])  # the bonus build: no second 21 skyscraper
    assert r["skyscrapers"][mayor, OWNER] == 3
    assert r["skyscrapers"][away[0], OWNER] == 0 and r["skyscrapers"][away[1], OWNER] == 1
    assert r["decision"] != DEC_BUILD or r["actor"] != OWNER


def test_21_nothing_built_nothing_added():
    """Addendum 21 triggers "when building a skyscraper": stopping at once with an empty board
    builds nothing, so 21 adds nothing (R16)."""
    state, _ = _bid_turn(SKYSCRAPERS, [21], hands={OWNER: {SKYSCRAPERS: 1}}, dollars=0)
    r = rec(state)
    clear_skyscrapers(state)
    mayor = int(r["mayor"])
    away = (mayor + 1) % NUM_BOROUGHS
    r["skyscrapers"][away, OWNER] = 1
    r["board_skyscrapers"][OWNER] = 0
    apply_action(state, BID_CARD)
    apply_action(state, BID_DONE)
    _pass(state, OTHER)
    apply_action(state, BUILD_STOP)
    assert r["skyscrapers"][mayor, OWNER] == 0 and r["skyscrapers"][away, OWNER] == 1


# --- 22 --------------------------------------------------------------------------------------
def _press_round_with_22(copies, dollars, cards=3):
    """Seat 0 (owning ``copies`` tiles of 22) bids ``cards`` press cards, seat 1 passes: the
    press action is evaluated and the game waits after the evaluation."""
    state, tiles = _bid_turn(PRESS, [22] * copies, hands={OWNER: {PRESS: cards, DOLLARS: 1}},
                             dollars=dollars)
    r = rec(state)
    for _ in range(cards):
        apply_action(state, BID_CARD)
        assert 22 not in _uses(state), "22 is never offered during the bid (R11)"
    apply_action(state, BID_DONE)
    _pass(state, OTHER)
    assert r["press_space"][OWNER] == cards + 1, "the evaluation is done before 22"
    return state, tiles


def test_22_takes_up_to_two_played_cards_back_after_the_evaluation():
    """Addendum 22: "Return up to 2 of your cards to your hand after the evaluation of your played
    cards." R11: after the evaluation of that bidding round; docs: CHARACTER_CARD per card (the
    second ends it); the rest goes to the discard pile."""
    state, (tile,) = _press_round_with_22(1, dollars=2)
    r = rec(state)
    assert r["decision"] == DEC_AFTER_EVALUATION and r["actor"] == OWNER
    assert _mask(state) == {END_TURN, _use(22)}  # none of 12-20 here
    apply_action(state, _use(22))
    assert r["decision"] == DEC_CHARACTER_CARD
    assert _mask(state) == {_card(PRESS), CHARACTER_DONE}
    apply_action(state, _card(PRESS))
    assert r["decision"] == DEC_CHARACTER_CARD
    _assert_conserved(state)
    apply_action(state, _card(PRESS))
    # Two taken: the window closes, the third card is discarded, the dollar round begins.
    assert r["bid_round"] == DOLLARS and r["decision"] == DEC_BID
    assert _counts(r["hand"][OWNER]) == {PRESS: 2, DOLLARS: 1}
    assert _counts(r["discard"]) == {PRESS: 1}
    assert r["played"][OWNER].sum() == 0
    _assert_paid(state, [tile], 2)
    _assert_conserved(state)


def test_22_done_after_one_card_discards_the_rest():
    """Addendum 22 "up to 2": CHARACTER_DONE is offered; cards not taken back are discarded."""
    state, (tile,) = _press_round_with_22(1, dollars=1)
    r = rec(state)
    apply_action(state, _use(22))
    apply_action(state, _card(PRESS))
    assert CHARACTER_DONE in _mask(state)
    apply_action(state, CHARACTER_DONE)
    assert r["bid_round"] == DOLLARS
    assert _counts(r["hand"][OWNER]) == {PRESS: 1, DOLLARS: 1}
    assert _counts(r["discard"]) == {PRESS: 2}
    _assert_paid(state, [tile], 1)
    _assert_conserved(state)


def test_22_second_copy_used_separately_in_the_same_window():
    """Rulebook "Characters": each tile once per game round for 1 dollar; a second tile of 22
    takes a third card back (docs: each copy is its own tile)."""
    state, tiles = _press_round_with_22(2, dollars=2)
    r = rec(state)
    apply_action(state, _use(22))
    apply_action(state, _card(PRESS))
    apply_action(state, _card(PRESS))
    assert r["decision"] == DEC_AFTER_EVALUATION and r["actor"] == OWNER
    assert _mask(state) == {END_TURN, _use(22)}
    apply_action(state, _use(22))
    apply_action(state, _card(PRESS))
    assert r["bid_round"] == DOLLARS
    assert _counts(r["hand"][OWNER]) == {PRESS: 3, DOLLARS: 1}
    _assert_paid(state, tiles, 2)
    _assert_conserved(state)


def test_22_one_tile_is_not_used_twice():
    """Rulebook "Characters": "only once per game round". With one tile of 22, seat 0 is not
    asked again after using it (seat 1's 22 keeps the window open with seat 0's card still
    played), and USE_CHARACTER 22 is refused for seat 0."""
    state, (tile,) = _bid_turn(PRESS, [22], hands={OWNER: {PRESS: 3}, OTHER: {PRESS: 1}})
    r = rec(state)
    give_character(state, OTHER, 22)
    r["dollars"][OTHER] = 1
    set_press(state, [0, 5])  # seat 1 ahead: asked first
    for _ in range(3):
        apply_action(state, BID_CARD)
    apply_action(state, BID_DONE)
    apply_action(state, BID_CARD)
    apply_action(state, BID_DONE)
    assert r["decision"] == DEC_AFTER_EVALUATION and r["actor"] == OTHER
    apply_action(state, END_TURN)
    assert r["decision"] == DEC_AFTER_EVALUATION and r["actor"] == OWNER
    apply_action(state, _use(22))
    apply_action(state, _card(PRESS))
    apply_action(state, CHARACTER_DONE)
    assert r["bid_round"] == DOLLARS, "seat 0 is not asked again"
    assert _counts(r["hand"][OWNER]) == {PRESS: 1}
    _assert_paid(state, [tile], 3)

    # The same position with seat 1 still to decide after seat 0 (seat 0 ahead now).
    state, (tile,) = _bid_turn(PRESS, [22], hands={OWNER: {PRESS: 3}, OTHER: {PRESS: 1}})
    r = rec(state)
    give_character(state, OTHER, 22)
    r["dollars"][OTHER] = 1
    set_press(state, [5, 0])
    for _ in range(3):
        apply_action(state, BID_CARD)
    apply_action(state, BID_DONE)
    apply_action(state, BID_CARD)
    apply_action(state, BID_DONE)
    apply_action(state, _use(22))
    apply_action(state, _card(PRESS))
    apply_action(state, CHARACTER_DONE)
    assert r["decision"] == DEC_AFTER_EVALUATION and r["actor"] == OTHER
    assert r["played"][OWNER, PRESS] == 2
    r["actor"] = OWNER  # what if seat 0 asked again: its tile is used
    _assert_refused(state, _use(22))


def test_22_needs_a_dollar_and_played_cards():
    """Rulebook "Characters": "they must place 1 dollar on that character before they use it";
    22 returns played cards, so without a dollar (or a bid) there is no window at all."""
    state, _ = _press_round_with_22(1, dollars=0)
    r = rec(state)
    assert r["bid_round"] == DOLLARS and r["decision"] == DEC_BID
    assert r["hand"][OWNER, PRESS] == 0 and r["discard"][PRESS] == 3

    state, _ = _bid_turn(PRESS, [22], hands={OWNER: {PRESS: 1}}, dollars=1)
    apply_action(state, BID_DONE)
    _pass(state, OTHER)
    assert rec(state)["bid_round"] == DOLLARS and rec(state)["decision"] == DEC_BID


# --- every bidding-turn character: cost, once per round, dollar, phase ---------------------
def test_rich_position_offers_every_bidding_character():
    """Control for the tests below: in the prestige round, with a prestige card bid from the
    hand, one in the reserve, cards in the hand and press spaces behind, each of 12-17, 19 and
    20 is offered (R11); 21 and 22 are not offered during the bid, nor is 18 (declared before
    the first bid)."""
    state, _ = _rich_prestige_turn(list(PHASE_II_CHARACTERS), dollars=1)
    assert _uses(state) == set(BID_CHARACTERS)


@pytest.mark.parametrize("c", BID_CHARACTERS)
def test_not_offered_without_a_dollar(c):
    """Rulebook "Characters": "they must place 1 dollar on that character before they use it";
    none of 12-20 is free (components.md: free tiles are 4 and 21)."""
    state, _ = _rich_prestige_turn([c], dollars=0)
    _assert_refused(state, _use(c))


@pytest.mark.parametrize("c", BID_CHARACTERS)
def test_one_tile_is_used_once_per_round_and_pays_one_dollar(c):
    """Rulebook "Characters": "once per game round ... they must place 1 dollar on that
    character"; docs: "once per game round per tile, paying 1 dollar from the player board"."""
    state, (tile,) = _rich_prestige_turn([c], dollars=2)
    r = rec(state)
    apply_action(state, _use(c))
    _resolve(state)
    assert r["decision"] == DEC_BID and r["actor"] == OWNER
    _assert_paid(state, [tile], 2)
    _assert_conserved(state)
    _assert_refused(state, _use(c))


@pytest.mark.parametrize("c", (12, 14, 15, 16, 20))
def test_second_copy_is_usable_separately(c):
    """docs: "Each copy is its own tile: with two copies of a character, USE_CHARACTER c is
    offered again after the first is used", each paying its own dollar."""
    # 15: two prestige cards in the reserve, both for the same prestige card played (addendum).
    state, tiles = _rich_prestige_turn([c, c], dollars=3,
                                       reserve={PRESTIGE: 2} if c == 15 else None)
    r = rec(state)
    before = int(r["bid_value"][OWNER])
    apply_action(state, _use(c))
    _resolve(state)
    assert c in _uses(state)
    apply_action(state, _use(c))
    _resolve(state)
    gain = {12: 0, 14: 2, 15: 2, 16: 2, 20: 4}[c]
    assert r["bid_value"][OWNER] == before + gain
    _assert_paid(state, tiles, 3)
    _assert_conserved(state)
    _assert_refused(state, _use(c))


@pytest.mark.parametrize("c", (17, 19))
def test_17_and_19_only_in_the_prestige_round(c):
    """R11: "17 adds one prestige card and is usable in the prestige round only. 19 is usable in
    the prestige round only." """
    for bid_round in (PRESS, DOLLARS, ELEVATOR, PLANS, SKYSCRAPERS):
        state, _ = _bid_turn(bid_round, [c], hands={OWNER: {bid_round: 1}})
        apply_action(state, BID_CARD)
        _assert_refused(state, _use(c))
    state, _ = _bid_turn(PRESTIGE, [c], hands={OWNER: {PRESTIGE: 1}})
    assert c in _uses(state)


def test_used_tile_stays_used_for_the_game_round_and_is_free_again_next_round():
    """Rulebook "Characters": "At the start of the next game round, that dollar is returned to
    the general supply and the player may not use that character until then." (R19)"""
    state, (tile,) = _bid_turn(PRESS, [12], hands={OWNER: {}}, dollars=3)
    r = rec(state)
    apply_action(state, _use(12))
    apply_action(state, CHARACTER_DONE)
    apply_action(state, BID_DONE)
    _pass(state, OTHER)
    assert r["bid_round"] == DOLLARS and r["actor"] == OWNER
    _assert_refused(state, _use(12))
    pass_until(state, lambda q: q["round"] == 2 and q["decision"] == DEC_BID
               and q["actor"] == OWNER)
    assert r["tile_used"][tile] == 0 and r["tile_dollar"][tile] == 0
    assert r["dollars"][OWNER] == 2, "the dollar goes to the supply, not back to the player"
    assert 12 in _uses(state)


def test_phase_ii_characters_not_offered_in_phase_i_picks():
    """Rulebook "Characters": "only during that character's indicated phase"; docs: Phase I pick
    turns offer 1-7, 9-11 (a Phase I character is offered there as a control)."""
    state = phase1_pick(2)
    r = rec(state)
    seat = int(r["actor"])
    for c in PHASE_II_CHARACTERS + (6,):
        give_character(state, seat, c)
    r["dollars"][seat] = 5
    assert r["decision"] == DEC_PICK_PAIR
    assert _uses(state) == {6}
    for c in PHASE_II_CHARACTERS:
        _assert_refused(state, _use(c))


def test_phase_ii_characters_not_offered_in_phase_iii():
    """Rulebook "Characters": "only during that character's indicated phase"; docs: Phase III
    offers 23-27 (23 is offered as a control)."""
    state, _ = _bid_turn(SKYSCRAPERS, list(PHASE_II_CHARACTERS) + [23], hands={OWNER: {}},
                         dollars=5)
    pass_until(state, lambda q: q["decision"] == DEC_PHASE3)
    r = rec(state)
    assert r["actor"] == OWNER
    assert _uses(state) == {23}
    for c in PHASE_II_CHARACTERS:
        _assert_refused(state, _use(c))


def test_only_the_owner_on_its_own_turn():
    """Rulebook "Characters": "This may be done on the player's own turn": seat 1's bidding turn
    offers nothing of seat 0's characters."""
    state, _ = _rich_prestige_turn(list(BID_CHARACTERS), dollars=5)
    apply_action(state, BID_DONE)
    r = rec(state)
    assert r["actor"] == OTHER
    r["dollars"][OTHER] = 5
    assert _uses(state) == set()


def test_15_reserve_wild_matches_a_wild_played_from_the_hand():
    """Addendum 15 "1 card with the same icon": a wild played from the hand (once the bid has a
    base, R10) lets a reserve wild join the bid as one more wild (docs: "the round's type, or a
    wild once the bid has a base")."""
    state, (tile,) = _bid_turn(PRESS, [15], hands={OWNER: {PRESS: 1, WILD: 1}},
                               reserves={OWNER: {WILD: 1, PLANS: 1}}, top=(DOLLARS,))
    r = rec(state)
    apply_action(state, BID_CARD)
    apply_action(state, BID_WILD)
    apply_action(state, _use(15))
    assert _mask(state) == {_card(WILD)}
    apply_action(state, _card(WILD))
    assert r["bid_value"][OWNER] == 3
    assert _counts(r["played"][OWNER]) == {PRESS: 1, WILD: 2}
    assert _counts(r["reserve"][OWNER]) == {PLANS: 1, DOLLARS: 1}
    _assert_paid(state, [tile], 3)
    _assert_conserved(state)


def test_phase_ii_characters_not_offered_during_the_evaluation_only_22_after_it():
    """R11: Phase II characters act on the owner's bidding turn, 22 after the evaluation; docs:
    the prestige tile choice offers no character, the window after the evaluation only 22."""
    state, _ = _bid_turn(PRESTIGE, list(PHASE_II_CHARACTERS), hands={OWNER: {PRESTIGE: 2}},
                         dollars=5)
    r = rec(state)
    apply_action(state, BID_CARD)
    apply_action(state, BID_CARD)
    apply_action(state, BID_DONE)
    _pass(state, OTHER)
    assert r["decision"] == DEC_PRESTIGE_TILE and r["actor"] == OWNER
    assert _uses(state) == set()
    apply_action(state, PRESTIGE_FORFEIT)
    assert r["decision"] == DEC_AFTER_EVALUATION and r["actor"] == OWNER
    assert _uses(state) == {22}
    for c in BID_CHARACTERS:
        _assert_refused(state, _use(c))


def test_21_not_triggered_by_character_11():
    """Addendum 21 acts only "When building a skyscraper with the actions "Prestige" or
    "Skyscraper""; character 11's replacement of a neutral skyscraper is neither."""
    state = phase1_pick(2)
    r = rec(state)
    seat = int(r["actor"])
    give_character(state, seat, 11)
    give_character(state, seat, 21)
    r["dollars"][seat] = 1
    clear_skyscrapers(state, neutral=2)
    board = int(r["board_skyscrapers"][seat])
    apply_action(state, _use(11))
    borough = min(a for a in _mask(state)) - CHARACTER_BOROUGH
    apply_action(state, CHARACTER_BOROUGH + borough)
    assert r["skyscrapers"][borough, seat] == 1
    assert r["skyscrapers"][:, seat].sum() == 1
    assert r["board_skyscrapers"][seat] == board - 1
