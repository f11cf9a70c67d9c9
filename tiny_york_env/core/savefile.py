"""Saved games of any game: a short header, the records and a checksum (``SaveFormat``).

``state.tobytes()`` alone is a bare record: read back from a file, a socket or a damaged
checkpoint it can hold anything, and the compiled engines trust what they read. A save is:

====== ===== =====================================================================
offset bytes
====== ===== =====================================================================
0      8     the game's magic (``b"TinyYork"``, ``b"ConstrYd"``, ``b"5thAvenu"``)
8      2     format version (``FORMAT_VERSION``), little-endian unsigned
10     2     kind: 0 a single game (loads as shape ``()``), 1 a batch (shape ``(B,)``)
12     4     number of records (1 for a single game)
16     16    the dtype fingerprint: the first 16 bytes of sha256 over ``STATE_DTYPE.descr``
32     4     CRC-32 (``zlib.crc32``) of bytes 0-31 and the records
36     ...   the records, ``STATE_DTYPE.itemsize`` bytes each, as ``tobytes()`` writes them
====== ===== =====================================================================

``load`` refuses with a ``ValueError`` anything but bytes-like data, a short header, another
magic (another game's save says whose it is), format version or record layout (the fingerprint
changes with any field, type, shape or byte order of the dtype), a count that does not fit the
kind, a buffer too short or too long for its records and a checksum that does not match (any
change of up to 32 consecutive bits is always caught); then it runs the game's
``validate_state`` on every record, so only records its engine could have made are returned, as
a fresh writeable array. ``save`` validates too, so a save always loads.
"""

from __future__ import annotations

import hashlib
import struct
import zlib
from collections.abc import Callable

import numpy as np

FORMAT_VERSION = 1
KIND_SINGLE, KIND_BATCH = 0, 1
MAGIC_BYTES = 8
FINGERPRINT_BYTES = 16
HEADER = struct.Struct(f"<{MAGIC_BYTES}sHHI{FINGERPRINT_BYTES}s")  # everything before the CRC
CHECKSUM = struct.Struct("<I")
HEADER_SIZE = HEADER.size + CHECKSUM.size
BYTES_LIKE = (bytes, bytearray, memoryview)
KNOWN_MAGICS: dict[bytes, str] = {}  # every format made in this process: magic -> game title


def dtype_fingerprint(dtype: np.dtype) -> bytes:
    """The first 16 bytes of sha256 over ``dtype.descr`` (any layout change changes it)."""
    return hashlib.sha256(repr(dtype.descr).encode()).digest()[:FINGERPRINT_BYTES]


