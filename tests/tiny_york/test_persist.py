"""``save_state`` / ``load_state``: a round trip keeps the game, and anything that is not a save
of this build (another format, another record layout, a short or long buffer, a bad checksum, an
invalid record) is refused with a clear ValueError."""

import hashlib
import struct
import zlib
from functools import lru_cache

import numpy as np
import pytest

from tiny_york_env.games.tiny_york import (
    STATE_DTYPE,
    GameConfig,
    apply_action,
    is_terminal,
    legal_mask,
    load_state,
    new_game,
    save_state,
)
from tiny_york_env.games.tiny_york import persist as P

CONFIGS = (GameConfig(num_agents=2), GameConfig(num_agents=4), GameConfig(num_agents=1, toms=("C9", 3)),
           GameConfig(num_agents=2, toms=(7,)))
SNAPSHOT_EVERY = 23  # decisions between two snapshots


@lru_cache(maxsize=1)
def snapshots():
    """Snapshots of random games from the draft to the end (read-only: copy before changing)."""
    out = []
    for ci, config in enumerate(CONFIGS):
        rng = np.random.default_rng(ci)
        state = new_game(config, seed=ci)
        n = 0
        while not is_terminal(state):
            if n % SNAPSHOT_EVERY == 0:
                out.append(state.copy())
            apply_action(state, int(rng.choice(np.flatnonzero(legal_mask(state)))))
            n += 1
        out.append(state.copy())
    return tuple(out)


def _repack(data, magic=P.MAGIC, version=P.FORMAT_VERSION, kind=None, count=None,
            fingerprint=P.DTYPE_FINGERPRINT, payload=None):
    """``data`` with header fields replaced and a checksum that matches again, so only the
    replaced field is wrong."""
    old = P.HEADER.unpack_from(data)
    kind = old[2] if kind is None else kind
    count = old[3] if count is None else count
    payload = data[P.HEADER_SIZE:] if payload is None else payload
    header = P.HEADER.pack(magic, version, kind, count, fingerprint)
    return header + P.CHECKSUM.pack(zlib.crc32(payload, zlib.crc32(header))) + payload


# --- round trips ---------------------------------------------------------------------------------
def test_a_game_round_trips_and_plays_on_the_same():
    for state in snapshots():
        data = save_state(state)
        assert isinstance(data, bytes) and len(data) == P.HEADER_SIZE + STATE_DTYPE.itemsize
        loaded = load_state(data)
        assert loaded.shape == () and loaded.dtype == STATE_DTYPE
        assert loaded.tobytes() == state.tobytes()
        if is_terminal(state):
            continue
        a, b = state.copy(), loaded
        rng = np.random.default_rng(5)
        for _ in range(30):
            if is_terminal(a):
                break
            action = int(rng.choice(np.flatnonzero(legal_mask(a))))
            apply_action(a, action)
            apply_action(b, action)
            assert a.tobytes() == b.tobytes()


def test_a_batch_round_trips():
    batch = np.stack(snapshots())
    loaded = load_state(save_state(batch))
    assert loaded.shape == batch.shape and loaded.tobytes() == batch.tobytes()
    one = load_state(save_state(batch[:1]))  # a 1-d batch of one stays a batch
    assert one.shape == (1,)
    assert load_state(save_state(np.zeros(0, STATE_DTYPE))).shape == (0,)


def test_the_loaded_state_is_fresh_and_writeable():
    state = snapshots()[3]
    data = bytearray(save_state(state))
    loaded = load_state(data)
    assert loaded.flags.writeable
    data[P.HEADER_SIZE:] = bytes(len(data) - P.HEADER_SIZE)  # changing the buffer changes nothing
    assert loaded.tobytes() == state.tobytes()
    loaded["points"][0] += 1
    assert state["points"][0] != loaded["points"][0]


def test_bytes_like_input_is_accepted():
    data = save_state(snapshots()[1])
    for form in (bytearray(data), memoryview(data)):
        assert load_state(form).tobytes() == snapshots()[1].tobytes()


# --- refusals ------------------------------------------------------------------------------------
@pytest.mark.parametrize("data", [None, "TinyYork", 7, 1.5, [1, 2], np.zeros(10, np.uint8)])
def test_data_that_is_not_bytes_is_refused(data):
    with pytest.raises(ValueError, match="bytes"):
        load_state(data)


def test_a_record_without_a_header_is_refused():
    """The old way, ``state.tobytes()``, is not a save."""
    with pytest.raises(ValueError, match="not a Tiny York save"):
        load_state(snapshots()[2].tobytes())


@pytest.mark.parametrize("cut", [0, 1, P.HEADER_SIZE - 1])
def test_a_short_header_is_refused(cut):
    with pytest.raises(ValueError, match="truncated save"):
        load_state(save_state(snapshots()[0])[:cut])


