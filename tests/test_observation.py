"""The observation encoder: fixed size, seat-relative, and nothing hidden leaks (R25)."""

from pathlib import Path

import numpy as np
import pytest

from tests.game.scenario import rec
from tiny_york_env.game import GameConfig, apply_action, is_terminal, legal_actions, new_game
from tiny_york_env.game.components import NUM_CARD_TYPES
from tiny_york_env.observation import OBS_SIZE, OBS_SLICES, encode, encode_batch, observation_table_markdown

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = [GameConfig(2), GameConfig(3), GameConfig(4), GameConfig(1, toms=(5,)),
           GameConfig(2, toms=("C5",)), GameConfig(1, toms=(1, 12, "A2"))]


def _midgame(config, seed, steps):
    """A game after ``steps`` random legal actions (or at its end)."""
    state = new_game(config, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if is_terminal(state):
            break
        apply_action(state, int(rng.choice(legal_actions(state))))
    return state


def _reshuffle_hidden(state, observer, rng):
    """A copy that differs only in what ``observer`` cannot see (R25): the draw pile's order,
    other seats' hands and reserves (same sizes; Toms' supplies too), the elevator stacks'
    order and the generator."""
    other = state.copy()
    r = rec(other)
    n = int(r["draw_count"])
    r["draw_pile"][:n] = rng.permutation(r["draw_pile"][:n])
    for seat in range(int(r["num_seats"])):
        if seat == observer:
            continue
        for field in ("hand", "reserve"):
            total = int(r[field][seat].sum())
            r[field][seat] = np.bincount(rng.integers(0, NUM_CARD_TYPES, total),
                                         minlength=NUM_CARD_TYPES)
    for row in range(r["elevator_stack"].shape[0]):
        k = int(r["elevator_count"][row])
        r["elevator_stack"][row, :k] = rng.permutation(r["elevator_stack"][row, :k])
    r["rng"][:] = rng.integers(1, 2**32, 4)
    return other


def test_size_is_fixed_and_slices_tile_the_vector():
    """Every part has its slice, in order, covering 0..OBS_SIZE exactly."""
    stops = [s.stop for s in OBS_SLICES.values()]
    starts = [s.start for s in OBS_SLICES.values()]
    assert starts[0] == 0 and stops[-1] == OBS_SIZE and starts[1:] == stops[:-1]
    for config in CONFIGS:
        state = _midgame(config, seed=1, steps=40)
        for seat in range(config.num_participants):
            obs = encode(state, seat)
            assert obs.shape == (OBS_SIZE,) and obs.dtype == np.float32
            assert np.isfinite(obs).all() and obs.min() >= 0.0


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_nothing_hidden_leaks(config):
    """R25: states that differ only in what a seat cannot see give that seat the same vector."""
    rng = np.random.default_rng(7)
    for seed, steps in ((1, 0), (2, 30), (3, 90), (4, 200), (5, 10_000)):
        state = _midgame(config, seed, steps)
        for seat in range(config.num_agents):
            other = _reshuffle_hidden(state, seat, rng)
            assert other.tobytes() != state.tobytes()
            assert np.array_equal(encode(state, seat), encode(other, seat))


@pytest.mark.parametrize("field,where", [
    ("hand", "own_hand"), ("reserve", "own_reserve"), ("dollars", "seat_dollars"),
    ("points", "seat_points"), ("board_skyscrapers", "seat_board_skyscrapers"),
])
def test_a_visible_change_changes_the_observation(field, where):
    """Own cards and every seat's public counts are seen: changing one changes the vector
    in its named slice."""
    state = _midgame(GameConfig(3), seed=3, steps=60)
    for seat, target in ((0, 0), (0, 2), (1, 0)):
        if field in ("hand", "reserve") and seat != target:
            continue
        other = state.copy()
        r = rec(other)
        if r[field].ndim == 2:
            r[field][target, 0] += 1
        else:
            r[field][target] += 1
        a, b = encode(state, seat), encode(other, seat)
        diff = np.flatnonzero(a != b)
        allowed = [OBS_SLICES[where]] + ([OBS_SLICES["seat_hand_size"]] if field == "hand" else [])
        assert diff.size and all(any(s.start <= i < s.stop for s in allowed) for i in diff)
        assert any(OBS_SLICES[where].start <= i < OBS_SLICES[where].stop for i in diff)


def test_an_opponents_hand_is_seen_only_by_its_size():
    """Another seat's hand contents are private; its size is public."""
    state = _midgame(GameConfig(2), seed=4, steps=25)
    other = state.copy()
    r = rec(other)
    r["hand"][1, 0] += 1
    diff = np.flatnonzero(encode(state, 0) != encode(other, 0))
    s = OBS_SLICES["seat_hand_size"]
    assert diff.size == 1 and s.start <= diff[0] < s.stop


def test_seats_are_relative_to_the_observer():
    """The observer is relative seat 0: its points appear first in seat_points."""
    state = _midgame(GameConfig(3), seed=5, steps=0)
    r = rec(state)
    r["points"][:3] = (10, 20, 30)
    s = OBS_SLICES["seat_points"]
    assert encode(state, 1)[s][:3] * 50 == pytest.approx([20, 30, 10])
    assert encode(state, 2)[s][:3] * 50 == pytest.approx([30, 10, 20])


def test_batch_encoding_equals_single():
    """encode_batch row i is encode(states[i], seats[i])."""
    states = np.stack([_midgame(GameConfig(2), seed=s, steps=s * 7) for s in range(8)])
    seats = np.array([s % 2 for s in range(8)])
    batch = encode_batch(states, seats)
    for i in range(8):
        assert np.array_equal(batch[i], encode(states[i:i + 1], seats[i]))


def test_bad_seat_is_refused():
    state = new_game(GameConfig(2), seed=0)
    with pytest.raises(ValueError, match="seats are 0..1"):
        encode(state, 2)


def test_docs_table_matches_the_encoder():
    text = (ROOT / "docs" / "observation.md").read_text()
    start = text.index("<!-- observation-table:start -->") + len("<!-- observation-table:start -->")
    end = text.index("<!-- observation-table:end -->")
    assert text[start:end].strip() == observation_table_markdown()
