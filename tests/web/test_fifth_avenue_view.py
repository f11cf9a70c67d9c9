"""The browser board's drawing of 5th Avenue (``web/views.py``, ``fifth_avenue_svg``): positions of
random 2-, 3- and 4-player games (auctions, building, the end) draw as well-formed SVG naming every
place; a seat sees its own hand and only the sizes of the others; nothing hidden (other hands'
cards, the stacks' order, the unused businesses, the generator) changes a seat's picture; text is
escaped; the HTTP board serves it."""

import xml.etree.ElementTree as ET
from functools import cache

import numpy as np
import pytest

from tiny_york_env.games.fifth_avenue import api
from tiny_york_env.games.fifth_avenue import data as F
from tiny_york_env.games.fifth_avenue.config import GameConfig
from tiny_york_env.games.fifth_avenue.determinize import determinize
from tiny_york_env.games.fifth_avenue.state import (
    ALEA_ROW,
    BLACK,
    DEC_BID,
    DEC_BUILD,
    DEC_BUSINESS_PLOT,
    DEC_GAME_OVER,
    NUM_BLACK,
)
from tiny_york_env.registry import get_game
from tiny_york_env.web.views import board_view

GAME = get_game("fifth_avenue")
PLAYER_COUNTS = (2, 3, 4)
SEEDS = (3, 11)
MAX_DECISIONS = 20_000
# the kinds of position kept from each game (besides the first and the last)
KINDS = ("bid on the table", "Alea has bid", "build", "business held")


def _keep(kind, st, kept):
    """Keep the first position of ``kind``."""
    if kind not in kept:
        kept[kind] = st.copy()


@cache
def positions(players: int, seed: int) -> dict[str, np.ndarray]:
    """Positions of one random game, by kind: the start, auctions, building, the end."""
    rng = np.random.default_rng(seed)
    st = api.new_game(GameConfig(num_players=players), seed=seed)
    kept = {"start": st.copy()}
    for _ in range(MAX_DECISIONS):
        if api.is_terminal(st):
            break
        api.apply_action(st, int(rng.choice(api.legal_actions(st))))
        if st["decision"] == DEC_BID and st["bid_cards"].sum() > 0:
            _keep("bid on the table", st, kept)
        if st["decision"] == DEC_BID and st["alea_card_count"] > 0:
            _keep("Alea has bid", st, kept)
        if st["decision"] == DEC_BUILD:
            _keep("build", st, kept)
        if st["decision"] == DEC_BUSINESS_PLOT:
            _keep("business held", st, kept)
    assert api.is_terminal(st), "the random game did not end"
    kept["game over"] = st.copy()
    return kept


def all_positions():
    """(players, kind, state) of every kept position."""
    for players in PLAYER_COUNTS:
        for seed in SEEDS:
            for kind, st in positions(players, seed).items():
                yield players, kind, st


def svg_of(st, seat):
    """The board's SVG of ``st`` for ``seat``."""
    return board_view(GAME, st, seat)["svg"]


def parsed(svg):
    """The SVG as XML (a ParseError if it is not well formed) and all its text."""
    root = ET.fromstring(svg)
    return root, "".join(root.itertext())


def titles(svg, words):
    """How many shapes carry exactly the title ``words`` (a card chip: 'orange 5')."""
    return svg.count(f"<title>{words}</title>")


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_every_kind_of_position_draws_well_formed_svg(players):
    kinds = set()
    for seed in SEEDS:
        for kind, st in positions(players, seed).items():
            kinds.add(kind)
            for seat in [None, *range(players)]:
                view = board_view(GAME, st, seat)
                root, text = parsed(view["svg"])
                assert root.tag.endswith("svg") and view["text"] and view["status"]
                for name in (*F.DISTRICT_NAMES, "Central Park", "City Hall", "Supply row", "Face-up cards"):
                    assert name in text, (kind, name)
                assert ("Your hand" in text) == (seat is not None)
                assert ("Alea" in text) == (players == F.ALEA_PLAYERS)
    expected = set(KINDS) - ({"Alea has bid"} if players != F.ALEA_PLAYERS else set())
    assert expected | {"start", "game over"} <= kinds, f"the games never reached {expected - kinds}"