@pytest.mark.parametrize("cut", [P.HEADER_SIZE, P.HEADER_SIZE + 1, -100, -1])
def test_a_truncated_save_is_refused(cut):
    with pytest.raises(ValueError, match="truncated save"):
        load_state(save_state(snapshots()[0])[:cut])


@pytest.mark.parametrize("extra", [b"\0", b"x" * 100, bytes(STATE_DTYPE.itemsize)])
def test_a_save_with_extra_bytes_is_refused(extra):
    with pytest.raises(ValueError, match="too long"):
        load_state(save_state(snapshots()[0]) + extra)


def test_another_magic_version_or_layout_is_refused():
    data = save_state(snapshots()[0])
    with pytest.raises(ValueError, match="not a Tiny York save"):
        load_state(_repack(data, magic=b"TinyYorl"))
    for version in (0, P.FORMAT_VERSION + 1, 65535):
        with pytest.raises(ValueError, match=f"format version {version} is not supported"):
            load_state(_repack(data, version=version))
    with pytest.raises(ValueError, match="another STATE_DTYPE"):
        load_state(_repack(data, fingerprint=bytes(P.FINGERPRINT_BYTES)))


def test_the_fingerprint_follows_the_record_layout():
    def fingerprint(dtype):
        return hashlib.sha256(repr(dtype.descr).encode()).digest()[:P.FINGERPRINT_BYTES]

    assert fingerprint(STATE_DTYPE) == P.DTYPE_FINGERPRINT
    renamed = STATE_DTYPE.descr
    renamed[0] = ("seats", renamed[0][1])
    grown = STATE_DTYPE.descr + [("extra", "<i4")]
    swapped = STATE_DTYPE.newbyteorder(">")
    for other in (np.dtype(renamed), np.dtype(grown), swapped):
        assert fingerprint(other) != P.DTYPE_FINGERPRINT


@pytest.mark.parametrize("kind,count", [(2, 1), (P.KIND_SINGLE, 2), (P.KIND_SINGLE, 0), (65535, 1)])
def test_a_bad_kind_or_count_is_refused(kind, count):
    data = save_state(snapshots()[0])
    payload = data[P.HEADER_SIZE:] * count
    with pytest.raises(ValueError, match="bad save header"):
        load_state(_repack(data, kind=kind, count=count, payload=payload))


def test_a_count_that_does_not_fit_the_buffer_is_refused():
    data = save_state(np.stack(snapshots()[:3]))
    with pytest.raises(ValueError, match="truncated save"):
        load_state(_repack(data, count=4))
    with pytest.raises(ValueError, match="too long"):
        load_state(_repack(data, count=2))


def test_every_single_byte_change_is_refused():
    """CRC-32 catches every change of up to 32 consecutive bits, so every byte of a save,
    header included, is covered."""
    data = save_state(snapshots()[5])
    rng = np.random.default_rng(0)
    for pos in range(len(data)):
        changed = bytearray(data)
        changed[pos] ^= int(rng.integers(1, 256))
        with pytest.raises(ValueError):
            load_state(bytes(changed))


def test_a_bad_checksum_is_refused():
    data = bytearray(save_state(snapshots()[4]))
    data[-1] ^= 1
    with pytest.raises(ValueError, match="checksum"):
        load_state(bytes(data))
    data = bytearray(save_state(snapshots()[4]))
    data[P.HEADER.size] ^= 0x80  # the stored checksum itself
    with pytest.raises(ValueError, match="checksum"):
        load_state(bytes(data))


def test_an_invalid_record_with_a_good_header_is_refused():
    state = snapshots()[6].copy()
    state["discard"][0] = 1000
    with pytest.raises(ValueError, match="invalid game state: discard"):
        save_state(state)
    data = save_state(state, validate=False)  # kept for a bug report, but never loaded
    with pytest.raises(ValueError, match="invalid game state: discard"):
        load_state(data)
    batch = np.stack(snapshots()[:3])
    batch[1]["num_seats"] = 100
    with pytest.raises(ValueError, match="game 1 of the batch: invalid game state: num_seats"):
        load_state(save_state(batch, validate=False))


@pytest.mark.parametrize("bad", [None, b"bytes", np.zeros(3), np.zeros((2, 2), STATE_DTYPE),
                                 {"num_seats": 2}])
def test_save_wants_state_records(bad):
    with pytest.raises(ValueError, match="STATE_DTYPE"):
        save_state(bad)


def test_the_header_layout():
    """The documented layout: magic, version, kind, count, fingerprint, CRC-32, records."""
    data = save_state(np.stack(snapshots()[:2]))
    assert data[:8] == b"TinyYork"
    assert struct.unpack_from("<HHI", data, 8) == (P.FORMAT_VERSION, P.KIND_BATCH, 2)
    assert data[16:32] == P.DTYPE_FINGERPRINT
    assert struct.unpack_from("<I", data, 32)[0] == zlib.crc32(data[36:], zlib.crc32(data[:32]))
    assert data[36:] == np.stack(snapshots()[:2]).tobytes()
