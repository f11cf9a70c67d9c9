"""Rule scenarios for Phase II bidding: the Press Track's stacking (R2), what a bid is made of
(R10), exchanges with the reserve (R9), the highest-bid bonus and its ties (R12) and the bidding
order (R3)."""

import pytest

from tests.tiny_york.scenario import (
    bidding_round,
    clear_skyscrapers,
    play_until,
    rec,
    set_cards,
    strip_characters,
)
from tiny_york_env.games.tiny_york import GameConfig, apply_action, legal_actions, new_game
from tiny_york_env.games.tiny_york.actions import (
    BID_CARD,
    BID_DONE,
    BID_PAIR,
    BID_WILD,
    BID_WILD_PAIR,
    ELEVATOR_TAKE,
    EXCHANGE,
    PRESTIGE_FORFEIT,
    PRESTIGE_TILE,
)
from tiny_york_env.games.tiny_york.components import (
    BROOKLYN,
    DOLLARS,
    ELEVATOR,
    NEUTRAL,
    NUM_CARD_TYPES,
    PLANS,
    PRESS,
    PRESTIGE,
    SKYSCRAPERS,
    WILD,
)
from tiny_york_env.games.tiny_york.scoring import final_scoring
from tiny_york_env.games.tiny_york.state import (
    DEC_BID,
    DEC_ELEVATOR,
    DEC_PICK_PAIR,
    DEC_PRESTIGE_TILE,
    SCORE_BOROUGH,
    VESSEL_ON_BOARD,
)

BID_PARTS = set(range(BID_CARD, BID_DONE + 1))
EXCHANGES = set(range(EXCHANGE, BID_CARD))


# --- private helpers -----------------------------------------------------------------------
def _mask(state):
    return set(legal_actions(state).tolist())


def _press(state, spaces, heights, neutral=None):
    """Place the tokens; later arrivals must stack above every height set here (R2)."""
    r = rec(state)
    for seat, (space, height) in enumerate(zip(spaces, heights, strict=True)):
        r["press_space"][seat] = space
        r["press_height"][seat] = height
    if neutral is not None:
        r["press_space"][NEUTRAL] = neutral
    r["press_moves"] = max(heights) + 1


def _bid(state, seat, cards):
    assert rec(state)["decision"] == DEC_BID
    assert rec(state)["actor"] == seat
    for _ in range(cards):
        apply_action(state, BID_CARD)
    apply_action(state, BID_DONE)


def _round(state, cards_by_seat):
    """Every seat bids in bidding order; returns the seats in the order they were asked."""
    r = rec(state)
    asked = []
    for _ in range(int(r["num_seats"])):
        seat = int(r["actor"])
        asked.append(seat)
        _bid(state, seat, cards_by_seat[seat])
    return asked


def _hands(state, round_type, cards_by_seat):
    for seat, n in enumerate(cards_by_seat):
        set_cards(state, seat, hand={round_type: n})


def _press_rank(state):
    """Seats in press order (R2), computed from the record independently of the engine."""
    r = rec(state)
    n = int(r["num_seats"])
    return sorted(range(n), key=lambda s: (-int(r["press_space"][s]), -int(r["press_height"][s])))


def _exchange(h, r):
    return EXCHANGE + h * NUM_CARD_TYPES + r


# --- R2: the Press Track ---------------------------------------------------------------------
def test_arriving_on_an_occupied_space_goes_on_top():
    """Rulebook "1 - Press": "If landing on an occupied space, the token is put on top." (R2)
    Yellow lands on Red's and Blue's space and becomes the leader of the three."""
    state = bidding_round(3, PRESS, start_seat=0)
    _hands(state, PRESS, [0, 2, 0])
    _press(state, spaces=[4, 1, 4], heights=[6, 5, 7])  # Blue on top of Red on space 4
    _round(state, [0, 2, 0])
    r = rec(state)
    assert list(r["press_space"][:3]) == [4, 4, 4]  # 1 + 2 + 1 bonus
    assert _press_rank(state) == [1, 2, 0]


