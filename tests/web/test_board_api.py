"""The browser board's server (``tiny_york_env.web``) through HTTP: games of both games played to
the end, tokens per seat, illegal and foreign requests refused, watched games, replays."""

import json

import pytest

from tiny_york_env.registry import game_names, get_game

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is installed by make test")
# Starlette's TestClient runs on httpx2 (dev extra; it also takes httpx, with a deprecation warning)
TestClient = pytest.importorskip("starlette.testclient", reason="Starlette's TestClient needs httpx2 "
                                 "(dev extra)").TestClient

from tiny_york_env.cli import build_parser  # noqa: E402
from tiny_york_env.saved_games import parse_saved_game  # noqa: E402
from tiny_york_env.web.app import MAX_BODY_BYTES, create_app  # noqa: E402
from tiny_york_env.web.sessions import SessionStore  # noqa: E402

MAX_DECISIONS = 2000
JSON = {"Content-Type": "application/json"}


@pytest.fixture
def client():
    return TestClient(create_app())


def start(client, **request):
    response = client.post("/api/games", json=request)
    assert response.status_code == 200, response.text
    return response.json()


def _token(token):
    return {} if token is None else {"X-Token": token}


def view(client, game_id, token):
    return client.get(f"/api/games/{game_id}", headers=_token(token))


def act(client, game_id, token, action):
    return client.post(f"/api/games/{game_id}/action", json={"action": action}, headers=_token(token))


def play_out(client, game_id, token):
    """Play the first legal action at every turn of the person; the final view."""
    for _ in range(MAX_DECISIONS):
        shown = view(client, game_id, token).json()
        if shown["over"]:
            return shown
        assert shown["legal"], "the person's turn shows no option"
        response = act(client, game_id, token, shown["legal"][0]["action"])
        assert response.status_code == 200, response.text
    raise AssertionError("the game did not end")


def test_the_page_and_its_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "<script src=\"/board.js\">" in page.text
    assert client.get("/board.js").headers["content-type"].startswith("text/javascript")
    games = client.get("/api/info").json()["games"]
    assert [g["name"] for g in games] == game_names()  # every registered game, plug-ins too
    assert [g["name"] for g in games][:3] == ["tiny_york", "construction_yard", "fifth_avenue"]
    assert all(g["legend"] and "Type the number" not in g["legend"] for g in games)  # no terminal keys


def test_a_whole_game_against_tom_5(client):
    made = start(client, game="tiny_york", seats=["person"], automatic=[5], seed=11)
    token = made["seat_tokens"]["0"]
    first = view(client, made["id"], token).json()
    assert first["seat"] == 0 and first["names"] == ["you", "Tom 5 (B4)"]
    assert first["svg"].startswith("<svg") and "Your hand" in first["svg"]
    # each option names the places of the board it refers to, as the game contract says
    game = get_game("tiny_york")
    state = game.new_game(game.make_config(num_agents=1, toms=(5,)), 11)
    assert [option["places"] for option in first["legal"]] == \
        [list(game.places_of(option["action"], state)) for option in first["legal"]]
    assert first["legal"][0]["places"] == ["stack-0"]  # the start-character stacks: on the board
    final = play_out(client, made["id"], token)
    assert len(final["scores"]) == 2 and final["winners"]
    assert any(line.startswith("Tom 5 (B4): bid") for line in final["log"])  # Tom's moves, logged
    saved = parse_saved_game(final["saved_game"])  # the game as a saved file replays to its end
    assert saved.result["scores"] == final["scores"]


@pytest.mark.parametrize("game", game_names())
def test_the_setup_pages_defaults_start_and_finish_a_game_of_every_game(client, game):
    info = next(g for g in client.get("/api/info").json()["games"] if g["name"] == game)
    automatic = [int(a) if a.isdigit() else a for a in info["automatic_default"]]  # as board.js sends
    assert info["seat_default"] == ["person"]
    assert set(info["automatic_default"]) <= set(map(str, info["automatic"]))
    assert len(info["automatic_labels"]) == len(info["automatic"])
    made = start(client, game=game, seats=info["seat_default"], automatic=automatic, seed=5)
    final = play_out(client, made["id"], made["seat_tokens"]["0"])
    assert len(final["scores"]) >= 2 and final["winners"]


def test_construction_yard_with_a_policy_and_a_bot(client):
    made = start(client, game="construction_yard", seats=["person", "greedy"], automatic=["random"],
                 seed=3)
    final = play_out(client, made["id"], made["seat_tokens"]["0"])
    assert final["names"] == ["you", "greedy", "random bot"] and len(final["scores"]) == 3
    assert any(line.startswith("random bot: ") for line in final["log"])


