"""The one grammar of player names, for every game and every command.

    NAME                 a player of the registry's table ('random', 'greedy', 'champion')
    NAME:BUDGET          its budget, a positive int ('search:64': 64 playouts a decision)
    NAME:PATH            its file ('ppo:runs/x/policy.zip', 'champion:gen-2/policy.zip')
    NAME[...]@SECONDS    at most SECONDS a decision ('champion@0.5'); '@none': no limit
    MODULE:ATTRIBUTE     an outside factory taking seed= ('mypkg.bots:MyBot')

Only the name is case-insensitive: a budget or a path after the colon is kept as typed. The time
limit is what follows the last '@' when that is seconds (a finite number > 0) or 'none'; after a
path it must be, since a path may hold an '@'. Which of budget, path and time limit a name takes
is its table row's (``contract.PlayerEntry``): the functions here read a table, the registry
(``agents/registry.py``) gives it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tiny_york_env.contract import PlayerEntry
from tiny_york_env.core.options import check_number

BUDGET_SEPARATOR = ":"
TIME_LIMIT_SEPARATOR = "@"  # 'champion@0.5': at most 0.5 s a decision
NO_TIME_LIMIT = "none"  # 'champion@none': no wall-time limit (the budget alone bounds a search)
TIME_LIMIT_OPTION = "time_limit"
EXTERNAL_SEPARATOR = ":"
EXTERNAL_NAME = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")
Table = Mapping[str, PlayerEntry]


def known_names(table: Table) -> str:
    """The table's names for messages, with the outside form."""
    return ", ".join(sorted(table)) + ", or MODULE:ATTRIBUTE"


def name_forms(table: Table) -> str:
    """The names as typed, for help texts: ``search[:N]`` where a budget may follow, ``ppo[:PATH]``
    where a file may, ``[@S]`` where a time limit may."""
    return ", ".join(name + ("[:N]" if entry.budget_option else "[:PATH]" if entry.path_option else "")
                     + ("[@S]" if entry.timed else "") for name, entry in table.items())


def base_name(spec: str) -> str:
    """The name before a budget or path, lowercased: ``'PPO:Runs/a.zip'`` is ``'ppo'``."""
    return spec.partition(BUDGET_SEPARATOR)[0].strip().lower()


def is_external_name(spec: str, table: Table) -> bool:
    """True for an outside player named by ``MODULE:ATTRIBUTE`` (``mypkg.bots:MyBot``): a factory
    taking ``seed=`` (a class, a function) that returns an agent; never a name of ``table``."""
    if base_name(spec) in table:
        return False
    return EXTERNAL_NAME.fullmatch(spec.strip()) is not None


def split_time_limit(spec: str) -> tuple[str, dict[str, float | None]]:
    """``'champion@0.5'`` as ``('champion', {'time_limit': 0.5})``, ``'psearch:64@none'`` as
    ``('psearch:64', {'time_limit': None})``, a name without a limit unchanged with ``{}``;
    ValueError for another suffix (unless the '@' is inside a path)."""
    rest, separator, limit = spec.strip().rpartition(TIME_LIMIT_SEPARATOR)
    if not separator:
        return spec.strip(), {}
    if limit.strip().lower() == NO_TIME_LIMIT:
        return rest.strip(), {TIME_LIMIT_OPTION: None}
    try:
        seconds = check_number("time limit", float(limit), 0.0, strict=True)
    except ValueError:
        if BUDGET_SEPARATOR in rest:  # an '@' inside a path ('ppo:runs/a@b/policy.zip')
            return spec.strip(), {}
        raise ValueError(f"bad time limit in {spec!r}: after '{TIME_LIMIT_SEPARATOR}' give the seconds a "
                         f"decision may take (a number > 0, e.g. 'champion@0.5') or "
                         f"'{NO_TIME_LIMIT}'") from None
    return rest.strip(), {TIME_LIMIT_OPTION: seconds}


