"""The action codec (actions.py): one table, every id round-trips encode -> decode -> describe."""

import numpy as np
import pytest

from tiny_york_env.games.tiny_york import (
    NUM_ACTIONS,
    GameConfig,
    action_names,
    apply_action,
    decode,
    describe_action,
    encode,
    legal_actions,
    new_game,
)
from tiny_york_env.games.tiny_york import actions as A
from tiny_york_env.games.tiny_york.actions import ACTION_BLOCKS, BLOCK_SIZE, BLOCK_START

ALL_IDS = range(NUM_ACTIONS)


def test_blocks_tile_the_space_without_gaps():
    start = 0
    for name, size, _ in ACTION_BLOCKS:
        assert size >= 1, name
        assert BLOCK_START[name] == start, name
        assert BLOCK_SIZE[name] == size
        start += size
    assert start == NUM_ACTIONS
    assert len({name for name, _, _ in ACTION_BLOCKS}) == len(ACTION_BLOCKS)


def test_named_constants_are_block_starts():
    for name, _, _ in ACTION_BLOCKS:
        assert getattr(A, name) == BLOCK_START[name] == encode(name, 0), name


def test_every_id_round_trips():
    for a in ALL_IDS:
        name, payload = decode(a)
        assert name in BLOCK_START
        assert 0 <= payload < BLOCK_SIZE[name]
        assert encode(name, payload) == a
        assert decode(np.int64(a)) == (name, payload)


def test_every_block_payload_round_trips():
    for name, size, _ in ACTION_BLOCKS:
        for p in range(size):
            assert decode(encode(name, p)) == (name, p)


def test_describe_action_is_nonempty_and_distinct():
    words = [describe_action(a) for a in ALL_IDS]
    for a, w in enumerate(words):
        assert isinstance(w, str) and w.strip(), a
    dupes = {w for w in words if words.count(w) > 1}
    assert not dupes, f"descriptions shared by several ids: {sorted(dupes)}"


def test_action_names_unique_one_per_id():
    names = action_names()
    assert len(names) == NUM_ACTIONS
    assert len(set(names.tolist())) == NUM_ACTIONS
    for a in ALL_IDS:
        block, payload = decode(a)
        assert names[a] == (block if BLOCK_SIZE[block] == 1 else f"{block}({payload})")


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, NUM_ACTIONS + 1, -NUM_ACTIONS, 10**6])
def test_decode_and_describe_reject_ids_outside_the_space(bad):
    with pytest.raises(ValueError, match=str(NUM_ACTIONS - 1)):
        decode(bad)
    with pytest.raises(ValueError):
        describe_action(bad)


@pytest.mark.parametrize("name", [name for name, _, _ in ACTION_BLOCKS])
def test_encode_rejects_payloads_outside_the_block(name):
    size = BLOCK_SIZE[name]
    for bad in (-1, size, size + 5):
        with pytest.raises(ValueError) as err:
            encode(name, bad)
        assert name in str(err.value) and str(size - 1) in str(err.value)


@pytest.mark.parametrize("bad", ["NOPE", "pick_pair", "", None])
def test_encode_rejects_unknown_blocks(bad):
    with pytest.raises(ValueError, match="unknown action block"):
        encode(bad, 0)


@pytest.mark.parametrize("bad", [1.5, 2.0, "3", None])
def test_encode_rejects_non_integer_payloads(bad):
    # An id must be an int: encode("PICK_PAIR", 1.5) must not return the float 7.5.
    with pytest.raises(ValueError):
        encode("PICK_PAIR", bad)


@pytest.mark.parametrize("bad", [1.5, "3", None])
def test_decode_rejects_non_integer_ids(bad):
    # apply_action refuses these; decode/describe_action should not silently truncate them.
    with pytest.raises(ValueError):
        decode(bad)
    with pytest.raises(ValueError):
        describe_action(bad)


def test_describe_action_with_a_state_only_adds_detail():
    state = new_game(GameConfig(num_agents=3), 1)
    for _ in range(40):  # through the draft, pair picking and into bidding
        for a in ALL_IDS:
            plain, detailed = describe_action(a), describe_action(a, state)
            assert detailed == plain or detailed.startswith(plain + " ("), (a, detailed)
        apply_action(state, int(legal_actions(state)[0]))
