"""The project's ``jit`` decorator: numba ``njit(cache=True)``, or plain Python when
``TINY_YORK_JIT=0`` (for debugging and coverage; a test keeps both paths equal)."""

import os

JIT_ENABLED = os.environ.get("TINY_YORK_JIT", "1") != "0"

if JIT_ENABLED:
    import numba

    def jit(fn):
        """Compile ``fn`` with numba in nopython mode, cached on disk."""
        return numba.njit(cache=True)(fn)
else:
    def jit(fn):
        """Return ``fn`` unchanged: the engine runs as plain Python."""
        return fn
