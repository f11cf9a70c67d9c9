"""Baseline agents. Every agent has ``act(observation, action_mask) -> action``."""

from .random_agent import RandomAgent

__all__ = ["RandomAgent"]
