"""The browser board as a service: games kept in its SQLite database survive a restart (in
process and a killed server process), tokens are stored only as digests, racing requests on one
game are applied once, what is kept too long is removed, oversized bodies are 413, a client that
leaves mid-body leaves no traceback, and a fuzz of the JSON API finds no 500 and changes no game it
has no token for."""

import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from http.client import HTTPException
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn) is installed by make test")
pytest.importorskip("uvicorn", reason="the web extra (starlette, uvicorn) is installed by make test")
TestClient = pytest.importorskip("starlette.testclient", reason="Starlette's TestClient needs httpx2 "
                                 "(dev extra)").TestClient

from tiny_york_env.core.seeds import SEED_LIMIT  # noqa: E402
from tiny_york_env.saved_games import parse_saved_game  # noqa: E402
from tiny_york_env.web.app import MAX_BODY_BYTES, create_app  # noqa: E402
from tiny_york_env.web.database import SCHEMA_VERSION, BoardDatabase, DatabaseError  # noqa: E402
from tiny_york_env.web.sessions import GameSession, SessionError, SessionStore  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
JSON = {"Content-Type": "application/json"}
SETUPS = [{"game": "tiny_york", "seats": ["person"], "automatic": [5]},
          {"game": "construction_yard", "seats": ["person"], "automatic": ["greedy"]},
          {"game": "fifth_avenue", "seats": ["person"], "automatic": ["greedy"]}]
WATCHED = {"game": "fifth_avenue", "seats": ["greedy", "random"]}
START_WAIT_S = 60  # for the server to answer at all
WARM_UP_S = 600  # for its first game of each kind: the engines compile where numba's cache is stale
REQUEST_S = 30
MAX_DECISIONS = 2000


# ---------------------------------------------------------------- in process


def start(client, **request):
    response = client.post("/api/games", json=request)
    assert response.status_code == 200, response.text
    return response.json()


def token(made):
    return {"X-Token": made["seat_tokens"]["0"]}


def play_moves(client, made, count):
    """The person plays its first legal option ``count`` times (or to the end); the last view."""
    shown = client.get(f"/api/games/{made['id']}", headers=token(made)).json()
    for _ in range(count):
        if shown["over"]:
            break
        response = client.post(f"/api/games/{made['id']}/action", headers=token(made),
                               json={"action": shown["legal"][-1]["action"], "moves": shown["moves"]})
        assert response.status_code == 200, response.text
        shown = response.json()
    return shown


def test_a_restarted_board_takes_up_every_game_where_it_was(tmp_path):
    path = tmp_path / "board.sqlite3"
    first = BoardDatabase(path)
    client = TestClient(create_app(SessionStore(database=first)))
    games = [start(client, seed=7, **setup) for setup in SETUPS]
    watched = start(client, seed=3, **WATCHED)
    client.post(f"/api/games/{watched['id']}/step", json={"moves": 25},
                headers={"X-Token": watched["host_token"]})
    seen = [play_moves(client, made, 12) for made in games]
    host = {"X-Token": watched["host_token"]}
    seen_watched = client.get(f"/api/games/{watched['id']}", headers=host).json()
    assert all(view["moves"] >= 12 for view in seen) and seen_watched["moves"] == 25

    first.close()  # the first server stops
    again = TestClient(create_app(SessionStore(database=BoardDatabase(path))))  # a new server, same file
    for made, view in zip(games, seen, strict=True):
        assert again.get(f"/api/games/{made['id']}", headers=token(made)).json() == view
    assert again.get(f"/api/games/{watched['id']}",
                     headers={"X-Token": watched["host_token"]}).json() == seen_watched
    for made in games:  # and they play on to their ends
        assert play_moves(again, made, MAX_DECISIONS)["over"]


