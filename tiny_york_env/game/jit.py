"""The project's ``jit`` decorator: numba ``njit(cache=True)``, or plain Python when
``TINY_YORK_JIT=0`` (for debugging and coverage; a test keeps both paths equal).

numba keys a cached function on its own file only, so a change in a function it calls from
another file would leave stale machine code in the cache. On import, this module hashes every
source file of the ``tiny_york_env`` package (the engine, the encoder and the compiled env
kernels all use this decorator) and clears every numba cache file of the package when the hash
changed.
"""

import hashlib
import os
from pathlib import Path

JIT_ENABLED = os.environ.get("TINY_YORK_JIT", "1") != "0"
PACKAGE_DIR = Path(__file__).resolve().parent.parent
CACHE_DIR = Path(__file__).resolve().parent / "__pycache__"
SOURCE_HASH_FILE = CACHE_DIR / "numba-source.sha256"
NUMBA_CACHE_SUFFIXES = (".nbi", ".nbc")


def package_sources():
    """Every Python source file of the package, in path order."""
    return sorted(PACKAGE_DIR.rglob("*.py"))


def package_source_hash():
    """sha256 over the package's source files (relative path and contents)."""
    digest = hashlib.sha256()
    for path in package_sources():
        digest.update(str(path.relative_to(PACKAGE_DIR)).encode())
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
        for path in PACKAGE_DIR.rglob("__pycache__/*"):
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
