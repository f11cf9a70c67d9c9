"""The argparse types of the ``tiny-york`` command and its subcommands' modules (kept apart from
``tiny_york_env.cli`` so that a subcommand's module imports them without importing the command)."""

import argparse


def agent_name(text: str) -> str:
    """argparse type: an agent name of the registry such as 'greedy', 'search:64' or 'ppo:PATH';
    only the name is case-insensitive (a path keeps its capitals)."""
    from tiny_york_env.agents.registry import normalize_agent_name
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