def test_a_damaged_row_is_refused_with_what_is_wrong_and_harms_no_other_game(tmp_path):
    path = tmp_path / "board.sqlite3"
    first = BoardDatabase(path)
    client = TestClient(create_app(SessionStore(database=first)))
    damaged, sound = start(client, seed=4, **SETUPS[1]), start(client, seed=5, **SETUPS[1])
    play_moves(client, damaged, 3)
    with sqlite3.connect(path) as db:  # an action no position allows, written by someone else
        saved = db.execute("SELECT saved FROM games WHERE id = ?", (damaged["id"],)).fetchone()[0]
        lines = saved.splitlines()
        lines[1] = lines[1].replace('"action": ', '"action": 9', 1)
        db.execute("UPDATE games SET saved = ? WHERE id = ?", ("\n".join(lines) + "\n", damaged["id"]))
    first.close()
    again = TestClient(create_app(SessionStore(database=BoardDatabase(path))))
    response = again.get(f"/api/games/{damaged['id']}", headers=token(damaged))
    assert response.status_code == 500
    assert "cannot be brought back from the database: the board's database line 2" in response.json()["error"]
    assert again.get(f"/api/games/{sound['id']}", headers=token(sound)).status_code == 200


def test_tokens_are_stored_only_as_digests(tmp_path):
    path = tmp_path / "board.sqlite3"
    client = TestClient(create_app(SessionStore(database=BoardDatabase(path))))
    made = start(client, seed=1, **SETUPS[0])
    play_moves(client, made, 3)
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir())  # the file and its WAL journal
    for secret in (made["seat_tokens"]["0"], made["host_token"]):
        assert secret.encode() not in stored
    assert made["id"].encode() in stored


def test_racing_actions_on_one_game_are_applied_once():
    """Two requests made on the same view: one is played, the other is told the game moved on."""
    store = SessionStore()
    for attempt in range(10):
        made = store.new_game({"game": "construction_yard", "seats": ["person"], "automatic": ["greedy"],
                               "seed": attempt})
        session = store.get(made["id"], GameSession)
        view = session.view(made["seat_tokens"]["0"])
        barrier, outcomes = threading.Barrier(2), []

        def act(choice, view=view, session=session, made=made, barrier=barrier, outcomes=outcomes):
            barrier.wait()
            try:
                session.act(made["seat_tokens"]["0"], choice, view["moves"])
                outcomes.append("played")
            except SessionError as error:
                outcomes.append(error.status)

        racers = [threading.Thread(target=act, args=(option["action"],)) for option in view["legal"][:2]]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join()
        assert sorted(outcomes, key=str) == [409, "played"]
        assert len(session.recorder.saved.decisions) - sum(
            seat != 0 for seat, _ in session.recorder.saved.decisions) == 1  # one person decision


def test_a_game_dropped_from_memory_while_held_stays_one_object():
    """Read back while a request still holds it, a game would be two games, each taking a move."""
    store = SessionStore(capacity=1)
    first = store.new_game({"game": "construction_yard", "seats": ["person"], "automatic": ["greedy"],
                            "seed": 1})
    held = store.get(first["id"], GameSession)
    store.new_game({"game": "construction_yard", "seats": ["person"], "automatic": ["greedy"], "seed": 2})
    assert first["id"] not in store._items  # dropped from what memory keeps
    assert store.get(first["id"], GameSession) is held
    view = held.view(first["seat_tokens"]["0"])
    held.act(first["seat_tokens"]["0"], view["legal"][0]["action"], view["moves"])
    with pytest.raises(SessionError, match="moved on"):
        store.get(first["id"], GameSession).act(first["seat_tokens"]["0"], view["legal"][-1]["action"],
                                                view["moves"])


def test_a_move_whose_write_fails_is_taken_back():
    """What the database does not have, the game does not show: a failed write (a full disk)
    leaves the game where it was, and the same request is played once the write works."""
    store = SessionStore()
    made = store.new_game({"game": "fifth_avenue", "seats": ["person"], "automatic": ["greedy"], "seed": 3})
    session, seat_token = store.get(made["id"], GameSession), made["seat_tokens"]["0"]
    before = session.view(seat_token)
    writes = store.database.save_game

    def full_disk(*args):
        raise OSError("no space left on device")
    store.database.save_game = full_disk
    with pytest.raises(OSError):
        session.act(seat_token, before["legal"][0]["action"], before["moves"])
    assert session.view(seat_token) == before
    assert len(session.recorder.saved.decisions) == before["moves"]
    store.database.save_game = writes
    session.act(seat_token, before["legal"][0]["action"], before["moves"])
    assert session.view(seat_token)["moves"] > before["moves"]


