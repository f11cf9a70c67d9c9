"""Rule scenarios for Tom, the automatic player (rulebook "Solo rules - You versus TOM"; R1,
R4-R6, R12, R14, R21-R24).

Tom never decides through actions: the engine runs him inside ``advance``. These tests build a
game with Toms, reach the wanted moment through the public verbs, set the fields the rule talks
about and let the engine run on (``resume``). Where Tom bids after the agent, the agent's bid is
finished with the engine's own ``_apply_bid`` and the engine's ``_stage_bidding`` hook is stepped
once per Tom, so his bid can be read before the evaluation moves the cards on. Positions that
are much clearer when built by hand (the prestige steps, the elevator rows, final scoring) call
Tom's compiled functions on the record directly.
"""

import random

import numpy as np
import pytest

from tests.tiny_york.scenario import (
    clear_skyscrapers,
    deal_cards,
    give_character,
    pass_until,
    rec,
    resume,
    set_press,
    strip_characters,
)
from tiny_york_env.games.tiny_york import (
    GameConfig,
    apply_action,
    current_player,
    is_terminal,
    legal_actions,
    new_game,
)
from tiny_york_env.games.tiny_york.actions import (
    BID_CARD,
    BID_DONE,
    ELEVATOR_TAKE,
    PICK_PAIR,
    PRESTIGE_BOROUGH,
    PRESTIGE_TILE,
    PRESTIGE_VESSEL,
    START_STACK,
)
from tiny_york_env.games.tiny_york.bots import (
    tom_build,
    tom_character_points,
    tom_draw_before_bidding,
    tom_prestige_move,
    tom_take_elevator,
)
from tiny_york_env.games.tiny_york.components import (
    BRONX,
    BROOKLYN,
    DOLLARS,
    ELEVATOR,
    ELEVATOR_COLUMNS,
    JERSEY_CITY,
    MANHATTAN,
    NEUTRAL,
    NUM_BOROUGHS,
    NUM_CARD_TYPES,
    NUM_TILES,
    PLANS,
    PRESS,
    PRESTIGE,
    PRESTIGE_TILE_VALUE,
    QUEENS,
    SKYSCRAPERS,
    STATEN_ISLAND,
    TILE_CHARACTER,
    TILE_IS_START,
    TILE_VALUE,
    WILD,
)
from tiny_york_env.games.tiny_york.rules import _apply_bid, _apply_pick, _stage_bidding, _stage_phase1
from tiny_york_env.games.tiny_york.scoring import final_scoring
from tiny_york_env.games.tiny_york.state import (
    DEC_BID,
    DEC_ELEVATOR,
    DEC_NONE,
    DEC_PICK_PAIR,
    DEC_PRESTIGE_TILE,
    DEC_START_STACK,
    EMPTY,
    LOC_DISPLAY,
    LOC_OWNED,
    LOC_REMOVED,
    NO_SEAT,
    PRESTIGE_REMOVED,
    PRESTIGE_REVEALED,
    SCORE_BOROUGH,
    SCORE_BOROUGH_BONUS,
    SCORE_CHARACTERS,
    SCORE_END_CHARACTERS,
    SCORE_PRESS_BONUS,
    SCORE_REST,
    STACK_HIDDEN,
    STACK_REMOVED,
    STACK_REVEALED,
    STACK_TAKEN,
    STAGE_BID_START,
    VESSEL_ON_BOARD,
)

# The solo rules' level table, copied from the rulebook ("Tom 1: A6 ... Tom 12: C5").
RULEBOOK_LEVELS = {1: "A6", 2: "B3", 3: "C2", 4: "A7", 5: "B4", 6: "C3",
                   7: "A8", 8: "B5", 9: "C4", 10: "A9", 11: "B6", 12: "C5"}
SEQ_A, SEQ_B, SEQ_C, SEQ_D, SEQ_E, SEQ_X = range(6)
TAXI_MANHATTAN_BRONX, TAXI_MANHATTAN_QUEENS = 0, 1
SUBWAY_BRONX_QUEENS, SUBWAY_MANHATTAN_BROOKLYN = 6, 7
YELLOW_2, YELLOW_4, BROWN_3, BROWN_4 = 0, 1, 6, 7  # prestige tile ids (components.md values)
AGENT, TOM = 0, 1  # seats in a one-agent game against one Tom
ELEVATOR_ROW_5 = 4


# --- private builders and helpers -------------------------------------------------------------
def _game(toms=("A6",), agents=1, seed=0):
    return new_game(GameConfig(num_agents=agents, toms=toms), seed=seed)


def _unplay(r, seat):
    """Move ``seat``'s played cards (a Tom bidding before the agent) to the discard pile, so the
    record keeps every card accounted for."""
    r["discard"] += r["played"][seat]
    r["played"][seat] = 0


def _tom_seats(r):
    return [s for s in range(int(r["num_seats"])) if r["is_tom"][s]]


def _cards(row):
    """A hand/played row as {type: count} without zeros."""
    return {t: int(row[t]) for t in range(NUM_CARD_TYPES) if row[t]}


def _set_top(r, cards):
    """Arrange the draw pile so that ``cards`` are drawn in this order (cards[0] first), by
    swapping cards inside the pile (the pile keeps its contents)."""
    pile = r["draw_pile"]
    n = int(r["draw_count"])
    for k, card in enumerate(cards):
        pos = n - 1 - k
        j = max(i for i in range(pos + 1) if pile[i] == card)
        pile[j], pile[pos] = pile[pos], pile[j]


def _at_first_bid(toms=("A6",), agents=1, seed=0):
    """A game with Toms at the first agent bid of round 1, characters stripped."""
    state = _game(toms, agents, seed)
    pass_until(state, lambda r: r["decision"] == DEC_BID)
    strip_characters(state)
    return state


def _bidding(bid_round, start, hands, toms=("A6",), agents=1, press=None, top=(), seed=0,
             setup=None):
    """Round 1, just before bidding round ``bid_round`` starts with seat ``start`` (R3).
    ``hands`` gives each seat's hand (Tom: his supply); nothing is played yet; ``press`` lists
    each seat's press space (ties: lower seat on top); ``top`` the next cards of the draw pile;
    ``setup(state)`` any further change. The engine then runs the bid start (Tom's draw) and
    every Tom before the first agent."""
    state = _at_first_bid(toms, agents, seed)
    r = rec(state)
    for seat in range(int(r["num_seats"])):
        _unplay(r, seat)
        deal_cards(state, seat, hand=hands.get(seat, {}))
    if press is not None:
        set_press(state, press)
    _set_top(r, list(top))
    if setup is not None:
        setup(state)
    r["bid_round"] = bid_round
    r["bid_start"] = start
    r["stage"] = STAGE_BID_START
    r["decision"] = DEC_NONE
    resume(state)
    return state


def _agent_bid(state, cards):
    """The agent to move plays ``cards`` cards of the round and finishes (the engine runs on)."""
    r = rec(state)
    assert r["decision"] == DEC_BID and not r["is_tom"][r["actor"]]
    for _ in range(cards):
        apply_action(state, BID_CARD)
    apply_action(state, BID_DONE)


def _agent_bid_then_toms(state, cards):
    """The agent to move plays ``cards`` cards and finishes its bid with the engine's own step;
    then the engine's bidding hook runs each Tom that follows, stopping before the next agent or
    the evaluation, so Tom's bid can be read. ``resume`` continues the game."""
    r = rec(state)
    assert r["decision"] == DEC_BID and not r["is_tom"][r["actor"]]
    for _ in range(cards):
        apply_action(state, BID_CARD)
    _apply_bid(r, int(r["actor"]), BID_DONE)
    while r["cursor"] < r["num_seats"] and r["is_tom"][r["order"][r["cursor"]]]:
        _stage_bidding(r)


def _owned(r, seat):
    return [t for t in range(NUM_TILES) if r["tile_loc"][t] == LOC_OWNED and r["tile_owner"][t] == seat]


def _expected_tom_characters(values, dollars):
    """R24 done by hand: sorted ascending, one dollar each left to right, a second round,
    at most two each; two dollars double the value. Returns (points, dollars left)."""
    values = sorted(values)
    on = [0] * len(values)
    for _ in range(2):
        for i in range(len(values)):
            if dollars:
                on[i] += 1
                dollars -= 1
    return sum(v * (2 if k == 2 else 1) for v, k in zip(values, on, strict=True)), dollars


