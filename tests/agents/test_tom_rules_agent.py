"""``TomRulesAgent``: legal and reproducible in every configuration, Tom's rules (R14, R21, R23)
followed move for move against the engine's own Tom, and stronger than random play."""

from collections import Counter

import numpy as np
import pytest

from tests.tiny_york.scenario import bidding_round, deal_cards, give_character, rec, resume, set_press
from tiny_york_env.agents.base import choose_action
from tiny_york_env.agents.random_agent import RandomAgent
from tiny_york_env.games.tiny_york import (
    GameConfig,
    apply_action,
    current_player,
    final_scores,
    is_terminal,
    legal_mask,
    new_game,
    winner,
)
from tiny_york_env.games.tiny_york.actions import (
    BID_CARD,
    BID_DONE,
    BID_WILD,
    ELEVATOR_TAKE,
    END_TURN,
    EXCHANGE,
    PRESTIGE_BOROUGH,
    PRESTIGE_TILE,
    PRESTIGE_VESSEL,
    USE_CHARACTER,
)
from tiny_york_env.games.tiny_york.bots import tom_bid, tom_prestige_move, tom_take_elevator
from tiny_york_env.games.tiny_york.components import (
    DOLLARS,
    ELEVATOR_COLUMNS,
    NUM_ACTIVE_CHARACTERS,
    NUM_BOROUGHS,
    NUM_VESSELS,
    PLANS,
    PRESS,
    PRESTIGE,
    PRESTIGE_TILE_COLOUR,
    PRESTIGE_TILE_VALUE,
    VESSEL_COLOUR,
    WILD,
)
from tiny_york_env.games.tiny_york.legal import action_value
from tiny_york_env.games.tiny_york.state import (
    DEC_BID,
    DEC_DECLARE_BID_LAST,
    DEC_ELEVATOR,
    DEC_NONE,
    DEC_PHASE3,
    DEC_PRESTIGE_TILE,
    PRESTIGE_IN_STACK,
    PRESTIGE_REVEALED,
    STAGE_BID_START,
    VESSEL_ON_BOARD,
)
from tiny_york_env.games.tiny_york.tom_rules import TomRulesAgent

CONFIGS = [GameConfig(2), GameConfig(3), GameConfig(4), GameConfig(1, toms=(5,)),
           GameConfig(2, toms=(1,)), GameConfig(3, toms=("C5",))]
GAMES_PER_CONFIG = 3
MIN_DECISIONS = 250  # a few hundred decisions per configuration
STRENGTH_GAMES = 40
STRENGTH_THRESHOLD = 0.75  # the bar against RandomAgent


def mixed_seats(config, seed):
    """TomRulesAgent on even seats, RandomAgent on odd ones (one agent: TomRulesAgent)."""
    return [TomRulesAgent(seed + k) if k % 2 == 0 else RandomAgent(seed + k)
            for k in range(config.num_agents)]


def play(config, seed, agents, on_decision=None):
    """Play one game; every action is checked legal; returns (state, actions)."""
    state = new_game(config, seed=seed)
    rng = np.random.default_rng(seed)
    actions = []
    while not is_terminal(state):
        seat = current_player(state)
        if on_decision is not None and isinstance(agents[seat], TomRulesAgent):
            on_decision(state, seat, agents[seat])
        action = choose_action(agents[seat], state, rng)
        assert legal_mask(state)[action], f"seat {seat} chose illegal action {action}"
        actions.append(action)
        apply_action(state, action)
    return state, actions


def agent_bid_value(state, seat, agent):
    """The value of the bid the agent builds from ``state`` (a copy), read before BID_DONE."""
    state = state.copy()
    rng = np.random.default_rng(0)
    while True:
        action = choose_action(agent, state, rng)
        if action == BID_DONE:
            return int(rec(state)["bid_value"][seat])
        apply_action(state, action)


def check_bid_like_tom(state, seat, agent):
    """At the start of a bid (no plans cards in hand: they are wild for Tom only), the agent's
    whole bid has the value the engine's Tom would bid (R21)."""
    r = rec(state)
    if r["decision"] != DEC_BID or r["played"][seat].sum() or r["bid_round"] == PLANS:
        return
    ours = state.copy()
    hand = {t: int(n) for t, n in enumerate(rec(ours)["hand"][seat]) if t != PLANS}
    deal_cards(ours, seat, hand=hand)  # plans back to the draw pile: every card still counted
    toms = ours.copy()
    tom_bid(rec(toms), seat)
    assert agent_bid_value(ours, seat, agent) == rec(toms)["bid_value"][seat]


