"""The browser board's games and replays, independent of the web framework (``app.py`` serves them).

A ``GameSession`` is one game of any registered game: each agent seat is a *person* (played from a
browser holding that seat's token) or a *policy* (random, greedy, ppo, search, ...); the engine's
own participants (Tiny York's Toms, Construction Yard's bots) play inside ``apply_action``. Each
person seat has its own secret token, so one browser cannot act for another's seat; a game of
policies only ("watch") has a host token that steps it. A ``ReplaySession`` holds the states of a
saved game for scrubbing. ``SessionStore`` keeps many of each, by unguessable ids.
"""

from __future__ import annotations

import hmac
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..contract import Game
from ..registry import DEFAULT_GAME, game_names, get_game
from ..saved_games import GameRecorder, parse_saved_game, replay_states
from .views import board_view, option_text

PERSON = "person"
TOKEN_BYTES = 16
MAX_SESSIONS = 256  # games and replays kept; the least recently used is dropped beyond this
MAX_LOG_LINES = 400
MAX_AGENT_SEATS = 6
MAX_AUTOMATIC = 5
SEED_BOUND = 2 ** 31


class SessionError(ValueError):
    """A request the board refuses; ``status`` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def new_token() -> str:
    """An unguessable token (128 bits, URL-safe)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def same_token(given: str | None, expected: str) -> bool:
    """Constant-time comparison, so a wrong token's timing says nothing about the right one."""
    return isinstance(given, str) and hmac.compare_digest(given.encode(), expected.encode())


def make_config(game: Game, num_agents: int, automatic: list[Any]) -> Any:
    """The game's config for ``num_agents`` agent seats and its engine-played participants."""
    return game.seat_config(num_agents, tuple(automatic))


def seat_policy(game: Game, name: str, seed: int, config: Any) -> Callable[[np.ndarray], int]:
    """A state -> action function for the policy ``name`` (``agents.policies.seat_policy``)."""
    from ..agents.policies import seat_policy as make_seat_policy
    return make_seat_policy(game, name, np.random.default_rng(seed), config, agent_seed=seed)