# --- configuration (R1, solo rules' level table) -------------------------------------------------
@pytest.mark.parametrize("level", sorted(RULEBOOK_LEVELS))
def test_tom_level_gives_the_rulebook_code(level):
    """Rulebook: "Tom 1: A6 | Tom 5: B4 | Tom 9: C4 ... Tom 12: C5" - the letter is the mode,
    the digit the cards drawn in Phase I. A level is stored as its code, and the game record
    holds the mode (A=0, B=1, C=2), the draw count and the level for Tom's seat."""
    code = RULEBOOK_LEVELS[level]
    config = GameConfig(num_agents=1, toms=(level,))
    assert config.toms == (code,)
    assert config.tom_levels == (level,)
    assert GameConfig(num_agents=1, toms=(code.lower(),)).tom_levels == (level,)
    r = rec(new_game(config, seed=level))
    assert list(r["is_tom"][:2]) == [0, 1]
    assert r["tom_mode"][TOM] == "ABC".index(code[0])
    assert r["tom_draw"][TOM] == int(code[1])
    assert r["tom_level"][TOM] == level


@pytest.mark.parametrize("agents, toms", [(1, (0,)), (1, (13,)), (1, ("D4",)), (1, ("A1",)),
                                          (1, ("B10",)), (1, ()), (4, ("B4",)), (1, (1, 2, 3, 4))])
def test_bad_tom_configurations_are_refused(agents, toms):
    """R1: "1-4 agents and 0-3 Toms, 2-4 participants in all. One agent needs at least one Tom";
    a Tom is a level 1-12 of the table or a mode A-C with a draw count 2-9."""
    with pytest.raises(ValueError):
        GameConfig(num_agents=agents, toms=toms)


@pytest.mark.parametrize("agents, toms, seed", [
    (1, ("B4",), 1), (1, ("A6", "C5"), 2), (1, (1, 7, 12), 3), (2, ("C4",), 4), (3, ("B3",), 5),
    (2, ("A9", "B6"), 6)])
def test_whole_games_never_ask_a_tom_and_tom_never_uses_characters(agents, toms, seed):
    """R1 / tom.py: Toms are run by the engine, so ``current_player`` only ever names an agent.
    Rulebook: "Tom is not allowed to put one dollar on his characters during phases I, II, and
    III, and thus may not use them" - no Tom tile is ever marked used or carries a dollar, and
    Tom's dollars never go down (he only collects them). R24 at the end: Tom's character line
    is his dealt-dollar value, his end-game line is 0, his leftover dollars go to the rest line."""
    rng = random.Random(seed)
    state = _game(toms, agents, seed)
    r = rec(state)
    tom_seats = _tom_seats(r)
    assert len(tom_seats) == len(toms) and r["num_seats"] == agents + len(toms)
    dollars = {s: 0 for s in tom_seats}
    steps = 0
    while not is_terminal(state):
        assert current_player(state) in range(agents)
        assert not r["is_tom"][r["actor"]]
        apply_action(state, rng.choice(legal_actions(state).tolist()))
        steps += 1
        for s in tom_seats:
            for t in _owned(r, s):
                assert r["tile_used"][t] == 0 and r["tile_dollar"][t] == 0
            assert r["dollars"][s] >= dollars[s]
            dollars[s] = int(r["dollars"][s])
            assert r["board_skyscrapers"][s] == 0 and r["reserve"][s].sum() == 0
    assert current_player(state) == NO_SEAT
    assert steps > 20
    for s in tom_seats:
        points, left = _expected_tom_characters([int(TILE_VALUE[t]) for t in _owned(r, s)],
                                                int(r["dollars"][s]))
        assert r["score_lines"][s, SCORE_CHARACTERS] == points
        assert r["score_lines"][s, SCORE_END_CHARACTERS] == 0
        assert r["score_lines"][s, SCORE_REST] == (left + 1) // 2


# --- setup and Phase 0 (R4, R5) ----------------------------------------------------------------
@pytest.mark.parametrize("agents, toms", [(1, ("B4",)), (1, ("B4", "A6")), (2, ("C2",)),
                                          (3, ("B4",)), (1, ("A6", "B3", "C2")), (2, ("B4", "B5"))])
def test_one_start_stack_per_participant_agents_choose_toms_take_the_rest(agents, toms):
    """R4 / rulebook: "Reveal one stack of start character tiles for each player, including Tom.
    You take 1 stack, and then Tom(s) takes the remaining stack(s)." Every revealed stack ends
    with a participant, each Tom holding one value-1 and one value-5 start tile; hidden stacks
    leave the game."""
    state = _game(toms, agents, seed=11)
    r = rec(state)
    n = agents + len(toms)
    assert r["decision"] == DEC_START_STACK
    assert list(r["start_stack_status"]) == [STACK_REVEALED] * n + [STACK_HIDDEN] * (6 - n)
    stacks = [tuple(int(x) for x in r["start_stacks"][k]) for k in range(6)]
    for _ in range(agents):  # each agent chooses the last revealed stack still open
        assert r["decision"] == DEC_START_STACK and r["actor"] < agents
        open_stacks = [k for k in range(6) if r["start_stack_status"][k] == STACK_REVEALED]
        apply_action(state, START_STACK + open_stacks[-1])
    assert r["decision"] != DEC_START_STACK
    assert list(r["start_stack_status"]) == [STACK_TAKEN] * n + [STACK_REMOVED] * (6 - n)
    owners = {}
    for k in range(n):
        low, high = stacks[k]
        assert r["tile_owner"][low] == r["tile_owner"][high] != NO_SEAT
        owners[k] = int(r["tile_owner"][low])
    assert sorted(owners.values()) == list(range(n))  # one stack for each participant
    for s in _tom_seats(r):
        assert sorted(int(TILE_VALUE[t]) for t in _owned(r, s)) == [1, 5]
        assert all(TILE_IS_START[t] for t in _owned(r, s))
    for k in range(n, 6):
        assert all(r["tile_loc"][t] == LOC_REMOVED for t in stacks[k])


def test_toms_take_the_remaining_stacks_in_press_order():
    """R4: "Toms take the remaining stacks in press order". The agent takes the middle stack;
    the Tom ahead on the Press Track (seat 2) takes first, so he gets the first remaining stack
    and the other Tom (seat 1) the last one (the engine hands out remaining stacks in order)."""
    state = _game(("B4", "A6"), 1, seed=5)
    r = rec(state)
    set_press(state, [0, 0, 0], heights=[3, 1, 2])  # seat 0, then seat 2, then seat 1
    stacks = [tuple(int(x) for x in r["start_stacks"][k]) for k in range(3)]
    apply_action(state, START_STACK + 1)
    assert {int(r["tile_owner"][t]) for t in stacks[1]} == {AGENT}
    assert {int(r["tile_owner"][t]) for t in stacks[0]} == {2}
    assert {int(r["tile_owner"][t]) for t in stacks[2]} == {1}


@pytest.mark.parametrize("agents, toms", [(1, ("B4",)), (1, ("A6", "C5")), (2, ("B4",)),
                                          (1, ("B4", "B4", "B4"))])
def test_tom_gets_no_board_goods_reserve_or_hand_but_a_skyscraper_on_x(agents, toms):
    """R5 / rulebook: "Tom receives no skyscrapers and no dollars for his player board. Tom does
    not receive 2 cards for his reserve ... Tom does not draw cards into his hand." Like every
    participant he places one skyscraper on the X borough. Agents get 4 skyscrapers, 1 dollar,
    a 2-card reserve and 3 hand cards in Phase 0."""
    state = _game(toms, agents, seed=21)
    r = rec(state)
    x = int(np.flatnonzero(r["borough_sequence"] == SEQ_X)[0])
    n = agents + len(toms)
    for seat in range(n):
        expected = np.zeros(NUM_BOROUGHS, np.int16)
        expected[x] = 1
        assert list(r["skyscrapers"][:, seat]) == list(expected)
        tom = seat >= agents
        assert bool(r["is_tom"][seat]) == tom
        assert r["board_skyscrapers"][seat] == (0 if tom else 4)
        assert r["dollars"][seat] == (0 if tom else 1)
        assert r["reserve"][seat].sum() == (0 if tom else 2)
        assert r["reserve_size"][seat] == (0 if tom else 2)
        assert r["hand"][seat].sum() == 0
    pass_until(state, lambda q: q["decision"] == DEC_PICK_PAIR)
    for seat in range(n):
        assert r["hand"][seat].sum() == (0 if seat >= agents else 3)


