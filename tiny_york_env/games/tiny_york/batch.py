"""Tiny York's batch kernels: the game-independent loops of ``core/batch_loops.py`` compiled
here with Tiny York's functions (cached on disk beside this file).

The one engine module that imports the encoder (``observation.py``): the loops encode the
learning seat's view.
"""

from ...core.batch_loops import specialise
from .actions import NUM_ACTIONS
from .kernels import actor_of, init_record, is_over
from .legal import fill_legal_mask
from .observation import OBS_QUANTA, encode_record
from .rules import apply as apply_checked
from .rules import apply_unchecked

__all__ = ["NUM_ACTIONS", "OBS_QUANTA", "actor_of", "apply_checked", "apply_unchecked", "encode_record",
           "fill_legal_mask", "init_record", "is_over"]
specialise(globals(), __file__)
