"""Construction Yard's action codec (actions.py): the id layout of the spec, every id
round-trips through decode/encode, descriptions are distinct words, bad ids and payloads are
refused with a ValueError naming what is allowed."""

import numpy as np
import pytest

from tiny_york_env.games.construction_yard import NUM_ACTIONS, action_names, decode, describe_action, encode
from tiny_york_env.games.construction_yard.actions import (
    ACTION_KINDS,
    BUY,
    GIVE_TO_DIRK,
    KEEP,
    NUM_SUBSETS,
    PASS,
    PAY,
    PAY_DONE,
    TAKE_MONEY,
    subset_slots,
)
from tiny_york_env.games.construction_yard.data import DISPLAY_SLOTS, MAX_VALUE, MIN_VALUE

# The layout other code is written against (cy_spec: "Action codec (NUM_ACTIONS = 32)").
SPEC_LAYOUT = {"take_money": (0, 15), "buy": (15, 4), "pay": (19, 9), "pay_done": (28, 1),
               "keep": (29, 1), "give_to_dirk": (30, 1), "pass": (31, 1)}
ALL_IDS = range(NUM_ACTIONS)


def test_num_actions_and_layout_follow_the_spec():
    assert NUM_ACTIONS == 32
    assert (TAKE_MONEY, BUY, PAY, PAY_DONE, KEEP, GIVE_TO_DIRK, PASS) == (0, 15, 19, 28, 29, 30, 31)
    assert NUM_SUBSETS == (1 << DISPLAY_SLOTS) - 1
    assert {name: (first, count) for name, first, count in ACTION_KINDS} == SPEC_LAYOUT
    covered = sorted(a for _, first, count in ACTION_KINDS for a in range(first, first + count))
    assert covered == list(ALL_IDS)  # the kinds tile the space, no gap, no overlap


@pytest.mark.parametrize("action", ALL_IDS)
def test_every_id_round_trips(action):
    kind, payload = decode(action)
    assert encode(kind, payload) == action
    assert decode(np.int64(action)) == (kind, payload)  # numpy ints are ids too


def test_payloads_mean_what_the_spec_says():
    for mask in range(1, NUM_SUBSETS + 1):
        assert decode(TAKE_MONEY + mask - 1) == ("take_money", mask)
        assert sum(1 << k for k in subset_slots(mask)) == mask
    for slot in range(DISPLAY_SLOTS):
        assert decode(BUY + slot) == ("buy", slot)
    for value in range(MIN_VALUE, MAX_VALUE + 1):
        assert decode(PAY + value - MIN_VALUE) == ("pay", value)
    assert [decode(a)[0] for a in (PAY_DONE, KEEP, GIVE_TO_DIRK, PASS)] == \
        ["pay_done", "keep", "give_to_dirk", "pass"]


def test_descriptions_are_distinct_words():
    words = [describe_action(a) for a in ALL_IDS]
    assert all(isinstance(w, str) and w.strip() for w in words)
    assert len(set(words)) == NUM_ACTIONS
    assert list(action_names()) == words
    assert describe_action(TAKE_MONEY + 0b0011 - 1) == "take money from slots 1+2"
    assert describe_action(TAKE_MONEY + 0b0100 - 1) == "take money from slot 3"
    assert describe_action(BUY + 2) == "buy the building in slot 3"
    assert describe_action(PAY + 7 - MIN_VALUE) == "pay a 7"
    assert "Dirk" in describe_action(GIVE_TO_DIRK)


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, 10 ** 9, 1.0, True, np.bool_(False), "3", None])
def test_decode_refuses_what_is_not_an_id(bad):
    with pytest.raises(ValueError, match=rf"0\.\.{NUM_ACTIONS - 1}"):
        decode(bad)
    with pytest.raises(ValueError):
        describe_action(bad)


@pytest.mark.parametrize("kind, payload", [
    ("take_money", 0), ("take_money", NUM_SUBSETS + 1), ("buy", -1), ("buy", DISPLAY_SLOTS),
    ("pay", MIN_VALUE - 1), ("pay", MAX_VALUE + 1), ("pay_done", 1), ("keep", -1),
    ("pass", 1), ("buy", 1.0), ("buy", True),
])
def test_encode_refuses_bad_payloads(kind, payload):
    with pytest.raises(ValueError, match="payload"):
        encode(kind, payload)


def test_encode_refuses_unknown_kinds_naming_the_known_ones():
    with pytest.raises(ValueError, match="take_money"):
        encode("steal", 0)
