"""The observation encoder: fixed size, seat-relative, and nothing hidden leaks (R25)."""

from pathlib import Path

import numpy as np
import pytest

from tests.tiny_york.scenario import give_character, play_until, rec
from tiny_york_env.games.tiny_york import GameConfig, apply_action, is_terminal, legal_actions, new_game
from tiny_york_env.games.tiny_york.components import (
    CARDS_PER_TYPE,
    DOLLARS,
    ELEVATOR,
    NUM_CARD_TYPES,
    PRESS,
    SKYSCRAPERS,
)
from tiny_york_env.games.tiny_york.observation import (
    OBS_SIZE,
    OBS_SLICES,
    OBSERVATION_HIGH,
    RESERVE_SCALE,
    encode,
    encode_batch,
    observation_table_markdown,
)
from tiny_york_env.games.tiny_york.state import (
    DEC_DECLARE_BID_LAST,
    DEC_PICK_PAIR,
    DECISION_NAMES,
    STAGE_DECLARE_BID_LAST,
    STAGE_NAMES,
)

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
    other seats' hands and face-down reserve cards (same sizes; Toms' supplies too; face-up
    reserve cards of character 3 stay), the elevator stacks' order and the generator."""
    other = state.copy()
    r = rec(other)
    n = int(r["draw_count"])
    r["draw_pile"][:n] = rng.permutation(r["draw_pile"][:n])
    for seat in range(int(r["num_seats"])):
        if seat == observer:
            continue
        faceup = r["reserve_faceup"][seat].copy()
        for field, kept in (("hand", np.zeros_like(faceup)), ("reserve", faceup)):
            total = int(r[field][seat].sum() - kept.sum())
            r[field][seat] = kept + np.bincount(rng.integers(0, NUM_CARD_TYPES, total),
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


def _with_faceup(state, seat, reserve, faceup):
    """A copy in which ``seat``'s reserve is ``reserve`` ({type: n}) with ``faceup`` ({type: n})
    of it face up (character 3, R25); the reserve keeps its size."""
    other = state.copy()
    r = rec(other)
    assert sum(reserve.values()) == int(r["reserve_size"][seat])
    r["reserve"][seat] = 0
    r["reserve_faceup"][seat] = 0
    for t, k in reserve.items():
        r["reserve"][seat, t] = k
    for t, k in faceup.items():
        r["reserve_faceup"][seat, t] = k
    return other


def test_a_face_up_reserve_card_is_seen_by_every_seat():
    """R25: "the card character 3 places face up in the reserve (public)": every seat, the owner
    included, sees it in seat_reserve_faceup at the owner's relative seat, and nowhere else."""
    state = _midgame(GameConfig(3), seed=3, steps=60)
    owner = 1
    size = int(rec(state)["reserve_size"][owner])
    plain = _with_faceup(state, owner, {PRESS: 1, SKYSCRAPERS: size - 1}, {})
    shown = _with_faceup(state, owner, {PRESS: 1, SKYSCRAPERS: size - 1}, {SKYSCRAPERS: 1})
    s = OBS_SLICES["seat_reserve_faceup"]
    for observer in range(3):
        a, b = encode(plain, observer), encode(shown, observer)
        diff = np.flatnonzero(a != b)
        relative = (owner - observer) % 3
        assert diff.tolist() == [s.start + relative * NUM_CARD_TYPES + SKYSCRAPERS]
        assert b[diff[0]] == pytest.approx(1 / RESERVE_SCALE) and a[diff[0]] == 0


def test_which_card_is_face_up_is_public_the_rest_of_the_reserve_is_not():
    """R25: states differing in the face-up card give another seat different vectors; states
    differing only in the face-down cards give it the same vector."""
    state = _midgame(GameConfig(2), seed=4, steps=25)
    size = int(rec(state)["reserve_size"][1])
    rest = {ELEVATOR: size - 2} if size > 2 else {}
    press_up = _with_faceup(state, 1, {PRESS: 1, DOLLARS: 1, **rest}, {PRESS: 1})
    dollars_up = _with_faceup(state, 1, {PRESS: 1, DOLLARS: 1, **rest}, {DOLLARS: 1})
    other_hidden = _with_faceup(state, 1, {PRESS: 1, SKYSCRAPERS: 1, **rest}, {PRESS: 1})
    assert not np.array_equal(encode(press_up, 0), encode(dollars_up, 0))
    assert np.array_equal(encode(press_up, 0), encode(other_hidden, 0))
    assert not np.array_equal(encode(press_up, 1), encode(other_hidden, 1))  # its own reserve


@pytest.mark.parametrize("config", CONFIGS[:3], ids=str)
def test_nothing_hidden_leaks_with_face_up_cards(config):
    """R25 with character 3's face-up cards in every agent's reserve: resampling the rest of the
    hidden cards (face-up ones kept) leaves every seat's vector unchanged."""
    rng = np.random.default_rng(11)
    for seed, steps in ((1, 30), (2, 120)):
        state = _midgame(config, seed, steps)
        r = rec(state)
        for seat in range(config.num_agents):
            t = int(np.argmax(r["reserve"][seat]))
            r["reserve_faceup"][seat, t] = 1
        for seat in range(config.num_agents):
            other = _reshuffle_hidden(state, seat, rng)
            assert np.array_equal(rec(other)["reserve_faceup"], r["reserve_faceup"])
            assert np.array_equal(encode(state, seat), encode(other, seat))


def test_stage_and_decision_one_hots_follow_the_engine():
    """The one-hots are as long as the engine's lists (appended entries come last), and the
    character 18 declaration (R11) is encoded at its own index."""
    assert OBS_SLICES["stage"].stop - OBS_SLICES["stage"].start == len(STAGE_NAMES)
    assert OBS_SLICES["decision"].stop - OBS_SLICES["decision"].start == len(DECISION_NAMES)
    state = new_game(GameConfig(2), seed=0)
    play_until(state, lambda r: r["decision"] == DEC_PICK_PAIR)
    r = rec(state)
    for seat in range(2):
        give_character(state, seat, 18)
        r["dollars"][seat] = max(int(r["dollars"][seat]), 1)
    play_until(state, lambda q: q["decision"] == DEC_DECLARE_BID_LAST)
    obs = encode(state, int(r["actor"]))
    assert obs[OBS_SLICES["stage"]].tolist().index(1.0) == STAGE_DECLARE_BID_LAST
    assert obs[OBS_SLICES["decision"]].tolist().index(1.0) == DEC_DECLARE_BID_LAST
    high = OBSERVATION_HIGH[OBS_SLICES["seat_reserve_faceup"]]
    assert np.all(high == np.float32(CARDS_PER_TYPE / RESERVE_SCALE))


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
