"""Saving and loading games: ``save_state(state) -> bytes`` and ``load_state(data) -> state``.

``state.tobytes()`` alone is a bare record: read back from a file, a socket or a damaged
checkpoint it can hold anything, and the compiled engine trusts what it reads. A save is a short
header and the records:

====== ===== =====================================================================
offset bytes
====== ===== =====================================================================
0      8     ``MAGIC`` (``b"TinyYork"``)
8      2     format version (``FORMAT_VERSION``), little-endian unsigned
10     2     kind: 0 a single game (loads as shape ``()``), 1 a batch (shape ``(B,)``)
12     4     number of records (1 for a single game)
16     16    ``DTYPE_FINGERPRINT``: the first 16 bytes of sha256 over ``STATE_DTYPE.descr``
32     4     CRC-32 (``zlib.crc32``) of bytes 0-31 and the records
36     ...   the records, ``STATE_DTYPE.itemsize`` bytes each, as ``tobytes()`` writes them
====== ===== =====================================================================

``load_state`` refuses with a ``ValueError`` anything but bytes-like data, a short header, another
magic, format version or record layout (the fingerprint changes with any field, type, shape or
byte order of ``STATE_DTYPE``), a count that does not fit the kind, a buffer too short or too
long for its records and a checksum that does not match (any change of up to 32 consecutive
bits is always caught); then it runs ``validate_state`` on every record, so only records the
engine could have made are returned, as a fresh writeable array. ``save_state`` validates too,
so a save always loads.
"""

import hashlib
import struct
import zlib

import numpy as np

from .state import STATE_DTYPE
from .validate import validate_state

MAGIC = b"TinyYork"
FORMAT_VERSION = 1
KIND_SINGLE, KIND_BATCH = 0, 1
FINGERPRINT_BYTES = 16
HEADER = struct.Struct(f"<{len(MAGIC)}sHHI{FINGERPRINT_BYTES}s")  # everything before the CRC
CHECKSUM = struct.Struct("<I")
HEADER_SIZE = HEADER.size + CHECKSUM.size
DTYPE_FINGERPRINT = hashlib.sha256(repr(STATE_DTYPE.descr).encode()).digest()[:FINGERPRINT_BYTES]
BYTES_LIKE = (bytes, bytearray, memoryview)


def _records(state):
    """(1-d view of the records, kind) of a single game (shape ()) or a 1-d batch."""
    if not isinstance(state, np.ndarray) or state.dtype != STATE_DTYPE or state.ndim > 1:
        raise ValueError("save_state takes a numpy array of STATE_DTYPE: a single game (shape ()) "
                         f"or a 1-d batch; got {type(state).__name__} "
                         f"{getattr(state, 'shape', '')} {getattr(state, 'dtype', '')}".rstrip())
    if state.ndim == 0:
        return state.reshape(1), KIND_SINGLE
    return state, KIND_BATCH


def save_state(state: np.ndarray, *, validate: bool = True) -> bytes:
    """The bytes of a single game (shape ``()``) or a 1-d batch, with header and checksum.
    A record ``validate_state`` refuses raises ValueError, unless ``validate=False`` (to keep a
    broken record for a bug report; ``load_state`` will refuse it)."""
    records, kind = _records(state)
    if validate:
        validate_state(state)
    payload = np.ascontiguousarray(records).tobytes()
    header = HEADER.pack(MAGIC, FORMAT_VERSION, kind, records.shape[0], DTYPE_FINGERPRINT)
    checksum = zlib.crc32(payload, zlib.crc32(header))
    return header + CHECKSUM.pack(checksum) + payload


def _read_header(data):
    """(kind, count, payload) of saved ``data`` after every header check; ValueError otherwise."""
    if len(data) < HEADER_SIZE:
        raise ValueError(f"truncated save: {len(data)} bytes, shorter than the {HEADER_SIZE}-byte "
                         "header")
    magic, version, kind, count, fingerprint = HEADER.unpack_from(data)
    if magic != MAGIC:
        raise ValueError(f"not a Tiny York save: it starts with {magic!r}, not {MAGIC!r}")
    if version != FORMAT_VERSION:
        raise ValueError(f"save format version {version} is not supported: this version reads "
                         f"format {FORMAT_VERSION}")
    if fingerprint != DTYPE_FINGERPRINT:
        raise ValueError("the save was made with another STATE_DTYPE (record layout): its dtype "
                         f"fingerprint {fingerprint.hex()} is not {DTYPE_FINGERPRINT.hex()}")
    if kind not in (KIND_SINGLE, KIND_BATCH) or (kind == KIND_SINGLE and count != 1):
        raise ValueError(f"bad save header: kind {kind} with {count} records (kind 0 is one game, "
                         "kind 1 a batch)")
    expected = HEADER_SIZE + count * STATE_DTYPE.itemsize
    if len(data) != expected:
        what = "truncated" if len(data) < expected else "too long"
        raise ValueError(f"{what} save: {len(data)} bytes, but {count} records take {expected}")
    payload = data[HEADER_SIZE:]
    (stored,) = CHECKSUM.unpack_from(data, HEADER.size)
    if zlib.crc32(payload, zlib.crc32(data[:HEADER.size])) != stored:
        raise ValueError("corrupted save: the checksum does not match the data")
    return kind, count, payload


def load_state(data: bytes | bytearray | memoryview) -> np.ndarray:
    """The game (shape ``()``) or batch (shape ``(B,)``) saved by ``save_state``, as a fresh
    writeable array; ValueError for anything else (see the module docstring)."""
    if not isinstance(data, BYTES_LIKE):
        raise ValueError(f"load_state takes the bytes save_state made (bytes, bytearray or "
                         f"memoryview), got {type(data).__name__}")
    data = bytes(data)
    kind, count, payload = _read_header(data)
    # A bytearray of its own: writeable, and far faster than copying a structured array.
    records = np.frombuffer(bytearray(payload), dtype=STATE_DTYPE, count=count)
    state = records.reshape(()) if kind == KIND_SINGLE else records
    validate_state(state)
    return state
