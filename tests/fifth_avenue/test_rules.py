"""5th Avenue's rules engine (``fifth_avenue/rules.py``): invariants over random games for 2, 3
and 4 players, and the text's worked examples as scenarios."""

from functools import cache

import numpy as np
import pytest

from tiny_york_env.games.fifth_avenue import data as F
from tiny_york_env.games.fifth_avenue import engine as E
from tiny_york_env.games.fifth_avenue import legal as L
from tiny_york_env.games.fifth_avenue import rules as R
from tiny_york_env.games.fifth_avenue import scoring as SC
from tiny_york_env.games.fifth_avenue import setup as S
from tiny_york_env.games.fifth_avenue.actions import (
    BUILDING_STOP,
    NUM_ACTIONS,
    OPTION_B,
    PLACE_BUSINESS,
    TAKE_SPACE,
)
from tiny_york_env.games.fifth_avenue.state import (
    ALEA_ROW,
    BLACK,
    DEC_BUILD,
    DEC_BUSINESS_PLOT,
    DEC_GAME_OVER,
    DEC_OPTION,
    NO_BUSINESS,
    NO_PLAYER,
    STATE_DTYPE,
)

GAMES = 12
MAX_DECISIONS = 20_000


def new_game(players, seed):
    states = np.zeros(1, STATE_DTYPE)
    S.init_game(states[0], players, players, seed, np.empty(S.NUM_BUSINESSES, np.int64))
    return states


def legal(st):
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    L.fill_legal_mask(st, mask)
    return np.flatnonzero(mask)


def check_conservation(st):
    """Every card, skyscraper and business in exactly one place."""
    n = int(st["num_players"])
    for c in range(F.NUM_CARD_COLOURS):
        counts = (np.bincount(st["coloured_stack"][c, :st["coloured_count"][c]], minlength=3)
                  + st["hand"][:, c].sum(axis=0) + st["bid_cards"][:, c].sum(axis=0))
        assert counts.tolist() == list(F.COLOURED_PER_VALUE)
    black = (np.bincount(st["black_stack"][:st["black_count"]], minlength=3)
             + np.bincount(st["black_returned"][:st["black_returned_count"]], minlength=3)
             + np.bincount(st["alea_cards"][:st["alea_card_count"]], minlength=3)
             + st["hand"][:, BLACK].sum(axis=0) + st["bid_cards"][:, BLACK].sum(axis=0))
    assert black.tolist() == list(F.BLACK_PER_VALUE)
    for row in [*range(n), *([ALEA_ROW] if st["has_alea"] else [])]:
        on_board = int(st["plot_skyscrapers"][st["plot_owner"] == row].sum())
        to_place = sum(1 for k in range(int(st["placing_step"]), 2 * n) if S.placing_seat(0, n, k) == row)
        total = (on_board + st["general"][row] + st["supply"][row] + st["park_skyscrapers"][row]
                 + st["skyscrapers_removed"][row] + to_place
                 + (F.START_SCORING_MARKER if row != ALEA_ROW else 0))
        assert total == F.SKYSCRAPERS_PER_COLOUR, row
    tiles = (int((st["plot_business"] != NO_BUSINESS).sum()) + int((st["supply_row"] != NO_BUSINESS).sum())
             + st["park_business_count"] + st["unused_business"].sum() + st["businesses_removed"]
             + (st["held_business"] != NO_BUSINESS and st["decision"] == DEC_BUSINESS_PLOT))
    assert tiles == F.NUM_BUSINESS_TYPES * F.BUSINESSES_PER_TYPE
    # one plot per district for each player; skyscrapers never share a plot with a business
    for seat in range(n):
        for d in range(F.NUM_DISTRICTS):
            assert int(((F.PLOT_DISTRICT == d) & (st["plot_owner"] == seat)).sum()) <= 1
    owned = st["plot_owner"] != NO_PLAYER
    assert ((st["plot_business"][owned] == NO_BUSINESS).all() and (st["plot_skyscrapers"][owned] > 0).all())