@pytest.mark.parametrize("agents, toms, space", [
    (1, ("B4",), 8), (1, ("B4", "C5"), 7), (2, ("A6",), 7), (1, ("B4", "A6", "C2"), 6),
    (2, ("B4", "B5"), 6), (3, ("C3",), 6)])
def test_neutral_press_token_counts_toms(agents, toms, space):
    """components.md: "Neutral press token starts on space 8 / 7 / 6 with 2 / 3 / 4 participants
    (Toms count as participants)"."""
    r = rec(_game(toms, agents, seed=2))
    assert r["press_space"][NEUTRAL] == space


# --- Phase I (R6) ----------------------------------------------------------------------------
@pytest.mark.parametrize("agents, toms, pairs", [
    (1, ("B4",), 3), (1, ("B4", "A6"), 4), (2, ("B4",), 6), (1, ("B4", "A6", "C2"), 5),
    (2, ("B4", "C4"), 7), (3, ("B4",), 8)])
def test_pairs_dealt(agents, toms, pairs):
    """R6: "Pairs dealt = 2*agents + Toms, + 1 when there are two or more agents" - rulebook:
    "Reveal 2 pairs of cards for yourself and 1 pair of cards for Tom" and "one additional pair
    of cards during phase I for each Tom participating"."""
    state = _game(toms, agents, seed=9)
    pass_until(state, lambda q: q["decision"] == DEC_PICK_PAIR)
    r = rec(state)
    assert r["num_pairs"] == pairs
    assert all(r["pairs"][p, 0] != EMPTY and r["pairs"][p, 1] != EMPTY for p in range(pairs))
    assert all(r["pairs"][p, 0] == EMPTY for p in range(pairs, r["pairs"].shape[0]))


def test_agent_takes_two_pairs_tom_the_remaining_one_then_draws_his_level():
    """Rulebook Phase I: "Select two sets of cards as usual and give Tom the remaining pair. Then
    ... Tom draws additional cards from the draw pile: For example 4 cards when playing with B4,
    so Tom starts with 6 cards in this case." Then (mode B) one more card before the press round:
    a wild he cannot play with a press card goes into his supply."""
    state = _game(("B4",), 1, seed=3)
    pass_until(state, lambda q: q["decision"] == DEC_PICK_PAIR)
    strip_characters(state)
    r = rec(state)
    r["pairs"][:3] = [[PRESS, PRESS], [DOLLARS, ELEVATOR], [PRESTIGE, PRESTIGE]]
    _set_top(r, [SKYSCRAPERS] * 4 + [WILD])
    apply_action(state, PICK_PAIR + 0)
    assert r["decision"] == DEC_PICK_PAIR and r["actor"] == AGENT  # the agent's second pair
    assert r["hand"][TOM].sum() == 0
    _apply_pick(r, AGENT, 2)
    _stage_phase1(r)  # the engine's Phase I hook: Tom's pair and draw
    assert _cards(r["hand"][TOM]) == {DOLLARS: 1, ELEVATOR: 1, SKYSCRAPERS: 4}
    assert r["hand"][TOM].sum() == 6
    assert all(r["pairs"][p, k] == EMPTY for p in range(3) for k in range(2))
    assert r["stage"] == STAGE_BID_START
    r["decision"] = DEC_NONE
    resume(state)  # B4: one card before the press round, a wild without a press card to add
    assert _cards(r["hand"][TOM]) == {DOLLARS: 1, ELEVATOR: 1, SKYSCRAPERS: 4, WILD: 1}
    assert r["played"][TOM].sum() == 0


def test_two_toms_take_the_remaining_pairs_in_press_order_and_draw_their_own_counts():
    """R6: "then each Tom, in press order, takes one remaining pair"; each Tom then draws his own
    level's count (B4: 4, C3: 3). The Tom ahead on the Press Track (seat 2, C3) takes and draws
    first."""
    state = _game(("B4", "C3"), 1, seed=4)
    pass_until(state, lambda q: q["decision"] == DEC_PICK_PAIR)
    strip_characters(state)
    r = rec(state)
    set_press(state, [0, 0, 0], heights=[3, 1, 2])
    assert r["num_pairs"] == 4
    r["pairs"][:4] = [[PRESS, PRESS], [DOLLARS, DOLLARS], [ELEVATOR, ELEVATOR], [WILD, WILD]]
    _set_top(r, [SKYSCRAPERS] * 3 + [PRESTIGE] * 4)
    apply_action(state, PICK_PAIR + 0)
    _apply_pick(r, AGENT, 3)
    _stage_phase1(r)
    assert _cards(r["hand"][2]) == {DOLLARS: 2, SKYSCRAPERS: 3}
    assert _cards(r["hand"][1]) == {ELEVATOR: 2, PRESTIGE: 4}
    assert _cards(r["hand"][AGENT])[PRESS] >= 2 and _cards(r["hand"][AGENT])[WILD] >= 2


def test_two_agents_and_a_tom_tom_takes_one_of_the_two_pairs_left_the_other_is_discarded():
    """R6 with 2 agents + 1 Tom: 6 pairs; the agents take four, Tom one of the two left, the
    last is discarded; Tom then draws his level's count (B5: 5), supply 7."""
    state = _game(("B5",), 2, seed=8)
    pass_until(state, lambda q: q["decision"] == DEC_PICK_PAIR)
    strip_characters(state)
    r = rec(state)
    assert r["num_pairs"] == 6
    r["pairs"][:6] = [[PRESS, PRESS]] * 4 + [[DOLLARS, DOLLARS], [ELEVATOR, ELEVATOR]]
    _set_top(r, [PRESTIGE] * 5)
    for _ in range(3):
        apply_action(state, PICK_PAIR + min(p for p in range(4) if r["pairs"][p, 0] != EMPTY))
    discard = r["discard"].copy()
    _apply_pick(r, int(r["actor"]), 3)
    _stage_phase1(r)
    assert _cards(r["hand"][2]) == {DOLLARS: 2, PRESTIGE: 5}
    assert list(r["discard"] - discard) == [0, 0, 2, 0, 0, 0, 0]
    assert r["hand"][0].sum() == r["hand"][1].sum() == 3 + 4


# --- Phase II: the draw before each bidding round ---------------------------------------------------
@pytest.mark.parametrize("code, draws", [("A6", 0), ("B4", 1), ("C4", 1), ("A9", 0), ("C2", 1)])
def test_draws_before_each_bidding_round_but_not_before_building_plans(code, draws):
    """Rulebook Phase II: "Before each bidding round starts, Tom draws no card from the draw pile
    when playing in mode A, one card from the draw pile when playing in mode B or C", and "'Building
    plans' bidding round: Tom skips this bidding round completely" (no draw either). Played
    through round 1 with the agent passing: only Tom draws in Phase II."""
    state = _game((code,), 1, seed=17)
    pass_until(state, lambda q: q["decision"] == DEC_PICK_PAIR)
    strip_characters(state)
    r = rec(state)
    apply_action(state, PICK_PAIR + 0)
    before = int(r["draw_count"])
    apply_action(state, PICK_PAIR + 1)  # Tom's pair, his Phase I draw, the draw before round 1
    assert r["decision"] == DEC_BID and r["bid_round"] == PRESS
    assert before - r["draw_count"] == int(code[1]) + draws
    seen = {}
    while r["round"] == 1:  # the agent passes every bidding round of round 1
        assert r["decision"] == DEC_BID
        seen.setdefault(int(r["bid_round"]), int(r["draw_count"]))
        apply_action(state, BID_DONE)
    assert sorted(seen) == [PRESS, DOLLARS, ELEVATOR, PLANS, PRESTIGE, SKYSCRAPERS]
    drawn = [seen[k - 1] - seen[k] for k in range(1, 6)]
    assert drawn == [draws, draws, 0, draws, draws]


def _draw_outcome(base, bid_round, supply, card):
    """Tom's hand, played and discard change after ``tom_draw_before_bidding`` draws ``card``."""
    state = base.copy()
    r = rec(state)
    _unplay(r, TOM)
    deal_cards(state, TOM, hand=supply)
    r["bid_round"] = bid_round
    _set_top(r, [card])
    discard = r["discard"].copy()
    count = int(r["draw_count"])
    tom_draw_before_bidding(r, TOM)
    assert r["draw_count"] == count - 1
    return _cards(r["hand"][TOM]), _cards(r["played"][TOM]), _cards(r["discard"] - discard)