def test_arriving_on_space_15_goes_underneath_and_the_track_stops_at_15():
    """Rulebook "1 - Press", note: "The Press Track is limited to 15 spaces. Press markers
    arriving later on the final space of the track are placed under those already there." (R2)
    Red already on 15; Yellow then Blue (press order) arrive: Red, Yellow, Blue. Blue's 2 + 1
    bonus from 13 stops at 15."""
    state = bidding_round(3, PRESS, start_seat=0)
    _hands(state, PRESS, [0, 1, 2])
    _press(state, spaces=[15, 14, 13], heights=[1, 2, 3])
    _round(state, [0, 1, 2])
    r = rec(state)
    assert list(r["press_space"][:3]) == [15, 15, 15]
    assert _press_rank(state) == [0, 1, 2]
    assert r["bid_round"] == DOLLARS and r["actor"] == 2  # Blue won the bonus


def test_token_already_on_15_stays_on_top_when_it_advances_again():
    """R2: only a token *arriving* on space 15 goes underneath; the leader on 15 who bids press
    again does not move, so it is not re-stacked below the others."""
    state = bidding_round(2, PRESS, start_seat=0)
    _hands(state, PRESS, [2, 1])
    _press(state, spaces=[15, 15], heights=[4, 3])
    _round(state, [2, 1])
    r = rec(state)
    assert list(r["press_space"][:2]) == [15, 15]
    assert _press_rank(state) == [0, 1]


def test_arriving_on_the_neutral_tokens_space_goes_on_top_of_it():
    """R2: the neutral token is a token like the others on its space; a participant arriving
    there goes on top, so they win a majority tie against the neutral player at the end
    (rulebook "Ties": the neutral press token counts for majorities)."""
    state = bidding_round(3, PRESS, start_seat=0)
    _hands(state, PRESS, [1, 2, 0])
    _press(state, spaces=[6, 0, 0], heights=[3, 2, 1], neutral=7)
    _round(state, [1, 2, 0])
    r = rec(state)
    assert r["press_space"][0] == 7 == r["press_space"][NEUTRAL]
    clear_skyscrapers(state, neutral=0)
    r["borough_base"][BROOKLYN] = 10
    r["borough_prestige"][BROOKLYN] = 0
    r["skyscrapers"][BROOKLYN, 0] = 2
    r["skyscrapers"][BROOKLYN, NEUTRAL] = 2
    final_scoring(rec(state))
    assert r["score_lines"][0, SCORE_BOROUGH + BROOKLYN] == 10


def test_neutral_token_ignored_for_the_bonus_but_counted_for_majorities():
    """Rulebook "Ties": for the bid bonus "the neutral press token does not count"; for
    majorities "the neutral press token counts" (R2, R12, R20). Red and Yellow tie on bids:
    Red, ahead of Yellow, gets the bonus although the neutral token is ahead of both; in the
    final scoring the neutral player beats Red in a tie."""
    state = bidding_round(3, DOLLARS, start_seat=1)
    _hands(state, DOLLARS, [2, 2, 1])
    _press(state, spaces=[5, 4, 0], heights=[3, 2, 1], neutral=7)
    dollars = rec(state)["dollars"][:3].copy()
    _round(state, [2, 2, 1])
    r = rec(state)
    assert list(r["dollars"][:3] - dollars) == [3, 2, 1]
    assert r["actor"] == 0 and r["bid_round"] == ELEVATOR
    clear_skyscrapers(state, neutral=0)
    r["borough_base"][BROOKLYN] = 10
    r["borough_prestige"][BROOKLYN] = 0
    r["skyscrapers"][BROOKLYN, 0] = 2
    r["skyscrapers"][BROOKLYN, NEUTRAL] = 2
    final_scoring(rec(state))
    assert r["score_lines"][0, SCORE_BOROUGH + BROOKLYN] == 5