@cache
def random_games(players):
    """(final record, decisions) of GAMES random games, checked at every decision."""
    out = []
    for seed in range(GAMES):
        states = new_game(players, seed)
        st = states[0]
        rng = np.random.default_rng(seed)
        decisions = 0
        while st["decision"] != DEC_GAME_OVER:
            actions = legal(st)
            assert actions.size, f"no legal action (decision {int(st['decision'])})"
            check_conservation(st)
            R.apply_unchecked(st, int(rng.choice(actions)))
            decisions += 1
            assert decisions < MAX_DECISIONS
        check_conservation(st)
        out.append((states.copy(), decisions))
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_with_everything_accounted_for(players):
    games = random_games(players)
    for states, decisions in games:
        st = states[0]
        assert st["winner_mask"] != 0 and legal(st).size == 0
        assert st["businesses_placed"] == 12 or st["building_stops"] == F.BUILDING_STOPS_TO_END
        assert decisions > 2 * players
    assert any(states[0]["building_stops"] for states, _ in games) or players > 2


def test_illegal_actions_are_refused_and_change_nothing():
    states = new_game(3, 1)
    st = states[0]
    rng = np.random.default_rng(1)
    for _ in range(150):
        actions = set(legal(st).tolist())
        before = states.copy()
        for a in (-1, NUM_ACTIONS, *[x for x in range(NUM_ACTIONS) if x not in actions][:5]):
            assert E.apply(st, a) == E.ILLEGAL and states.tobytes() == before.tobytes()
        assert E.apply(st, int(rng.choice(sorted(actions)))) == 0


def test_the_same_seed_plays_the_same_game():
    a, b = new_game(4, 9), new_game(4, 9)
    rng_a, rng_b = np.random.default_rng(3), np.random.default_rng(3)
    for _ in range(300):
        if a[0]["decision"] == DEC_GAME_OVER:
            break
        R.apply_unchecked(a[0], int(rng_a.choice(legal(a[0]))))
        R.apply_unchecked(b[0], int(rng_b.choice(legal(b[0]))))
        assert a.tobytes() == b.tobytes()


# --- the text's examples -------------------------------------------------------------------------
def blank_board(players=3):
    """A game at a player's option, with the board cleared of businesses and skyscrapers."""
    states = new_game(players, 0)
    st = states[0]
    st["plot_business"][:] = NO_BUSINESS
    st["plot_owner"][:] = NO_PLAYER
    st["plot_skyscrapers"][:] = 0
    st["decision"], st["actor"] = DEC_OPTION, 0
    return states


def put(st, district, colour, owner=None, skyscrapers=0, businesses=()):
    p = F.plot_index(district, colour)
    if owner is not None:
        st["plot_owner"][p], st["plot_skyscrapers"][p] = owner, skyscrapers
    for k, t in enumerate(businesses):
        st["plot_business"][p, k] = t
    return p


def ring(district):
    return [int(c) for c in F.PLOT_COLOUR_ORDER[district]]


def test_scoring_by_adjacent_business_types():
    """'0 adjacent business types: 1 VP ... 4: 8 VP'; several of one type count once."""
    states = blank_board()
    st = states[0]
    d = F.TIMES_SQUARE
    colours = ring(d)
    sky = put(st, d, colours[0], owner=1, skyscrapers=2)
    assert SC.plot_value(st, sky) == 1
    put(st, d, colours[1], businesses=(0, 0))  # two boutiques: one type
    assert SC.plot_value(st, sky) == 2
    put(st, d, colours[4], businesses=(1, 2))
    assert SC.plot_value(st, sky) == 5  # 3 types
    st["plot_business"][F.plot_index(d, colours[1]), 1] = 3
    assert SC.plot_value(st, sky) == 8 and SC.district_points(st, 1, d) == 16
    put(st, d, colours[2], businesses=(0, 1))  # not adjacent to the skyscraper's plot
    assert SC.plot_value(st, sky) == 8


def test_building_stop_fig_10():
    """'Red earns 4 VP, Yellow earns 5/2 = 2 VP, and Blue earns 6/2 = 3 VP' (the declarer 1 VP
    per skyscraper in the district, the others half a normal scoring, rounded down)."""
    states = blank_board()
    st = states[0]
    red, yellow, blue = 0, 1, 2
    d = F.D52E
    colours = ring(d)
    put(st, d, colours[0], owner=yellow, skyscrapers=1)  # 5 VP: 3 types around it
    put(st, d, colours[1], businesses=(0, 1))
    put(st, d, colours[4], businesses=(2,))
    put(st, d, colours[2], owner=blue, skyscrapers=2)  # 2 x 3 VP: 2 types around it
    put(st, d, colours[3], owner=red, skyscrapers=1)
    assert SC.district_points(st, yellow, d) == 5 and SC.district_points(st, blue, d) == 6
    before = st["score"].copy()
    R.building_stop(st, d, red)
    assert (st["score"] - before)[:3].tolist() == [4, 2, 3]
    assert st["stopped"][d] and st["plot_skyscrapers"][F.PLOT_DISTRICT == d].sum() == 0
    assert st["skyscrapers_removed"][blue] == 2 and st["businesses_removed"] == 3