@pytest.mark.parametrize("code, bid_round, supply, card, hand, played, discarded", [
    # "Tom has drawn 1 building plans card ... He can play this card immediately because he is
    # able to add a dollar card from his supply."
    ("B4", DOLLARS, {DOLLARS: 1}, PLANS, {DOLLARS: 1}, {PLANS: 1}, {}),
    ("C4", PRESTIGE, {PRESTIGE: 2}, WILD, {PRESTIGE: 2}, {WILD: 1}, {}),
    # "If Tom cannot add a card, the wild card is added to his supply."
    ("B4", PRESS, {DOLLARS: 2}, WILD, {DOLLARS: 2, WILD: 1}, {}, {}),
    ("C4", ELEVATOR, {}, PLANS, {PLANS: 1}, {}, {}),
    # "Tom plays the card immediately if it is matching the current bidding round."
    ("B4", ELEVATOR, {ELEVATOR: 1}, ELEVATOR, {ELEVATOR: 1}, {ELEVATOR: 1}, {}),
    ("C4", SKYSCRAPERS, {}, SKYSCRAPERS, {}, {SKYSCRAPERS: 1}, {}),
    # "Tom discards the card if it matches one of the previous bidding rounds of this game round."
    ("B4", PRESTIGE, {PRESTIGE: 1}, DOLLARS, {PRESTIGE: 1}, {}, {DOLLARS: 1}),
    ("C4", PRESTIGE, {}, PRESS, {}, {}, {PRESS: 1}),
    # "If the card matches one of the upcoming bidding rounds ... put it on the discard pile in
    # mode B, add it to Tom's supply in mode C."
    ("B4", DOLLARS, {}, SKYSCRAPERS, {}, {}, {SKYSCRAPERS: 1}),
    ("C4", DOLLARS, {}, SKYSCRAPERS, {SKYSCRAPERS: 1}, {}, {}),
    ("B4", PRESS, {PRESS: 1}, PRESTIGE, {PRESS: 1}, {}, {PRESTIGE: 1}),
    ("C4", PRESS, {PRESS: 1}, PRESTIGE, {PRESS: 1, PRESTIGE: 1}, {}, {}),
])
def test_the_drawn_card(code, bid_round, supply, card, hand, played, discarded):
    """Rulebook Phase II, what Tom does with the card drawn before a bidding round (see each
    case's comment)."""
    base = _at_first_bid((code,), 1, seed=6)
    assert _draw_outcome(base, bid_round, supply, card) == (hand, played, discarded)


def test_modes_b_and_c_differ_exactly_on_a_card_of_a_later_round():
    """Rulebook Phase II: the only mode difference in handling the drawn card is "If the card
    matches one of the upcoming bidding rounds ... put it on the discard pile in mode B, add it
    to Tom's supply in mode C." Every bidding round Tom draws for, every card type, with and
    without a supply card of the round, checked against the rulebook's four cases."""
    bases = {"B": _at_first_bid(("B4",), 1, seed=7), "C": _at_first_bid(("C4",), 1, seed=7)}
    for bid_round in (PRESS, DOLLARS, ELEVATOR, PRESTIGE, SKYSCRAPERS):
        for card in range(NUM_CARD_TYPES):
            for has in (False, True):
                supply = {bid_round: 1} if has else {}
                got = {m: _draw_outcome(bases[m], bid_round, supply, card) for m in "BC"}
                base_hand = dict(supply)
                if card in (WILD, PLANS):
                    where = "played" if has else "hand"
                elif card == bid_round:
                    where = "played"
                elif card < bid_round:
                    where = "discard"
                else:
                    where = {"B": "discard", "C": "hand"}
                for m in "BC":
                    w = where if isinstance(where, str) else where[m]
                    hand = dict(base_hand)
                    if w == "hand":
                        hand[card] = hand.get(card, 0) + 1
                    expected = (hand, {card: 1} if w == "played" else {},
                                {card: 1} if w == "discard" else {})
                    assert got[m] == expected, (bid_round, card, has, m)
                later = card not in (WILD, PLANS) and card > bid_round
                assert (got["B"] != got["C"]) == later, (bid_round, card, has)


@pytest.mark.parametrize("code, bid_round", [("A6", r) for r in range(6)] + [("B4", PLANS),
                                                                              ("C4", PLANS)])
def test_mode_a_never_draws_and_no_one_draws_before_building_plans(code, bid_round):
    """Rulebook: mode A draws "no card from the draw pile"; "'Building plans' bidding round: Tom
    skips this bidding round completely"."""
    state = _at_first_bid((code,), 1, seed=12)
    r = rec(state)
    deal_cards(state, TOM, hand={bid_round: 1, WILD: 1})
    _unplay(r, TOM)
    r["bid_round"] = bid_round
    count, discard = int(r["draw_count"]), r["discard"].copy()
    tom_draw_before_bidding(r, TOM)
    assert r["draw_count"] == count
    assert _cards(r["hand"][TOM]) == {bid_round: 1, WILD: 1}
    assert r["played"][TOM].sum() == 0 and list(r["discard"]) == list(discard)


# --- Phase II: Tom's bid (R21, R12) -------------------------------------------------------------
def test_tom_bidding_first_plays_every_card_of_the_round_and_no_wild():
    """R21 / rulebook: "Tom always plays all cards from his supply that are matching the current
    bidding round. He only adds wild cards if this results in him gaining the bonus" - with no
    bid made yet, no wild is needed; other cards stay in his supply."""
    state = _bidding(DOLLARS, TOM, {TOM: {DOLLARS: 3, WILD: 2, PLANS: 1, PRESS: 2}})
    r = rec(state)
    assert r["decision"] == DEC_BID and r["actor"] == AGENT
    assert r["bid_done"][TOM] == 1 and r["bid_value"][TOM] == 3
    assert _cards(r["played"][TOM]) == {DOLLARS: 3}
    assert _cards(r["hand"][TOM]) == {WILD: 2, PLANS: 1, PRESS: 2}


def test_rulebook_example_tom_ahead_plays_one_wild_to_win_the_tie():
    """Rulebook: "You have played 2 prestige cards. Tom is ahead of you on the Press Track and has
    1 prestige card only. However, he has 2 wild cards, and plays 1 of those now so he will gain
    the bonus of this bidding round." (R12: a tie goes to the one ahead in press order.)"""
    state = _bidding(PRESTIGE, AGENT, {AGENT: {PRESTIGE: 2}, TOM: {PRESTIGE: 1, WILD: 2}},
                     press=[0, 1])
    _agent_bid_then_toms(state, 2)
    r = rec(state)
    assert r["bid_value"][TOM] == 2
    assert _cards(r["played"][TOM]) == {PRESTIGE: 1, WILD: 1}
    assert _cards(r["hand"][TOM]) == {WILD: 1}
    resume(state)  # the evaluation: Tom has the bonus and moves; the agent is the runner-up
    assert r["points"][TOM] == 2 and r["points"][AGENT] == 2
    assert r["bonus_winner"] == TOM and r["runner_up"] == AGENT
    assert len([v for v in range(10) if r["vessel_owner"][v] == TOM]) == 1
    assert r["decision"] == DEC_PRESTIGE_TILE and r["actor"] == AGENT


def test_tom_behind_needs_one_more_wild_to_beat_a_tie():
    """R21: "the fewest wild cards ... that make his bid beat every bid made so far in this
    round, ties judged by press order" - behind the agent on the Press Track, a tie does not
    beat it, so Tom plays both wilds."""
    state = _bidding(PRESTIGE, AGENT, {AGENT: {PRESTIGE: 2}, TOM: {PRESTIGE: 1, WILD: 2}},
                     press=[1, 0])
    _agent_bid_then_toms(state, 2)
    r = rec(state)
    assert r["bid_value"][TOM] == 3
    assert _cards(r["played"][TOM]) == {PRESTIGE: 1, WILD: 2}
    assert r["hand"][TOM].sum() == 0


def test_tom_adds_no_wild_when_no_number_of_wilds_would_win():
    """R21: "if no number of wilds does, he adds none" - rulebook: "He only adds wild cards if
    this results in him gaining the bonus"."""
    state = _bidding(PRESTIGE, AGENT, {AGENT: {PRESTIGE: 4}, TOM: {PRESTIGE: 1, WILD: 2}},
                     press=[0, 1])
    _agent_bid_then_toms(state, 4)
    r = rec(state)
    assert r["bid_value"][TOM] == 1
    assert _cards(r["played"][TOM]) == {PRESTIGE: 1}
    assert _cards(r["hand"][TOM]) == {WILD: 2}


