"""Where the browser board keeps its games and replays: SQLite, one row a game or replay.

A game's row holds what is needed to bring it back after a restart: its setup (game, seats,
engine-played participants, seed, names, policy seeds), its seats' and host's tokens as SHA-256
digests (the tokens themselves are handed out once and never stored), the saved game's lines
(``saved_games.py``: the decisions played so far), the log shown beside the board, and when it
last changed. ``sessions.SessionStore`` writes a game's row before it answers the request that
changed it; a file database survives a killed server (WAL journal: a write is in the file once
committed, ``synchronous=NORMAL``). Finished games, replays (from when they were opened) and games
nobody has played for a while are removed after the times the store is given, and the file holds
at most the games and replays it is given room for (``insert_game``, ``save_replay``). A new file
and folder are readable by their owner only: the file holds every game's seed. The file carries
its layout's version (``SCHEMA_VERSION``, SQLite's ``user_version``), and one server at a time
opens it (a lock on ``FILE.lock``, where the system has ``fcntl``).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # Windows: no advisory locks, one server a file is the user's to keep
    fcntl = None

MEMORY = ":memory:"
PRIVATE_DIR, PRIVATE_FILE = 0o700, 0o600  # a new folder and file: their owner only
BUSY_TIMEOUT_S = 10.0  # how long a write waits for SQLite's lock (a reader such as the sqlite3 shell)
SCHEMA_VERSION = 1  # the layout below; a file of another version is refused, never rewritten
LOCK_SUFFIX = ".lock"  # FILE.lock, held by the one server using FILE

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
    """A database file the board cannot use (not SQLite, not writable, another schema, in use)."""


class BoardFull(DatabaseError):
    """No room for another game: the database holds as many as it may, none of them finished."""


def token_digest(token: str) -> str:
    """The SHA-256 hex digest a token is stored as (tokens are 128 random bits: no salt needed)."""
    return hashlib.sha256(token.encode()).hexdigest()


class BoardDatabase:
    """The board's SQLite database (a file, created on first use, or ``":memory:"``); thread-safe."""

    def __init__(self, path: str | Path = MEMORY) -> None:
        """Open (or create) the database at ``path``; DatabaseError if it cannot be used."""
        self.path = str(path)
        self._lock_fd: int | None = None
        if self.path != MEMORY:  # it holds every game's seed, so every hidden hand: owner only
            file = Path(self.path).expanduser()
            file.parent.mkdir(mode=PRIVATE_DIR, parents=True, exist_ok=True)
            self._take_file_lock(file)
            if not file.exists():
                file.touch(mode=PRIVATE_FILE)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(str(Path(self.path).expanduser()) if self.path != MEMORY else MEMORY,
                                       check_same_thread=False, timeout=BUSY_TIMEOUT_S)
            if self.path != MEMORY:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
            self._check_version()
            self._db.executescript(SCHEMA)
            self._check_columns()
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.DatabaseError as error:
            self._release_file_lock()
            raise DatabaseError(f"{self.path} cannot hold the board's games: {error}") from None
        except DatabaseError:
            self._release_file_lock()
            raise

    def _take_file_lock(self, file: Path) -> None:
        """Hold ``FILE.lock`` while open: a second server on the same file is refused, as the
        two would each keep their own copy of a game in memory and overwrite each other's moves."""
        if fcntl is None:
            return
        lock_path = file.with_name(file.name + LOCK_SUFFIX)
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, PRIVATE_FILE)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(fd, 32).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise DatabaseError(f"{self.path} is in use by another board server (process {holder}): "
                                f"one server a file; stop it or give this one another --db") from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        self._lock_fd = fd

    def _release_file_lock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing the descriptor releases the lock
            self._lock_fd = None

    def _check_version(self) -> None:
        """A file of another layout version is refused (0: a new file, or one from before
        versions, whose columns ``_check_columns`` checks)."""
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version not in (0, SCHEMA_VERSION):
            raise DatabaseError(f"{self.path} was written by another version of the board (layout "
                                f"{version}; this one reads layout {SCHEMA_VERSION}): use another --db")

    def _check_columns(self) -> None:
        """A file made by something else with tables of the same names is refused."""
        for table, expected in (("games", 9), ("replays", 3)):
            columns = self._db.execute(f"PRAGMA table_info({table})").fetchall()
            if len(columns) != expected:
                raise sqlite3.DatabaseError(f"its table {table!r} is not the board's")

    def close(self) -> None:
        """Close the database (and let another server open its file)."""
        with self._lock:
            self._db.close()
            self._release_file_lock()

    # --- games ------------------------------------------------------------------------------
    def save_game(self, key: str, row: dict[str, Any]) -> None:
        """Write (insert or replace) game ``key``: ``row`` as ``GameSession.row()`` makes it."""
        with self._lock, self._db:
            self._write_game(key, row)

    def _write_game(self, key: str, row: dict[str, Any]) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (key, json.dumps(row["setup"]), json.dumps(row["person_digests"]), row["host_digest"],
             row["saved"], json.dumps(row["log"]), row["moves"], int(row["over"]), time.time()))

    def insert_game(self, key: str, row: dict[str, Any], max_games: int) -> list[str]:
        """Write new game ``key``, keeping at most ``max_games``: the finished games that ended
        longest ago make room; BoardFull (nothing written) when every game kept is in play. The
        ids removed to make room."""
        with self._lock, self._db:
            excess = self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0] - max_games + 1
            removed = [old for old, in self._db.execute(
                "SELECT id FROM games WHERE over = 1 ORDER BY changed LIMIT ?", (max(0, excess),))]
            if len(removed) < excess:
                raise BoardFull(f"the board keeps at most {max_games:,} games and every one is in play: "
                                f"try again when one ends or is abandoned")
            self._db.executemany("DELETE FROM games WHERE id = ?", [(old,) for old in removed])
            self._write_game(key, row)
        return removed

    def remove_game(self, key: str) -> None:
        """Remove game ``key`` (one that could not start)."""
        with self._lock, self._db:
            self._db.execute("DELETE FROM games WHERE id = ?", (key,))

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
    def save_replay(self, key: str, text: str, max_replays: int | None = None) -> list[str]:
        """Keep replay ``key``'s saved-game text; with ``max_replays``, the replays opened longest
        ago make room for it (each is a copy of a file its opener has). The ids removed."""
        with self._lock, self._db:
            removed = []
            if max_replays is not None:
                kept = self._db.execute("SELECT COUNT(*) FROM replays").fetchone()[0]
                removed = [old for old, in self._db.execute(
                    "SELECT id FROM replays ORDER BY changed LIMIT ?", (max(0, kept - max_replays + 1),))]
                self._db.executemany("DELETE FROM replays WHERE id = ?", [(old,) for old in removed])
            self._db.execute("INSERT OR REPLACE INTO replays VALUES (?, ?, ?)", (key, text, time.time()))
        return removed

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