def test_central_park_scores_two_three_or_five():
    """'turn over three of these ... lowest is 2 and the highest is 5'."""
    for types, points in ((1, 2), (2, 3), (3, 5)):
        states = blank_board()
        st = states[0]
        st["park_business"][:3] = [0, 1, 2][:types] + [0] * (3 - types)
        st["park_business_count"] = 3
        st["park_skyscrapers"][1] = 2
        st["score"][:] = 0
        SC.end_game(st)
        assert st["score"][1] == 2 * points


def test_a_set_sends_its_last_business_below_central_park():
    """fig. 05: from a set of three the second taken puts the last below Central Park; the 3rd
    business placed brings the special scoring of 4 VP for skyscrapers in 3 districts."""
    states = blank_board()
    st = states[0]
    for d in (0, 1, 2):
        put(st, d, ring(d)[0], owner=1, skyscrapers=1)
    for k in range(3):  # sets 1 and 2: three businesses onto plots
        if st["decision"] == DEC_OPTION:
            R.apply_unchecked(st, OPTION_B)
        space = int(legal(st)[0] - TAKE_SPACE)
        R.apply_unchecked(st, TAKE_SPACE + space)
        plot = int(legal(st)[0] - PLACE_BUSINESS)
        R.apply_unchecked(st, PLACE_BUSINESS + plot)
        st["decision"], st["actor"] = DEC_OPTION, 0
        if k == 1:
            assert st["park_business_count"] == 1 and (st["supply_row"][:3] == NO_BUSINESS).all()
    assert st["park_business_count"] == 2 and st["businesses_placed"] == 3
    assert st["score"][1] == 4 and st["score"][0] == 0 and st["score"][2] == 0


def test_alea_builds_on_each_most_valuable_empty_plot_fig_13():
    states = blank_board(2)
    st = states[0]
    d = F.D42W
    colours = ring(d)
    put(st, d, colours[0], businesses=(0, 1))  # both neighbours, 1 and 4, see 2 types: 3 VP
    put(st, d, colours[2], owner=0, skyscrapers=1)
    R.alea_builds(st, d)
    alea = np.flatnonzero(st["plot_owner"] == ALEA_ROW)
    assert sorted(alea.tolist()) == sorted([F.plot_index(d, colours[1]), F.plot_index(d, colours[4])])
    assert st["general"][ALEA_ROW] == F.SKYSCRAPERS_PER_COLOUR - 2
    # a full district: Alea's win is a building stop, scored for the real players by half
    put(st, d, colours[3], businesses=(3,))
    assert R.district_is_full(st, d)
    R.alea_builds(st, d)
    assert st["stopped"][d] and st["building_stops"] == 1


def test_alea_bids_between_8_and_21():
    totals = set()
    for seed in range(200):
        states = new_game(2, seed)
        st = states[0]
        st["alea_card_count"] = 0
        R.alea_bids(st)
        cards = st["alea_cards"][:st["alea_card_count"]]
        assert len(set(cards[:-1].tolist())) == len(cards) - 1 and cards[-1] in cards[:-1]
        totals.add(int(st["bid_total"][ALEA_ROW]))
    assert min(totals) == 8 and max(totals) <= 21 and len(totals) > 5


def test_only_the_winner_of_a_full_district_without_a_plot_must_stop():
    states = blank_board()
    st = states[0]
    st["decision"], st["actor"] = DEC_BUILD, 1
    st["auction_places"][0], st["auction_count"], st["auction_at"] = F.D34E, 2, 0
    st["district_full"], st["build_plot"], st["build_limit"] = 1, F.plot_index(F.D34E, 0), 2
    assert legal(st).tolist() == [BUILDING_STOP]


def test_the_text_view_shows_only_the_seats_own_hand():
    from tiny_york_env.games.fifth_avenue.text import render_text
    states, _ = random_games(3)[0]
    mine = render_text(states[0:1].reshape(()), seat=1)
    assert mine.count("hand: ") == 1 and "seat 1 (yellow)" in mine and "winner: seat " in mine
    assert render_text(states[0:1].reshape(())).count("hand: ") == 3  # a replay: every hand