def test_what_is_kept_too_long_is_removed(tmp_path):
    database = BoardDatabase(tmp_path / "board.sqlite3")
    store = SessionStore(database=database, keep_finished_s=60, keep_idle_s=3600)
    client = TestClient(create_app(store))
    finished, idle = start(client, seed=2, **SETUPS[1]), start(client, seed=3, **SETUPS[1])
    assert play_moves(client, finished, MAX_DECISIONS)["over"]
    now = time.time()
    assert database.purge(60, 3600, now=now + 30) == []  # nothing is old yet
    assert database.purge(60, 3600, now=now + 120) == [finished["id"]]  # the finished game, after a minute
    assert database.purge(60, 3600, now=now + 4000) == [idle["id"]]  # the untouched one, after an hour
    assert database.game_ids() == []


def test_a_foreign_database_file_is_refused_with_a_clear_error(tmp_path):
    not_sqlite = tmp_path / "notes.sqlite3"
    not_sqlite.write_text("not a database")
    with pytest.raises(ValueError, match="cannot hold the board's games"):
        BoardDatabase(not_sqlite)
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE games (x)")
    with pytest.raises(ValueError, match="table 'games' is not the board's"):
        BoardDatabase(other)


def test_a_restored_game_plays_on_the_same_whenever_it_is_restored():
    """Policy seats draw, after a restore, from streams seeded by their seed and the moves played:
    two restores of one row play on alike."""
    store = SessionStore()
    made = store.new_game({**WATCHED, "seed": 11})
    store.get(made["id"], GameSession).step(made["host_token"], 10)
    row = store.database.load_game(made["id"])
    games = [GameSession.restore(store.get(made["id"], GameSession).game, row) for _ in range(2)]
    for game in games:
        assert game.moves == 10
        game.step(made["host_token"], 30)
    assert games[0].state.tobytes() == games[1].state.tobytes() and games[0].log == games[1].log
    assert games[0].moves == 40


def test_a_file_of_another_layout_version_is_refused(tmp_path):
    path = tmp_path / "board.sqlite3"
    BoardDatabase(path).close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION  # stamped when made
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")  # as a later board would leave it
    with pytest.raises(DatabaseError, match=f"another version of the board \\(layout {SCHEMA_VERSION + 1}; "
                                            f"this one reads layout {SCHEMA_VERSION}\\)"):
        BoardDatabase(path)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1  # left as it was


def test_one_server_a_database_file(tmp_path):
    """Two servers on one file would each keep their own copy of a game and overwrite each
    other's moves: the second is refused, naming the first's process, until the first closes."""
    path = tmp_path / "board.sqlite3"
    first = BoardDatabase(path)
    with pytest.raises(DatabaseError, match=f"in use by another board server \\(process {os.getpid()}\\)"):
        BoardDatabase(path)
    first.close()
    BoardDatabase(path).close()  # free again
    BoardDatabase(tmp_path / "other.sqlite3").close()  # other files are other servers'


def test_games_past_the_limit_wait_for_room_and_finished_games_make_it():
    store = SessionStore(max_games=2)
    client = TestClient(create_app(store))
    finished, playing = start(client, seed=2, **SETUPS[1]), start(client, seed=3, **SETUPS[0])
    refused = client.post("/api/games", json={"seed": 4, **SETUPS[2]})
    assert refused.status_code == 503
    assert "keeps at most 2 games and every one is in play" in refused.json()["error"]
    assert sorted(store.database.game_ids()) == sorted([finished["id"], playing["id"]])  # nothing written
    assert play_moves(client, finished, MAX_DECISIONS)["over"]
    third = start(client, seed=4, **SETUPS[2])  # the finished game makes room
    assert sorted(store.database.game_ids()) == sorted([playing["id"], third["id"]])
    assert client.get(f"/api/games/{finished['id']}", headers=token(finished)).status_code == 404
    assert client.get(f"/api/games/{playing['id']}", headers=token(playing)).status_code == 200
    with pytest.raises(ValueError, match="max_games must be a positive integer, got 0"):
        SessionStore(max_games=0)


