"""Deprecated (removed in 0.4): matches by setup keywords are ``tiny_york_env.arena.match``
(``evaluate_match``, ``format_match``, ``write_match``); the players' names are the agent
registry's (``agents/registry.py``) and the shipped networks ``agents/shipped.py``'s."""

from __future__ import annotations

import warnings

from tiny_york_env.agents.shipped import shipped_policy_path
from tiny_york_env.arena.match import MATCH_TABLE_COLUMNS as TABLE_COLUMNS
from tiny_york_env.arena.match import StatePolicyFactory, evaluate_match, format_match, write_match

__all__ = ["TABLE_COLUMNS", "StatePolicyFactory", "evaluate_match", "format_match", "shipped_policy_path",
           "write_match"]
warnings.warn("tiny_york_env.training.game_matches is deprecated: import from tiny_york_env.arena.match "
              "(removed in tiny_york_env 0.4)", DeprecationWarning, stacklevel=2)
