"""Saving and loading Construction Yard games: ``save_state(state) -> bytes`` and
``load_state(data) -> state``, in the project's save format (``core/savefile.py``, magic
``b"ConstrYd"``); every record is checked by ``validate.validate_state`` on the way out and in."""

from ...core.savefile import SaveFormat
from .state import STATE_DTYPE
from .validate import validate_state

MAGIC = b"ConstrYd"
SAVE_FORMAT = SaveFormat(MAGIC, "Construction Yard", STATE_DTYPE, validate_state)
save_state, load_state = SAVE_FORMAT.verbs(__name__)