def test_building_plans_cards_are_wild_for_tom():
    """Rulebook: 'The "building plans" cards are always considered wild cards for Tom!' - one
    building plans card wins the tie for him like a wild."""
    state = _bidding(ELEVATOR, AGENT, {AGENT: {ELEVATOR: 2}, TOM: {ELEVATOR: 1, PLANS: 1}},
                     press=[0, 1])
    _agent_bid_then_toms(state, 2)
    r = rec(state)
    assert r["bid_value"][TOM] == 2
    assert _cards(r["played"][TOM]) == {ELEVATOR: 1, PLANS: 1}


def test_tom_without_a_card_of_the_round_passes():
    """R21: "Without a card of the round's type he passes" - rulebook: "Tom never plays 2 wild
    cards as a substitute for a missing card type except in the 'skyscraper' bidding round"; nor
    two identical cards of another type."""
    supply = {WILD: 3, PLANS: 2, DOLLARS: 2, PRESS: 2}
    state = _bidding(PRESTIGE, TOM, {TOM: supply})
    r = rec(state)
    assert r["decision"] == DEC_BID and r["actor"] == AGENT
    assert r["bid_done"][TOM] == 1 and r["bid_value"][TOM] == 0
    assert r["played"][TOM].sum() == 0
    assert _cards(r["hand"][TOM]) == supply


@pytest.mark.parametrize("tom_space, value", [(2, 3), (1, 4)])
def test_tom_beats_every_bid_made_so_far(tom_space, value):
    """R21 with two agents bidding before Tom (seat 2): agents bid 1 and 3; Tom's 1 card plus the
    fewest wilds must beat the 3, ties judged by press order: ahead of agent 1 he needs 2 wilds,
    behind it 3."""
    hands = {0: {DOLLARS: 1}, 1: {DOLLARS: 3}, 2: {DOLLARS: 1, WILD: 4}}
    state = _bidding(DOLLARS, 0, hands, toms=("A6",), agents=2, press=[0, 1, tom_space])
    _agent_bid(state, 1)
    _agent_bid_then_toms(state, 3)
    r = rec(state)
    assert r["bid_value"][2] == value
    assert _cards(r["played"][2]) == {DOLLARS: 1, WILD: value - 1}
    resume(state)
    assert r["dollars"][2] == value + 1  # his bid, +1 for the highest-bid bonus


def test_bids_after_tom_do_not_count():
    """R21: Tom beats "every bid made so far" - in bidding order 1, Tom, 0, only agent 1's bid is
    made when Tom bids; agent 0 bids after him."""
    hands = {0: {DOLLARS: 5}, 1: {DOLLARS: 1}, 2: {DOLLARS: 1, WILD: 3}}
    state = _bidding(DOLLARS, 1, hands, toms=("A6",), agents=2, press=[0, 2, 1])
    r = rec(state)
    _agent_bid(state, 1)
    assert r["actor"] == 0 and r["bid_done"][2] == 1
    assert r["bid_value"][2] == 2
    assert _cards(r["played"][2]) == {DOLLARS: 1, WILD: 1}


def test_tom_skips_the_building_plans_round():
    """Rulebook: "'Building plans' bidding round: Tom skips this bidding round completely." - no
    draw (mode B), no bid, his building plans stay in his supply, no skyscrapers for his board."""
    counts = []  # the draw pile just before the bidding round starts
    state = _bidding(PLANS, TOM, {AGENT: {PLANS: 1}, TOM: {PLANS: 3, WILD: 1}}, toms=("B4",),
                     seed=13, setup=lambda st: counts.append(int(rec(st)["draw_count"])))
    r = rec(state)
    assert r["draw_count"] == counts[0]
    assert r["actor"] == AGENT and r["bid_value"][TOM] == 0 and r["bid_done"][TOM] == 1
    assert _cards(r["hand"][TOM]) == {PLANS: 3, WILD: 1} and r["played"][TOM].sum() == 0
    _agent_bid(state, 1)
    assert r["board_skyscrapers"][TOM] == 0
    assert r["board_skyscrapers"][AGENT] == 4 + 2


# --- the skyscraper round (R21, R22) ------------------------------------------------------------------
@pytest.mark.parametrize("supply, value, left, discarded", [
    ({SKYSCRAPERS: 2, WILD: 1, PLANS: 1, PRESS: 1}, 4, {PRESS: 1}, 0),
    ({SKYSCRAPERS: 1, WILD: 3}, 4, {}, 0),  # all of it, not just what would win
    ({WILD: 4}, 3, {}, 0),  # "Tom may use 4 wild cards as 3 skyscrapers."
    ({WILD: 2, PLANS: 1}, 2, {}, 0),
    ({WILD: 1, PLANS: 1}, 1, {}, 0),
    ({WILD: 1}, 0, {}, 1),  # "If Tom has only 1 wild card ... put the card on the discard pile."
    ({PLANS: 1, DOLLARS: 2}, 0, {DOLLARS: 2}, 1),
])
def test_skyscraper_round_tom_plays_everything(supply, value, left, discarded):
    """Rulebook: "Tom plays all his remaining cards. In case he has no 'skyscraper' card but
    several wild cards/'building plans,' then he plays 2 wild cards as 1 skyscraper card and may
    add further wild cards. If Tom has only 1 wild card/'building plans' for this last bidding
    round, put the card on the discard pile. Tom's skyscrapers are taken from the general supply
    and built in the current borough." The agent passes, so Tom builds his bid + 1."""
    before = {}
    state = _bidding(SKYSCRAPERS, TOM, {TOM: supply},
                     setup=lambda st: before.update(discard=rec(st)["discard"].copy()))
    r = rec(state)
    mayor = int(r["mayor"])
    r["skyscrapers"][mayor, TOM] = 0
    gone = r["discard"] - before["discard"]
    assert int(gone[WILD] + gone[PLANS]) == discarded
    assert r["actor"] == AGENT and r["bid_done"][TOM] == 1
    assert r["bid_value"][TOM] == value
    # Nothing that counts stays in his supply (where cards of other types go is left open).
    assert {t: n for t, n in _cards(r["hand"][TOM]).items() if t in (SKYSCRAPERS, WILD, PLANS)} == {}
    assert all(r["hand"][TOM, t] + r["played"][TOM, t] == n for t, n in left.items())
    counted = sum(n for t, n in supply.items() if t in (SKYSCRAPERS, WILD, PLANS))
    assert int(sum(r["played"][TOM, t] for t in (SKYSCRAPERS, WILD, PLANS))) == (
        counted if value else 0)
    _agent_bid(state, 0)
    assert r["skyscrapers"][mayor, TOM] == (value + 1 if value else 0)
    assert r["board_skyscrapers"][TOM] == 0


def test_tom_never_has_more_than_five_skyscrapers_in_a_borough():
    """Rulebook: "Tom may never exceed his maximum of 5 skyscrapers in a borough - any surplus
    skyscrapers of his are omitted." Tom has 3 in the Mayor's borough and builds 4 + 1."""
    state = _bidding(SKYSCRAPERS, TOM, {TOM: {SKYSCRAPERS: 4}})
    r = rec(state)
    mayor = int(r["mayor"])
    r["skyscrapers"][mayor, TOM] = 3
    _agent_bid(state, 0)
    assert r["skyscrapers"][mayor, TOM] == 5
    r["skyscrapers"][MANHATTAN, TOM] = 4
    tom_build(r, TOM, MANHATTAN, 3)
    assert r["skyscrapers"][MANHATTAN, TOM] == 5
    tom_build(r, TOM, MANHATTAN, 1)
    assert r["skyscrapers"][MANHATTAN, TOM] == 5


# --- the dollar and elevator rounds (R14, R22) -------------------------------------------------------
def test_rulebook_example_drawn_building_plans_joins_the_dollar_bid_and_tom_keeps_the_dollars():
    """Rulebook: "Tom has drawn 1 building plans card from the draw pile. He can play this card
    immediately because he is able to add a dollar card from his supply." and "Tom collects the
    dollars on his characters for final scoring only." (B4, Tom bids first; the agent passes.)"""
    state = _bidding(DOLLARS, TOM, {TOM: {DOLLARS: 1}}, toms=("B4",), top=[PLANS])
    r = rec(state)
    assert r["actor"] == AGENT
    assert r["bid_value"][TOM] == 2
    assert _cards(r["played"][TOM]) == {DOLLARS: 1, PLANS: 1}
    assert r["hand"][TOM].sum() == 0
    _agent_bid(state, 0)
    assert r["dollars"][TOM] == 3


def _row_state(seed=15):
    state = _at_first_bid(("A6",), 1, seed=seed)
    return state, rec(state)


