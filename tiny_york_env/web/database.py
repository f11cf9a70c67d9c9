"""Where the browser board keeps its games and replays: SQLite, one row a game or replay.

A game's row holds what is needed to bring it back after a restart: its setup (game, seats,
engine-played participants, seed, names, policy seeds), its seats' and host's tokens as SHA-256
digests (the tokens themselves are handed out once and never stored), the saved game's lines
(``saved_games.py``: the decisions played so far), the log shown beside the board, and when it
last changed. ``sessions.SessionStore`` writes a game's row before it answers the request that
changed it; a file database survives a killed server (WAL journal: a write is in the file once
committed, ``synchronous=NORMAL``). Finished games, replays (from when they were opened) and games
nobody has played for a while are removed after the times the store is given. A new file and
folder are readable by their owner only: the file holds every game's seed.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

MEMORY = ":memory:"
PRIVATE_DIR, PRIVATE_FILE = 0o700, 0o600  # a new folder and file: their owner only
BUSY_TIMEOUT_S = 10.0  # how long a write waits for another process's lock on a shared file

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    setup TEXT NOT NULL,
    person_digests TEXT NOT NULL,
    host_digest TEXT NOT NULL,
    saved TEXT NOT NULL,
    log TEXT NOT NULL,
    moves INTEGER NOT NULL,
    over INTEGER NOT NULL,
    changed REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS replays (
    id TEXT PRIMARY KEY,
    text TEXT NOT NULL,
    changed REAL NOT NULL
);
"""


class DatabaseError(ValueError):
    """A database file the board cannot use (not SQLite, not writable, another schema)."""


def token_digest(token: str) -> str:
    """The SHA-256 hex digest a token is stored as (tokens are 128 random bits: no salt needed)."""
    return hashlib.sha256(token.encode()).hexdigest()


class BoardDatabase:
    """The board's SQLite database (a file, created on first use, or ``":memory:"``); thread-safe."""

    def __init__(self, path: str | Path = MEMORY) -> None:
        """Open (or create) the database at ``path``; DatabaseError if it cannot be used."""
        self.path = str(path)
        if self.path != MEMORY:  # it holds every game's seed, so every hidden hand: owner only
            file = Path(self.path).expanduser()
            file.parent.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)
            if not file.exists():
                file.touch(mode=PRIVATE_FILE)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(str(Path(self.path).expanduser()) if self.path != MEMORY else MEMORY,
                                       check_same_thread=False, timeout=BUSY_TIMEOUT_S)
            if self.path != MEMORY:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)
            self._check_columns()
        except sqlite3.DatabaseError as error:
            raise DatabaseError(f"{self.path} cannot hold the board's games: {error}") from None

    def _check_columns(self) -> None:
        """A file made by something else with tables of the same names is refused."""
        for table, expected in (("games", 9), ("replays", 3)):
            columns = self._db.execute(f"PRAGMA table_info({table})").fetchall()
            if len(columns) != expected:
                raise sqlite3.DatabaseError(f"its table {table!r} is not the board's")

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()

    # --- games ------------------------------------------------------------------------------
    def save_game(self, key: str, row: dict[str, Any]) -> None:
        """Write (insert or replace) game ``key``: ``row`` as ``GameSession.row()`` makes it."""
        with self._lock, self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (key, json.dumps(row["setup"]), json.dumps(row["person_digests"]), row["host_digest"],
                 row["saved"], json.dumps(row["log"]), row["moves"], int(row["over"]), time.time()))

    def load_game(self, key: str) -> dict[str, Any] | None:
        """Game ``key``'s row as ``save_game`` took it, or None."""
        with self._lock:
            found = self._db.execute("SELECT setup, person_digests, host_digest, saved, log, moves, over "
                                     "FROM games WHERE id = ?", (key,)).fetchone()
        if found is None:
            return None
        setup, digests, host, saved, log, moves, over = found
        return {"setup": json.loads(setup), "person_digests": json.loads(digests), "host_digest": host,
                "saved": saved, "log": json.loads(log), "moves": moves, "over": bool(over)}

    def game_ids(self) -> list[str]:
        """The ids of every game kept."""
        with self._lock:
            return [key for key, in self._db.execute("SELECT id FROM games ORDER BY changed")]

    # --- replays ----------------------------------------------------------------------------
    def save_replay(self, key: str, text: str) -> None:
        """Keep replay ``key``'s saved-game text."""
        with self._lock, self._db:
            self._db.execute("INSERT OR REPLACE INTO replays VALUES (?, ?, ?)", (key, text, time.time()))

    def load_replay(self, key: str) -> str | None:
        """Replay ``key``'s text, or None."""
        with self._lock:
            found = self._db.execute("SELECT text FROM replays WHERE id = ?", (key,)).fetchone()
        return None if found is None else found[0]

    # --- forgetting -------------------------------------------------------------------------
    def purge(self, keep_finished_s: float, keep_idle_s: float, now: float | None = None) -> list[str]:
        """Remove the games finished more than ``keep_finished_s`` ago, those nobody has moved in
        for ``keep_idle_s``, and replays opened more than ``keep_finished_s`` ago; the ids removed."""
        now = time.time() if now is None else now
        with self._lock, self._db:
            old = [key for key, in self._db.execute(
                "SELECT id FROM games WHERE (over = 1 AND changed < ?) OR changed < ?",
                (now - keep_finished_s, now - keep_idle_s))]
            self._db.executemany("DELETE FROM games WHERE id = ?", [(key,) for key in old])
            old_replays = [key for key, in self._db.execute("SELECT id FROM replays WHERE changed < ?",
                                                             (now - keep_finished_s,))]
            self._db.executemany("DELETE FROM replays WHERE id = ?", [(key,) for key in old_replays])
        return old + old_replays
