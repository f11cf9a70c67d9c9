"""Tiny York: a reinforcement-learning environment for the board game Tiny York.

The rules engine lives in :mod:`tiny_york_env.game`; the RL interfaces build on it.
"""

from .game import GameConfig, new_game

__version__ = "0.1.0"
__all__ = ["GameConfig", "__version__", "new_game"]