def test_elevator_tom_takes_the_leftmost_tile_of_his_value_row_which_closes_up():
    """R14: "Tom takes the leftmost tile of the row whose value equals his bid value (+1 with the
    bonus ...); the row closes up and refills on the right" - rulebook: "Tom takes the leftmost
    matching character from the display. Move the remaining cards to the left and refill the
    display." Tom bids 2 elevator cards, the agent passes: value 3."""
    state = _bidding(ELEVATOR, TOM, {TOM: {ELEVATOR: 2}})
    r = rec(state)
    row = r["elevator_display"][2].copy()
    n = int(r["elevator_count"][2])
    next_tile = int(r["elevator_stack"][2, n - 1])
    _agent_bid(state, 0)
    assert _owned(r, TOM) == [int(row[0])]
    assert list(r["elevator_display"][2]) == [int(row[1]), int(row[2]), int(row[3]), next_tile]
    assert r["elevator_count"][2] == n - 1
    assert r["tile_loc"][next_tile] == LOC_DISPLAY


def test_elevator_value_capped_at_five_and_falls_back_to_lower_rows():
    """R14: "(+1 with the bonus, capped at 5), falling back to the next lower row when that row
    is empty"."""
    state, r = _row_state()
    top5 = int(r["elevator_display"][4, 0])
    tom_take_elevator(r, TOM, 6)
    assert _owned(r, TOM) == [top5]
    for t in r["elevator_display"][2]:  # empty the value-3 row and its stack
        r["tile_loc"][t] = LOC_REMOVED
    r["elevator_display"][2] = EMPTY
    r["elevator_count"][2] = 0
    top2 = int(r["elevator_display"][1, 0])
    tom_take_elevator(r, TOM, 3)
    assert sorted(_owned(r, TOM)) == sorted([top5, top2])
    assert TILE_VALUE[top2] == 2


def test_elevator_row_with_an_empty_stack_closes_up_and_leaves_the_right_end_empty():
    """R14: "the row closes up and refills on the right" - with that value's stack empty nothing
    refills."""
    state, r = _row_state()
    r["elevator_count"][1] = 0
    row = [int(t) for t in r["elevator_display"][1]]
    tom_take_elevator(r, TOM, 2)
    assert _owned(r, TOM) == [row[0]]
    assert list(r["elevator_display"][1]) == [row[1], row[2], row[3], EMPTY]
    tom_take_elevator(r, TOM, 2)
    assert list(r["elevator_display"][1]) == [row[2], row[3], EMPTY, EMPTY]


def test_elevator_tom_takes_a_value_five_tile_after_an_agent_took_the_first_one():
    """R14: Tom takes "the leftmost tile of the row whose value equals his bid value", falling
    back only "when that row is empty". The value-5 stack is used up; the agent, ahead on the
    Press Track, takes the first tile of the value-5 row (its slot stays empty: nothing refills
    it); the row still shows three value-5 tiles, so Tom (bid 6, capped at 5) must get the
    leftmost of them, not a value-4 tile."""
    state = _bidding(ELEVATOR, AGENT, {AGENT: {ELEVATOR: 5}, TOM: {ELEVATOR: 6}}, press=[1, 0])
    r = rec(state)
    for i in range(int(r["elevator_count"][ELEVATOR_ROW_5])):
        r["tile_loc"][r["elevator_stack"][ELEVATOR_ROW_5, i]] = LOC_REMOVED
    r["elevator_stack"][ELEVATOR_ROW_5] = EMPTY
    r["elevator_count"][ELEVATOR_ROW_5] = 0
    row = [int(t) for t in r["elevator_display"][ELEVATOR_ROW_5]]
    _agent_bid(state, 5)
    assert r["bid_value"][TOM] == 6 and r["decision"] == DEC_ELEVATOR and r["actor"] == AGENT
    apply_action(state, ELEVATOR_TAKE + ELEVATOR_ROW_5 * ELEVATOR_COLUMNS + 0)
    assert _owned(r, AGENT) == [row[0]]
    assert _owned(r, TOM) == [row[1]], "Tom should take the leftmost value-5 tile"
    assert list(r["elevator_display"][ELEVATOR_ROW_5]) == [row[2], row[3], EMPTY, EMPTY]


def test_elevator_row_with_a_gap_closes_up_to_the_left():
    """Rulebook: "Tom takes the leftmost matching character from the display. Move the remaining
    cards to the left and refill the display." With the value-2 stack used up and a gap in the
    row (an agent took its second tile), Tom takes the first tile and the two left move to the
    left end of the row, so the next Tom still finds them (R14: falling back only "when that row
    is empty")."""
    state, r = _row_state()
    for i in range(int(r["elevator_count"][1])):
        r["tile_loc"][r["elevator_stack"][1, i]] = LOC_REMOVED
    r["elevator_stack"][1] = EMPTY
    r["elevator_count"][1] = 0
    row = [int(t) for t in r["elevator_display"][1]]
    r["tile_loc"][row[1]] = LOC_REMOVED
    r["elevator_display"][1, 1] = EMPTY
    tom_take_elevator(r, TOM, 2)
    assert _owned(r, TOM) == [row[0]]
    assert list(r["elevator_display"][1]) == [row[2], row[3], EMPTY, EMPTY]


# --- the prestige round (R23) -----------------------------------------------------------------
def _prestige_position(sequence, revealed, tom_sky=None, taken=()):
    """A constructed position for Tom's prestige move: borough letters ``sequence`` (a dict
    borough -> letter, 0=A..5=X), revealed tiles, Tom's skyscrapers (default: one in X) and
    vessels already taken by the agent."""
    state = _at_first_bid(("A6",), 1, seed=16)
    r = rec(state)
    for b, letter in sequence.items():
        r["borough_sequence"][b] = letter
    assert sorted(int(x) for x in r["borough_sequence"]) == list(range(6))
    r["skyscrapers"][:, TOM] = 0
    if tom_sky is None:
        tom_sky = {b: 1 for b, letter in sequence.items() if letter == SEQ_X}
    for b, n in tom_sky.items():
        r["skyscrapers"][b, TOM] = n
    for tile in r["prestige_revealed"]:
        if tile != EMPTY:
            r["prestige_loc"][tile] = PRESTIGE_REMOVED
    for k, tile in enumerate(revealed):
        r["prestige_revealed"][k] = tile
        r["prestige_loc"][tile] = PRESTIGE_REVEALED
    r["vessel_owner"][:] = VESSEL_ON_BOARD
    for v in taken:
        r["vessel_owner"][v] = AGENT
    r["borough_prestige"][:] = 0
    return state, r


# The rulebook example's board: yellow and brown tiles reach B, C, D, X; D (Manhattan) is joined
# by both taxis and one subway; the taxi to X is taken. Staten Island (E) is not reachable.
EXAMPLE = {MANHATTAN: SEQ_D, BRONX: SEQ_X, QUEENS: SEQ_C, BROOKLYN: SEQ_B, STATEN_ISLAND: SEQ_E,
           JERSEY_CITY: SEQ_A}


def _placed(r):
    """(tile, borough) of every prestige tile on the board, the vessels Tom owns, the boroughs
    where Tom has skyscrapers."""
    tiles = {int(t): int(r["prestige_loc"][t]) for t in range(10) if r["prestige_loc"][t] >= 0}
    vessels = [v for v in range(10) if r["vessel_owner"][v] == TOM]
    return tiles, vessels, {b: int(r["skyscrapers"][b, TOM]) for b in range(6) if r["skyscrapers"][b, TOM]}


def test_rulebook_example_prestige_move():
    """Rulebook: "1. Only consider those boroughs that Tom can reach by using the vessels (taxi and
    subway) depicted on the prestige tiles (yellow and brown) and that are still available on the
    game board. (B, C, D, X) 2. ... the fewest of Tom's skyscrapers. (B, C, D) 3. ... the highest
    letter. (D) 4. If more than 1 vessel (both taxis and 1 subway) is connected to that borough:
    Choose the one connecting to the borough with the highest letter ('X' is always considered
    the highest)." - "Place the yellow prestige tile on borough D. Remove the yellow taxi from the
    game board and place it next to Tom's player board. Then, Tom builds 1 skyscraper from the
    general supply in this borough." E (Staten Island) would win steps 2 and 3 but is not
    reachable."""
    state, r = _prestige_position(EXAMPLE, [BROWN_3, YELLOW_4])
    base = int(r["borough_base"][MANHATTAN])
    tom_prestige_move(r, TOM)
    assert _placed(r) == ({YELLOW_4: MANHATTAN}, [TAXI_MANHATTAN_BRONX], {MANHATTAN: 1, BRONX: 1})
    assert r["borough_prestige"][MANHATTAN] == 4
    assert r["borough_base"][MANHATTAN] == base
    assert list(r["prestige_revealed"]) == [BROWN_3, EMPTY]
    assert r["board_skyscrapers"][TOM] == 0


