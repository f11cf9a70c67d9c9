"""The browser board's games and replays, independent of the web framework (``app.py`` serves them).

A ``GameSession`` is one game of any registered game: each agent seat is a *person* (played from a
browser holding that seat's token) or a *policy* (random, greedy, ppo, search, ...); the engine's
own participants (Tiny York's Toms, Construction Yard's bots) play inside ``apply_action``. Each
person seat has its own secret token, so one browser cannot act for another's seat; a game of
policies only ("watch") has a host token that steps it. A ``ReplaySession`` holds the states of a
saved game for scrubbing. ``SessionStore`` keeps many of each, by unguessable ids, in the board's
database (``database.py``): a restarted server takes up every game where it was.
"""

from __future__ import annotations

import contextlib
import hmac
import re
import secrets
import sqlite3
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..agents.registry import offered_players
from ..agents.seats import seat_decider
from ..contract import Game
from ..core.seeds import SEED_LIMIT
from ..registry import DEFAULT_GAME, game_names, get_game
from ..saved_games import GameRecorder, parse_saved_game, replay_states
from .database import BoardDatabase, BoardFull, token_digest
from .views import board_view, option_text

PERSON = "person"
TOKEN_BYTES = 16
MAX_SESSIONS = 256  # games and replays kept in memory too; the least recently used is read back
MAX_TOKEN_CHARS = 64  # ids and tokens are 22 characters; longer is none of ours
KEEP_FINISHED_S = 7 * 24 * 3600  # a finished game (and a replay) is kept a week after its end
KEEP_IDLE_S = 30 * 24 * 3600  # a game nobody moves in for 30 days is abandoned
MAX_GAMES = 10_000  # games the database keeps; the oldest finished make room, else a new one waits
MAX_REPLAYS = 1_000  # opened saved games the database keeps; the oldest opened make room
SEED_DIGITS = re.compile(f"[0-9]{{1,{len(str(SEED_LIMIT))}}}")  # ASCII digits only, not "²"
PURGE_EVERY_S = 3600  # what is kept too long is removed at most hourly, when a game starts
MAX_LOG_LINES = 400
MAX_AGENT_SEATS = 6
MAX_AUTOMATIC = 5


class SessionError(ValueError):
    """A request the board refuses; ``status`` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def new_token() -> str:
    """An unguessable token (128 bits, URL-safe)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def make_config(game: Game, num_agents: int, automatic: list[Any]) -> Any:
    """The game's config for ``num_agents`` agent seats and its engine-played participants."""
    return game.seat_config(num_agents, tuple(automatic))


def seat_policy(game: Game, name: str, seed: int, config: Any) -> Callable[[np.ndarray], int]:
    """A state -> action function for the player ``name`` (``agents.seats.seat_decider``), seeded
    with ``seed``, its views drawn from a generator of the same seed."""
    return seat_decider(game, name, seed, config, np.random.default_rng(seed))


