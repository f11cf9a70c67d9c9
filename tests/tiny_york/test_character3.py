"""Character 3's face-up reserve card (addendum 3: "Gain 1 point. Draw 1 card from the draw pile
and place it faceup in your reserve"; R25: that card is public; docs/rules.md P24: it stays face
up while it stays in the reserve, face-down copies of its type leave first).

The engine counts face-up cards per seat and type in ``reserve_faceup``; every way a card leaves
a reserve (an exchange, characters 8, 12 and 15) keeps it at most the reserve's count of that
type. The card is shown to everyone by the text and picture views (the observation and
determinization are tested in tests/test_observation.py and tests/tiny_york/test_determinize.py).
"""

import numpy as np
import pytest

from tests.tiny_york.scenario import bidding_round, give_character, pass_until, phase1_pick, rec, set_cards
from tiny_york_env.games.tiny_york import GameConfig, apply_action, legal_actions, new_game, render_text
from tiny_york_env.games.tiny_york.actions import (
    BID_CARD,
    CHARACTER_CARD,
    CHARACTER_DONE,
    EXCHANGE,
    PICK_PAIR,
    USE_CHARACTER,
)
from tiny_york_env.games.tiny_york.components import (
    DOLLARS,
    ELEVATOR,
    NUM_CARD_TYPES,
    PLANS,
    PRESS,
    SKYSCRAPERS,
)
from tiny_york_env.games.tiny_york.picture import render_rgb
from tiny_york_env.games.tiny_york.state import DEC_AFTER_PICK, DEC_BID, DEC_CHARACTER_CARD, DEC_PICK_PAIR

BIGGER_RESERVE, MATCH_PAIR, REFRESH_RESERVE, PLAY_FROM_RESERVE = 3, 8, 12, 15


def _use(c):
    return USE_CHARACTER + c - 1


def _exchange(h, r):
    return EXCHANGE + h * NUM_CARD_TYPES + r


def _counts(**by_name):
    """A per-type count row from card names, e.g. ``_counts(press=1)``."""
    names = {"press": PRESS, "dollars": DOLLARS, "elevator": ELEVATOR, "plans": PLANS,
             "skyscrapers": SKYSCRAPERS}
    row = [0] * NUM_CARD_TYPES
    for name, n in by_name.items():
        row[names[name]] = n
    return row


def _put_on_top(state, t):
    """Swap a card of type ``t`` from lower in the draw pile to its top (drawn next)."""
    r = rec(state)
    top = int(r["draw_count"]) - 1
    i = max(i for i in range(top + 1) if r["draw_pile"][i] == t)
    r["draw_pile"][i], r["draw_pile"][top] = r["draw_pile"][top], r["draw_pile"][i]


def _used_3(reserve, top=SKYSCRAPERS, seed=0):
    """The first Phase I pick of a 2-agent game: the seat to move holds ``reserve``, uses
    character 3 and draws ``top`` face up. Returns (state, seat)."""
    state = phase1_pick(2, seed=seed)
    r = rec(state)
    seat = int(r["actor"])
    give_character(state, seat, BIGGER_RESERVE)
    r["dollars"][seat] = 1
    set_cards(state, seat, reserve=reserve)
    _put_on_top(state, top)
    apply_action(state, _use(BIGGER_RESERVE))
    return state, seat


def _reserve_line(text, seat):
    """The reserve part of ``seat``'s cards line in ``render_text`` (the line after its own)."""
    lines = text.splitlines()
    k = next(i for i, x in enumerate(lines) if x.startswith(f"seat {seat} "))
    return lines[k + 1].split("|")[1].strip()


def test_the_drawn_card_lies_face_up_in_the_reserve():
    """Addendum 3: the drawn card is placed face up in the reserve, which is one card larger."""
    state, seat = _used_3({PRESS: 1, DOLLARS: 1}, top=SKYSCRAPERS)
    r = rec(state)
    assert r["reserve"][seat].tolist() == _counts(press=1, dollars=1, skyscrapers=1)
    assert r["reserve_faceup"][seat].tolist() == _counts(skyscrapers=1)
    assert r["reserve_size"][seat] == 3
    assert not r["reserve_faceup"][1 - seat].any()


def test_a_face_down_copy_leaves_first_on_an_exchange():
    """P24: with two skyscraper cards in the reserve, one face up, exchanging a skyscraper card
    into the hand takes the face-down one; the next takes the face-up one, which becomes an
    ordinary hand card."""
    state, seat = _used_3({SKYSCRAPERS: 1, PLANS: 1}, top=SKYSCRAPERS)
    pass_until(state, lambda q: q["decision"] == DEC_BID and q["actor"] == seat)
    r = rec(state)
    assert r["reserve_faceup"][seat].tolist() == _counts(skyscrapers=1)
    set_cards(state, seat, hand={PRESS: 2})
    apply_action(state, _exchange(PRESS, SKYSCRAPERS))
    assert r["reserve"][seat].tolist() == _counts(press=1, plans=1, skyscrapers=1)
    assert r["reserve_faceup"][seat].tolist() == _counts(skyscrapers=1)
    apply_action(state, _exchange(PRESS, SKYSCRAPERS))
    assert r["reserve"][seat].tolist() == _counts(press=2, plans=1)
    assert not r["reserve_faceup"][seat].any()
    assert r["hand"][seat, SKYSCRAPERS] == 2


