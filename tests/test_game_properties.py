"""What every registered game keeps at its door, over many random positions, through the game
contract only:

* ``determinize`` of any position for any seat (agents', bots' and Toms' alike) is a valid
  record, looks exactly the same to that seat (its observation), leaves the original unchanged,
  and has a legal move at every decision of a random game played from it to the end, every
  observation inside the observation space on the way;
* ``validate_state`` refuses what setup and play cannot make, so that every record it accepts
  plays to the end with every observation inside the space (the fuzz of ``tests/save_checks.py``,
  run here for every game);
* every verb that takes an action (``apply_action``, ``step``, ``describe_action``) refuses an
  out-of-range or ill-typed one with a ValueError in the words of ``core/checked.py`` (the one
  entry every game shares), the state unchanged.
"""

import importlib

import numpy as np
import pytest

from tests.save_checks import check_fuzz, check_observations_in_space, setup_snapshots
from tiny_york_env.core.checked import int_action
from tiny_york_env.games.construction_yard.state import DEC_PAY
from tiny_york_env.registry import game_names, get_game

GAMES = game_names()
# Setups of every game (``make_config`` keywords): the record's ``example_setups``.
SETUPS = {name: get_game(name).example_setups for name in GAMES}
GAMES_PER_SETUP = 3
POSITIONS_PER_GAME = 8  # spread evenly over each game, from its first decision to its last
FUZZ_CASES = 300
# Out of the space or not an integer: each must be refused by every action verb.
OUT_OF_RANGE = (-1, -(2 ** 31), 2 ** 31, 2 ** 63 - 1, 2 ** 63, 2 ** 64, 2 ** 70, -(2 ** 63) - 1,
                np.int64(-5), np.uint64(2 ** 64 - 1))
NOT_INTEGERS = (1.0, 0.5, np.float64(0), True, False, np.bool_(True), "0", None, [0], np.array([0]),
                np.array(0), 1 + 0j)


def setup_config(game, setup):
    """The config of ``setup`` and the number of its participant seats."""
    config = game.make_config(**setup)
    return config, game.num_participants(config)


def test_every_registered_game_has_setups_here():
    assert all(SETUPS[name] for name in GAMES), "every game names example setups in its record"


def positions(name, setup, seed):
    """``POSITIONS_PER_GAME`` positions of one random game, evenly spread, the end left out."""
    states = setup_snapshots(name, setup, seed, every=1)[:-1]
    return [states[k] for k in np.linspace(0, len(states) - 1, POSITIONS_PER_GAME).astype(int)]


def play_to_the_end(game, state, seats, rng, where):
    """Random legal decisions to the end: a legal move at every decision and every seat's
    observation inside the space; returns the number of decisions."""
    decisions = 0
    while not game.is_terminal(state):
        mask = game.legal_mask(state)
        assert mask.any(), f"{where}: no legal move after {decisions} decisions, before the end"
        check_observations_in_space(game, state, seats, where)
        game.apply_action(state, int(rng.choice(np.flatnonzero(mask))))
        decisions += 1
    check_observations_in_space(game, state, seats, f"{where}, the end")
    return decisions


@pytest.mark.parametrize("name", GAMES)
def test_determinized_copies_are_valid_look_the_same_and_play_to_the_end(name):
    game = get_game(name)
    rng = np.random.default_rng(44)
    copies = 0
    for k, setup in enumerate(SETUPS[name]):
        _, seats = setup_config(game, setup)
        for seed in range(GAMES_PER_SETUP):
            for state in positions(name, setup, 100 * k + seed):
                before = state.tobytes()
                for seat in range(seats):
                    where = f"{setup} seed {100 * k + seed}, seat {seat}"
                    copy = game.determinize(state, seat, int(rng.integers(2 ** 62)))
                    assert state.tobytes() == before, f"{where}: determinize changed the original"
                    game.validate_state(copy)
                    assert np.array_equal(game.encode(copy, seat), game.encode(state, seat)), \
                        f"{where}: the copy looks different to its seat"
                    assert game.current_player(copy) == game.current_player(state)
                    play_to_the_end(game, copy, seats, rng, where)
                    copies += 1
    assert copies > 100


def paying_position(seed):
    """The position of the fuzzing report: a two-player Construction Yard game against a greedy
    bot, seat 0 paying for a building after 84 random decisions."""
    game = get_game("construction_yard")
    state = game.new_game(game.make_config(num_players=2, bots=("greedy",)), 1864363779)
    rng = np.random.default_rng(seed)
    for _ in range(84):
        legal = np.flatnonzero(game.legal_mask(state))
        game.apply_action(state, int(legal[rng.integers(len(legal))]))
    return game, state


