"""The global state (``state()`` for centralized critics): fixed size, finite bounds, every game
inside its space, and the hidden parts that no observation shows are in it."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.test_observation import CONFIGS, _midgame
from tests.tiny_york.scenario import rec
from tiny_york_env.envs.aec import raw_env
from tiny_york_env.games.tiny_york import GameConfig, new_game
from tiny_york_env.games.tiny_york.components import NUM_CARD_TYPES
from tiny_york_env.games.tiny_york.global_state import (
    ACTOR_CONTEXT_PARTS,
    GLOBAL_STATE_HIGH,
    GLOBAL_STATE_SIZE,
    GLOBAL_STATE_SLICES,
    encode_global_state,
    global_state_space,
    global_state_table_markdown,
)
from tiny_york_env.games.tiny_york.observation import OBS_SIZE, OBS_SLICES, encode
from tiny_york_env.games.tiny_york.state import STACK_HIDDEN

ROOT = Path(__file__).resolve().parents[1]
AEC_SETUPS = [{"num_agents": 2}, {"num_agents": 3}, {"num_agents": 4}, {"num_agents": 1, "toms": (5,)},
              {"num_agents": 2, "toms": ("C5",)}, {"num_agents": 1, "toms": (1, 12, "B4")},
              {"num_agents": 2, "toms": (7, 3)}]


def test_parts_tile_the_vector_and_the_bounds_are_finite():
    stops = [s.stop for s in GLOBAL_STATE_SLICES.values()]
    starts = [s.start for s in GLOBAL_STATE_SLICES.values()]
    assert starts[0] == 0 and stops[-1] == GLOBAL_STATE_SIZE and starts[1:] == stops[:-1]
    assert GLOBAL_STATE_SLICES["public"] == slice(0, OBS_SIZE)
    space = global_state_space()
    assert space.shape == (GLOBAL_STATE_SIZE,) and space.dtype == np.float32
    assert np.all(space.low == 0) and np.isfinite(space.high).all() and np.all(space.high > 0)
    np.testing.assert_array_equal(space.high, GLOBAL_STATE_HIGH)


@pytest.mark.parametrize("setup", AEC_SETUPS, ids=str)
def test_state_lies_in_state_space_over_random_games(setup):
    """Every state() of random games, from the first decision to the end, at every player count
    and with Toms of several levels: in the space, its public part seat 0's observation."""
    e = raw_env(**setup)
    for seed in range(2):
        rng = np.random.default_rng(seed)
        e.reset(seed=seed)
        steps = 0
        for _agent in e.agent_iter():
            obs, _, terminated, _, _ = e.last()
            state = e.state()
            assert state.dtype == np.float32 and e.state_space.contains(state), \
                np.flatnonzero((state < 0) | (state > GLOBAL_STATE_HIGH))
            np.testing.assert_array_equal(state[GLOBAL_STATE_SLICES["public"]], encode(e.game_state, 0))
            if terminated:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        assert steps > 20


def test_actor_context_is_the_seat_to_moves_own():
    """The parts the observation fills only for the seat to move come from that seat's view."""
    for seed, steps in ((1, 15), (2, 40), (3, 77), (4, 130)):
        state = _midgame(GameConfig(3), seed, steps)
        actor = int(rec(state)["actor"])
        view = encode(state, actor)
        expected = np.concatenate([view[OBS_SLICES[name]] for name in ACTOR_CONTEXT_PARTS])
        np.testing.assert_array_equal(encode_global_state(state)[GLOBAL_STATE_SLICES["actor_context"]],
                                      expected)


def _observations(state):
    return [encode(state, seat) for seat in range(int(rec(state)["num_seats"]))]


def _check_hidden_change(state, other, part, hidden_from, also=None):
    """``other`` differs from ``state`` only in something the seats ``hidden_from`` cannot see:
    their observations are equal, the global state differs in ``part`` and nowhere else (but in
    the public part's slice ``also``: seat 0's own cards are in its observation)."""
    for seat in hidden_from:
        np.testing.assert_array_equal(encode(state, seat), encode(other, seat))
    diff = np.flatnonzero(encode_global_state(state) != encode_global_state(other))
    where = [GLOBAL_STATE_SLICES[part]] + ([OBS_SLICES[also]] if also else [])
    assert any(where[0].start <= i < where[0].stop for i in diff), (part, diff)
    assert all(any(w.start <= i < w.stop for w in where) for i in diff), (part, diff)


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_every_seats_hidden_hand_is_in_the_state(config):
    """A card of any seat's hand (a Tom's supply too) swapped for another type: no other seat's
    observation changes, the global state does, in ``seat_hand``."""
    changed = set()
    for seed, steps in ((1, 10), (2, 60), (3, 150)):
        state = _midgame(config, seed, steps)
        r = rec(state)
        for seat in range(int(r["num_seats"])):
            held = np.flatnonzero(r["hand"][seat])
            if held.size == 0:
                continue
            other = state.copy()
            q = rec(other)
            t = int(held[0])
            q["hand"][seat, t] -= 1
            q["hand"][seat, (t + 1) % NUM_CARD_TYPES] += 1
            _check_hidden_change(state, other, "seat_hand",
                                 [s for s in range(int(r["num_seats"])) if s != seat],
                                 also="own_hand" if seat == 0 else None)
            changed.add(seat)
    assert changed == set(range(config.num_participants))


