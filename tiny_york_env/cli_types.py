"""The argparse types and help layout of the ``tiny-york`` command, its subcommands' modules and the
training scripts (kept apart from ``tiny_york_env.cli``, so that they import them without importing
the command).

``DefaultsHelpFormatter`` is the help layout of every command line of the project: each option's
default is shown once.
"""

import argparse

from .agents.registry import normalize_agent_name


class DefaultsHelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """``(default: X)`` after an option's help, once: not when the help already states its default
    (a computed one, such as ``runs/ppo-<timestamp>``), and not for flags or options whose default
    is "not given" (None or empty); a list or tuple default is shown comma-separated."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if (action.nargs == 0 or default is None or default == argparse.SUPPRESS
                or "default" in text.lower()
                or (isinstance(default, (list, tuple)) and not default)):
            return action.help
        if isinstance(default, (list, tuple)):
            return f"{text} (default: {','.join(map(str, default))})"
        return super()._get_help_string(action)


def agent_name(text: str) -> str:
    """argparse type: an agent name of the registry such as 'greedy', 'search:64' or 'ppo:PATH';
    only the name is case-insensitive (a path keeps its capitals)."""
    try:
        return normalize_agent_name(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from error


def automatic_spec(text: str) -> int | str:
    """argparse type: one automatic participant as typed, a level as an int ('5') or a name (a
    Tom code like 'B4', a bot); the game's config checks it."""
    text = text.strip()
    return int(text) if text.isdigit() else text


def positive(text: str) -> int:
    """argparse type: an int >= 1."""
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return int(text)


def non_negative(text: str) -> int:
    """argparse type: an int >= 0."""
    if not text.strip().isdigit():
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {text!r}")
    return int(text)


def positive_float(text: str) -> float:
    """A positive finite number (argparse type)."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not (value > 0 and value != float("inf")):
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number")
    return value
