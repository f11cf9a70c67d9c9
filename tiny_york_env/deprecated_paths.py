"""Old import paths, kept importable for one minor version (removed in 0.4).

The games moved to ``tiny_york_env.games.<name>`` (every game a package with the same file
names), a game's own players into its package, the evaluation harness into the arena layer
(``tiny_york_env.arena``) and the one-off studies under ``training/experiments``. Importing an
old path, e.g. ``tiny_york_env.game.rules`` or ``tiny_york_env.training.sprt``, gives the module at
its new path (the very same module object, so state and ``isinstance``
checks agree) and emits a ``DeprecationWarning`` naming the new path, as PettingZoo does for its
old env versions. Importing this module (``tiny_york_env/__init__.py`` does, first) installs the
finder.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings

REMOVED_IN = "0.4"
# old module path -> new module path; the longest matching prefix wins (a package's submodules
# follow it, e.g. tiny_york_env.game.rules -> tiny_york_env.games.tiny_york.rules)
OLD_PATHS = {
    "tiny_york_env.game": "tiny_york_env.games.tiny_york",
    "tiny_york_env.game.tom": "tiny_york_env.games.tiny_york.bots",
    "tiny_york_env.game.tom_events": "tiny_york_env.games.tiny_york.bot_moves",
    "tiny_york_env.observation": "tiny_york_env.games.tiny_york.observation",
    "tiny_york_env.global_state": "tiny_york_env.games.tiny_york.global_state",
    "tiny_york_env.render": "tiny_york_env.games.tiny_york.picture",
    "tiny_york_env.fifth_avenue_render": "tiny_york_env.games.fifth_avenue.picture",
    "tiny_york_env.construction_yard": "tiny_york_env.games.construction_yard",
    "tiny_york_env.fifth_avenue": "tiny_york_env.games.fifth_avenue",
    "tiny_york_env.options": "tiny_york_env.core.options",
    "tiny_york_env.agents.greedy_agent": "tiny_york_env.games.tiny_york.greedy",
    "tiny_york_env.agents.evaluation_features": "tiny_york_env.games.tiny_york.heuristic",
    "tiny_york_env.agents.tom_rules_agent": "tiny_york_env.games.tiny_york.tom_rules",
    "tiny_york_env.training.compare": "tiny_york_env.arena.compare",
    "tiny_york_env.training.compare_cli": "tiny_york_env.cli_compare",
    "tiny_york_env.training.game_loop": "tiny_york_env.arena.game_loop",
    "tiny_york_env.training.ladder_merge": "tiny_york_env.arena.ladder_merge",
    "tiny_york_env.training.ladder_parts": "tiny_york_env.arena.ladder_parts",
    "tiny_york_env.training.ray_jobs": "tiny_york_env.arena.ray_tasks",
    "tiny_york_env.training.sprt": "tiny_york_env.arena.sprt",
    "tiny_york_env.training.tournament": "tiny_york_env.arena.tournament",
}


def new_path(name: str) -> str | None:
    """The module path that replaced ``name``, or None when ``name`` is not an old path."""
    parts = name.split(".")
    for cut in range(len(parts), 1, -1):
        prefix = ".".join(parts[:cut])
        if prefix in OLD_PATHS:
            return ".".join([OLD_PATHS[prefix], *parts[cut:]])
    return None


class _AliasLoader(importlib.abc.Loader):
    """Loads an old path as the module at its new path, with a DeprecationWarning."""

    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec):
        """The module at the new path (imported now), which the old name then shares."""
        warnings.warn(f"{spec.name} is deprecated: import {self.target} instead (the old path is "
                      f"removed in tiny_york_env {REMOVED_IN})", DeprecationWarning, stacklevel=2)
        module = importlib.import_module(self.target)
        self.own_spec = module.__spec__
        return module

    def exec_module(self, module) -> None:
        """Nothing to run: the new module is already imported; only its own spec is put back (the
        import system sets the old path's spec on it)."""
        module.__spec__ = self.own_spec


class DeprecatedPathFinder(importlib.abc.MetaPathFinder):
    """Finds the old import paths of ``OLD_PATHS`` (and only those)."""

    def find_spec(self, fullname, path=None, target=None):
        """A spec that loads the new module for an old path; None for every other name."""
        target_name = new_path(fullname)
        if target_name is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(target_name))


def install() -> None:
    """Put the finder on ``sys.meta_path`` once."""
    if not any(isinstance(finder, DeprecatedPathFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, DeprecatedPathFinder())


install()