@dataclass
class GameSession:
    """One game in play; every method takes the session's lock. Seats' and the host's tokens are
    kept as SHA-256 digests; ``on_change`` (the store's write) runs under the lock after every
    change, before the request that made it is answered."""

    game: Game
    config: Any
    setup: dict[str, Any]  # game, seats, automatic, seed, names, policy_seeds: how to rebuild it
    persons: dict[int, str]  # seat -> its token's digest
    host_digest: str
    state: np.ndarray = field(init=False)
    log: list[str] = field(default_factory=list)
    moves: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    on_change: Callable[[GameSession], None] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.seed = int(self.setup["seed"])
        self.names = list(self.setup["names"])
        self.state = self.game.new_game(self.config, self.seed)
        self.recorder = GameRecorder(self.game, self.config, self.seed, self.names)
        self.policies = self._make_policies(self.moves)  # moves: a restored game's (``restore``)

    def _make_policies(self, moves: int) -> dict[int, Callable[[np.ndarray], int]]:
        """The policy seats' players, seeded from their seeds (and ``moves``, after a restart)."""
        policies = {}
        for seat, who in enumerate(self.setup["seats"]):
            if who != PERSON:
                seed = int(self.setup["policy_seeds"][str(seat)])
                if moves:  # a fresh stream from here on, the same whenever the game is restored
                    seed = int(np.random.SeedSequence([seed, moves]).generate_state(1)[0])
                policies[seat] = seat_policy(self.game, who, seed, self.config)
        return policies

    @classmethod
    def restore(cls, game: Game, row: dict[str, Any]) -> GameSession:
        """The game a database row holds (``row()``), at the position it was written at."""
        setup = row["setup"]
        config = make_config(game, len(setup["seats"]), setup["automatic"])
        persons = {int(seat): digest for seat, digest in row["person_digests"].items()}
        session = cls(game, config, setup, persons, row["host_digest"], moves=int(row["moves"]))
        saved = parse_saved_game(row["saved"], "the board's database")
        for state in replay_states(saved):  # every decision checked legal as it is replayed
            session.state = state
        for seat, action in saved.decisions:
            session.recorder.record(seat, action)
        if session.game.is_terminal(session.state):
            session.recorder.finish(session.state)
        session.log = list(row["log"])
        return session

    def row(self) -> dict[str, Any]:
        """What the database keeps of this game (``restore`` brings it back)."""
        return {"setup": self.setup, "person_digests": {str(seat): d for seat, d in self.persons.items()},
                "host_digest": self.host_digest, "saved": "\n".join(self.recorder.saved.lines()) + "\n",
                "log": self.log, "moves": self.moves, "over": bool(self.game.is_terminal(self.state))}

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change(self)

    def _moving(self, move: Callable[[], Any]) -> Any:
        """Run ``move`` (which changes the game) and write the game; if anything fails on the way
        (a policy, the database), the game goes back to where it was, as the database has it."""
        saved = self.recorder.saved
        before = (self.state.copy(), len(saved.decisions), saved.result, list(self.log), self.moves)
        try:
            outcome = move()
            self._changed()
            return outcome
        except BaseException:
            self.state, decisions, saved.result, self.log, self.moves = before
            del saved.decisions[decisions:]
            raise

    # --- playing ------------------------------------------------------------------------------
    def _log(self, line: str) -> None:
        self.log.append(line)
        del self.log[:-MAX_LOG_LINES]

    def _log_automatic(self) -> None:
        if self.game.automatic_moves:
            for seat, words in self.game.automatic_moves(self.state):
                self._log(f"{self.names[seat]}: {words}")

    def _play(self, seat: int, action: int) -> None:
        words = option_text(self.game, action, self.state)
        self.game.apply_action(self.state, action)
        self.recorder.record(seat, action)
        self.moves += 1
        self._log(f"{self.names[seat]}: {words}")
        self._log_automatic()
        if self.game.is_terminal(self.state):
            self.recorder.finish(self.state)
            scores = self.game.final_scores(self.state)
            self._log("Game over: " + ", ".join(f"{self.names[s]} {int(v)}" for s, v in enumerate(scores)))

    def _run_policies(self, limit: int | None) -> int:
        """Let policy seats move until a person must decide, the end, or ``limit`` moves."""
        played = 0
        while not self.game.is_terminal(self.state) and (limit is None or played < limit):
            seat = self.game.current_player(self.state)
            if seat not in self.policies:
                break
            self._play(seat, int(self.policies[seat](self.state)))
            played += 1
        return played

    def seat_of(self, token: str | None) -> int | None:
        """The person seat ``token`` opens, or None."""
        if not isinstance(token, str) or len(token) > MAX_TOKEN_CHARS:
            return None
        digest = token_digest(token)
        for seat, expected in self.persons.items():
            if hmac.compare_digest(digest, expected):
                return seat
        return None

    def is_host(self, token: str | None) -> bool:
        """Whether ``token`` is the game's host token."""
        return (isinstance(token, str) and len(token) <= MAX_TOKEN_CHARS
                and hmac.compare_digest(token_digest(token), self.host_digest))

    def act(self, token: str | None, action: Any, seen_moves: Any = None) -> None:
        """The person holding ``token`` plays ``action`` (then the policies move on). With
        ``seen_moves`` (the ``moves`` of the view the choice was made on), a request made on a
        position the game has since left is refused (409), so a repeated request is never played
        twice."""
        with self.lock:
            seat = self.seat_of(token)
            if seat is None:
                raise SessionError("this token opens no seat of this game", 403)
            if isinstance(action, bool) or not isinstance(action, int):
                raise SessionError(f"action must be an integer action id, got {str(action)[:40]!r}")
            if seen_moves is not None and (isinstance(seen_moves, bool) or not isinstance(seen_moves, int)):
                raise SessionError(f"moves must be the integer moves of the view acted on, got "
                                   f"{str(seen_moves)[:40]!r}")
            if self.game.is_terminal(self.state):
                raise SessionError("the game is over", 409)
            if seen_moves is not None and seen_moves != self.moves:
                raise SessionError(f"the game has moved on: {self.moves} moves played, the request was "
                                   f"made after {seen_moves}; look at the table again", 409)
            to_move = self.game.current_player(self.state)
            if to_move != seat:
                raise SessionError(f"it is {self.names[to_move]}'s turn, not yours", 409)
            legal = np.flatnonzero(self.game.legal_mask(self.state))
            if action not in set(legal.tolist()):
                raise SessionError(f"action {action} is not legal here; legal: {legal.tolist()}")
            # the policies answer at once, up to the next person
            self._moving(lambda: (self._play(seat, action), self._run_policies(None)))

    def step(self, token: str | None, moves: int) -> int:
        """The host steps a watched game by up to ``moves`` policy moves; how many were played."""
        with self.lock:
            if not self.is_host(token):
                raise SessionError("only the game's host token steps it", 403)
            return self._moving(lambda: self._run_policies(max(1, min(int(moves), MAX_LOG_LINES))))

    def start(self) -> None:
        """Before the first view: the engine's opening moves are logged, policies that move
        before any person do so at once, and the game is written."""
        with self.lock:
            self._log_automatic()
            if self.persons:
                self._run_policies(None)
            self._changed()

    # --- looking ------------------------------------------------------------------------------
    def view(self, token: str | None) -> dict[str, Any]:
        """What the holder of ``token`` may see: a person seat's view, the host's whole table
        for a watched game; a game with persons shows nothing without a seat's token."""
        with self.lock:
            seat = self.seat_of(token)
            if seat is None and not (self.persons == {} and self.is_host(token)):
                raise SessionError("this game needs the token of one of its seats", 403)
            over = self.game.is_terminal(self.state)
            to_move = None if over else int(self.game.current_player(self.state))
            legal = []
            if seat is not None and to_move == seat:
                legal = [{"action": int(a), "text": option_text(self.game, int(a), self.state),
                          "places": list(self.game.places_of(int(a), self.state))}
                         for a in np.flatnonzero(self.game.legal_mask(self.state))]
            view = board_view(self.game, self.state, seat)
            view.update(kind="game", game=self.game.name, title=self.game.title, seat=seat,
                        names=self.names, to_move=to_move, over=over, moves=self.moves,
                        legal=legal, log=self.log[-60:], watch=not self.persons)
            if over or not self.persons:  # it holds the seed and every hand: never mid-game to a seat
                view["saved_game"] = "\n".join(self.recorder.saved.lines()) + "\n"
            if over:
                view["scores"] = [int(v) for v in self.game.final_scores(self.state)]
                view["winners"] = [int(s) for s in self.game.winners(self.state)]
            return view