def test_replays_past_the_limit_push_out_the_oldest_opened():
    store = SessionStore(max_replays=2)
    client = TestClient(create_app(store))
    made = start(client, seed=6, **SETUPS[1])
    saved = play_moves(client, made, MAX_DECISIONS)["saved_game"]
    opened = [client.post("/api/replays", content=saved.encode(), headers=JSON).json()["id"]
              for _ in range(3)]
    assert [client.get(f"/api/replays/{key}").status_code for key in opened] == [404, 200, 200]


def test_serve_refuses_a_file_another_server_holds(tmp_path, capsys):
    from tiny_york_env.cli import main
    path = tmp_path / "board.sqlite3"
    held = BoardDatabase(path)
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--db", str(path), "--port", "0"])
    assert exit_info.value.code != 0
    assert f"serve: error: --db: {path} is in use by another board server" in capsys.readouterr().err
    held.close()


def test_the_command_line_defaults_are_the_boards():
    from tiny_york_env import cli
    from tiny_york_env.web import sessions
    assert cli.SERVE_MAX_GAMES == sessions.MAX_GAMES and cli.SERVE_MAX_REPLAYS == sessions.MAX_REPLAYS
    assert cli.KEEP_FINISHED_DAYS * cli.DAY_S == sessions.KEEP_FINISHED_S
    assert cli.KEEP_IDLE_DAYS * cli.DAY_S == sessions.KEEP_IDLE_S