# --- R10: what a bid is made of ----------------------------------------------------------------
def test_bid_of_a_pair_a_wild_pair_and_a_wild():
    """Rulebook "General rules for bidding rounds": "Any 2 identical cards may be played as if
    it were any card", "1 wild card + of any other card is considered to be any card", "Any
    number of wild cards may be added to a bid". R10: each substitute is worth 1, each further
    wild 1. Red bids 2 dollar cards + (wild + elevator) + wild = 3 in the press round and
    advances 3 + 1 bonus; exactly those 5 cards leave the hand."""
    state = bidding_round(2, PRESS, start_seat=0)
    set_cards(state, 0, hand={DOLLARS: 2, ELEVATOR: 1, PRESTIGE: 1, WILD: 3},
              reserve={SKYSCRAPERS: 2})
    set_cards(state, 1, hand={})
    _press(state, spaces=[0, 0], heights=[2, 1])
    r = rec(state)
    bid_mask = _mask(state) & BID_PARTS
    assert bid_mask == {BID_PAIR + DOLLARS, BID_PAIR + WILD, BID_WILD_PAIR + DOLLARS,
                        BID_WILD_PAIR + ELEVATOR, BID_WILD_PAIR + PRESTIGE, BID_DONE}
    apply_action(state, BID_PAIR + DOLLARS)
    assert r["bid_value"][0] == 1
    assert list(r["played"][0]) == [0, 2, 0, 0, 0, 0, 0]
    assert list(r["hand"][0]) == [0, 0, 1, 0, 1, 0, 3]
    apply_action(state, BID_WILD_PAIR + ELEVATOR)
    assert r["bid_value"][0] == 2
    assert list(r["played"][0]) == [0, 2, 1, 0, 0, 0, 1]
    assert list(r["hand"][0]) == [0, 0, 0, 0, 1, 0, 2]
    # Now the bid has a base: single wilds are worth 1 each, the wild pair is not offered.
    assert _mask(state) & BID_PARTS == {BID_WILD, BID_WILD_PAIR + PRESTIGE, BID_DONE}
    apply_action(state, BID_WILD)
    assert r["bid_value"][0] == 3
    assert list(r["played"][0]) == [0, 2, 1, 0, 0, 0, 2]
    assert list(r["hand"][0]) == [0, 0, 0, 0, 1, 0, 1]
    assert list(r["reserve"][0]) == [0, 0, 0, 0, 0, 2, 0]
    apply_action(state, BID_DONE)
    discard = r["discard"].copy()
    _bid(state, 1, 0)
    assert r["press_space"][0] == 4 and r["press_space"][1] == 0
    assert list(r["discard"] - discard) == [0, 2, 1, 0, 0, 0, 2]
    assert r["played"][0].sum() == 0


def test_a_lone_wild_cannot_start_a_bid():
    """Rulebook: "wild cards may never be played on their own" (R10: a further wild needs a card
    of the round's type or a substitute first). BID_WILD is not offered and apply_action raises
    ValueError, leaving the state byte-identical."""
    state = bidding_round(2, PRESS, start_seat=0)
    set_cards(state, 0, hand={WILD: 1, DOLLARS: 0}, reserve={SKYSCRAPERS: 2})
    assert BID_WILD not in _mask(state)
    assert _mask(state) & BID_PARTS == {BID_DONE}
    before = state.tobytes()
    with pytest.raises(ValueError):
        apply_action(state, BID_WILD)
    with pytest.raises(ValueError):
        apply_action(state, BID_PAIR + WILD)
    assert state.tobytes() == before


def test_two_wilds_start_a_bid_as_a_pair_but_are_not_added_as_a_pair_later():
    """R10: "two cards of one other type (two wilds included)" make a substitute; the wild pair
    can start a bid. Once the bid holds a card of the round's type, further wilds count one each
    (BID_WILD) and the wild pair is no longer offered."""
    state = bidding_round(2, DOLLARS, start_seat=0)
    set_cards(state, 0, hand={WILD: 4}, reserve={SKYSCRAPERS: 2})
    r = rec(state)
    assert _mask(state) & BID_PARTS == {BID_PAIR + WILD, BID_DONE}
    apply_action(state, BID_PAIR + WILD)
    assert r["bid_value"][0] == 1 and r["played"][0, WILD] == 2 and r["hand"][0, WILD] == 2
    assert _mask(state) & BID_PARTS == {BID_WILD, BID_DONE}
    apply_action(state, BID_WILD)
    apply_action(state, BID_WILD)
    assert r["bid_value"][0] == 3 and r["played"][0, WILD] == 4 and r["hand"][0, WILD] == 0

    state = bidding_round(2, DOLLARS, start_seat=0)
    set_cards(state, 0, hand={DOLLARS: 1, WILD: 2}, reserve={SKYSCRAPERS: 2})
    r = rec(state)
    apply_action(state, BID_CARD)
    assert _mask(state) & BID_PARTS == {BID_WILD, BID_DONE}
    before = state.tobytes()
    with pytest.raises(ValueError):
        apply_action(state, BID_PAIR + WILD)
    assert state.tobytes() == before
    apply_action(state, BID_WILD)
    apply_action(state, BID_WILD)
    assert r["bid_value"][0] == 3