@dataclass
class GameSession:
    """One game in play; every method takes the session's lock."""

    game: Game
    config: Any
    seed: int
    names: list[str]  # one per participant seat
    persons: dict[int, str]  # seat -> token
    policies: dict[int, Callable[[np.ndarray], int]]
    host_token: str
    state: np.ndarray = field(init=False)
    log: list[str] = field(default_factory=list)
    moves: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        self.state = self.game.new_game(self.config, self.seed)
        self.recorder = GameRecorder(self.game, self.config, self.seed, self.names)
        self._log_automatic()

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
        for seat, expected in self.persons.items():
            if same_token(token, expected):
                return seat
        return None

    def act(self, token: str | None, action: Any) -> None:
        """The person holding ``token`` plays ``action`` (then the policies move on)."""
        with self.lock:
            seat = self.seat_of(token)
            if seat is None:
                raise SessionError("this token opens no seat of this game", 403)
            if isinstance(action, bool) or not isinstance(action, int):
                raise SessionError(f"action must be an integer action id, got {action!r}")
            if self.game.is_terminal(self.state):
                raise SessionError("the game is over", 409)
            to_move = self.game.current_player(self.state)
            if to_move != seat:
                raise SessionError(f"it is {self.names[to_move]}'s turn, not yours", 409)
            legal = np.flatnonzero(self.game.legal_mask(self.state))
            if action not in set(legal.tolist()):
                raise SessionError(f"action {action} is not legal here; legal: {legal.tolist()}")
            self._play(seat, action)
            self._run_policies(None)  # the policies answer at once, up to the next person

    def step(self, token: str | None, moves: int) -> int:
        """The host steps a watched game by up to ``moves`` policy moves; how many were played."""
        with self.lock:
            if not same_token(token, self.host_token):
                raise SessionError("only the game's host token steps it", 403)
            return self._run_policies(max(1, min(int(moves), MAX_LOG_LINES)))

    def start(self) -> None:
        """Before the first view: policies that move before any person do so at once."""
        with self.lock:
            if self.persons:
                self._run_policies(None)

    # --- looking ------------------------------------------------------------------------------
    def view(self, token: str | None) -> dict[str, Any]:
        """What the holder of ``token`` may see: a person seat's view, the host's whole table
        for a watched game; a game with persons shows nothing without a seat's token."""
        with self.lock:
            seat = self.seat_of(token)
            if seat is None and not (self.persons == {} and same_token(token, self.host_token)):
                raise SessionError("this game needs the token of one of its seats", 403)
            over = self.game.is_terminal(self.state)
            to_move = None if over else int(self.game.current_player(self.state))
            legal = []
            if seat is not None and to_move == seat:
                legal = [{"action": int(a), "text": option_text(self.game, int(a), self.state)}
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
    """Games and replays by id (thread-safe); the least recently used goes beyond ``capacity``."""

    def __init__(self, capacity: int = MAX_SESSIONS) -> None:
        self.capacity = capacity
        self._items: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

    def _add(self, item: Any) -> str:
        with self._lock:
            key = new_token()
            self._items[key] = item
            while len(self._items) > self.capacity:
                self._items.popitem(last=False)
            return key

    def get(self, key: str, kind: type) -> Any:
        """The session ``key`` of type ``kind``; SessionError 404 otherwise."""
        with self._lock:
            item = self._items.get(key)
            if not isinstance(item, kind):
                raise SessionError(f"no such {'game' if kind is GameSession else 'replay'}: {key!r}", 404)
            self._items.move_to_end(key)
            return item

    def __len__(self) -> int:
        return len(self._items)

    def new_game(self, request: dict[str, Any]) -> dict[str, Any]:
        """Start a game from a request (``check_game_request``); its id and the tokens."""
        game_name, seats, automatic, seed = check_game_request(request)
        game = get_game(game_name)
        try:
            config = make_config(game, len(seats), automatic)
        except (TypeError, ValueError) as error:
            raise SessionError(f"bad setup: {error}") from error
        seed_sequence = np.random.SeedSequence(seed)
        seeds = [int(s.generate_state(1)[0]) for s in seed_sequence.spawn(len(seats))]
        persons = {seat: new_token() for seat, who in enumerate(seats) if who == PERSON}
        try:
            policies = {seat: seat_policy(game, who, seeds[seat], config)
                        for seat, who in enumerate(seats) if who != PERSON}
        except (TypeError, ValueError, OSError) as error:
            raise SessionError(f"bad player: {error}") from error
        names = [("you" if len(persons) == 1 else f"person {seat}") if who == PERSON
                 else who if seats.count(who) == 1 else f"{who} {seat}"
                 for seat, who in enumerate(seats)]
        names += [game.automatic_label(spec) for spec in automatic]
        session = GameSession(game, config, seed, names, persons, policies, new_token())
        session.start()
        key = self._add(session)
        return {"id": key, "seed": seed, "host_token": session.host_token,
                "seat_tokens": {str(seat): token for seat, token in persons.items()}}

    def new_replay(self, text: str, source: str = "the uploaded file") -> dict[str, Any]:
        """Open a saved game's text for scrubbing; its id and length."""
        saved = parse_saved_game(text, source)
        game = get_game(saved.game)
        replay = ReplaySession(game, list(saved.players), list(saved.decisions),
                               list(replay_states(saved)))
        return {"id": self._add(replay), "total": len(replay.decisions)}


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
    from ..agents.policies import offered_policies
    allowed = offered_policies(get_game(game_name))
    bad = [who for who in seats if who != PERSON and who not in allowed]
    if bad:
        raise SessionError(f"seat {bad[0]!r} is not offered: a seat is 'person' or one of {list(allowed)}")
    if not isinstance(automatic, list) or len(automatic) > MAX_AUTOMATIC \
            or not all(isinstance(a, (str, int)) and not isinstance(a, bool) for a in automatic):
        raise SessionError(f"automatic must be a list of at most {MAX_AUTOMATIC} names or levels")
    seed = request.get("seed")
    if seed is None:
        seed = secrets.randbelow(SEED_BOUND)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_BOUND:
        raise SessionError(f"seed must be an integer 0-{SEED_BOUND - 1}")
    return game_name, seats, automatic, seed