def test_tokens_open_only_their_own_seat():
    client = TestClient(create_app())
    made = start(client, game="tiny_york", seats=["person", "person"], automatic=[], seed=4)
    tokens = made["seat_tokens"]
    assert set(tokens) == {"0", "1"} and tokens["0"] != tokens["1"]
    shown = view(client, made["id"], tokens["0"]).json()
    to_move = shown["to_move"]
    mover, other = tokens[str(to_move)], tokens[str(1 - to_move)]
    legal = view(client, made["id"], mover).json()["legal"]
    waiting = view(client, made["id"], other).json()
    assert legal and waiting["legal"] == []
    refused = act(client, made["id"], other, legal[0]["action"])  # the other seat acts out of turn
    assert refused.status_code == 409 and "not yours" in refused.json()["error"]
    for bad in (None, "", "x" * 22, made["host_token"]):
        assert view(client, made["id"], bad).status_code == 403, bad
        assert act(client, made["id"], bad, legal[0]["action"]).status_code == 403
    # each seat sees its own hand only (R25): the other hand shows only its size
    assert "hand: " in view(client, made["id"], mover).json()["text"]
    assert act(client, made["id"], mover, legal[0]["action"]).status_code == 200


def test_illegal_and_malformed_actions_are_refused_and_change_nothing(client):
    made = start(client, game="tiny_york", seats=["person"], automatic=[5], seed=2)
    token = made["seat_tokens"]["0"]
    before = view(client, made["id"], token).json()
    legal = {option["action"] for option in before["legal"]}
    illegal = next(a for a in range(1000) if a not in legal)
    response = act(client, made["id"], token, illegal)
    assert response.status_code == 400 and f"action {illegal} is not legal here" in response.json()["error"]
    for bad in ("3", 1.5, True, None):
        response = act(client, made["id"], token, bad)
        assert response.status_code == 400 and "integer action id" in response.json()["error"]
    response = client.post(f"/api/games/{made['id']}/action", content=b"{not json",
                           headers={"X-Token": token, **JSON})
    assert response.status_code == 400 and "not JSON" in response.json()["error"]
    after = view(client, made["id"], token).json()
    assert after["moves"] == before["moves"] and after["text"] == before["text"]


@pytest.mark.parametrize("request_body,words", [
    ({"game": "chess"}, "unknown game 'chess'"),
    ({"seats": []}, "seats must be a list of 1-6 names"),
    ({"seats": ["person", "alphazero"], "automatic": [5]}, "seat 'alphazero' is not offered"),
    ({"seats": ["person", "ppo:/etc/passwd"], "automatic": [5]}, "is not offered"),
    ({"seats": ["person", "search:1000000000"], "automatic": [5]}, "is not offered"),
    ({"seats": ["person"], "automatic": [13]}, "bad setup"),
    ({"seats": ["person"], "automatic": [5], "seed": -1}, "seed must be an integer"),
    ({"seats": ["person"], "colour": "red"}, "unknown keys ['colour']"),
    ([1, 2], "must be a JSON object"),
])
def test_bad_game_requests_say_what_is_allowed(client, request_body, words):
    response = client.post("/api/games", json=request_body)
    assert response.status_code == 400 and words in response.json()["error"]


def test_a_watched_game_is_stepped_by_its_host_only(client):
    made = start(client, game="tiny_york", seats=["greedy", "random"], automatic=[3], seed=5)
    assert made["seat_tokens"] == {}
    game_id, host = made["id"], made["host_token"]
    assert client.post(f"/api/games/{game_id}/step", json={"moves": 3}).status_code == 403
    assert client.post(f"/api/games/{game_id}/step", json={"moves": 3},
                       headers={"X-Token": host}).json() == {"played": 3}
    shown = view(client, game_id, host).json()
    assert shown["watch"] and shown["moves"] == 3 and shown["legal"] == []
    assert "seat 0 agent:" in shown["svg"] and "seat 1 agent:" in shown["svg"]  # every agent's hand
    while not view(client, game_id, host).json()["over"]:
        client.post(f"/api/games/{game_id}/step", json={"moves": 50}, headers={"X-Token": host})
    assert client.post(f"/api/games/{game_id}/step", json={"moves": 1},
                       headers={"X-Token": host}).json() == {"played": 0}