def test_character_8_takes_the_face_up_card_to_the_hand():
    """Addendum 8 takes an identical card from the reserve: the face-up card, the only one of
    its type, leaves face up no more; the refill is face down."""
    state = phase1_pick(2)
    r = rec(state)
    seat = int(r["actor"])
    give_character(state, seat, MATCH_PAIR)
    r["dollars"][seat] = 1
    set_cards(state, seat, reserve={PRESS: 1, DOLLARS: 1})
    r["reserve_faceup"][seat, PRESS] = 1
    r["pairs"][0] = (PRESS, ELEVATOR)
    apply_action(state, PICK_PAIR + 0)
    assert r["decision"] == DEC_AFTER_PICK
    apply_action(state, _use(MATCH_PAIR))
    apply_action(state, CHARACTER_CARD + PRESS)
    assert r["decision"] != DEC_CHARACTER_CARD
    assert r["reserve"][seat].sum() == 2 and r["reserve"][seat, DOLLARS] >= 1
    assert not r["reserve_faceup"][seat].any()
    assert r["hand"][seat, PRESS] >= 2


@pytest.mark.parametrize("discards,faceup_left", [(1, 1), (2, 0)])
def test_character_12_discards_face_down_copies_first(discards, faceup_left):
    """Addendum 12 discards reserve cards: of two skyscraper cards, one face up, the first
    discarded is the face-down one (P24); the refilled cards are face down."""
    state = bidding_round(2, PRESS, start_seat=0)
    give_character(state, 0, REFRESH_RESERVE)
    r = rec(state)
    r["dollars"][0] = 1
    set_cards(state, 0, reserve={SKYSCRAPERS: 2})
    r["reserve_faceup"][0, SKYSCRAPERS] = 1
    apply_action(state, _use(REFRESH_RESERVE))
    for _ in range(discards):
        apply_action(state, CHARACTER_CARD + SKYSCRAPERS)
    if r["decision"] == DEC_CHARACTER_CARD:
        apply_action(state, CHARACTER_DONE)
    assert r["decision"] == DEC_BID and r["reserve"][0].sum() == 2
    assert r["reserve_faceup"][0].tolist() == _counts(skyscrapers=faceup_left)


def test_character_15_plays_the_face_up_card():
    """Addendum 15 plays a reserve card: the face-up press card, the only one, joins the bid;
    the refilled card is face down."""
    state = bidding_round(2, PRESS, start_seat=0)
    give_character(state, 0, PLAY_FROM_RESERVE)
    r = rec(state)
    r["dollars"][0] = 1
    set_cards(state, 0, hand={PRESS: 1}, reserve={PRESS: 1, PLANS: 1})
    r["reserve_faceup"][0, PRESS] = 1
    apply_action(state, BID_CARD)
    apply_action(state, _use(PLAY_FROM_RESERVE))
    apply_action(state, CHARACTER_CARD + PRESS)
    assert r["bid_value"][0] == 2 and r["played"][0, PRESS] == 2
    assert r["reserve"][0].sum() == 2
    assert not r["reserve_faceup"][0].any()


def test_text_shows_the_face_up_card_to_everyone_and_nothing_else_of_the_reserve():
    """R25: another viewer sees the face-up card but not the rest of the reserve; the owner and
    the full view see both."""
    state, seat = _used_3({PRESS: 1, DOLLARS: 1}, top=SKYSCRAPERS)
    other = 1 - seat
    assert _reserve_line(render_text(state, viewer=other), seat) == (
        "reserve (3): hidden; face up: skyscrapers 1")
    assert _reserve_line(render_text(state, viewer=seat), seat) == (
        "reserve (3): press 1, dollars 1, skyscrapers 1; face up: skyscrapers 1")
    assert _reserve_line(render_text(state), seat) == _reserve_line(render_text(state, seat), seat)
    assert _reserve_line(render_text(state, viewer=seat), other) == "reserve (2): hidden"


def test_the_picture_shows_the_face_up_card():
    """The picture draws each agent's face-up reserve cards: it changes with them."""
    state, seat = _used_3({PRESS: 1, DOLLARS: 1}, top=SKYSCRAPERS)
    without = state.copy()
    rec(without)["reserve_faceup"][seat] = 0
    assert not np.array_equal(render_rgb(state), render_rgb(without))


@pytest.mark.parametrize("seed", range(3))
def test_face_up_cards_stay_within_the_reserve_over_random_play(seed):
    """Over random play with character 3 given to an agent: a face-up count never exceeds the
    reserve's cards of that type, and only the user of 3 ever has face-up cards."""
    state = new_game(GameConfig(2), seed=seed)
    pass_until(state, lambda q: q["decision"] == DEC_PICK_PAIR)
    give_character(state, 0, BIGGER_RESERVE)
    r = rec(state)
    r["dollars"][0] = 3
    rng = np.random.default_rng(seed)
    seen = 0
    while r["round"] < 4:
        assert (r["reserve_faceup"] <= r["reserve"]).all() and (r["reserve_faceup"] >= 0).all()
        assert not r["reserve_faceup"][1:].any()
        seen += int(r["reserve_faceup"].any())
        legal = legal_actions(state)
        if _use(BIGGER_RESERVE) in legal:
            apply_action(state, _use(BIGGER_RESERVE))
            continue
        apply_action(state, int(legal[rng.integers(legal.size)]))
    assert seen > 0
