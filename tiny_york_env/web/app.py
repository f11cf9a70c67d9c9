"""``tiny-york serve``: the browser board, a small Starlette app over ``sessions.py``.

Routes (JSON unless said otherwise; a seat's or the host's token travels in the ``X-Token``
header, never in a URL the server logs):

=====================================  ========================================================
``GET /``                              the page (``static/index.html``) and its script and style
``GET /api/info``                      the games, their policies and engine-played participants
``POST /api/games``                    start a game: ``{"game", "seats", "automatic", "seed"}``
``GET /api/games/{id}``                the table as the token's seat sees it, legal actions
``POST /api/games/{id}/action``        ``{"action": id, "moves": n}``: the token's seat plays it
                                       (``moves``, optional: the view's, so that a request
                                       made on a position the game has left is refused, 409)
``POST /api/games/{id}/step``          ``{"moves": n}``: the host steps a watched game
``POST /api/replays``                  the body is a saved game's text (``saved_games.py``)
``GET /api/replays/{id}?at=k``         the table after decision ``k``
=====================================  ========================================================

Errors are ``{"error": "..."}`` with 400 (bad request, illegal action), 403 (wrong token,
another site's page), 404, 409 (not your turn, game over, the game moved on), 413 (a body over
``MAX_BODY_BYTES``) or 415 (not JSON). Games live in a ``SessionStore`` over the board's SQLite
database (``database.py``), written before each answer, so a restarted server takes them up
where they were. ``serve`` binds to 127.0.0.1 unless told otherwise and answers only requests addressed to
this machine's names (``TrustedHostMiddleware``); POSTs must be JSON (a cross-site form cannot
send that without the browser asking first) and carry no foreign ``Origin``. Seats take the
policies the page offers by name only (no files, no budgets), so a request cannot read files or
start an endless search. A seat's view never holds the saved game (its seed and every hand)
before the game is over.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from ..agents.registry import offered_players
from ..registry import game_names, get_game
from ..saved_games import SavedGameError, decode_saved_game
from .database import BoardDatabase
from .sessions import (
    KEEP_FINISHED_S,
    KEEP_IDLE_S,
    MAX_GAMES,
    MAX_REPLAYS,
    PERSON,
    GameSession,
    ReplaySession,
    SessionError,
    SessionStore,
)

STATIC = Path(__file__).parent / "static"
MAX_BODY_BYTES = 1_000_000  # a saved game is a few kB; far more is not one
TOKEN_HEADER = "x-token"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
LOCAL_HOSTS = ("127.0.0.1", "localhost", "testserver")  # testserver: Starlette's TestClient
AT_PATTERN = re.compile(r"-?[0-9]{1,9}")
STATIC_FILES = {"/": "index.html", "/board.js": "board.js", "/board.css": "board.css",
                "/favicon.svg": "favicon.svg", "/favicon.ico": "favicon.svg"}  # .ico: what browsers try
CONTENT_TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css",
                 ".svg": "image/svg+xml"}


def _error(error: Exception, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": str(error)}, status_code=getattr(error, "status", status))


def _too_large() -> SessionError:
    return SessionError(f"the body is larger than the board takes ({MAX_BODY_BYTES:,} bytes at most)", 413)


async def _body(request: Request) -> bytes:
    """The request's body, refused (413) past ``MAX_BODY_BYTES`` before it is read when its
    ``Content-Length`` says so; a client gone before its body arrived is a 400 nobody reads,
    not a traceback."""
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise _too_large()
    body = bytearray()
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY_BYTES:
                raise _too_large()
    except ClientDisconnect:
        raise SessionError("the client left before sending its body") from None
    return bytes(body)


def _check_json_request(request: Request) -> None:
    """Only JSON from this page: a cross-site form or ``text/plain`` POST is refused (it could
    start games from another site's page), and an ``Origin`` must be this server's."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise SessionError("the body must be sent as Content-Type: application/json", 415)
    origin = request.headers.get("origin")
    if origin is not None and origin.split("://", 1)[-1] != request.headers.get("host", ""):
        raise SessionError(f"requests from {origin} are refused: the board answers its own page only", 403)


async def _json(request: Request) -> Any:
    _check_json_request(request)
    body = await _body(request)  # its SessionError (413) is not a JSON error
    try:
        return json.loads(body or b"{}")
    except (UnicodeDecodeError, ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
        raise SessionError(f"the body is not JSON: {str(error)[:200]}") from None


def create_app(store: SessionStore | None = None,
               allowed_hosts: Sequence[str] = LOCAL_HOSTS) -> Starlette:
    """The board's app over ``store`` (a new one by default), answering only requests addressed to
    ``allowed_hosts`` (DNS rebinding: another site's name pointed at this machine is refused)."""
    store = store if store is not None else SessionStore()

    async def static(request: Request) -> Response:
        name = STATIC_FILES[request.url.path]
        return FileResponse(STATIC / name, media_type=CONTENT_TYPES[Path(name).suffix],
                            headers={"Cache-Control": "no-cache"})

    async def info(request: Request) -> JSONResponse:
        games = []
        for name in game_names():
            game = get_game(name)
            games.append({"name": name, "title": game.title, "person": PERSON,
                          "policies": list(offered_players(game)), "seat_default": [PERSON],
                          "automatic": list(game.automatic_choices),
                          "automatic_labels": [game.automatic_label(a) for a in game.automatic_choices],
                          "automatic_keyword": game.automatic_kind,
                          "automatic_default": [str(a) for a in game.board_defaults],
                          "automatic_words": game.automatic_participants,
                          "legend": game.legend})
        return JSONResponse({"games": games})

    async def new_game(request: Request) -> JSONResponse:
        try:
            return JSONResponse(await run_in_threadpool(store.new_game, await _json(request)))
        except SessionError as error:
            return _error(error)

    def token(request: Request) -> str | None:
        return request.headers.get(TOKEN_HEADER)

    async def game_view(request: Request) -> JSONResponse:
        try:
            session = await run_in_threadpool(store.get, request.path_params["id"], GameSession)
            # off the event loop: the view waits for the session's lock while policies move
            return JSONResponse(await run_in_threadpool(session.view, token(request)))
        except SessionError as error:
            return _error(error)

    async def act(request: Request) -> JSONResponse:
        try:
            body = await _json(request)  # read first: the game is held only while it is played
            session = await run_in_threadpool(store.get, request.path_params["id"], GameSession)
            if not isinstance(body, dict) or "action" not in body or set(body) - {"action", "moves"}:
                raise SessionError('the body must be {"action": <an action id>} or {"action": <an action '
                                   'id>, "moves": <the moves of the view it was chosen on>}')
            # the policies answer before it returns
            await run_in_threadpool(session.act, token(request), body["action"], body.get("moves"))
            return JSONResponse(await run_in_threadpool(session.view, token(request)))
        except SessionError as error:
            return _error(error)

    async def step(request: Request) -> JSONResponse:
        try:
            body = await _json(request)
            session = await run_in_threadpool(store.get, request.path_params["id"], GameSession)
            moves = body.get("moves", 1) if isinstance(body, dict) else None
            if isinstance(moves, bool) or not isinstance(moves, int):
                raise SessionError('the body must be {"moves": <a count>}')
            played = await run_in_threadpool(session.step, token(request), moves)
            return JSONResponse({"played": played})
        except SessionError as error:
            return _error(error)

    async def new_replay(request: Request) -> JSONResponse:
        try:
            _check_json_request(request)
            body = await _body(request)  # decoding replays the lines before a bad one: off the loop
            text = await run_in_threadpool(decode_saved_game, body, "the uploaded file")
            return JSONResponse(await run_in_threadpool(store.new_replay, text))
        except (SessionError, SavedGameError) as error:
            return _error(error)

    async def replay_view(request: Request) -> JSONResponse:
        try:
            replay = await run_in_threadpool(store.get, request.path_params["id"], ReplaySession)
            at = request.query_params.get("at", "0")
            if not AT_PATTERN.fullmatch(at):
                raise SessionError(f"at must be a decision number, got {at[:20]!r}")
            return JSONResponse(await run_in_threadpool(replay.view, int(at)))
        except SessionError as error:
            return _error(error)

    routes = [Route(path, static) for path in STATIC_FILES] + [
        Route("/api/info", info),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{id}", game_view),
        Route("/api/games/{id}/action", act, methods=["POST"]),
        Route("/api/games/{id}/step", step, methods=["POST"]),
        Route("/api/replays", new_replay, methods=["POST"]),
        Route("/api/replays/{id}", replay_view),
    ]
    return Starlette(routes=routes, middleware=[
        Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))])


def default_database() -> Path:
    """Where ``serve`` keeps its games unless told: ``$XDG_DATA_HOME/tiny-york/board.sqlite3``
    (``~/.local/share`` without it)."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "tiny-york" / "board.sqlite3"


def serve(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, log_level: str = "warning",
          database: str | Path | None = None, keep_finished_s: float = KEEP_FINISHED_S,
          keep_idle_s: float = KEEP_IDLE_S, max_games: int = MAX_GAMES,
          max_replays: int = MAX_REPLAYS) -> None:
    """Run the board with uvicorn until interrupted, its games in ``database`` (a SQLite file,
    created on first use, ``default_database()`` unless given; ``":memory:"``: none kept)."""
    import uvicorn
    hosts = list(LOCAL_HOSTS) + ([host] if host not in LOCAL_HOSTS else [])
    store = SessionStore(database=BoardDatabase(database or default_database()),
                         keep_finished_s=keep_finished_s, keep_idle_s=keep_idle_s,
                         max_games=max_games, max_replays=max_replays)
    uvicorn.run(create_app(store, allowed_hosts=hosts), host=host, port=port, log_level=log_level)