def test_wild_plus_card_alone_is_a_legal_bid_and_wins_the_bonus():
    """Rulebook "Important: 1 wild card + of any other card is considered to be any card, thus
    is legal to play alone in a bidding round." A plans round: the wild + press bid (1) ties
    with a 1-card bid, and the bidder ahead on the press track gets 1 + 1 skyscrapers."""
    state = bidding_round(2, PLANS, start_seat=1)
    set_cards(state, 0, hand={WILD: 1, PRESS: 1})
    set_cards(state, 1, hand={PLANS: 1})
    _press(state, spaces=[3, 2], heights=[2, 1])
    boards = rec(state)["board_skyscrapers"][:2].copy()
    _bid(state, 1, 1)
    apply_action(state, BID_WILD_PAIR + PRESS)
    apply_action(state, BID_DONE)
    r = rec(state)
    assert list(r["board_skyscrapers"][:2] - boards) == [2, 1]
    assert r["actor"] == 0 and r["bid_round"] == PRESTIGE


# --- R9: exchanges ---------------------------------------------------------------------------
def test_exchange_swaps_one_hand_card_for_one_reserve_card():
    """Rulebook "Hand & Reserve": players "may exchange one of their cards in hand for one card
    from their reserve [...] the reserve always must contain 2 cards" (R9). The swapped-in press
    card can then be bid."""
    state = bidding_round(2, PRESS, start_seat=0)
    set_cards(state, 0, hand={DOLLARS: 1, ELEVATOR: 1}, reserve={PRESS: 1, WILD: 1})
    r = rec(state)
    assert r["reserve_size"][0] == 2 and r["exchanges_left"] == 2
    assert BID_CARD not in _mask(state)
    assert _mask(state) & EXCHANGES == {_exchange(DOLLARS, PRESS), _exchange(DOLLARS, WILD),
                                         _exchange(ELEVATOR, PRESS), _exchange(ELEVATOR, WILD)}
    apply_action(state, _exchange(DOLLARS, PRESS))
    assert list(r["hand"][0]) == [1, 0, 1, 0, 0, 0, 0]
    assert list(r["reserve"][0]) == [0, 1, 0, 0, 0, 0, 1]
    assert r["reserve"][0].sum() == 2
    assert BID_CARD in _mask(state)
    apply_action(state, BID_CARD)
    apply_action(state, _exchange(ELEVATOR, WILD))
    assert list(r["hand"][0]) == [0, 0, 0, 0, 0, 0, 1]
    assert list(r["reserve"][0]) == [0, 1, 1, 0, 0, 0, 0]
    apply_action(state, BID_WILD)
    assert r["bid_value"][0] == 2
    assert list(r["played"][0]) == [1, 0, 0, 0, 0, 0, 1]
    assert r["reserve"][0].sum() == 2


def test_at_most_reserve_size_exchanges_per_bidding_turn():
    """R9 with the engine's bound (P1): ``reserve_size`` exchanges per bidding turn, afresh after
    a refill of the reserve (tests/tiny_york/test_character12.py), enough to reach any split of hand
    and reserve. After two exchanges none is offered and one is
    refused with the state unchanged; a seat with a 3-card reserve (character 3, R8) gets 3."""
    state = bidding_round(2, PRESS, start_seat=0)
    set_cards(state, 0, hand={DOLLARS: 2, ELEVATOR: 2}, reserve={PRESS: 1, WILD: 1})
    r = rec(state)
    apply_action(state, _exchange(DOLLARS, PRESS))
    apply_action(state, _exchange(DOLLARS, WILD))
    assert r["exchanges_left"] == 0
    assert r["hand"][0, ELEVATOR] == 2 and r["reserve"][0, DOLLARS] == 2
    assert not _mask(state) & EXCHANGES
    before = state.tobytes()
    with pytest.raises(ValueError):
        apply_action(state, _exchange(ELEVATOR, DOLLARS))
    assert state.tobytes() == before
    apply_action(state, BID_DONE)
    # Seat 1 with a 3-card reserve: the bound is set afresh on their turn.
    assert r["actor"] == 1
    state = bidding_round(2, PRESS, start_seat=1)
    r = rec(state)
    r["reserve_size"][0] = 3
    set_cards(state, 1, hand={})
    apply_action(state, BID_DONE)
    assert r["actor"] == 0 and r["exchanges_left"] == 3
    set_cards(state, 0, hand={DOLLARS: 3}, reserve={PRESS: 2, WILD: 1})
    for t in (PRESS, PRESS, WILD):
        apply_action(state, _exchange(DOLLARS, t))
    assert list(r["reserve"][0]) == [0, 3, 0, 0, 0, 0, 0]
    assert not _mask(state) & EXCHANGES