def test_prestige_step1_only_vessels_still_on_the_board():
    """R23 step 1: "boroughs joined by a vessel of a revealed tile's colour still on the board".
    Both taxis and the Manhattan-Brooklyn subway are gone: only the Bronx-Queens subway is left,
    so Manhattan (D) is out; Queens (C) has fewer of Tom's skyscrapers than Bronx (X)."""
    state, r = _prestige_position(EXAMPLE, [YELLOW_4, BROWN_3],
                                  taken=(TAXI_MANHATTAN_BRONX, TAXI_MANHATTAN_QUEENS,
                                         SUBWAY_MANHATTAN_BROOKLYN))
    tom_prestige_move(r, TOM)
    assert _placed(r) == ({BROWN_3: QUEENS}, [SUBWAY_BRONX_QUEENS], {QUEENS: 1, BRONX: 1})
    assert list(r["prestige_revealed"]) == [YELLOW_4, EMPTY]


def test_prestige_step2_fewest_of_toms_skyscrapers_then_step4_x_is_highest():
    """R23 step 2: with one of Tom's skyscrapers in Manhattan (D) too, B (Brooklyn) and C
    (Queens) have the fewest; step 3: C. Step 4: Queens is joined by the taxi to Manhattan (D)
    and the subway to Bronx (X): "X is always considered the highest" - the subway, so the brown
    tile."""
    state, r = _prestige_position(EXAMPLE, [YELLOW_4, BROWN_3], tom_sky={BRONX: 1, MANHATTAN: 1})
    tom_prestige_move(r, TOM)
    assert _placed(r) == ({BROWN_3: QUEENS}, [SUBWAY_BRONX_QUEENS],
                          {QUEENS: 1, BRONX: 1, MANHATTAN: 1})
    assert r["borough_prestige"][QUEENS] == 3


def test_prestige_step3_highest_letter_not_borough_index():
    """R23 step 3: "highest letter orders boroughs by their sequence tile". The letters of the
    example moved: Queens D, Manhattan C, Bronx B, Brooklyn X (Tom's skyscraper there). Among
    B, C, D the highest is D = Queens; its vessels lead to Manhattan (C, taxi) and Bronx (B,
    subway): the taxi, so the yellow tile."""
    seq = {QUEENS: SEQ_D, MANHATTAN: SEQ_C, BRONX: SEQ_B, BROOKLYN: SEQ_X, STATEN_ISLAND: SEQ_E,
           JERSEY_CITY: SEQ_A}
    state, r = _prestige_position(seq, [YELLOW_4, BROWN_3])
    tom_prestige_move(r, TOM)
    assert _placed(r) == ({YELLOW_4: QUEENS}, [TAXI_MANHATTAN_QUEENS], {QUEENS: 1, BROOKLYN: 1})


def test_prestige_step4_vessel_decides_the_tile_colour():
    """R23 step 4 with Brooklyn as X: Manhattan (D) is chosen; of its vessels - taxi to Bronx (B),
    taxi to Queens (C), subway to Brooklyn (X) - the subway leads to the highest letter, so Tom
    takes the brown tile."""
    seq = {MANHATTAN: SEQ_D, BROOKLYN: SEQ_X, QUEENS: SEQ_C, BRONX: SEQ_B, STATEN_ISLAND: SEQ_E,
           JERSEY_CITY: SEQ_A}
    state, r = _prestige_position(seq, [YELLOW_4, BROWN_3])
    tom_prestige_move(r, TOM)
    assert _placed(r) == ({BROWN_3: MANHATTAN}, [SUBWAY_MANHATTAN_BROOKLYN],
                          {MANHATTAN: 1, BROOKLYN: 1})
    assert list(r["prestige_revealed"]) == [YELLOW_4, EMPTY]


@pytest.mark.parametrize("revealed", [[YELLOW_2, YELLOW_4], [YELLOW_4, YELLOW_2],
                                      [BROWN_4, BROWN_3], [BROWN_3, BROWN_4]])
def test_prestige_two_tiles_of_one_colour_tom_takes_the_higher(revealed):
    """Rulebook: "Important: If there are 2 prestige tiles of the same color give Tom that one with
    the higher value." """
    state, r = _prestige_position(EXAMPLE, revealed)
    tom_prestige_move(r, TOM)
    high = max(revealed, key=lambda t: PRESTIGE_TILE_VALUE[t])
    low = min(revealed, key=lambda t: PRESTIGE_TILE_VALUE[t])
    tiles, _, _ = _placed(r)
    assert list(tiles) == [high]
    assert r["borough_prestige"][tiles[high]] == 4
    assert low in list(r["prestige_revealed"]) and high not in list(r["prestige_revealed"])


def test_prestige_tile_placed_but_no_sixth_skyscraper():
    """R22: "at most 5 of his in any borough, surplus ones are not built" - Tom still places the
    tile and takes the vessel. With 5 everywhere, step 2 ties every reachable borough, step 3
    picks X (Bronx), step 4 the taxi to D (Manhattan) over the subway to C (Queens)."""
    state, r = _prestige_position(EXAMPLE, [BROWN_3, YELLOW_4], tom_sky={b: 5 for b in range(6)})
    tom_prestige_move(r, TOM)
    tiles, vessels, sky = _placed(r)
    assert tiles == {YELLOW_4: BRONX} and vessels == [TAXI_MANHATTAN_BRONX]
    assert sky == {b: 5 for b in range(6)}
    assert r["borough_prestige"][BRONX] == 4


def test_prestige_round_in_play_tom_as_runner_up_moves_with_the_remaining_tile():
    """Rulebook prestige: "there is a bonus for the second highest bid as well! ... The runner-up
    performs the same procedure with the remaining tile." R22: Tom "takes part in the highest-bid
    bonus ... like anyone". The agent bids 3 and places the yellow tile on the Bronx with the
    Manhattan-Bronx taxi; Tom (1 card, no wild can win) is runner-up: only the brown tile is
    left, reaching Bronx (X, his skyscraper), Queens (C), Manhattan (D), Brooklyn (B): Manhattan,
    with the subway to Brooklyn."""
    def setup(st):
        q = rec(st)
        for b, letter in EXAMPLE.items():
            q["borough_sequence"][b] = letter
        q["skyscrapers"][:, TOM] = 0
        q["skyscrapers"][BRONX, TOM] = 1
        for tile in q["prestige_revealed"]:
            q["prestige_loc"][tile] = PRESTIGE_REMOVED
        q["prestige_revealed"][:] = [BROWN_3, YELLOW_4]
        q["prestige_loc"][[BROWN_3, YELLOW_4]] = PRESTIGE_REVEALED
        q["borough_prestige"][:] = 0

    state = _bidding(PRESTIGE, AGENT, {AGENT: {PRESTIGE: 3}, TOM: {PRESTIGE: 1, WILD: 1}},
                     press=[1, 0], setup=setup)
    r = rec(state)
    _agent_bid(state, 3)
    assert r["bonus_winner"] == AGENT and r["runner_up"] == TOM
    assert r["decision"] == DEC_PRESTIGE_TILE and r["actor"] == AGENT
    assert _cards(r["played"][TOM]) == {PRESTIGE: 1}
    apply_action(state, PRESTIGE_TILE + 1)
    apply_action(state, PRESTIGE_VESSEL + TAXI_MANHATTAN_BRONX)
    apply_action(state, PRESTIGE_BOROUGH + BRONX)
    assert r["points"][TOM] == 1 and r["points"][AGENT] == 3
    assert r["prestige_loc"][YELLOW_4] == BRONX and r["prestige_loc"][BROWN_3] == MANHATTAN
    assert [v for v in range(10) if r["vessel_owner"][v] == TOM] == [SUBWAY_MANHATTAN_BROOKLYN]
    assert r["skyscrapers"][MANHATTAN, TOM] == 1 and r["skyscrapers"][BRONX, TOM] == 1


