"""Saving and loading 5th Avenue games: ``save_state(state) -> bytes`` and
``load_state(data) -> state``, in the project's save format (``core/savefile.py``, magic
``b"5thAvenu"``); every record is checked by ``validate.validate_state`` on the way out and in."""

from ...core.savefile import SaveFormat
from .state import STATE_DTYPE
from .validate import validate_state

MAGIC = b"5thAvenu"
SAVE_FORMAT = SaveFormat(MAGIC, "5th Avenue", STATE_DTYPE, validate_state)
save_state, load_state = SAVE_FORMAT.verbs(__name__)