def test_exchanges_only_on_your_own_bidding_turn():
    """R9: "During Phase II (and during this Phase only!)", on the agent's own bidding turn.
    The exchange offered to the seat to move uses its own hand and reserve; Phase I picks and
    the elevator choice offer no exchange."""
    state = bidding_round(2, ELEVATOR, start_seat=0)
    set_cards(state, 0, hand={ELEVATOR: 1}, reserve={DOLLARS: 2})
    set_cards(state, 1, hand={PRESS: 1}, reserve={WILD: 2})
    _press(state, spaces=[1, 0], heights=[2, 1])
    assert _mask(state) & EXCHANGES == {_exchange(ELEVATOR, DOLLARS)}
    _bid(state, 0, 1)
    r = rec(state)
    assert r["actor"] == 1
    assert _mask(state) & EXCHANGES == {_exchange(PRESS, WILD)}
    apply_action(state, BID_DONE)
    assert r["decision"] == DEC_ELEVATOR and r["actor"] == 0
    assert not _mask(state) & EXCHANGES
    with pytest.raises(ValueError):
        apply_action(state, _exchange(ELEVATOR, DOLLARS))
    assert all(ELEVATOR_TAKE <= a < ELEVATOR_TAKE + 20 for a in _mask(state))

    state = new_game(GameConfig(num_agents=2), seed=3)
    play_until(state, lambda r: r["decision"] == DEC_PICK_PAIR)
    r = rec(state)
    seat = int(r["actor"])
    set_cards(state, seat, hand={PRESS: 3}, reserve={WILD: 2})
    assert not _mask(state) & EXCHANGES
    before = state.tobytes()
    with pytest.raises(ValueError):
        apply_action(state, _exchange(PRESS, WILD))
    assert state.tobytes() == before


# --- R12 and R3: the bonus and the bidding order -------------------------------------------------
def test_bonus_tie_goes_to_the_bidder_ahead_on_the_press_track_not_the_first_to_bid():
    """Rulebook "Highest bid bonus": "In case of a tie for the highest bid, only the affected
    player further ahead on the Press Track gains the bonus." (R12) Seats 0 and 2 bid 2 each;
    seat 2 is ahead on the press track, so seat 2 gets 3 dollars and starts the next round."""
    state = bidding_round(3, DOLLARS, start_seat=0)
    _hands(state, DOLLARS, [2, 1, 2])
    _press(state, spaces=[3, 4, 3], heights=[2, 3, 4])  # seat 1, seat 2, seat 0
    dollars = rec(state)["dollars"][:3].copy()
    _round(state, [2, 1, 2])
    r = rec(state)
    assert list(r["dollars"][:3] - dollars) == [2, 1, 3]
    assert r["bid_round"] == ELEVATOR and r["actor"] == 2


def test_prestige_runner_up_tie_goes_to_the_bidder_ahead_on_the_press_track():
    """R12: "In the prestige round the runner-up is the highest of the other bidders, ties
    broken the same way." Seat 3 bids 3 (winner); seats 0 and 2 tie on 1, seat 2 is ahead."""
    state = bidding_round(4, PRESTIGE, start_seat=0)
    _hands(state, PRESTIGE, [1, 0, 1, 3])
    _press(state, spaces=[2, 6, 5, 0], heights=[4, 3, 2, 1])
    r = rec(state)
    r["vessel_owner"][:] = VESSEL_ON_BOARD
    _round(state, [1, 0, 1, 3])
    assert r["decision"] == DEC_PRESTIGE_TILE and r["actor"] == 3
    apply_action(state, PRESTIGE_FORFEIT)
    assert r["decision"] == DEC_PRESTIGE_TILE and r["actor"] == 2
    assert {PRESTIGE_TILE, PRESTIGE_TILE + 1} & _mask(state)
    apply_action(state, PRESTIGE_FORFEIT)
    assert r["bid_round"] == SKYSCRAPERS and r["decision"] == DEC_BID and r["actor"] == 3