def test_prestige_round_in_play_tom_wins_the_bonus_and_moves():
    """Rulebook "'Prestige' bidding round: If Tom gains a highest bid bonus: Determine Tom's move
    ..." - played: Tom bids 2 prestige cards, the agent passes; Tom gains 2 points, places the
    yellow tile on D (Manhattan) with the taxi to X and builds there."""
    state = _bidding(PRESTIGE, TOM, {TOM: {PRESTIGE: 2}})
    r = rec(state)
    for b, letter in EXAMPLE.items():
        r["borough_sequence"][b] = letter
    r["skyscrapers"][:, TOM] = 0
    r["skyscrapers"][BRONX, TOM] = 1
    for tile in r["prestige_revealed"]:
        r["prestige_loc"][tile] = PRESTIGE_REMOVED
    r["prestige_revealed"][:] = [BROWN_3, YELLOW_4]
    r["prestige_loc"][[BROWN_3, YELLOW_4]] = PRESTIGE_REVEALED
    r["borough_prestige"][:] = 0
    _agent_bid(state, 0)
    assert r["points"][TOM] == 2
    assert _placed(r) == ({YELLOW_4: MANHATTAN}, [TAXI_MANHATTAN_BRONX], {MANHATTAN: 1, BRONX: 1})
    assert r["borough_prestige"][MANHATTAN] == 4


# --- final scoring (R24) -------------------------------------------------------------------------
def _scoring_position(characters, dollars, seed=18):
    state = _at_first_bid(("A6",), 1, seed=seed)
    r = rec(state)
    tiles = [give_character(state, TOM, c) for c in characters]
    r["dollars"][TOM] = dollars
    return state, r, tiles


def test_rulebook_example_tom_characters_1_1_1_4_with_5_dollars_score_8():
    """Rulebook: "Tom has characters with the value of 1+1+1+4. The first character is worth twice
    its value. Tom gains 8 points." (5 dollars: one on each, the fifth on the first.)"""
    state, r, tiles = _scoring_position([19, 12, 23, 24], 5)  # values 4, 1, 1, 1
    assert sorted(int(TILE_VALUE[t]) for t in tiles) == [1, 1, 1, 4]
    assert tuple(int(x) for x in tom_character_points(r, TOM)) == (8, 0)
    final_scoring(r)
    assert r["score_lines"][TOM, SCORE_CHARACTERS] == 8
    assert r["score_lines"][TOM, SCORE_REST] == 0


@pytest.mark.parametrize("dollars, points, left", [
    (0, 7, 0), (3, 7, 0), (4, 7, 0), (5, 8, 0), (6, 9, 0), (7, 10, 0), (8, 14, 0), (11, 14, 3)])
def test_tom_dollars_dealt_over_characters_sorted_by_value(dollars, points, left):
    """R24: "sort his characters by value ascending, deal his dollars one per character left to
    right, then a second round, at most two each; a character with two dollars scores double
    its value"; "If Tom has any dollars left, they are scored as extras" (the rest line: dollars
    / 2 rounded up). The tiles are given in an order that is not by value."""
    state, r, _ = _scoring_position([19, 12, 23, 24], dollars)
    assert tuple(int(x) for x in tom_character_points(r, TOM)) == (points, left)
    final_scoring(r)
    assert r["score_lines"][TOM, SCORE_CHARACTERS] == points
    assert r["score_lines"][TOM, SCORE_REST] == (left + 1) // 2


def test_tom_without_characters_scores_his_dollars_in_the_rest_line():
    """R24: leftover dollars count in the last scoring line (dollars / 2 rounded up)."""
    state, r, _ = _scoring_position([], 5)
    assert tuple(int(x) for x in tom_character_points(r, TOM)) == (0, 5)
    final_scoring(r)
    assert r["score_lines"][TOM, SCORE_CHARACTERS] == 0
    assert r["score_lines"][TOM, SCORE_REST] == 3


def test_end_game_characters_give_tom_only_their_value():
    """Rulebook: "Tom does not gain any additional points for characters with the symbol"; R24:
    "end-game abilities (28-42) give Tom nothing". Tom holds 36 (1 point per character), 35
    (2 per borough with 3 skyscrapers) and 40 (vessel + 2 dollars) with what they would score;
    the same tiles score for the agent."""
    chars = [36, 35, 40]
    state, r, tiles = _scoring_position(chars, 2)
    clear_skyscrapers(state, neutral=2)
    r["skyscrapers"][MANHATTAN, TOM] = 3
    r["vessel_owner"][TAXI_MANHATTAN_BRONX] = TOM
    final_scoring(r)
    assert r["score_lines"][TOM, SCORE_END_CHARACTERS] == 0
    assert r["score_lines"][TOM, SCORE_CHARACTERS] == 2 + 4 + 4  # two dollars: no double yet
    assert r["score_lines"][TOM, SCORE_REST] == 0
    # The same position with the seats' roles swapped: the agent scores the abilities.
    for t in tiles:
        r["tile_owner"][t] = AGENT
    r["skyscrapers"][MANHATTAN, AGENT] = 3
    r["vessel_owner"][TAXI_MANHATTAN_BRONX] = AGENT
    r["dollars"][AGENT] = 2
    final_scoring(r)
    assert r["score_lines"][AGENT, SCORE_END_CHARACTERS] > 0


def test_tom_scores_majorities_press_and_borough_bonus_like_everyone():
    """R24: "Everything else as for everyone" - rulebook: "Tom scores the borough and press bonus,
    and all other scoring, just as a player in a multiplayer game would." Tom is in all six
    boroughs (bonus 3), on press space 5 (bonus 3), first in Manhattan (full value) and second
    behind the neutral player elsewhere (half, rounded up)."""
    state, r, _ = _scoring_position([], 0)
    clear_skyscrapers(state, neutral=2)
    r["skyscrapers"][:, TOM] = 1
    r["skyscrapers"][MANHATTAN, TOM] = 3
    r["borough_base"][:] = [6, 7, 8, 8, 9, 10]
    r["borough_prestige"][:] = [3, 0, 0, 0, 0, 0]
    set_press(state, [0, 5])
    final_scoring(r)
    lines = r["score_lines"][TOM]
    assert lines[SCORE_BOROUGH + MANHATTAN] == 9
    assert [int(lines[SCORE_BOROUGH + b]) for b in range(1, 6)] == [4, 4, 4, 5, 5]
    assert lines[SCORE_BOROUGH_BONUS] == 3
    assert lines[SCORE_PRESS_BONUS] == 3
    assert r["score_lines"][AGENT, SCORE_BOROUGH_BONUS] == 0


# --- Tom never uses characters --------------------------------------------------------------------
def test_character_21_gives_tom_nothing():
    """Rulebook: "Tom is not allowed to put one dollar on his characters ... and thus may not use
    them" - 21 ("When building a skyscraper with the actions 'Prestige' or 'Skyscraper,' you take
    1 skyscraper from the general supply") needs no dollar, yet Tom still builds only his bid
    + 1 in the skyscraper round and 1 in the prestige round."""
    state = _bidding(SKYSCRAPERS, TOM, {TOM: {SKYSCRAPERS: 2}},
                     setup=lambda st: (give_character(st, TOM, 21),
                                       give_character(st, TOM, 21, start=True)))
    r = rec(state)
    assert [TILE_CHARACTER[t] for t in _owned(r, TOM)] == [21, 21]
    mayor = int(r["mayor"])
    r["skyscrapers"][mayor, TOM] = 0
    _agent_bid(state, 0)
    assert r["skyscrapers"][mayor, TOM] == 3
    state, r = _prestige_position(EXAMPLE, [BROWN_3, YELLOW_4])
    give_character(state, TOM, 21)
    tom_prestige_move(r, TOM)
    assert r["skyscrapers"][MANHATTAN, TOM] == 1


def test_tom_with_phase_ii_characters_and_dollars_bids_his_cards_only():
    """Rulebook: Tom "may not use" his characters - with dollars and 13, 14, 16, 17, 19, 20 (which
    raise a bid or double prestige points) his prestige bid is his cards and his points the bid;
    no tile is marked used, no dollar placed or spent."""
    tiles = []

    def setup(st):
        tiles.extend(give_character(st, TOM, c) for c in (13, 14, 16, 17, 19, 20))
        rec(st)["dollars"][TOM] = 6

    state = _bidding(PRESTIGE, TOM, {TOM: {PRESTIGE: 1}}, setup=setup)
    r = rec(state)
    assert r["actor"] == AGENT and r["bid_value"][TOM] == 1
    _agent_bid(state, 0)
    assert r["points"][TOM] == 1
    assert r["dollars"][TOM] == 6
    assert all(r["tile_used"][t] == 0 and r["tile_dollar"][t] == 0 for t in tiles)
