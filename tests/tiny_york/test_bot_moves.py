"""The Tom log (``bot_moves.py``): what the engine did for the Toms since the last action,
checked against what changed in the record, public only, bounded, validated."""

from functools import cache

import numpy as np
import pytest

from tiny_york_env.games.tiny_york import (
    GameConfig,
    apply_action,
    is_terminal,
    legal_actions,
    new_game,
    validate_state,
)
from tiny_york_env.games.tiny_york import bot_moves as E
from tiny_york_env.games.tiny_york import state as S
from tiny_york_env.games.tiny_york import validate as V
from tiny_york_env.games.tiny_york.components import NUM_BOROUGHS

CONFIGS = (GameConfig(num_agents=1, toms=(5,)), GameConfig(num_agents=1, toms=("A2", "B5", "C9")),
           GameConfig(num_agents=2, toms=(12, 7)), GameConfig(num_agents=3, toms=(3,)))
GAMES_PER_CONFIG = 12


def _rows(rec):
    return rec["tom_events"][:min(int(rec["tom_event_count"]), E.TOM_EVENT_CAPACITY)]


@cache
def _games():
    """(config, [(state before, state after)] for each decision) of random games."""
    out = []
    for c, config in enumerate(CONFIGS):
        for g in range(GAMES_PER_CONFIG):
            rng = np.random.default_rng(1000 * c + g)
            state = new_game(config, seed=1000 * c + g)
            steps = []
            while not is_terminal(state):
                before = state.copy()
                apply_action(state, int(rng.choice(legal_actions(state))))
                steps.append((before, state.copy()))
            out.append((config, steps))
    return out


def _steps():
    for config, steps in _games():
        for before, after in steps:
            yield config, before[()], after[()]


def test_a_new_game_starts_with_an_empty_log():
    for config in CONFIGS:
        rec = new_game(config, seed=0)[()]
        assert rec["tom_event_count"] == 0 and not rec["tom_events"].any()


def test_every_kind_happens_and_has_words():
    seen = set()
    for _, _, after in _steps():
        for row in _rows(after):
            seen.add(int(row[E.EV_KIND]))
            assert E.describe_tom_event(row)
    assert seen == set(range(1, E.NUM_TOM_EVENT_KINDS))


def test_the_log_stays_far_below_its_capacity():
    most = max(int(after["tom_event_count"]) for _, _, after in _steps())
    assert 0 < most <= E.TOM_EVENT_CAPACITY // 2


def test_games_without_toms_log_nothing():
    rng = np.random.default_rng(5)
    state = new_game(GameConfig(num_agents=3), seed=5)
    while not is_terminal(state):
        apply_action(state, int(rng.choice(legal_actions(state))))
        assert state["tom_event_count"] == 0


def test_builds_are_exactly_what_the_toms_skyscrapers_gained():
    """R22/R23: a Tom's skyscrapers change only when he builds, and each build is logged."""
    for config, before, after in _steps():
        built = np.zeros((NUM_BOROUGHS, 4), np.int64)
        for row in _rows(after):
            if row[E.EV_KIND] == E.TOM_BUILD:
                built[row[E.EV_A], row[E.EV_SEAT]] += row[E.EV_C]
        for tom in range(config.num_agents, int(after["num_seats"])):
            gained = after["skyscrapers"][:, tom].astype(np.int64) - before["skyscrapers"][:, tom]
            assert (gained == built[:, tom]).all()


def test_characters_logged_are_the_tiles_the_toms_gained():
    for config, before, after in _steps():
        logged = set()
        for row in _rows(after):
            if row[E.EV_KIND] == E.TOM_CHARACTER:
                logged.add((int(row[E.EV_SEAT]), int(row[E.EV_A])))
            elif row[E.EV_KIND] == E.TOM_START_STACK:
                logged |= {(int(row[E.EV_SEAT]), int(row[E.EV_B])),
                           (int(row[E.EV_SEAT]), int(row[E.EV_C]))}
        gained = {(int(after["tile_owner"][t]), t) for t in range(after["tile_loc"].size)
                  if after["tile_loc"][t] == S.LOC_OWNED and before["tile_loc"][t] != S.LOC_OWNED
                  and after["tile_owner"][t] >= config.num_agents}
        assert logged == gained