# --- the observation -----------------------------------------------------------------------------
def all_states(players, games=3):
    """Every record of a few random games (with auctions in progress among them)."""
    out = []
    for seed in range(games):
        states = new_game(players, 100 + seed)
        st = states[0]
        rng = np.random.default_rng(seed)
        while st["decision"] != DEC_GAME_OVER:
            out.append(states.copy())
            R.apply_unchecked(st, int(rng.choice(legal(st))))
        out.append(states.copy())
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_observations_are_in_their_space_and_name_the_decision(players):
    from tiny_york_env.games.fifth_avenue.observation import OBS_SIZE, OBS_SLICES, encode, observation_space
    space = observation_space()
    bids = 0
    for states in all_states(players)[::3]:
        for seat in range(players):
            obs = encode(states, seat)
            assert obs.shape == (OBS_SIZE,) and space.contains(obs)
            assert obs[OBS_SLICES["decision"]].sum() == 1.0
            bids += obs[OBS_SLICES["auction_place"]].sum() > 0
    assert bids > 0  # auctions were seen


def test_the_observation_hides_other_hands_the_black_order_and_the_unused_businesses():
    from tiny_york_env.games.fifth_avenue.observation import encode
    rng = np.random.default_rng(0)
    checked = 0
    for states in all_states(3, games=2)[::5]:
        for seat in range(3):
            seen = encode(states, seat)
            other = states.copy()
            o = other[0]
            rng.shuffle(o["black_stack"][:o["black_count"]])
            o["unused_business"][:] = np.roll(o["unused_business"], 1)
            for s in range(3):
                if s != seat:  # another hand: the same sizes, other values
                    for c in range(F.NUM_CARD_COLOURS + 1):
                        total = int(o["hand"][s, c].sum())
                        o["hand"][s, c] = [total, 0, 0]
            assert np.array_equal(encode(other, seat), seen)
            mine = states.copy()
            if mine[0]["hand"][seat].sum():
                c, v = np.argwhere(mine[0]["hand"][seat] > 0)[0]
                mine[0]["hand"][seat, c, v] -= 1
                mine[0]["hand"][seat, c, (v + 1) % 3] += 1
                assert not np.array_equal(encode(mine, seat), seen)  # its own hand is seen
                checked += 1
    assert checked > 10


def test_determinize_keeps_the_seats_view_and_deals_the_hidden_again():
    from tiny_york_env.games.fifth_avenue.determinize import determinize
    from tiny_york_env.games.fifth_avenue.observation import encode
    rng = np.random.default_rng(7)
    changed = 0
    for states in all_states(3, games=2)[::7]:
        for seat in range(3):
            view = determinize(states.reshape(()), seat, rng).reshape(1)
            check_conservation(view[0])
            assert np.array_equal(encode(view, seat), encode(states, seat))
            assert (view[0]["hand"][seat] == states[0]["hand"][seat]).all()
            assert (view[0]["hand"].sum(axis=2) == states[0]["hand"].sum(axis=2)).all()  # counts kept
            changed += view.tobytes() != states.tobytes()
    assert changed > 10
    with pytest.raises(ValueError, match="seat must be a seat"):
        determinize(states.reshape(()), 3, rng)


# --- the engine verbs and the engine's bots ---------------------------------------------------------
def test_the_verbs_play_a_whole_game_against_random_bots():
    from tiny_york_env.games.fifth_avenue import api
    from tiny_york_env.games.fifth_avenue.config import GameConfig
    for players, bots in ((2, ()), (3, ("random",)), (4, ("random", "random"))):
        config = GameConfig(num_players=players, bots=bots)
        state = api.new_game(config, seed=players)
        rng = np.random.default_rng(players)
        seen = set()
        while not api.is_terminal(state):
            seat = api.current_player(state)
            assert 0 <= seat < config.num_agents  # the bots never wait for a decision
            seen.add(seat)
            before = state.copy()
            nxt = api.step(state, int(rng.choice(api.legal_actions(state))))
            assert state.tobytes() == before.tobytes()  # step is pure
            state = nxt
        assert seen == set(range(config.num_agents))
        assert len(api.final_scores(state)) == players and api.winners(state)
        assert sorted(api.placings(state))[0] == 0 or len(api.winners(state)) > 1
    with pytest.raises(ValueError, match="illegal action .* for seat 0, whose pending decision is"):
        api.apply_action(api.new_game(GameConfig(3), seed=1), NUM_ACTIONS - 1)
    with pytest.raises(ValueError, match="leave no agent seat"):
        GameConfig(num_players=2, bots=("random", "random"))
    with pytest.raises(ValueError, match="num_players must be an int from 2 to 4"):
        GameConfig(num_players=5)