def check_elevator_like_tom(state, seat, agent):
    """R14: the agent takes the tile the engine's Tom would take with the same value."""
    r = rec(state)
    if r["decision"] != DEC_ELEVATOR:
        return
    toms = state.copy()
    tr = rec(toms)
    owned_before = set(np.flatnonzero(tr["tile_owner"] == seat))
    tom_take_elevator(tr, seat, action_value(tr, seat))
    (taken,) = set(np.flatnonzero(tr["tile_owner"] == seat)) - owned_before
    slot = choose_action(agent, state, np.random.default_rng(0)) - ELEVATOR_TAKE
    assert r["elevator_display"][slot // ELEVATOR_COLUMNS, slot % ELEVATOR_COLUMNS] == taken


def placement(before, after, seat):
    """(prestige tile, vessel, borough) that ``seat`` placed between two records."""
    vessel = next(v for v in range(NUM_VESSELS)
                  if before["vessel_owner"][v] == VESSEL_ON_BOARD and after["vessel_owner"][v] == seat)
    tile = next(t for t in before["prestige_revealed"] if t >= 0 and after["prestige_loc"][t] >= 0
                and PRESTIGE_TILE_COLOUR[t] == VESSEL_COLOUR[vessel])
    return int(tile), vessel, int(after["prestige_loc"][tile])


def check_prestige_like_tom(state, seat, agent):
    """R23: tile, vessel and borough are those of the engine's Tom in the same position."""
    if rec(state)["decision"] != DEC_PRESTIGE_TILE:
        return
    toms = state.copy()
    tom_prestige_move(rec(toms), seat)
    ours = state.copy()
    rng = np.random.default_rng(0)
    for block in (PRESTIGE_TILE, PRESTIGE_VESSEL, PRESTIGE_BOROUGH):
        action = choose_action(agent, ours, rng)
        assert action >= block, "Tom never forfeits a prestige tile"
        apply_action(ours, action)
    assert placement(rec(state), rec(ours), seat) == placement(rec(state), rec(toms), seat)


def check_never_pays(state, seat, agent):
    """No exchanges and no paid characters; END_TURN in Phase III."""
    action = choose_action(agent, state.copy(), np.random.default_rng(0))
    assert not EXCHANGE <= action < BID_CARD
    if rec(state)["decision"] in (DEC_PHASE3, DEC_DECLARE_BID_LAST):
        assert action == END_TURN
    if USE_CHARACTER <= action < USE_CHARACTER + NUM_ACTIVE_CHARACTERS:
        assert action == USE_CHARACTER + 3, "only the free character 4 is used"


def check_all(state, seat, agent):
    """Every rule check above."""
    for check in (check_bid_like_tom, check_elevator_like_tom, check_prestige_like_tom,
                  check_never_pays):
        check(state, seat, agent)


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_legal_and_by_toms_rules_in_every_configuration(config):
    """Whole games, 2-4 agents, with and without Toms: every action legal, and every bid,
    elevator pick and prestige move the engine's Tom would make in the same position."""
    decisions, checked = 0, Counter()

    def check_and_count(state, seat, agent):
        checked[int(rec(state)["decision"])] += 1
        check_all(state, seat, agent)

    for seed in range(GAMES_PER_CONFIG):
        state, actions = play(config, seed, mixed_seats(config, seed), check_and_count)
        decisions += len(actions)
        assert len(final_scores(state)) == config.num_participants
    assert decisions >= MIN_DECISIONS
    assert checked[DEC_BID] and checked[DEC_ELEVATOR] and checked[DEC_PRESTIGE_TILE]


def test_reproducible_with_a_seed():
    """The same seeds give the same game, action for action."""
    config = GameConfig(3, toms=(2,))
    _, first = play(config, 5, [TomRulesAgent(1), TomRulesAgent(2), TomRulesAgent(3)])
    _, second = play(config, 5, [TomRulesAgent(1), TomRulesAgent(2), TomRulesAgent(3)])
    assert first == second


def test_act_without_the_engine_view_is_a_clear_error():
    """act() cannot play Tom's rules from an observation: it names choose_action."""
    with pytest.raises(ValueError, match="choose_action"):
        TomRulesAgent(0).act(np.zeros(10, np.float32), np.ones(264, bool))


def test_act_state_rejects_a_seat_not_to_move():
    """act_state for a seat that is not deciding is a ValueError naming the seat to move."""
    state = new_game(GameConfig(2), seed=1)
    other = 1 - current_player(state)
    with pytest.raises(ValueError, match="not the seat to move"):
        TomRulesAgent(0).act_state(state.copy(), other)


def bid_after_a_rival(rival_value, agent_ahead, hand):
    """Press round: seat 1 bids ``rival_value`` press cards first; seat 0 holds ``hand`` and
    is ahead on the press track or not. Returns the agent's bid, part by part."""
    state = bidding_round(2, PRESS, seed=3, start_seat=1)
    set_press(state, [4, 4], heights=[2, 1] if agent_ahead else [1, 2])
    deal_cards(state, 1, hand={PRESS: rival_value})
    for _ in range(rival_value):
        apply_action(state, BID_CARD)
    apply_action(state, BID_DONE)
    deal_cards(state, 0, hand=hand)
    agent, rng, parts = TomRulesAgent(0), np.random.default_rng(0), []
    while not parts or parts[-1] != BID_DONE:
        assert current_player(state) == 0
        parts.append(choose_action(agent, state, rng))
        if parts[-1] != BID_DONE:
            apply_action(state, parts[-1])
    return parts


@pytest.mark.parametrize("rival_value, agent_ahead, wilds", [
    (3, False, 2),  # 2 press + 2 wilds = 4 beats 3
    (3, True, 1),  # ahead on the press track, 3 ties 3 and wins the tie
    (6, False, 0),  # 2 + 3 wilds cannot reach 6: no wild is added
    (1, False, 0),  # 2 press cards already beat 1
])
def test_bid_plays_all_round_cards_then_the_fewest_wilds_that_lead(rival_value, agent_ahead, wilds):
    """R21 / rulebook example: all cards of the round's type, then only the wilds needed to beat
    every bid so far (ties by press order); the dollars card is never touched."""
    parts = bid_after_a_rival(rival_value, agent_ahead, {PRESS: 2, WILD: 3, DOLLARS: 1})
    assert parts == [BID_CARD, BID_CARD] + [BID_WILD] * wilds + [BID_DONE]


def test_without_a_card_of_the_round_it_passes():
    """R21: "Without a card of the round's type he passes" - wilds are not played alone."""
    assert bid_after_a_rival(1, False, {WILD: 3, DOLLARS: 2}) == [BID_DONE]


ONE_COLOUR_TILES = [(0, 1), (1, 0), (6, 7), (7, 6)]  # yellow 2 and 4, brown 3 and 4 (components.md)


@pytest.mark.parametrize("revealed", ONE_COLOUR_TILES)
def test_prestige_tile_of_one_colour_the_higher_value(revealed):
    """R23 / solo rules: "If there are 2 prestige tiles of the same color give Tom that one with
    the higher value." The position is written into the record: the prestige round of round 1
    with two revealed tiles of one colour (either slot order); seat 0 bids 2 prestige cards,
    seat 1 one. Played through choose_action: the bonus winner takes and places the higher tile,
    the runner-up the lower one."""
    state = bidding_round(2, PRESTIGE, seed=3, start_seat=0)
    r = rec(state)
    assert PRESTIGE_TILE_COLOUR[revealed[0]] == PRESTIGE_TILE_COLOUR[revealed[1]]
    high, low = sorted(revealed, key=lambda t: -PRESTIGE_TILE_VALUE[t])
    assert PRESTIGE_TILE_VALUE[high] > PRESTIGE_TILE_VALUE[low]
    rest = [t for t in range(len(r["prestige_loc"])) if t not in revealed]
    r["prestige_stack"][:] = list(revealed) + rest
    r["prestige_next"] = len(revealed)
    r["prestige_loc"][:] = PRESTIGE_IN_STACK
    r["prestige_loc"][list(revealed)] = PRESTIGE_REVEALED
    r["prestige_revealed"][:] = revealed
    deal_cards(state, 0, hand={PRESTIGE: 2})
    deal_cards(state, 1, hand={PRESTIGE: 1})
    for seat, cards in ((0, 2), (1, 1)):
        assert current_player(state) == seat
        for _ in range(cards):
            apply_action(state, BID_CARD)
        apply_action(state, BID_DONE)
    agents, rng = [TomRulesAgent(0), TomRulesAgent(1)], np.random.default_rng(0)
    for seat, tile in ((0, high), (1, low)):
        assert r["decision"] == DEC_PRESTIGE_TILE and current_player(state) == seat
        slot = int(np.flatnonzero(r["prestige_revealed"] == tile)[0])
        action = choose_action(agents[seat], state, rng)
        assert action == PRESTIGE_TILE + slot
        while current_player(state) == seat and r["decision"] != DEC_BID:
            apply_action(state, action)
            action = choose_action(agents[seat], state, rng)
        assert 0 <= r["prestige_loc"][tile] < NUM_BOROUGHS, "the tile is placed in a borough"
    assert r["decision"] == DEC_BID and r["bid_round"] == PRESTIGE + 1


def test_beats_random_play():
    """2-agent games, seats alternated: TomRulesAgent wins at least 75% against RandomAgent."""
    wins = 0
    for game in range(STRENGTH_GAMES):
        seat = game % 2
        agents = [TomRulesAgent(game), RandomAgent(game)]
        if seat:
            agents.reverse()
        state, _ = play(GameConfig(2), 100 + game, agents)
        wins += winner(state) == seat
    assert wins / STRENGTH_GAMES >= STRENGTH_THRESHOLD


def test_declines_character_18():
    """Solo rules: Tom never pays for an ability; at 18's declaration before the bids (R11) the
    agent answers END_TURN."""
    state = bidding_round(2, DOLLARS, seed=1, start_seat=0)
    give_character(state, 0, 18)
    r = rec(state)
    r["dollars"][0] = 2
    deal_cards(state, 0, hand={DOLLARS: 2})
    r["stage"] = STAGE_BID_START
    r["decision"] = DEC_NONE
    resume(state)
    assert r["decision"] == DEC_DECLARE_BID_LAST and r["actor"] == 0
    assert legal_mask(state)[USE_CHARACTER + 18 - 1]
    assert choose_action(TomRulesAgent(0), state, np.random.default_rng(0)) == END_TURN