def test_bids_and_prestige_match_the_record():
    for _, _, after in _steps():
        for row in _rows(after):
            seat = int(row[E.EV_SEAT])
            if row[E.EV_KIND] == E.TOM_PRESTIGE:
                assert after["vessel_owner"][row[E.EV_C]] == seat
                assert after["prestige_loc"][row[E.EV_A]] == row[E.EV_B]
            if row[E.EV_KIND] == E.TOM_BID and after["stage"] == S.STAGE_BIDDING:
                if after["bid_round"] == row[E.EV_B]:  # the bidding round still runs
                    assert after["bid_value"][seat] == row[E.EV_A]


def test_only_public_facts_are_logged():
    """R25: a card Tom keeps face down is never logged by type; the drawn cards after his pair
    only as a number."""
    for _, _, after in _steps():
        for row in _rows(after):
            if row[E.EV_KIND] == E.TOM_DRAW and row[E.EV_B] in (E.DRAW_KEPT, E.DRAW_NONE_LEFT):
                assert row[E.EV_A] == E.NOTHING
                assert "kept" in E.describe_tom_event(row) or "no card" in E.describe_tom_event(row)


def test_every_logged_state_is_valid():
    for _, _, after in list(_steps())[::7]:
        validate_state(np.array(after))


def test_the_words_name_what_happened():
    row = np.array([E.TOM_BUILD, 1, 2, 3, 2], np.int8)
    assert E.describe_tom_event(row) == "built 2 skyscrapers in Queens (1 more would pass his 5 there)"
    row = np.array([E.TOM_BID, 1, 0, 4, E.NOTHING], np.int8)
    assert E.describe_tom_event(row) == "passed in the prestige round"
    row = np.array([E.TOM_DRAW, 1, 1, E.DRAW_DISCARDED, 3], np.int8)
    assert E.describe_tom_event(row) == "drew a dollars card and discarded it"
    with pytest.raises(ValueError, match="unknown Tom event kind 9"):
        E.describe_tom_event(np.array([9, 1, 0, 0, 0], np.int8))


def test_a_full_log_says_what_it_dropped():
    state = new_game(CONFIGS[0], seed=3)
    rec = state[()]
    rec["tom_events"][:] = (E.TOM_BID, 1, 2, 0, E.NOTHING)
    rec["tom_event_count"] = E.TOM_EVENT_CAPACITY + 5
    events = E.tom_events_of(state)
    assert len(events) == E.TOM_EVENT_CAPACITY + 1
    assert events[-1] == (1, "... and 5 more Tom moves not kept in the log")


def _state_with_one_event():
    for config, _, after in _steps():
        if config.num_agents == 1 and after["tom_event_count"] > 0 and after["round"] <= 5:
            state = np.array(after)
            rec = state[()]
            rec["tom_events"][:] = 0
            rec["tom_events"][0] = (E.TOM_BID, 1, 3, 0, E.NOTHING)
            rec["tom_event_count"] = 1
            validate_state(state)
            return state
    raise AssertionError("no Tom event in the random games")


@pytest.mark.parametrize("row", [
    (E.TOM_DRAW, 1, 3, E.DRAW_KEPT, 0),  # a kept card recorded by type
    (E.TOM_DRAW, 1, E.NOTHING, E.DRAW_PLAYED, 0),  # a played card not shown
    (E.TOM_BUILD, 1, 2, 3, 4),  # more built than due
    (E.TOM_BUILD, 1, 2, 9, 6)])  # more than his 5 in a borough
def test_an_inconsistent_event_is_refused(row):
    state = _state_with_one_event()
    state[()]["tom_events"][0] = row
    with pytest.raises(ValueError, match="invalid game state: tom_events "):
        validate_state(state)


@pytest.mark.parametrize("field,value", [
    (E.EV_KIND, 0), (E.EV_KIND, E.NUM_TOM_EVENT_KINDS), (E.EV_SEAT, 0), (E.EV_SEAT, 3),
    (E.EV_A, -1), (E.EV_B, 7), (E.EV_C, 0)])
def test_a_corrupted_event_is_refused(field, value):
    """An event of an agent or an empty seat, an unknown kind or a value out of its range."""
    state = _state_with_one_event()
    state[()]["tom_events"][0, field] = value
    assert int(V.state_error_codes(state.reshape(1))[0]) == V.E_TOM_EVENTS
    with pytest.raises(ValueError, match="invalid game state: tom_events "):
        validate_state(state)