def test_first_bidding_round_starts_with_the_press_leader_then_clockwise():
    """Rulebook "Player order": "The player farthest ahead on the Press Track starts the bidding
    on the first round of a game turn only." "The player order of each bidding round is always
    in clockwise direction!" (R3)"""
    state = new_game(GameConfig(num_agents=3), seed=5)
    play_until(state, lambda r: r["decision"] == DEC_PICK_PAIR)
    strip_characters(state)  # a base-game example: no character 18 changes the order
    _press(state, spaces=[1, 3, 2], heights=[3, 2, 1])
    play_until(state, lambda r: r["decision"] == DEC_BID)
    r = rec(state)
    assert r["round"] == 1 and r["bid_round"] == PRESS
    for seat in range(3):
        set_cards(state, seat, hand={})
    assert _round(state, [0, 0, 0]) == [1, 2, 0]


def test_next_bidding_round_starts_with_the_previous_bonus_winner():
    """Rulebook "Player order": "After this round, the player who won the previous bid always
    starts for rounds 2-5." (R3) Seat 2 wins the dollars round; the elevator round asks 2, 3, 0,
    1."""
    state = bidding_round(4, DOLLARS, start_seat=0)
    _hands(state, DOLLARS, [1, 0, 2, 1])
    _round(state, [1, 0, 2, 1])
    r = rec(state)
    assert r["bid_round"] == ELEVATOR
    _hands(state, ELEVATOR, [0, 0, 0, 0])
    assert _round(state, [0, 0, 0, 0]) == [2, 3, 0, 1]


def test_nobody_bid_keeps_the_same_start_player():
    """Rulebook "Player order": "If no player plays a card in a bidding round, the turn order
    remains unchanged." (R3)"""
    state = bidding_round(3, DOLLARS, start_seat=1)
    _hands(state, DOLLARS, [0, 0, 0])
    assert _round(state, [0, 0, 0]) == [1, 2, 0]
    r = rec(state)
    assert r["bid_round"] == ELEVATOR
    _hands(state, ELEVATOR, [0, 0, 0])
    assert _round(state, [0, 0, 0]) == [1, 2, 0]
    assert r["bid_round"] == PLANS and r["actor"] == 1


def test_next_game_round_starts_with_the_press_leader_again():
    """Rulebook "Player order": the press leader starts "on the first round of a game turn"
    (R3), whoever won the last bidding round of the previous game round."""
    state = bidding_round(3, SKYSCRAPERS, start_seat=0)
    _hands(state, SKYSCRAPERS, [2, 0, 0])
    _press(state, spaces=[1, 2, 3], heights=[3, 2, 1])
    _round(state, [2, 0, 0])
    play_until(state, lambda r: r["decision"] == DEC_BID)
    r = rec(state)
    assert r["round"] == 2 and r["bid_round"] == PRESS
    assert r["actor"] == 2
    for seat in range(3):
        set_cards(state, seat, hand={})
    assert _round(state, [0, 0, 0]) == [2, 0, 1]


def test_a_passed_bid_gets_no_action_and_no_bonus():
    """Rulebook "Evaluation: All players who placed a bid now perform the related action"; a bid
    of value 0 is a pass (R10). The only bidder gets the bonus even when behind on the track."""
    state = bidding_round(3, PLANS, start_seat=0)
    _hands(state, PLANS, [0, 0, 1])
    _press(state, spaces=[5, 4, 0], heights=[3, 2, 1])
    boards = rec(state)["board_skyscrapers"][:3].copy()
    _round(state, [0, 0, 1])
    r = rec(state)
    assert list(r["board_skyscrapers"][:3] - boards) == [0, 0, 2]
    assert r["actor"] == 2 and r["bid_round"] == PRESTIGE
