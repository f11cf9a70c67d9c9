"""The project's ``jit`` decorator: numba ``njit(cache=True)``, or plain Python when
``TINY_YORK_JIT=0`` (for debugging and coverage; a test keeps both paths equal).

numba keys a cached function on its own file only, so a change in a function it calls from
another file would leave stale machine code in the cache. On import, this module hashes the
package's source files and clears numba cache files whose sources changed, in scopes:

- each game package (every folder of ``games/``) with ``core/``: a change there clears that
  game's caches (a game's code imports no other game's; its batch kernels are compiled in its
  own ``batch.py``);
- the compiled code outside the games (the agents in ``tiny_york_env.agents``, which may call any
  game's compiled functions): its caches are cleared when any source file changes.
"""

import hashlib
import os
from pathlib import Path

JIT_ENABLED = os.environ.get("TINY_YORK_JIT", "1") != "0"
PACKAGE_DIR = Path(__file__).resolve().parent.parent
# Installed, the agents are ``tiny_york_env/agents`` (inside PACKAGE_DIR); in a checkout (and an
# editable install) they are the repository's ``agents/`` beside it (pyproject's package-dir).
CHECKOUT_AGENTS_DIR = PACKAGE_DIR.parent / "agents"
COMPILED_DIRS = (PACKAGE_DIR,) + (() if (PACKAGE_DIR / "agents").is_dir() else (CHECKOUT_AGENTS_DIR,))
CACHE_DIR = Path(__file__).resolve().parent / "__pycache__"
SOURCE_HASH_FILE = CACHE_DIR / "numba-source.sha256"
NUMBA_CACHE_SUFFIXES = (".nbi", ".nbc")
# Game packages (games/<name>/), each compiled code depending only on itself and core/ (its own
# cache scope).
GAMES_FOLDER = "games"
SHARED_ENGINE_DIR = "core"


def isolated_game_dirs():
    """The folders of the game packages (each its own cache scope)."""
    games = PACKAGE_DIR / GAMES_FOLDER
    if not games.is_dir():
        return []
    return sorted(path for path in games.iterdir() if (path / "__init__.py").is_file())


def _inside(path, folders):
    return any(folder in path.parents for folder in folders)


def package_sources():
    """Every source file (the main scope's compiled code may call any of them), in path order."""
    return sorted(path for folder in COMPILED_DIRS if folder.is_dir() for path in folder.rglob("*.py"))


def game_package_sources(game_dir):
    """The source files of one game package and of ``core/``, in path order."""
    return sorted(list(game_dir.rglob("*.py")) + list((PACKAGE_DIR / SHARED_ENGINE_DIR).rglob("*.py")))


def _source_hash(paths):
    """sha256 over ``paths`` (path relative to the packages' parent, and contents)."""
    digest = hashlib.sha256()
    for path in paths:
        inside = PACKAGE_DIR.parent in path.parents
        digest.update(str(path.relative_to(PACKAGE_DIR.parent) if inside else path).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def package_source_hash():
    """sha256 over every source file."""
    return _source_hash(package_sources())


def _clear_scope(current, hash_file, cache_files):
    """Delete ``cache_files`` and record ``current`` in ``hash_file`` unless it already holds it."""
    try:
        if hash_file.read_text() == current:
            return
    except OSError:
        pass
    try:
        for path in cache_files:
            if path.suffix in NUMBA_CACHE_SUFFIXES:
                path.unlink(missing_ok=True)
        hash_file.parent.mkdir(exist_ok=True)
        hash_file.write_text(current)
    except OSError:
        pass  # a read-only install: numba then compiles in memory or uses its own locator


def clear_stale_numba_cache():
    """Delete numba cache files whose scope's sources changed since they were made."""
    isolated = isolated_game_dirs()
    main_files = [path for folder in COMPILED_DIRS for path in folder.rglob("__pycache__/*")
                  if not _inside(path, isolated)]
    _clear_scope(package_source_hash(), SOURCE_HASH_FILE, main_files)
    for game_dir in isolated:
        _clear_scope(_source_hash(game_package_sources(game_dir)),
                     game_dir / "__pycache__" / SOURCE_HASH_FILE.name,
                     list(game_dir.rglob("__pycache__/*")))


def cache_scope(game_dir) -> None:
    """Give a game package outside this one (a plug-in, docs/adding-a-game.md) its own cache scope:
    its numba cache files are cleared when its sources or ``core/``'s change. Call it in the
    package's ``__init__.py`` (``cache_scope(__file__)``) before its compiled modules are imported."""
    game_dir = Path(game_dir).resolve()
    game_dir = game_dir.parent if game_dir.is_file() else game_dir
    if JIT_ENABLED:
        _clear_scope(_source_hash(game_package_sources(game_dir)),
                     game_dir / "__pycache__" / SOURCE_HASH_FILE.name,
                     list(game_dir.rglob("__pycache__/*")))


if JIT_ENABLED:
    import numba
    from numba import prange

    clear_stale_numba_cache()

    def jit(fn):
        """Compile ``fn`` with numba in nopython mode, cached on disk."""
        return numba.njit(cache=True)(fn)

    def jit_threads(fn):
        """Compile ``fn`` with numba's parallel loops: its ``prange`` loops run on numba's
        threads (as many as ``numba.set_num_threads`` allows), cached on disk."""
        return numba.njit(cache=True, parallel=True)(fn)

    def jit_inline(fn):
        """Compile ``fn`` into each compiled caller (numba's ``inline="always"``): for a small
        predicate called in a hot loop with array arguments, where a call would cost more than
        its work."""
        return numba.njit(cache=True, inline="always")(fn)

    def max_threads():
        """The threads numba started with (all cores unless ``NUMBA_NUM_THREADS`` says less)."""
        return int(numba.config.NUMBA_NUM_THREADS)

    def use_threads(count):
        """Let the next parallel loops of this thread use ``count`` threads."""
        numba.set_num_threads(count)
else:
    prange = range

    def jit(fn):
        """Return ``fn`` unchanged: the engine runs as plain Python."""
        return fn

    jit_threads = jit_inline = jit

    def max_threads():
        """Plain Python runs on one thread."""
        return 1

    def use_threads(count):
        """Nothing to set: plain Python runs on one thread."""