def test_the_contract_record_drives_the_batched_env():
    """The game contract's record works with the project's written-once SB3 VecEnv: a batch of
    one agent against a random bot plays games to their ends, rewards at the end only."""
    pytest.importorskip("stable_baselines3", reason="the train extra")
    from tiny_york_env.envs.vector import GameVecEnv
    from tiny_york_env.games.fifth_avenue.config import GameConfig
    from tiny_york_env.games.fifth_avenue.contract import fifth_avenue_game
    game = fifth_avenue_game()
    env = GameVecEnv(8, game=game, config=GameConfig(num_players=3, bots=("random", "random")),
                     seed=0, illegal_action="raise")
    obs = env.reset()
    assert obs.shape == (8, game.obs_size)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(4000):
        masks = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        obs, rewards, dones, infos = env.step(actions)
        assert game.observation_space().contains(obs[0])
        assert (rewards[~dones] == 0).all() and set(rewards[dones]).issubset({1.0, -0.5, 0.25, -1.0, 0.0})
        ended += int(dones.sum())
    assert ended > 8


def test_the_bots_moves_are_logged_for_people():
    """What the engine's bots did since the last outside decision (the terminal, the replay and
    the golden playthroughs print it); the log stays far below its capacity."""
    from tiny_york_env.games.fifth_avenue import api
    from tiny_york_env.games.fifth_avenue.config import GameConfig
    from tiny_york_env.games.fifth_avenue.contract import fifth_avenue_game
    from tiny_york_env.games.fifth_avenue.state import BOT_MOVE_CAPACITY
    game = fifth_avenue_game()
    most, seen = 0, 0
    for seed in range(6):
        state = api.new_game(GameConfig(num_players=4, bots=("random", "random", "random")), seed=seed)
        rng = np.random.default_rng(seed)
        while not api.is_terminal(state):
            api.apply_action(state, int(rng.choice(api.legal_actions(state))))
            moves = game.automatic_moves(state)
            assert all(seat in (1, 2, 3) and words for seat, words in moves)
            most, seen = max(most, int(state["bot_move_count"])), seen + len(moves)
    assert seen > 100 and most <= BOT_MOVE_CAPACITY // 2


def test_option_b_needs_a_plot_that_can_take_a_business():
    """B is "place a business ... on any empty building plot or any building plot that has but
    one business": with every plot built on or holding two businesses it is not offered."""
    from tiny_york_env.games.fifth_avenue import actions as A
    from tiny_york_env.games.fifth_avenue import api
    from tiny_york_env.games.fifth_avenue import state as ST
    state = api.new_game(seed=5)
    rec = state.reshape(1)[0]
    while rec["decision"] != ST.DEC_OPTION:
        api.apply_action(state, int(api.legal_actions(state)[0]))
    assert api.legal_mask(state)[A.OPTION_B]
    free = [p for p in range(F.NUM_PLOTS) if rec["plot_owner"][p] == ST.NO_PLAYER]
    for p in free:
        if rec["plot_business"][p, 0] == ST.NO_BUSINESS:
            rec["plot_owner"][p], rec["plot_skyscrapers"][p] = ST.ALEA_ROW, 1
        else:
            rec["plot_business"][p, 1] = 0
    assert not R.any_business_plot(rec)
    assert not api.legal_mask(state)[A.OPTION_B] and api.legal_mask(state)[A.OPTION_C]


def test_the_game_ends_after_the_turn_limit_with_the_final_scoring():
    """Not in the text (docs/fifth-avenue.md, "a turn limit"): the turn ending at TURN_LIMIT
    ends the game, each district scored once and Central Park, a winner named."""
    from tiny_york_env.games.fifth_avenue import api
    from tiny_york_env.games.fifth_avenue import state as ST
    state = api.new_game(seed=6)
    rec = state.reshape(1)[0]
    while rec["decision"] != ST.DEC_OPTION:
        api.apply_action(state, int(api.legal_actions(state)[0]))
    rec["turn"] = F.TURN_LIMIT - 1
    while not api.is_terminal(state):
        assert rec["turn"] == F.TURN_LIMIT - 1
        api.apply_action(state, int(api.legal_actions(state)[-1]))
    assert rec["turn"] == F.TURN_LIMIT and api.winners(state) and api.final_scores(state).sum() > 0