def test_the_auction_shows_the_place_and_the_bids_on_the_table():
    for players, kind, st in all_positions():
        if kind != "bid on the table":
            continue
        rec = st.reshape(1)[0]
        place = int(rec["auction_places"][rec["auction_at"]])
        bidder = int(np.flatnonzero(rec["bid_cards"].reshape(len(rec["bid_cards"]), -1).sum(axis=1))[0])
        other = (bidder + 1) % players
        svg = svg_of(st, other)  # bids are played face up: every seat sees them
        _, text = parsed(svg)
        assert f"Auction {int(rec['auction_at']) + 1} of {int(rec['auction_count'])}: " \
               f"{F.PLACE_NAMES[place]}" in text
        assert f"= {int(rec['bid_total'][bidder])}" in text
        for colour in range(BLACK + 1):
            name = "black" if colour == BLACK else F.CARD_COLOURS[colour]
            for v, value in enumerate(F.CARD_VALUES):
                on_table = int(rec["bid_cards"][bidder, colour, v])
                assert titles(svg, f"{name} {value}") >= on_table
        assert "auctioned now" in svg  # the place's red border


def test_alea_shows_his_colour_and_his_drawn_cards():
    for seed in SEEDS:
        st = positions(F.ALEA_PLAYERS, seed)["Alea has bid"]
        rec = st.reshape(1)[0]
        _, text = parsed(svg_of(st, 0))
        assert f"Alea {F.PLAYER_COLOURS[int(rec['alea_colour'])]}" in text
        svg = svg_of(st, 0)
        for k in range(int(rec["alea_card_count"])):  # the black cards he drew, face up
            assert titles(svg, f"black {F.CARD_VALUES[rec['alea_cards'][k]]}") >= 1
        assert f"= {int(rec['bid_total'][ALEA_ROW])}" in text
        assert (">in</text>" if rec["alea_in"] else ">out (not above)</text>") in svg


def test_game_over_names_the_winners():
    for players in PLAYER_COUNTS:
        st = positions(players, SEEDS[0])["game over"]
        assert st["decision"] == DEC_GAME_OVER
        _, text = parsed(svg_of(st, None))
        winners = ", ".join(f"seat {s}" for s in api.winners(st))
        assert f"game over - winner: {winners}" in text and " - won" in text
        assert "To move" not in text


def _hand_position():
    """A mid-game position of 3 players whose hands differ: seat 0 holds 3 orange 4s, seat 1
    two violet 6s and a black 5, seat 2 nothing; no auction (no bids on the table)."""
    st = positions(3, SEEDS[0])["business held"].copy()
    assert st["bid_cards"].sum() == 0
    st["hand"][:] = 0
    st["hand"][0, F.CARD_COLOURS.index("orange"), F.CARD_VALUES.index(4)] = 3
    st["hand"][1, F.CARD_COLOURS.index("violet"), F.CARD_VALUES.index(6)] = 2
    st["hand"][1, BLACK, F.CARD_VALUES.index(5)] = 1
    return st


def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_others():
    st = _hand_position()
    mine, theirs = svg_of(st, 0), svg_of(st, 1)
    _, mine_text = parsed(mine)
    _, theirs_text = parsed(theirs)
    assert "Your hand (red): 3 cards" in mine_text and "Your hand (yellow): 3 cards" in theirs_text
    assert titles(mine, "orange 4") == 3 and titles(mine, "violet 6") == 0 and titles(mine, "black 5") == 0
    assert titles(theirs, "orange 4") == 0 and titles(theirs, "violet 6") == 2
    assert titles(theirs, "black 5") == 1
    assert "seat 1's hand" not in mine_text and "seat 0's hand" not in theirs_text
    for text in (mine_text, theirs_text):  # the table: coloured + black per player
        assert "3 + 0" in text and "2 + 1" in text and "0 + 0" in text
    everyone = svg_of(st, None)  # a replay or a watched game: every hand
    _, text = parsed(everyone)
    assert all(f"seat {seat}'s hand" in text for seat in range(3)) and "Your hand" not in text
    assert titles(everyone, "orange 4") == 3 and titles(everyone, "violet 6") == 2