def test_a_saved_game_opens_and_scrubs(client):
    made = start(client, game="tiny_york", seats=["person"], automatic=[5], seed=7)
    final = play_out(client, made["id"], made["seat_tokens"]["0"])
    opened = client.post("/api/replays", content=final["saved_game"].encode(), headers=JSON).json()
    total = opened["total"]
    assert total == final["moves"]
    start_view = client.get(f"/api/replays/{opened['id']}?at=0").json()
    assert start_view["at"] == 0 and start_view["decision"] == "the start"
    middle = client.get(f"/api/replays/{opened['id']}?at=5").json()
    assert middle["decision"].startswith("you: ") and middle["svg"].startswith("<svg")
    end = client.get(f"/api/replays/{opened['id']}?at={total + 50}").json()
    assert end["at"] == total and end["over"]
    assert client.get(f"/api/replays/{opened['id']}?at=x").status_code == 400
    assert client.get("/api/replays/nope").status_code == 404


def test_a_corrupted_or_huge_upload_is_refused(client):
    made = start(client, game="tiny_york", seats=["person"], automatic=[5], seed=8)
    text = play_out(client, made["id"], made["seat_tokens"]["0"])["saved_game"]
    header = text.splitlines()[0]
    lines = [header, json.dumps({"seat": 0, "action": 999})]
    response = client.post("/api/replays", content="\n".join(lines).encode(), headers=JSON)
    assert response.status_code == 400
    assert "line 2: action 999 is not legal here" in response.json()["error"]
    for bad_line in ("[" * 200_000, "9" * 5000):  # nesting too deep, an integer too long
        response = client.post("/api/replays", content=f"{header}\n{bad_line}".encode(), headers=JSON)
        assert response.status_code == 400 and "line 2" in response.json()["error"]
    response = client.post("/api/replays", content=b"x" * (MAX_BODY_BYTES + 1), headers=JSON)
    assert response.status_code == 413
    assert client.post("/api/replays", content=b"\xff\xfe", headers=JSON).status_code == 400
    response = client.post("/api/replays", content=header.encode() + b"\n\xff", headers=JSON)
    assert response.status_code == 400
    assert "line 2: cannot read a saved game: not UTF-8 text (byte 0xff at column 1)" in \
        response.json()["error"]


def test_games_beyond_what_memory_keeps_are_read_back_where_they_were():
    store = SessionStore(capacity=3)
    client = TestClient(create_app(store))
    games = [start(client, game="tiny_york", seats=["person"], automatic=[5], seed=s) for s in range(4)]
    assert len({g["id"] for g in games}) == 4
    first = games[0]["id"], games[0]["seat_tokens"]["0"]
    before = view(client, *first).json()
    assert act(client, *first, before["legal"][0]["action"]).status_code == 200
    moved = view(client, *first).json()
    for g in games[1:]:  # the first game leaves memory
        shown = view(client, g["id"], g["seat_tokens"]["0"])
        assert shown.status_code == 200
    assert len(store) == 3 and first[0] not in store._items
    assert view(client, *first).json() == moved  # read back from the database, as it was
    # a token of one game opens nothing in another
    assert view(client, games[1]["id"], games[2]["seat_tokens"]["0"]).status_code == 403


def test_serve_binds_to_this_machine_by_default():
    args = build_parser().parse_args(["serve"])
    assert args.host == "127.0.0.1" and args.port == 8000


def test_a_seat_never_gets_the_saved_game_before_the_end(client):
    """It holds the seed and every decision: replaying it would show the other hands."""
    made = start(client, game="tiny_york", seats=["person", "person"], automatic=[5], seed=6)
    for token in made["seat_tokens"].values():
        assert "saved_game" not in view(client, made["id"], token).json()


def test_requests_from_other_pages_and_hosts_are_refused(client):
    """A form or text/plain POST (no preflight) from another site, a foreign Origin, a foreign
    Host (DNS rebinding), malformed bodies and positions: clear errors, never a 500."""
    body = json.dumps({"seats": ["person"], "automatic": [5]})
    plain = client.post("/api/games", content=body, headers={"Content-Type": "text/plain"})
    assert plain.status_code == 415 and "application/json" in plain.json()["error"]
    foreign = client.post("/api/games", content=body, headers={**JSON, "Origin": "http://evil.example"})
    assert foreign.status_code == 403
    assert client.get("/api/info", headers={"Host": "evil.example"}).status_code == 400
    for bad in (b"[" * 200_000, b"9" * 5000, b"{not json"):
        response = client.post("/api/games", content=bad, headers=JSON)
        assert response.status_code == 400 and "not JSON" in response.json()["error"]
    made = start(client, game="tiny_york", seats=["greedy", "random"], automatic=[5], seed=2)
    saved = view(client, made["id"], made["host_token"]).json()["saved_game"]  # a watched game's
    opened = client.post("/api/replays", content=saved.encode(), headers=JSON).json()
    for at in ("²", "--3", "9" * 5000, ""):
        assert client.get(f"/api/replays/{opened['id']}?at={at}").status_code == 400