def test_a_copy_for_another_seat_leaves_the_payer_money_to_finish_paying():
    game, state = paying_position(1648082216)
    assert game.current_player(state) == 0 and int(state["decision"]) == DEC_PAY and int(state["paid"]) == 0
    for seed in (665300853, *range(200)):
        copy = game.determinize(state, 1, seed)
        rng = np.random.default_rng(seed)
        while int(copy["decision"]) == DEC_PAY:  # pay card after card until the payment is finished
            legal = np.flatnonzero(game.legal_mask(copy))
            assert legal.size, f"seed {seed}: the payer cannot finish paying"
            game.apply_action(copy, int(rng.choice(legal)))


@pytest.mark.parametrize("name", GAMES)
def test_accepted_records_play_to_the_end_with_observations_in_the_space(name):
    check_fuzz(name, SETUPS[name], FUZZ_CASES, seed=44)


def mid_game(name):
    """A position a few decisions into a game of ``name``."""
    return setup_snapshots(name, SETUPS[name][0], 3, every=5)[2]


def refusals(state, bad, verbs):
    """The words of each verb's ValueError for the action ``bad``; the state unchanged by any."""
    before = state.tobytes()
    words = []
    for verb in verbs:
        with pytest.raises(ValueError) as error:
            verb(state, bad)
        assert state.tobytes() == before
        words.append(str(error.value))
    return words


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("bad", OUT_OF_RANGE, ids=repr)
def test_an_action_outside_the_space_is_refused_and_changes_nothing(name, bad):
    game = get_game(name)
    state = mid_game(name)
    expected = (f"illegal action {int(bad)} (outside the action space 0..{game.num_actions - 1}) "
                f"for seat {game.current_player(state)}, whose pending decision is ")
    for words in refusals(state, bad, (game.apply_action, game.step)):
        assert words.startswith(expected) and "legal actions: " in words
    with pytest.raises(ValueError, match=rf"action {int(bad)} is outside the action space 0\.\."):
        game.describe_action(bad)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("bad", NOT_INTEGERS, ids=repr)
def test_an_action_that_is_not_an_integer_is_refused_and_changes_nothing(name, bad):
    game = get_game(name)
    with pytest.raises(ValueError) as expected:
        int_action(bad, game.num_actions)
    assert f"0..{game.num_actions - 1}" in str(expected.value)
    verbs = (game.apply_action, game.step, lambda _, action: game.describe_action(action))
    assert refusals(mid_game(name), bad, verbs) == [str(expected.value)] * len(verbs)


@pytest.mark.parametrize("name", GAMES)
def test_an_illegal_action_names_the_legal_ones_and_the_end_refuses_every_action(name):
    game = get_game(name)
    state = mid_game(name)
    mask = game.legal_mask(state)
    before = state.tobytes()
    illegal = int(np.flatnonzero(~mask)[0])
    with pytest.raises(ValueError) as error:
        game.apply_action(state, np.int32(illegal))
    text = str(error.value)
    assert text.startswith(f"illegal action {illegal} ({game.describe_action(illegal)}) for seat")
    for action in np.flatnonzero(mask):
        assert f"{action} ({game.describe_action(int(action))})" in text
    assert state.tobytes() == before
    end = setup_snapshots(name, SETUPS[name][0], 3)[-1]
    finished = end.tobytes()
    for action in (0, game.num_actions - 1, game.num_actions):
        with pytest.raises(ValueError, match=rf"action {action} \(.*\): the game is over, no action is"):
            game.apply_action(end, action)
    assert end.tobytes() == finished


@pytest.mark.parametrize("name", GAMES)
def test_a_read_only_record_is_refused_before_anything_is_applied(name):
    game = get_game(name)
    state = mid_game(name)
    state.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        game.apply_action(state, int(np.flatnonzero(game.legal_mask(state))[0]))


def test_the_covering_deal_keeps_the_view_and_lets_the_payer_finish(monkeypatch):
    """With no redeal allowed, every copy takes the covering deal (the fallback after misses): it
    is still valid, looks the same to its seat, and the payment can finish."""
    monkeypatch.setattr(importlib.import_module("tiny_york_env.games.construction_yard.determinize"),
                        "MAX_REDEALS", 0)
    game = get_game("construction_yard")
    copies = 0
    for seed in range(GAMES_PER_SETUP):
        for state in setup_snapshots("construction_yard", {"num_players": 3}, seed, every=1):
            if int(state["decision"]) != DEC_PAY:
                continue
            for seat in range(3):
                copy = game.determinize(state, seat, seed)
                game.validate_state(copy)
                assert np.array_equal(game.encode(copy, seat), game.encode(state, seat))
                copies += 1
    assert copies > 50