def test_oversized_bodies_are_413_with_the_limit_everywhere():
    client = TestClient(create_app())
    made = start(client, seed=1, **SETUPS[1])
    big = b"[" + b"0," * (MAX_BODY_BYTES // 2) + b"0]"
    for path in ("/api/games", f"/api/games/{made['id']}/action", f"/api/games/{made['id']}/step",
                 "/api/replays"):
        response = client.post(path, content=big, headers={**JSON, **token(made)})
        assert response.status_code == 413, (path, response.text)
        assert f"{MAX_BODY_BYTES:,} bytes at most" in response.json()["error"]


def test_seeds_go_up_to_the_librarys_limit_and_the_page_may_send_them_as_text():
    client = TestClient(create_app())
    top = start(client, seed=SEED_LIMIT - 1, **SETUPS[0])
    assert top["seed"] == SEED_LIMIT - 1
    assert start(client, seed=str(SEED_LIMIT - 1), **SETUPS[0])["seed"] == SEED_LIMIT - 1
    for bad in (SEED_LIMIT, -1, "12a", "1" * 40, 1.5, True, "\u00b2", "\u0661\u0662", " 1"):
        response = client.post("/api/games", json={**SETUPS[0], "seed": bad})
        assert response.status_code == 400 and "seed must be an integer 0-" in response.json()["error"]


def test_the_favicon_is_served():
    client = TestClient(create_app())
    for path in ("/favicon.svg", "/favicon.ico"):
        response = client.get(path)
        assert response.status_code == 200 and response.text.startswith("<svg")


# ---------------------------------------------------------------- fuzz


def random_body(rng):
    """A body a careless or hostile client might send."""
    kind = rng.randrange(9)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
    if kind == 1:
        return b"[" * rng.randrange(1, 5000)  # deep nesting
    if kind == 2:
        return json.dumps({"action": rng.choice([0, -1, 2 ** 70, "3", None, [], 1.5, True]),
                           "moves": rng.choice([0, 1, -5, "x", None, 2 ** 64])}).encode()
    if kind == 3:
        return json.dumps({"moves": rng.choice([1, 0, -3, 10 ** 9, "1", None])}).encode()
    if kind == 4:
        return json.dumps({"game": rng.choice(["tiny_york", "nope", 3]),
                           "seats": rng.choice([["person"], [], ["x"] * 9, "person", [["person"]]]),
                           "automatic": rng.choice([[5], [99], ["greedy"], {}, [True]]),
                           "seed": rng.choice([1, -1, 2 ** 64, "7", None])}).encode()
    if kind == 5:
        return json.dumps(rng.choice([None, 1, "s", [], {}, {"extra": 1}])).encode()
    if kind == 6:
        return b"\xff\xfe" + b"x" * rng.randrange(20)
    if kind == 7:
        return b""
    return ('{"game":"tiny_york"}\n' * rng.randrange(1, 4)).encode()


def test_a_fuzz_of_the_json_api_finds_no_500_and_changes_no_game_it_has_no_token_for():
    database = BoardDatabase()
    store = SessionStore(database=database)
    client = TestClient(create_app(store))  # a server exception would be raised here, not hidden
    guarded = [start(client, seed=5, **setup) for setup in SETUPS]
    guarded_watch = start(client, seed=5, **WATCHED)
    mine = start(client, seed=6, **SETUPS[0])
    before = {made["id"]: database.load_game(made["id"]) for made in [*guarded, guarded_watch]}
    rng = random.Random(20261129)
    ids = [made["id"] for made in [*guarded, guarded_watch, mine]] + ["", "x" * 300, "../etc", "%00", "a b"]
    tokens = [None, "", "x" * 22, "y" * 5000, mine["seat_tokens"]["0"], mine["host_token"], "\u00e9"]
    statuses = set()
    for _ in range(1500):
        game_id = rng.choice(ids)
        at = rng.choice(["0", "-1", "x", "9" * 12])
        path = rng.choice([f"/api/games/{game_id}", f"/api/games/{game_id}/action",
                           f"/api/games/{game_id}/step", "/api/games", "/api/replays",
                           f"/api/replays/{game_id}?at={at}", "/api/info"])
        headers = {}
        if rng.random() < 0.8:
            headers["Content-Type"] = rng.choice(["application/json", "text/plain",
                                                  "application/json; charset=utf-8", ""])
        chosen = rng.choice(tokens)
        if chosen is not None and chosen.isascii():
            headers["X-Token"] = chosen
        if rng.random() < 0.1:
            headers["Origin"] = rng.choice(["http://evil.example", "http://testserver", "null"])
        method = rng.choice(["GET", "POST", "POST", "PUT", "DELETE"])
        response = client.request(method, path, content=random_body(rng) if method != "GET" else None,
                                  headers=headers)
        statuses.add(response.status_code)
        assert response.status_code < 500, (method, path, headers, response.text)
    assert statuses >= {200, 400, 403, 404, 405}
    for game_id, row in before.items():
        assert database.load_game(game_id) == row  # untouched: no token of theirs was ever sent


# ---------------------------------------------------------------- a real server process, killed


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def http(base, method, path, body=None, headers=None, timeout=REQUEST_S):
    """(status, JSON) of one request to the server at ``base``."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={**JSON, **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def start_server(database: Path, port: int, log: Path) -> subprocess.Popen:
    """``tiny-york serve`` in its own process, once it answers."""
    process = subprocess.Popen([sys.executable, "-m", "tiny_york_env.cli", "serve", "--port", str(port),
                                "--db", str(database)], stdout=log.open("ab"), stderr=subprocess.STDOUT,
                               cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_WAIT_S
    while True:
        try:
            http(base, "GET", "/api/info")
            break
        except (urllib.error.URLError, ConnectionError):
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "the board's server did not start"
            time.sleep(0.2)
    for setup in SETUPS:  # each engine loaded (or compiled) before the timed requests
        status, made = http(base, "POST", "/api/games", setup, timeout=WARM_UP_S)
        assert status == 200, made
        http(base, "GET", f"/api/games/{made['id']}", headers={"X-Token": made["seat_tokens"]["0"]},
             timeout=WARM_UP_S)
    return process


def player(base, made, acknowledged, stop):
    """Play the person's first option until the end or ``stop``; note each answered move."""
    headers = {"X-Token": made["seat_tokens"]["0"]}
    status, shown = http(base, "GET", f"/api/games/{made['id']}", headers=headers)
    while status == 200 and not shown["over"] and not stop.is_set():
        try:
            status, shown = http(base, "POST", f"/api/games/{made['id']}/action",
                                 {"action": shown["legal"][0]["action"], "moves": shown["moves"]}, headers)
        except (urllib.error.URLError, HTTPException, OSError):
            return  # the server was killed under it (mid-answer: IncompleteRead)
        if status == 200:
            acknowledged[made["id"]] = shown["moves"]


def test_a_killed_server_loses_no_answered_move(tmp_path):
    database, log = tmp_path / "board.sqlite3", tmp_path / "server.log"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(database, port, log)
    try:
        with pytest.raises(DatabaseError, match=f"in use by another board server \\(process {server.pid}\\)"):
            BoardDatabase(database)  # a second server on the file is refused while the first runs
        games = [http(base, "POST", "/api/games", {**setup, "seed": seed})[1]
                 for seed in range(4) for setup in SETUPS]
        acknowledged, stop = {}, threading.Event()
        players = [threading.Thread(target=player, args=(base, made, acknowledged, stop)) for made in games]
        for thread in players:
            thread.start()
        time.sleep(3)
        # a client that says it sends a body and leaves mid-way
        with socket.create_connection(("127.0.0.1", port)) as leaving:
            leaving.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
                            b"\r\nContent-Length: 500000\r\n\r\n{\"game\"")
        time.sleep(1.5)  # the server hears the client leave
        server.send_signal(signal.SIGKILL)  # mid-run: requests in flight
        server.wait()
        stop.set()
        for thread in players:
            thread.join()
        assert acknowledged, "no move was answered before the kill"
        server = start_server(database, port, log)
        for made in games:
            status, shown = http(base, "GET", f"/api/games/{made['id']}",
                                 headers={"X-Token": made["seat_tokens"]["0"]})
            assert status == 200
            # every answered move is there (a move in flight at the kill may be there too)
            assert shown["moves"] >= acknowledged.get(made["id"], 0)
        stop.clear()
        players = [threading.Thread(target=player, args=(base, made, acknowledged, stop)) for made in games]
        for thread in players:
            thread.start()
        for thread in players:
            thread.join()
        for made in games:  # every game played on to its end after the restart
            shown = http(base, "GET", f"/api/games/{made['id']}",
                         headers={"X-Token": made["seat_tokens"]["0"]})[1]
            assert shown["over"] and shown["winners"]
    finally:
        server.kill()
        server.wait()
    assert "Traceback" not in log.read_text()