@dataclass
class ReplaySession:
    """A saved game's states, before the first decision and after each one."""

    game: Game
    players: list[str]
    decisions: list[tuple[int, int]]
    states: list[np.ndarray]

    def view(self, at: int) -> dict[str, Any]:
        """The table (everything shown) after decision ``at`` (0: the start)."""
        at = max(0, min(int(at), len(self.decisions)))
        state = self.states[at]
        line = "the start"
        if at:
            seat, action = self.decisions[at - 1]
            line = f"{self.players[seat]}: {option_text(self.game, action, self.states[at - 1])}"
        moves = ([f"{self.players[s]}: {w}" for s, w in self.game.automatic_moves(state)]
                 if self.game.automatic_moves else [])
        view = board_view(self.game, state, None)
        view.update(kind="replay", game=self.game.name, title=self.game.title, at=at,
                    total=len(self.decisions), decision=line, log=[line] + moves,
                    names=self.players, over=bool(self.game.is_terminal(state)))
        return view


class SessionStore:
    """Games and replays by id (thread-safe), kept in a ``BoardDatabase`` (an in-memory one
    unless given) and the ``capacity`` most recently used also in memory; a game is written to
    the database before the request that changed it is answered, so none is lost when the server
    stops or more games are played than memory keeps. Finished games and replays are removed
    ``keep_finished_s`` after their last change, games nobody moves in after ``keep_idle_s``; the
    database keeps at most ``max_games`` games (a new game past them is a 503 unless a finished one
    makes room) and ``max_replays`` replays (the oldest opened make room)."""

    def __init__(self, capacity: int = MAX_SESSIONS, database: BoardDatabase | None = None,
                 keep_finished_s: float = KEEP_FINISHED_S, keep_idle_s: float = KEEP_IDLE_S,
                 max_games: int = MAX_GAMES, max_replays: int = MAX_REPLAYS) -> None:
        """A store over ``database``; it forgets what has been kept longer than it keeps things."""
        for name, value in (("max_games", max_games), ("max_replays", max_replays)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        self.capacity = capacity
        self.database = database if database is not None else BoardDatabase()
        self.keep_finished_s, self.keep_idle_s = keep_finished_s, keep_idle_s
        self.max_games, self.max_replays = max_games, max_replays
        self._items: OrderedDict[str, Any] = OrderedDict()
        self._live: weakref.WeakValueDictionary[str, Any] = weakref.WeakValueDictionary()
        self._loading: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()
        self._purged_at = 0.0
        self.purge()

    def purge(self) -> list[str]:
        """Remove what has been kept longer than the store keeps things; the ids removed."""
        self._purged_at = time.monotonic()
        removed = self.database.purge(self.keep_finished_s, self.keep_idle_s)
        self._forget(removed)
        return removed

    def _forget(self, removed: list[str]) -> None:
        """Drop from memory what the database no longer has."""
        with self._lock:
            for key in removed:
                self._items.pop(key, None)
                self._live.pop(key, None)

    def _remember(self, key: str, item: Any) -> None:
        """Keep ``item`` in memory, dropping the least recently used beyond the capacity (a game
        dropped while a request still holds it stays the one object of its id: ``_live``)."""
        self._items[key] = item
        self._items.move_to_end(key)
        self._live[key] = item
        while len(self._items) > self.capacity:
            self._items.popitem(last=False)

    def _writer(self, key: str) -> Callable[[GameSession], None]:
        return lambda session: self.database.save_game(key, session.row())

    def get(self, key: str, kind: type) -> Any:
        """The session ``key`` of type ``kind`` (read back from the database if not in memory);
        SessionError 404 otherwise."""
        what = "game" if kind is GameSession else "replay"
        if not isinstance(key, str) or not 0 < len(key) <= MAX_TOKEN_CHARS:
            raise SessionError(f"no such {what}: {str(key)[:MAX_TOKEN_CHARS]!r}", 404)
        item = self._held(key)
        if item is None:
            # Read back outside the store's lock (other games' requests go on), one reader an id:
            # a game is never brought back twice.
            with self._lock:
                loading = self._loading.setdefault(key, threading.Lock())
            with loading:
                item = self._held(key)
                if item is None:
                    item = self._load(key, kind)
                    if item is not None:
                        with self._lock:
                            self._remember(key, item)
                with self._lock:
                    self._loading.pop(key, None)
        if not isinstance(item, kind):
            raise SessionError(f"no such {what}: {key!r}", 404)
        return item

    def _held(self, key: str) -> Any:
        """Session ``key`` if it is in memory (kept, or still held by a request), else None."""
        with self._lock:
            item = self._items.get(key) or self._live.get(key)
            if item is not None:
                self._remember(key, item)
            return item

    def _load(self, key: str, kind: type) -> Any:
        """Session ``key`` read back from the database, or None."""
        if kind is GameSession:
            row = self.database.load_game(key)
            if row is None:
                return None
            try:
                session = GameSession.restore(get_game(row["setup"]["game"]), row)
            except (KeyError, TypeError, ValueError) as error:
                raise SessionError(f"game {key!r} cannot be brought back from the database: {error}",
                                   500) from error
            session.on_change = self._writer(key)
            return session
        text = self.database.load_replay(key)
        try:
            return None if text is None else self._replay(text, "the board's database")
        except ValueError as error:  # SavedGameError: a row written by an older engine, or damaged
            raise SessionError(f"replay {key!r} cannot be brought back from the database: {error}",
                               500) from error

    def __len__(self) -> int:
        return len(self._items)

    def new_game(self, request: dict[str, Any]) -> dict[str, Any]:
        """Start a game from a request (``check_game_request``); its id and the tokens."""
        if time.monotonic() - self._purged_at > PURGE_EVERY_S:
            self.purge()
        game_name, seats, automatic, seed = check_game_request(request)
        game = get_game(game_name)
        try:
            config = make_config(game, len(seats), automatic)
        except (TypeError, ValueError) as error:
            raise SessionError(f"bad setup: {error}") from error
        seed_sequence = np.random.SeedSequence(seed)
        seeds = [int(s.generate_state(1)[0]) for s in seed_sequence.spawn(len(seats))]
        tokens = {seat: new_token() for seat, who in enumerate(seats) if who == PERSON}
        names = [("you" if len(tokens) == 1 else f"person {seat}") if who == PERSON
                 else who if seats.count(who) == 1 else f"{who} {seat}"
                 for seat, who in enumerate(seats)]
        names += [game.automatic_label(spec) for spec in automatic]
        setup = {"game": game_name, "seats": seats, "automatic": automatic, "seed": seed, "names": names,
                 "policy_seeds": {str(seat): seeds[seat] for seat, who in enumerate(seats) if who != PERSON}}
        host_token = new_token()
        try:
            session = GameSession(game, config, setup, {seat: token_digest(t) for seat, t in tokens.items()},
                                  token_digest(host_token))
        except (TypeError, ValueError, OSError) as error:
            raise SessionError(f"bad player: {error}") from error
        key = new_token()
        try:  # its row first, in one step with making room, so the limit holds under racing requests
            self._forget(self.database.insert_game(key, session.row(), self.max_games))
        except BoardFull as error:
            raise SessionError(str(error), 503) from None
        session.on_change = self._writer(key)
        try:
            session.start()  # written again here, after the opening moves
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                self.database.remove_game(key)
            raise
        with self._lock:
            self._remember(key, session)
        return {"id": key, "seed": seed, "host_token": host_token,
                "seat_tokens": {str(seat): token for seat, token in tokens.items()}}

    @staticmethod
    def _replay(text: str, source: str) -> ReplaySession:
        saved = parse_saved_game(text, source)
        game = get_game(saved.game)
        return ReplaySession(game, list(saved.players), list(saved.decisions), list(replay_states(saved)))

    def new_replay(self, text: str, source: str = "the uploaded file") -> dict[str, Any]:
        """Open a saved game's text for scrubbing; its id and length."""
        replay = self._replay(text, source)
        key = new_token()
        self._forget(self.database.save_replay(key, text, self.max_replays))
        with self._lock:
            self._remember(key, replay)
        return {"id": key, "total": len(replay.decisions)}


def check_game_request(request: Any) -> tuple[str, list[str], list[Any], int]:
    """(game, agent seats, engine-played participants, seed) from a JSON request, or a
    SessionError saying what is allowed. Seats: "person" or a policy name, one per agent seat."""
    if not isinstance(request, dict):
        raise SessionError("the request must be a JSON object")
    unknown = set(request) - {"game", "seats", "automatic", "seed"}
    if unknown:
        raise SessionError(f"unknown keys {sorted(unknown)}: allowed game, seats, automatic, seed")
    game_name = request.get("game", DEFAULT_GAME)
    if game_name not in game_names():
        raise SessionError(f"unknown game {game_name!r}: one of {list(game_names())}")
    seats = request.get("seats", [PERSON])
    automatic = request.get("automatic", [])
    if (not isinstance(seats, list) or not 1 <= len(seats) <= MAX_AGENT_SEATS
            or not all(isinstance(s, str) and s for s in seats)):
        raise SessionError(f"seats must be a list of 1-{MAX_AGENT_SEATS} names: 'person' or a policy")
    allowed = offered_players(get_game(game_name))
    bad = [who for who in seats if who != PERSON and who not in allowed]
    if bad:
        raise SessionError(f"seat {bad[0]!r} is not offered: a seat is 'person' or one of {list(allowed)}")
    if not isinstance(automatic, list) or len(automatic) > MAX_AUTOMATIC \
            or not all(isinstance(a, (str, int)) and not isinstance(a, bool) for a in automatic):
        raise SessionError(f"automatic must be a list of at most {MAX_AUTOMATIC} names or levels")
    seed = request.get("seed")
    if isinstance(seed, str) and SEED_DIGITS.fullmatch(seed):
        seed = int(seed)  # the page sends it as text: JavaScript's numbers stop at 2**53
    if seed is None:
        seed = secrets.randbelow(SEED_LIMIT)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise SessionError(f"seed must be an integer 0-{SEED_LIMIT - 1} (or its digits as a string)")
    return game_name, seats, automatic, seed

