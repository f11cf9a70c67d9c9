"""Saving and loading Tiny York games: ``save_state(state) -> bytes`` and ``load_state(data) -> state``.

The format (a header with the magic ``b"TinyYork"``, the format version, the kind and count of
records, a fingerprint of ``STATE_DTYPE``, a CRC-32, then the records) and every check on the way
in are ``core/savefile.py``'s, shared by every game; ``load_state`` runs ``validate_state`` on
every record, so only records the engine could have made are returned.
"""


from ...core.savefile import (  # noqa: F401  (the format's names, as this module always had them)
    CHECKSUM,
    FINGERPRINT_BYTES,
    FORMAT_VERSION,
    HEADER,
    HEADER_SIZE,
    KIND_BATCH,
    KIND_SINGLE,
    SaveFormat,
)
from .state import STATE_DTYPE
from .validate import validate_state

MAGIC = b"TinyYork"
SAVE_FORMAT = SaveFormat(MAGIC, "Tiny York", STATE_DTYPE, validate_state)
DTYPE_FINGERPRINT = SAVE_FORMAT.fingerprint
save_state, load_state = SAVE_FORMAT.verbs(__name__)
