"""The project's ``jit`` decorator: numba ``njit(cache=True)``, or plain Python when
``TINY_YORK_JIT=0`` (for debugging and coverage; a test keeps both paths equal).

numba keys a cached function on its own file only, so a change in a function it calls from
another file would leave stale machine code in the cache. On import, this module hashes every
source file of the ``tiny_york_env`` package and of the agents (``tiny_york_env.agents``) (the engine,
the encoder, the compiled env kernels and the agents' search and evaluation kernels all use this
decorator) and clears every numba cache file of both when the hash changed.
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


def package_sources():
    """Every Python source file whose functions may be compiled with ``jit``, in path order."""
    return sorted(path for folder in COMPILED_DIRS if folder.is_dir() for path in folder.rglob("*.py"))


def package_source_hash():
    """sha256 over those source files (path relative to the packages' parent, and contents)."""
    digest = hashlib.sha256()
    for path in package_sources():
        digest.update(str(path.relative_to(PACKAGE_DIR.parent)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def clear_stale_numba_cache():
    """Delete the package's numba cache files when any package source changed since they were
    made."""
    current = package_source_hash()
    try:
        if SOURCE_HASH_FILE.read_text() == current:
            return
    except OSError:
        pass
    try:
        for folder in COMPILED_DIRS:
            for path in folder.rglob("__pycache__/*"):
                if path.suffix in NUMBA_CACHE_SUFFIXES:
                    path.unlink(missing_ok=True)
        CACHE_DIR.mkdir(exist_ok=True)
        SOURCE_HASH_FILE.write_text(current)
    except OSError:
        pass  # a read-only install: numba then compiles in memory or uses its own locator


if JIT_ENABLED:
    import numba

    clear_stale_numba_cache()

    def jit(fn):
        """Compile ``fn`` with numba in nopython mode, cached on disk."""
        return numba.njit(cache=True)(fn)
else:
    def jit(fn):
        """Return ``fn`` unchanged: the engine runs as plain Python."""
        return fn