def racing_player(base, made, outcomes):
    """Play a whole game sending every action twice at once (a double click): one must be played
    and the other told the game moved on."""
    headers = {"X-Token": made["seat_tokens"]["0"]}
    status, shown = http(base, "GET", f"/api/games/{made['id']}", headers=headers)
    while status == 200 and not shown["over"]:
        body = {"action": shown["legal"][0]["action"], "moves": shown["moves"]}
        answers = [None, None]

        def send(slot, body=body, answers=answers):
            answers[slot] = http(base, "POST", f"/api/games/{made['id']}/action", body, headers)
        twins = [threading.Thread(target=send, args=(slot,)) for slot in range(2)]
        for twin in twins:
            twin.start()
        for twin in twins:
            twin.join()
        codes = sorted(code for code, _ in answers)
        outcomes.append(codes)
        if codes != [200, 409]:
            return
        status, shown = next(answer for answer in answers if answer[0] == 200)


LOAD_GAMES = 8  # a game of each kind per client kind: 24 people at once, 8 of them double-clicking


def test_many_people_play_whole_games_at_once(tmp_path):
    """A bounded load test on loopback: people play whole games of every kind against Toms and
    bots at once, some sending every action twice; every game ends, every double is applied once,
    and each finished game's saved file replays to the scores shown."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(tmp_path / "board.sqlite3", port, tmp_path / "server.log")
    try:
        games = [http(base, "POST", "/api/games", {**setup, "seed": 100 + seed})[1]
                 for seed in range(LOAD_GAMES) for setup in SETUPS]
        acknowledged, stop, outcomes = {}, threading.Event(), []
        people = [threading.Thread(target=racing_player, args=(base, made, outcomes)) if i % 3 == 0 else
                  threading.Thread(target=player, args=(base, made, acknowledged, stop))
                  for i, made in enumerate(games)]
        for thread in people:
            thread.start()
        for thread in people:
            thread.join()
        assert outcomes and all(codes == [200, 409] for codes in outcomes)
        for made in games:
            shown = http(base, "GET", f"/api/games/{made['id']}",
                         headers={"X-Token": made["seat_tokens"]["0"]})[1]
            assert shown["over"]
            assert parse_saved_game(shown["saved_game"]).result["scores"] == shown["scores"]
    finally:
        server.terminate()
        server.wait()
    assert "Traceback" not in (tmp_path / "server.log").read_text()
