"""The project's ``jit`` decorator: numba ``njit(cache=True)``, or plain Python when
``TINY_YORK_JIT=0`` (for debugging and coverage; a test keeps both paths equal).

numba keys a cached function on its own file only, so a change in a function it calls from
another file would leave stale machine code in the cache. On import, this module hashes the
package's source files and clears numba cache files whose sources changed, in scopes:

- each separate game package (``ISOLATED_GAME_PACKAGES``, e.g. ``construction_yard/``) with
  ``core/``: a change there clears that package's caches only;
- everything else (Tiny York's ``game/``, the encoder, the env kernels, ``core/`` and the agents in
  ``tiny_york_env.agents``): a change there clears the caches of all of it.

So compiled code that calls into an isolated game package lives inside that package (a game's
code imports no other game's; its batch kernels are compiled in its own ``batch.py``).
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
# Game packages whose compiled code depends only on themselves and core/ (their own cache scope).
ISOLATED_GAME_PACKAGES = ("construction_yard", "fifth_avenue")
SHARED_ENGINE_DIR = "core"


def isolated_game_dirs():
    """The folders of the isolated game packages present in the package."""
    return [PACKAGE_DIR / name for name in ISOLATED_GAME_PACKAGES if (PACKAGE_DIR / name).is_dir()]


def _inside(path, folders):
    return any(folder in path.parents for folder in folders)


def package_sources():
    """Every source file of the main scope (all but the isolated game packages), in path order."""
    isolated = isolated_game_dirs()
    return sorted(path for folder in COMPILED_DIRS if folder.is_dir() for path in folder.rglob("*.py")
                  if not _inside(path, isolated))


def game_package_sources(game_dir):
    """The source files of one isolated game package and of ``core/``, in path order."""
    return sorted(list(game_dir.rglob("*.py")) + list((PACKAGE_DIR / SHARED_ENGINE_DIR).rglob("*.py")))


def _source_hash(paths):
    """sha256 over ``paths`` (path relative to the packages' parent, and contents)."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(str(path.relative_to(PACKAGE_DIR.parent)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def package_source_hash():
    """sha256 over the main scope's source files."""
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

    jit_threads = jit

    def max_threads():
        """Plain Python runs on one thread."""
        return 1

    def use_threads(count):
        """Nothing to set: plain Python runs on one thread."""
