"""The browser board under load: games in play at once, actions a second and their latency.

Starts ``tiny-york serve`` (one process, its games in a fresh SQLite file) and, for each load
level, as many simulated people as games in play: each plays a whole game of one of the three
games against the engine's participants (Tom 5, greedy bots; a new game when one ends), thinking
a random time between decisions (exponential, ``--think`` seconds on average) and then sending
its action as the page does (``POST /api/games/{id}/action`` with the view's ``moves``; the answer
is the next view, the engine's moves included). An action's latency is the time from sending it
to the whole answer. Each level runs ``--seconds`` after a warm-up; its row: games in play,
actions a second, latency percentiles, failed requests, the server's processes and memory.

    python benchmarks/board_load.py [--games 25 50 100 200] [--think 2] [--seconds 60] [--out FILE.json]
"""

import argparse
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from result_file import write_table_result

SETUPS = [{"game": "tiny_york", "seats": ["person"], "automatic": [5]},
          {"game": "construction_yard", "seats": ["person"], "automatic": ["greedy"]},
          {"game": "fifth_avenue", "seats": ["person"], "automatic": ["greedy"]}]
START_WAIT_S = 600  # the server's first games may compile the engines
WARM_UP_S = 10  # each level's people start their games (spread over this) before timing
TIMEOUT_S = 60
PERCENTILES = (50, 95, 99)
PAGE_SIZE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Client:
    """One person's keep-alive connection to the board."""

    def __init__(self, port: int) -> None:
        """A connection to the board on ``port``."""
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT_S)

    def call(self, method: str, path: str, body=None, token: str | None = None):
        """(status, JSON answer) of one request; a broken connection is opened again once."""
        headers = {"Content-Type": "application/json"}
        if token:
            headers["X-Token"] = token
        data = None if body is None else json.dumps(body)
        for attempt in range(2):
            try:
                self.connection.request(method, path, body=data, headers=headers)
                response = self.connection.getresponse()
                return response.status, json.loads(response.read())
            except (http.client.HTTPException, OSError):
                self.connection.close()
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT_S)
                if attempt:
                    raise
        raise AssertionError("unreachable")


class Level:
    """One load level's shared tallies."""

    def __init__(self) -> None:
        """Empty tallies, not timing yet."""
        self.lock = threading.Lock()
        self.latencies: list[float] = []
        self.failures = 0
        self.timing = False
        self.stop = threading.Event()

    def note(self, seconds: float | None) -> None:
        """One action's latency (None: it failed), counted once timing has started."""
        with self.lock:
            if not self.timing:
                return
            if seconds is None:
                self.failures += 1
            else:
                self.latencies.append(seconds)


def person(port: int, level: Level, think_s: float, seed: int) -> None:
    """Play games one after another until the level stops, thinking between decisions."""
    rng = random.Random(seed)
    client = Client(port)
    level.stop.wait(rng.uniform(0, WARM_UP_S))  # people arrive over the warm-up
    while not level.stop.is_set():
        setup = {**rng.choice(SETUPS), "seed": rng.randrange(2 ** 62)}
        status, made = client.call("POST", "/api/games", setup)
        if status != 200:
            level.note(None)
            continue
        token = made["seat_tokens"]["0"]
        status, view = client.call("GET", f"/api/games/{made['id']}", token=token)
        while status == 200 and not view["over"] and not level.stop.is_set():
            if level.stop.wait(rng.expovariate(1 / think_s)):
                return
            action = rng.choice(view["legal"])["action"]
            start = time.perf_counter()
            try:
                status, answer = client.call("POST", f"/api/games/{made['id']}/action",
                                             {"action": action, "moves": view["moves"]}, token)
            except (http.client.HTTPException, OSError):
                status, answer = 0, None
            level.note(time.perf_counter() - start if status == 200 else None)
            if status == 200:
                view = answer


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def server_memory_mb(pid: int) -> float:
    """The resident memory of process ``pid`` and its children, in MB (Linux's /proc)."""
    total_kb = 0
    pids = [pid] + [int(child) for child in
                    Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    for each in pids:
        total_kb += int(Path(f"/proc/{each}/statm").read_text().split()[1]) * PAGE_SIZE_KB
    return total_kb / 1024


def run_level(port: int, games: int, think_s: float, seconds: float) -> tuple[Level, float]:
    """Play ``games`` games at once for ``seconds`` after the warm-up; the tallies and the
    seconds timed."""
    level = Level()
    people = [threading.Thread(target=person, args=(port, level, think_s, seed), daemon=True)
              for seed in range(games)]
    for thread in people:
        thread.start()
    time.sleep(WARM_UP_S)
    with level.lock:
        level.timing = True
    started = time.perf_counter()
    time.sleep(seconds)
    with level.lock:
        level.timing = False
    timed = time.perf_counter() - started
    level.stop.set()
    for thread in people:
        thread.join(TIMEOUT_S)
    return level, timed


def start_server(database: Path, port: int) -> subprocess.Popen:
    """``tiny-york serve`` on ``port`` over ``database``, once each game has been played once."""
    server = subprocess.Popen([sys.executable, "-m", "tiny_york_env.cli", "serve", "--port", str(port),
                               "--db", str(database)], stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + START_WAIT_S
    client = None
    while client is None:
        try:
            client = Client(port)
            client.call("GET", "/api/info")
        except OSError:
            client = None
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the board's server did not start") from None
            time.sleep(0.2)
    for setup in SETUPS:
        status, made = client.call("POST", "/api/games", setup)
        assert status == 200, made
        client.call("GET", f"/api/games/{made['id']}", token=made["seat_tokens"]["0"])
    return server


def main() -> None:
    """Measure every level; print the table and write it with ``--out``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[25, 50, 100, 200],
                        help="games in play at once, one level each")
    parser.add_argument("--think", type=float, default=2.0, help="a person's mean seconds between decisions")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds timed at each level")
    parser.add_argument("--out", help="write the table as a result file (docs/results)")
    args = parser.parse_args()
    columns = ["games in play", "actions/s", "p50 ms", "p95 ms", "p99 ms", "failed", "server processes",
               "server memory MB"]
    rows = []
    print(" | ".join(columns), flush=True)
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_server(Path(folder) / "board.sqlite3", port)
        try:
            for games in args.games:
                level, timed = run_level(port, games, args.think, args.seconds)
                latencies = level.latencies or [float("nan")]
                row = [games, f"{len(level.latencies) / timed:,.1f}",
                       *[f"{1000 * percentile(latencies, p):,.1f}" for p in PERCENTILES],
                       level.failures, 1, f"{server_memory_mb(server.pid):,.0f}"]
                rows.append(row)
                print(" | ".join(str(cell) for cell in row), flush=True)
        finally:
            server.terminate()
            server.wait()
    if args.out:
        write_table_result(Path(args.out), columns, rows,
                           note=f"one server process (uvicorn, its games in SQLite); each game one simulated "
                                f"person against the engine (Tom 5 or greedy bots, the three games in turn), "
                                f"thinking {args.think:g} s on average between decisions; latency: an "
                                f"action's request to its answer (the engine's replies and the next view); "
                                f"{args.seconds:g} s timed a level; clients on the same machine")


if __name__ == "__main__":
    main()