def test_face_down_reserve_cards_are_in_the_state():
    state = _midgame(GameConfig(3), seed=5, steps=60)
    r = rec(state)
    assert (r["reserve"][:3] > r["reserve_faceup"][:3]).any(axis=1).all()
    for seat in range(3):
        held = np.flatnonzero(r["reserve"][seat] - r["reserve_faceup"][seat])
        if held.size == 0:
            continue
        other = state.copy()
        q = rec(other)
        q["reserve"][seat, held[0]] -= 1
        q["reserve"][seat, (held[0] + 1) % NUM_CARD_TYPES] += 1
        _check_hidden_change(state, other, "seat_reserve", [s for s in range(3) if s != seat],
                             also="own_reserve" if seat == 0 else None)


def _swap_first_differing(row, count, top_last=True):
    """Swap the top item of ``row[:count]`` with the first one below it of another kind; False
    when all are alike. ``top_last``: the top is ``row[count - 1]``."""
    top = count - 1 if top_last else 0
    for k in range(count):
        if row[k] != row[top]:
            row[k], row[top] = row[top], row[k]
            return True
    return False


def test_the_order_of_piles_and_stacks_is_in_the_state():
    """Orders no seat sees: the draw pile, each elevator stack, the face-down prestige tiles."""
    state = _midgame(GameConfig(2), seed=6, steps=20)
    r = rec(state)
    other = state.copy()
    assert _swap_first_differing(rec(other)["draw_pile"], int(r["draw_count"]))
    _check_hidden_change(state, other, "draw_order", range(2))
    for row in range(r["elevator_stack"].shape[0]):
        other = state.copy()
        if _swap_first_differing(rec(other)["elevator_stack"][row], int(r["elevator_count"][row])):
            _check_hidden_change(state, other, "elevator_order", range(2))
    other = state.copy()
    start = int(r["prestige_next"])
    assert _swap_first_differing(rec(other)["prestige_stack"][start:], len(r["prestige_stack"]) - start,
                                 top_last=False)
    _check_hidden_change(state, other, "prestige_stack", range(2))


def test_hidden_start_stacks_and_the_discard_pile_are_in_the_state():
    state = new_game(GameConfig(2), seed=7)
    r = rec(state)
    hidden = np.flatnonzero(r["start_stack_status"] == STACK_HIDDEN)
    assert hidden.size >= 2
    other = state.copy()
    q = rec(other)
    a, b = int(hidden[0]), int(hidden[1])
    q["start_stacks"][a, 0], q["start_stacks"][b, 0] = r["start_stacks"][b, 0], r["start_stacks"][a, 0]
    _check_hidden_change(state, other, "start_stacks_hidden", range(2))
    state = _midgame(GameConfig(2), seed=8, steps=200)
    r = rec(state)
    t = int(np.flatnonzero(r["discard"])[0])
    other = state.copy()
    rec(other)["discard"][t] -= 1
    rec(other)["discard"][(t + 1) % NUM_CARD_TYPES] += 1
    _check_hidden_change(state, other, "discard", range(2))


def test_a_bad_record_is_refused():
    with pytest.raises(ValueError, match="single game"):
        encode_global_state(np.zeros(3))
    with pytest.raises(ValueError, match="single game"):
        encode_global_state(np.stack([new_game(GameConfig(2), seed=s) for s in range(2)]))


def test_docs_table_matches_the_encoder():
    text = (ROOT / "docs" / "global-state.md").read_text()
    start = text.index("<!-- global-state-table:start -->") + len("<!-- global-state-table:start -->")
    end = text.index("<!-- global-state-table:end -->")
    assert text[start:end].strip() == global_state_table_markdown()
    assert f"GLOBAL_STATE_SIZE = {GLOBAL_STATE_SIZE}" in text


def test_plain_python_encoder_equals_the_compiled_one():
    """TINY_YORK_JIT=0 (debugging, coverage) runs the same encoder as plain Python: same vectors."""
    setups = ((GameConfig(2), 1, 30), (GameConfig(4), 2, 90), (GameConfig(1, toms=(1, 12, "A2")), 3, 10_000))
    states = [_midgame(config, seed, steps) for config, seed, steps in setups]
    code = ("import sys, numpy as np; from tiny_york_env.games.tiny_york import STATE_DTYPE; "
            "from tiny_york_env.games.tiny_york.global_state import encode_global_state; "
            "states = np.frombuffer(sys.stdin.buffer.read(), dtype=STATE_DTYPE); "
            "out = np.stack([encode_global_state(s.reshape(1)) for s in states]); "
            "sys.stdout.buffer.write(out.tobytes())")
    out = subprocess.run([sys.executable, "-c", code], input=b"".join(s.tobytes() for s in states),
                         capture_output=True, check=True, cwd=ROOT, env={**os.environ, "TINY_YORK_JIT": "0"})
    plain = np.frombuffer(out.stdout, dtype=np.float32).reshape(len(states), GLOBAL_STATE_SIZE)
    np.testing.assert_array_equal(plain, np.stack([encode_global_state(s) for s in states]))
