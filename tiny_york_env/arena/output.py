"""Every file the arena and the learners write goes through here: a symbolic link planted where an
output directory or file goes is refused (ValueError) instead of being written through."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import IO, Any, Literal


def refuse_symlink(path: str | os.PathLike[str]) -> Path:
    """``path`` as a Path; ValueError if it is a symbolic link (writing there would follow it)."""
    path = Path(path)
    if path.is_symlink():
        raise ValueError(f"refusing to write {str(path)!r}: it is a symbolic link (to "
                         f"{os.readlink(path)!r}); remove it or choose another output path")
    return path


def output_dir(path: str | os.PathLike[str]) -> Path:
    """The output directory ``path`` as a Path, created with its parents if missing; ValueError
    if it is a symbolic link or not a directory."""
    path = refuse_symlink(path)
    path.mkdir(parents=True, exist_ok=True)
    refuse_symlink(path)  # nothing swapped in meanwhile
    if not path.is_dir():
        raise ValueError(f"the output path {str(path)!r} is not a directory")
    return path


def open_output(path: str | os.PathLike[str], mode: Literal["w", "a", "wb"] = "w",
                newline: str | None = None) -> IO[Any]:
    """``path`` opened for writing (``mode`` "w", "a" or "wb") without following a symbolic link
    there (``O_NOFOLLOW``); ValueError if it is one."""
    if mode not in ("w", "a", "wb"):
        raise ValueError(f"open_output mode must be 'w', 'a' or 'wb', got {mode!r}")
    path = refuse_symlink(path)
    flags = (os.O_WRONLY | os.O_CREAT | (os.O_APPEND if mode == "a" else os.O_TRUNC)
             | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        descriptor = os.open(path, flags, 0o666)
    except OSError as error:
        if error.errno == errno.ELOOP:
            refuse_symlink(path)
        raise
    if mode == "wb":
        return os.fdopen(descriptor, mode)
    return os.fdopen(descriptor, mode, newline=newline, encoding="utf-8")


def write_output_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` through ``open_output`` (a symbolic link there is refused)."""
    with open_output(path) as handle:
        handle.write(text)