def time_limit_text(seconds: float | None) -> str:
    """A time limit as its name suffix writes it: ``2.0`` as ``'2'``, ``0.5`` as ``'0.5'``, None as
    ``'none'`` (one spelling per value, so equal limits give equal labels)."""
    if seconds is None:
        return NO_TIME_LIMIT
    return repr(float(seconds)).removesuffix(".0")  # the shortest spelling that reads back the same


def timed_parts(spec: str, table: Table) -> tuple[str, dict[str, float | None]]:
    """``split_time_limit(spec)`` where the player takes a time limit; for another player the name
    whole when the '@' is inside its path, else ValueError."""
    untimed, limit = split_time_limit(spec)
    if is_external_name(untimed, table):
        return untimed, limit
    entry = table.get(base_name(untimed))
    if not limit or entry is None or entry.timed:
        return untimed, limit
    if entry.path_option and BUDGET_SEPARATOR in untimed:  # 'ppo:runs/policy@2': a path
        return spec.strip(), {}
    timed = ", ".join(n for n, e in table.items() if e.timed)
    raise ValueError(f"agent {entry.name!r} takes no time limit ({spec!r}); only {timed} do "
                     f"(e.g. 'champion@0.5')")


def parse_untimed(spec: str, typed: str, table: Table) -> tuple[str, dict[str, int | str]]:
    """The name and options of a name without its time limit (``typed``: the name as given)."""
    if is_external_name(spec, table):
        return spec.strip(), {}
    name, separator, argument = spec.partition(BUDGET_SEPARATOR)
    name = name.strip().lower()  # only the name: a path after the colon keeps its case
    if name not in table:
        raise ValueError(f"unknown agent {typed!r}; known agents: {known_names(table)} "
                         f"(a budget may follow a colon, e.g. 'search:64')")
    entry = table[name]
    if not separator:
        return name, {}
    if entry.path_option is not None:
        if not argument.strip():
            raise ValueError(f"empty path in {typed!r}: give a model file after the colon, "
                             f"e.g. '{name}:runs/ppo-x/policy.zip', or plain '{name}'")
        return name, {entry.path_option: argument.strip()}
    if entry.budget_option is None:
        budgeted = ", ".join(n for n, e in table.items() if e.budget_option)
        raise ValueError(f"agent {name!r} takes no budget ({typed!r}); only {budgeted} does")
    if not argument.isdigit() or int(argument) < 1:
        raise ValueError(f"bad budget in {typed!r}: after the colon give a positive int, e.g. "
                         f"'{name}:64'")
    return name, {entry.budget_option: int(argument)}


def parse_name(spec: object, table: Table) -> tuple[str, dict[str, Any]]:
    """``'search:64'`` as ``('search', {'simulations': 64})``, ``'champion@0.5'`` as
    ``('champion', {'time_limit': 0.5})``, ``MODULE:ATTRIBUTE`` as itself; ValueError for an
    unknown name, a budget that is not a positive int or not taken by that player, or a time
    limit on a player that takes none."""
    if not isinstance(spec, str):
        raise ValueError(f"an agent name must be a string, got {spec!r}; known agents: "
                         f"{known_names(table)}")
    untimed, limit = timed_parts(spec, table)
    name, options = parse_untimed(untimed, spec, table)
    return name, {**options, **limit}


def normal_name(spec: str, table: Table) -> str:
    """``spec`` checked, its name lowercased and stripped, a budget or path kept as typed, a time
    limit spelt one way and left out where it is none (the default of every timed player):
    ``'PPO:Runs/My.zip'`` is ``'ppo:Runs/My.zip'``, ``'Champion@2.0'`` is ``'champion@2'``,
    ``'champion@none'`` is ``'champion'``; ValueError as ``parse_name``."""
    name, options = parse_name(spec, table)
    untimed, limit = timed_parts(spec, table)
    if is_external_name(untimed, table):
        return spec.strip()
    _, separator, rest = untimed.partition(BUDGET_SEPARATOR)
    normal = name + separator + rest.strip() if separator else name
    if limit and options[TIME_LIMIT_OPTION] is not None:
        normal += TIME_LIMIT_SEPARATOR + time_limit_text(options[TIME_LIMIT_OPTION])
    return normal
