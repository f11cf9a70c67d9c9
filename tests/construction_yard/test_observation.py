"""Construction Yard's observation: in its space, seen from the observer, nothing hidden (Y2),
and its documentation table true to the code; determinize keeps what a seat sees."""

from pathlib import Path

import numpy as np
import pytest

from tiny_york_env.games.construction_yard import (
    GameConfig,
    apply_action,
    determinize,
    is_terminal,
    legal_actions,
    new_game,
)
from tiny_york_env.games.construction_yard.observation import (
    OBS_SIZE,
    encode,
    observation_space,
    observation_table,
)
from tiny_york_env.games.construction_yard.state import SCORING_A

DOC = Path(__file__).resolve().parents[2] / "docs" / "construction-yard-observation.md"


def played(num_players, seed, steps):
    state = new_game(GameConfig(num_players=num_players), seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if is_terminal(state):
            break
        apply_action(state, int(rng.choice(legal_actions(state))))
    return state


@pytest.mark.parametrize("num_players", range(2, 7))
def test_observations_stay_in_the_space(num_players):
    space = observation_space()
    for seed in range(5):
        state = new_game(GameConfig(num_players=num_players), seed=seed)
        rng = np.random.default_rng(seed)
        while not is_terminal(state):
            for seat in range(num_players):
                assert space.contains(encode(state, seat))
            apply_action(state, int(rng.choice(legal_actions(state))))


def test_another_hand_or_the_deck_order_does_not_change_the_view():
    state = played(3, 1, 40)
    rec = state.reshape(1)[0]
    other = state.copy()
    orec = other.reshape(1)[0]
    # Seat 1's hand: same size, other cards; and the money and building decks reordered.
    cards = np.flatnonzero(orec["hand"][1].reshape(-1))
    orec["hand"][1].reshape(-1)[cards[0]] -= 1
    orec["hand"][1].reshape(-1)[(cards[0] + 1) % 36] += 1
    count = int(orec["money_count"])
    money = orec["money_deck"][:count]
    low = int(orec["pile_bottom"][4])
    money[low:low + 5] = money[low:low + 5][::-1].copy()
    deck = orec["building_deck"][:orec["building_count"]]
    deck[:] = deck[::-1].copy()
    assert state.tobytes() != other.tobytes()
    assert np.array_equal(encode(state, 0), encode(other, 0))
    assert not np.array_equal(encode(state, 1), encode(other, 1))  # seat 1 sees its own hand
    assert rec["money_count"] == orec["money_count"]


def test_the_observer_comes_first():
    state = played(4, 2, 30)
    a, b = encode(state, 0), encode(state, 1)
    assert not np.array_equal(a, b)
    with pytest.raises(ValueError, match="seat must be a seat of this 4-player game"):
        encode(state, 4)


def unseen(rec):
    """The cards seat 0 cannot see, sorted: the money deck and seats 1-2's hands."""
    hands = np.repeat(np.arange(36), rec["hand"][1:3].sum(axis=0).reshape(-1))
    return np.sort(np.concatenate([rec["money_deck"][:rec["money_count"]], hands]))


def test_determinize_keeps_the_view_and_conserves_cards_and_resamples_hidden_parts():
    state = played(3, 3, 25)
    rec = state.reshape(1)[0]
    changed = False
    for k in range(10):
        view = determinize(state, 0, k)
        vrec = view.reshape(1)[0]
        assert np.array_equal(encode(view, 0), encode(state, 0))
        assert np.array_equal(vrec["hand"][0], rec["hand"][0])
        assert np.array_equal(unseen(vrec), unseen(rec))
        scoring = np.flatnonzero(vrec["money_deck"][:vrec["money_count"]] == SCORING_A)
        if len(scoring):
            assert vrec["pile_bottom"][1] <= scoring[0] < vrec["pile_bottom"][0]
        changed |= not np.array_equal(vrec["hand"][1], rec["hand"][1])
        rng = np.random.default_rng(k)
        while not is_terminal(view):
            apply_action(view, int(rng.choice(legal_actions(view))))
    assert changed
    assert encode(state, 0).shape == (OBS_SIZE,)


def test_the_documented_table_matches_the_code():
    assert observation_table() in DOC.read_text()
