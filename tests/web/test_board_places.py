"""The browser board's places: every legal action that names places of the board (a plot, a
borough, a vessel, a card pair, a face-up card, an elevator tile, a start stack) finds each of
them in the SVG the acting seat is shown, so the board can be played by clicking it."""

import re
from collections import Counter

import numpy as np
import pytest

from tiny_york_env.registry import get_game

PLACE_KEYS = re.compile(r'<g data-place="([^"]*)">')
GAMES = ("tiny_york", "construction_yard", "fifth_avenue")
# the kinds of decision that must be playable on the board, by the words of pending_decision
ON_THE_BOARD = {"tiny_york": ("choose a start-character stack", "take a pair of cards"),
                "construction_yard": ("take money or buy a building",),
                "fifth_avenue": ("place a starting skyscraper",)}


def drawn_places(game, state, seat):
    """Every data-place key of the SVG ``seat`` is shown."""
    return {key for keys in PLACE_KEYS.findall(game.board_svg(state, seat)) for key in keys.split()}


def decisions(name, games=3, seed=5):
    """(state, legal actions) at every decision of a few random games of each example setup."""
    game = get_game(name)
    rng = np.random.default_rng(seed)
    for g, setup in enumerate(game.example_setups[:games]):
        state = game.new_game(game.make_config(**setup), seed + g)
        while not game.is_terminal(state):
            legal = np.flatnonzero(game.legal_mask(state))
            yield state, legal
            game.apply_action(state, int(rng.choice(legal)))


PLACE_GROUPS = re.compile(r'<g data-place="([^"]*)">(.*?)</g>')
RECTS = re.compile(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"')
VIEW_BOX = re.compile(r'viewBox="0 0 ([\d.]+) ([\d.]+)"')


def outside_the_drawing(svg):
    """The keys of the places with a box that reaches past the drawing's edges."""
    width, height = map(float, VIEW_BOX.search(svg).groups())
    return [keys for keys, body in PLACE_GROUPS.findall(svg)
            for x, y, w, h in (map(float, r) for r in RECTS.findall(body))
            if x < 0 or y < 0 or x + w > width or y + h > height]


@pytest.mark.parametrize("name", GAMES)
def test_every_place_an_option_names_is_drawn_for_the_seat_to_move(name):
    game = get_game(name)
    with_places, kinds = 0, Counter()
    for state, legal in decisions(name):
        seat = game.current_player(state)
        places = {int(a): game.places_of(int(a), state) for a in legal}
        if not any(places.values()):
            continue
        drawn = drawn_places(game, state, seat)
        assert outside_the_drawing(game.board_svg(state, seat)) == []  # every place can be clicked
        for action, keys in places.items():
            missing = [key for key in keys if key not in drawn]
            assert not missing, f"{game.option_text(action, state)}: {missing} not drawn"
        with_places += 1
        kinds[game.pending_decision(state)] += all(places.values())
    assert with_places > 20
    for decision in ON_THE_BOARD[name]:  # a decision with each of its options on the board
        assert kinds[decision] > 0, (decision, kinds)


def test_places_are_empty_where_the_contract_has_none():
    game = get_game("tiny_york")
    state = game.new_game(game.make_config(**game.example_setups[0]), 1)
    bid_done = next(a for a in range(game.num_actions)
                    if game.describe_action(a).startswith("finish the bid"))
    assert game.places_of(bid_done, state) == ()