class SaveFormat:
    """One game's save format: ``save(state) -> bytes`` and ``load(data) -> state``."""

    def __init__(self, magic: bytes, title: str, dtype: np.dtype,
                 validate: Callable[[np.ndarray], None]) -> None:
        if len(magic) != MAGIC_BYTES:
            raise ValueError(f"a save magic is {MAGIC_BYTES} bytes, got {magic!r}")
        self.magic, self.title, self.dtype, self.validate = magic, title, dtype, validate
        self.fingerprint = dtype_fingerprint(dtype)
        KNOWN_MAGICS[magic] = title

    def _records(self, state):
        """(1-d view of the records, kind) of a single game (shape ()) or a 1-d batch."""
        if not isinstance(state, np.ndarray) or state.dtype != self.dtype or state.ndim > 1:
            raise ValueError(f"save_state takes a numpy array of {self.title}'s STATE_DTYPE: a single "
                             f"game (shape ()) or a 1-d batch; got {type(state).__name__} "
                             f"{getattr(state, 'shape', '')} {getattr(state, 'dtype', '')}".rstrip())
        if state.ndim == 0:
            return state.reshape(1), KIND_SINGLE
        return state, KIND_BATCH

    def save(self, state: np.ndarray, *, validate: bool = True) -> bytes:
        """The bytes of a single game (shape ``()``) or a 1-d batch, with header and checksum.
        A record ``validate_state`` refuses raises ValueError, unless ``validate=False`` (to keep
        a broken record for a bug report; ``load`` will refuse it)."""
        records, kind = self._records(state)
        if validate:
            self.validate(state)
        payload = np.ascontiguousarray(records).tobytes()
        header = HEADER.pack(self.magic, FORMAT_VERSION, kind, records.shape[0], self.fingerprint)
        checksum = zlib.crc32(payload, zlib.crc32(header))
        return header + CHECKSUM.pack(checksum) + payload

    def _read_header(self, data):
        """(kind, count, payload) of saved ``data`` after every header check; ValueError otherwise."""
        if len(data) < HEADER_SIZE:
            raise ValueError(f"truncated save: {len(data)} bytes, shorter than the {HEADER_SIZE}-byte "
                             "header")
        magic, version, kind, count, fingerprint = HEADER.unpack_from(data)
        if magic != self.magic:
            whose = KNOWN_MAGICS.get(magic)
            also = f" (it is a {whose} save)" if whose else ""
            raise ValueError(f"not a {self.title} save: it starts with {magic!r}, not "
                             f"{self.magic!r}{also}")
        if version != FORMAT_VERSION:
            raise ValueError(f"save format version {version} is not supported: this version reads "
                             f"format {FORMAT_VERSION}")
        if fingerprint != self.fingerprint:
            raise ValueError("the save was made with another STATE_DTYPE (record layout): its dtype "
                             f"fingerprint {fingerprint.hex()} is not {self.fingerprint.hex()}")
        if kind not in (KIND_SINGLE, KIND_BATCH) or (kind == KIND_SINGLE and count != 1):
            raise ValueError(f"bad save header: kind {kind} with {count} records (kind 0 is one game, "
                             "kind 1 a batch)")
        expected = HEADER_SIZE + count * self.dtype.itemsize
        if len(data) != expected:
            what = "truncated" if len(data) < expected else "too long"
            raise ValueError(f"{what} save: {len(data)} bytes, but {count} records take {expected}")
        payload = data[HEADER_SIZE:]
        (stored,) = CHECKSUM.unpack_from(data, HEADER.size)
        if zlib.crc32(payload, zlib.crc32(data[:HEADER.size])) != stored:
            raise ValueError("corrupted save: the checksum does not match the data")
        return kind, count, payload

    def verbs(self, module: str) -> tuple[Callable[..., bytes], Callable[..., np.ndarray]]:
        """A game's ``save_state(state, *, validate=True) -> bytes`` and ``load_state(data) -> state``
        in this format, as functions of ``module`` (each game's ``persist.py``, which names them)."""
        def save_state(state: np.ndarray, *, validate: bool = True) -> bytes:
            """The bytes of a single game (shape ``()``) or a 1-d batch, with header and checksum.
            A record ``validate_state`` refuses raises ValueError, unless ``validate=False`` (to
            keep a broken record for a bug report; ``load_state`` will refuse it)."""
            return self.save(state, validate=validate)

        def load_state(data: bytes | bytearray | memoryview) -> np.ndarray:
            """The game (shape ``()``) or batch (shape ``(B,)``) saved by ``save_state``, as a fresh
            writeable array; ValueError for anything else (``core/savefile.py``)."""
            return self.load(data)

        for function in (save_state, load_state):
            function.__module__, function.__qualname__ = module, function.__name__
        return save_state, load_state

    def load(self, data: bytes | bytearray | memoryview) -> np.ndarray:
        """The game (shape ``()``) or batch (shape ``(B,)``) saved by ``save``, as a fresh
        writeable array; ValueError for anything else (see the module docstring)."""
        if not isinstance(data, BYTES_LIKE):
            raise ValueError(f"load_state takes the bytes save_state made (bytes, bytearray or "
                             f"memoryview), got {type(data).__name__}")
        data = bytes(data)
        kind, count, payload = self._read_header(data)
        # A bytearray of its own: writeable, and far faster than copying a structured array.
        records = np.frombuffer(bytearray(payload), dtype=self.dtype, count=count)
        state = records.reshape(()) if kind == KIND_SINGLE else records
        self.validate(state)
        return state