def _scramble_hidden(st, seat, rng):
    """``st`` with everything ``seat`` cannot see changed: the others' cards dealt again
    (determinize), then moved between colours and values (only their coloured and black counts
    stay), the unused businesses, the black cards put back beneath the stack, the generator."""
    out = determinize(st, seat, rng)
    rec = out.reshape(1)[0]
    for other in range(int(rec["num_players"])):
        if other == seat:
            continue
        coloured, black = int(rec["hand"][other, :BLACK].sum()), int(rec["hand"][other, BLACK].sum())
        rec["hand"][other] = 0
        rec["hand"][other, rng.integers(BLACK), rng.integers(len(F.CARD_VALUES))] = coloured
        rec["hand"][other, BLACK, rng.integers(len(F.CARD_VALUES))] = black
    rec["unused_business"] = rng.permutation(rec["unused_business"])
    rec["black_returned"] = rng.integers(len(F.CARD_VALUES), size=NUM_BLACK)
    rec["black_stack"] = rng.integers(len(F.CARD_VALUES), size=NUM_BLACK)
    rec["rng"] = rng.integers(2 ** 62, size=len(rec["rng"]))
    return out


def test_nothing_hidden_changes_a_seats_picture():
    rng = np.random.default_rng(5)
    checked = 0
    for players, kind, st in all_positions():
        if kind == "game over":
            continue  # determinize takes games in play
        for seat in range(players):
            assert svg_of(_scramble_hidden(st, seat, rng), seat) == svg_of(st, seat), (players, kind, seat)
            checked += 1
    assert checked > len(PLAYER_COUNTS) * len(SEEDS) * len(KINDS)


def test_every_string_is_escaped(monkeypatch):
    names = tuple(f'<b class="x">{name} & co</b>' for name in F.PLACE_NAMES)
    businesses = tuple(f"<i>{name}</i>" for name in F.BUSINESS_TYPES)
    monkeypatch.setattr(F, "PLACE_NAMES", names)
    monkeypatch.setattr(F, "BUSINESS_TYPES", businesses)
    for _, _, st in all_positions():
        svg = svg_of(st, 0)
        root, text = parsed(svg)  # markup in a name stays text: the document still parses
        assert all(name in text for name in names)
        assert "<b " not in svg and "<i>" not in svg
        assert not root.findall(".//{http://www.w3.org/2000/svg}b")
        if st["park_business_count"] or st["supply_row"].max() >= 0:
            assert "<i>" in text  # a business tile's title


# --- through the HTTP board -----------------------------------------------------------------------
def _client():
    pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is installed by make test")
    testclient = pytest.importorskip("starlette.testclient", reason="Starlette's TestClient needs httpx2")
    from tiny_york_env.web.app import create_app
    return testclient.TestClient(create_app())


def test_the_board_serves_each_seat_its_own_view():
    client = _client()
    made = client.post("/api/games", json={"game": "fifth_avenue", "seats": ["person", "person"],
                                           "seed": 9}).json()
    tokens = made["seat_tokens"]
    for seat, token in tokens.items():
        shown = client.get(f"/api/games/{made['id']}", headers={"X-Token": token}).json()
        _, text = parsed(shown["svg"])
        other = 1 - int(seat)
        assert shown["seat"] == int(seat) and "Your hand" in text and f"seat {other}'s hand" not in text
        assert all(name in text for name in F.DISTRICT_NAMES) and "Alea" in text
    mover = tokens[str(client.get(f"/api/games/{made['id']}", headers={"X-Token": tokens["0"]})
                       .json()["to_move"])]
    legal = client.get(f"/api/games/{made['id']}", headers={"X-Token": mover}).json()["legal"]
    played = client.post(f"/api/games/{made['id']}/action", json={"action": legal[0]["action"]},
                         headers={"X-Token": mover})
    assert played.status_code == 200 and parsed(played.json()["svg"])


def test_a_watched_game_shows_every_hand_to_the_end():
    client = _client()
    made = client.post("/api/games", json={"game": "fifth_avenue", "seats": ["random", "random", "random"],
                                           "seed": 4}).json()
    host = {"X-Token": made["host_token"]}
    for _ in range(MAX_DECISIONS):
        shown = client.get(f"/api/games/{made['id']}", headers=host).json()
        _, text = parsed(shown["svg"])
        assert all(f"seat {s}'s hand" in text for s in range(3)) and "Your hand" not in text
        if shown["over"]:
            break
        client.post(f"/api/games/{made['id']}/step", json={"moves": 100}, headers=host)
    assert shown["over"] and "game over - winner" in text
