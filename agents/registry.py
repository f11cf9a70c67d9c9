"""The agents by name, for the evaluation harness, the tournament and the ``tiny-york`` command.

A name may carry a budget after a colon: ``"search:64"`` is ``SearchAgent(simulations=64)``;
``"ppo:PATH"`` is ``PPOAgent("PATH")`` (plain ``"ppo"`` plays the shipped model) and
``"champion:PATH"`` the champion's search with that policy file. A searching agent's name may
end in a time limit, ``@SECONDS`` a decision or ``@none``: ``"champion@0.5"`` is
``ChampionAgent(time_limit=0.5)``, ``"psearch:64@none"`` ``PolicySearchAgent(simulations=64,
time_limit=None)``; the name with its suffix labels the agent in results (without it where the
limit is the agent's default), so parts played with different limits are never joined as one
agent's. Only the name is case-insensitive: a budget or path after the colon is kept as typed.
Agent modules are imported only when an agent is made (or a name with a time limit normalised,
which reads the agent's default limit), so a missing one breaks only its name.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import inspect
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tiny_york_env.options import check_number

if TYPE_CHECKING:  # the engine is imported only when an agent is made
    from tiny_york_env.agents.base import Agent

BUDGET_SEPARATOR = ":"
TIME_LIMIT_SEPARATOR = "@"  # 'champion@0.5': at most 0.5 s a decision
NO_TIME_LIMIT = "none"  # 'champion@none': no wall-time limit (the simulations alone bound a search)
TIME_LIMIT_OPTION = "time_limit"
# The classes below were written for Tiny York's engine; a name marked ``contract_policy`` plays every
# other game as the contract's policy of that name (agents/policies.py); an outside agent
# (MODULE:ATTRIBUTE or an entry point) plays any game.
TINY_YORK_AGENT = ("tiny_york",)
ENTRY_POINT_GROUP = "tiny_york_env.agents"  # installed packages' agents: name = "module:attribute"
EXTERNAL_SEPARATOR = ":"


@dataclass(frozen=True)
class AgentEntry:
    """Where an agent class lives and which constructor option, if any, a ``name:N`` budget sets."""

    module: str
    class_name: str
    description: str
    budget_option: str | None = None
    path_option: str | None = None  # the constructor option a ``name:PATH`` sets (kept as typed)
    timed: bool = False  # takes a ``time_limit`` (seconds a decision), set by ``name@SECONDS``
    games: tuple[str, ...] | None = TINY_YORK_AGENT  # the games its class plays; None: every game
    # the games its class does not play take the contract's policy of this name (agents/policies.py)
    contract_policy: bool = False


AGENTS = {
    "random": AgentEntry("tiny_york_env.agents.random_agent", "RandomAgent",
                         "uniform over the legal actions", contract_policy=True),
    "tomrules": AgentEntry("tiny_york_env.agents.tom_rules_agent", "TomRulesAgent",
                           "plays by the rulebook's automatic-player rules"),
    "greedy": AgentEntry("tiny_york_env.agents.greedy_agent", "GreedyAgent",
                         "one-step lookahead heuristic (another game: its record's greedy heuristic)",
                         contract_policy=True),
    "search": AgentEntry("tiny_york_env.agents.search_agent", "SearchAgent",
                         "determinized tree search; 'search:N' sets N simulations",
                         budget_option="simulations", contract_policy=True),
    "psearch": AgentEntry("tiny_york_env.agents.policy_search", "PolicySearchAgent",
                          "determinized search with the shipped policy as prior and playout policy; "
                          "'psearch:N' sets N playouts per decision, 'psearch@S' at most S seconds a "
                          "decision (default: no limit)", budget_option="simulations", timed=True,
                          contract_policy=True),
    "champion": AgentEntry("tiny_york_env.agents.policy_search", "ChampionAgent",
                           "the strongest shipped agent: psearch with its tuned budget on its own network, "
                           "agents/models/champion.zip (docs/champion.md); 'champion:PATH' searches with "
                           "the policy file PATH instead (an expert-iteration generation); "
                           "'champion@S' adds a limit of S seconds a decision (its strength is set "
                           "by playouts alone)", path_option="network", timed=True, contract_policy=True),
    "ppo": AgentEntry("tiny_york_env.agents.ppo_agent", "PPOAgent",
                      "trained MaskablePPO policy; 'ppo:PATH' loads a policy file (a training run's "
                      "policy.zip or training.export's output), plain 'ppo' the shipped model",
                      path_option="path_or_model", contract_policy=True),
    "rllib": AgentEntry("tiny_york_env.agents.rllib_agent", "RLlibAgent",
                        "a module trained with RLlib (training/rllib_train.py); 'rllib:OUT' loads the "
                        "run folder OUT (needs the ray extra's msgpack)", path_option="path"),
    "gsearch": AgentEntry("tiny_york_env.agents.game_search", "GameSearchAgent",
                          "search with the game's compiled greedy heuristic in its playouts (games whose "
                          "record has one); 'gsearch:N' sets N playouts", budget_option="simulations",
                          games=(), contract_policy=True),
}


def contract_policy_names() -> tuple[str, ...]:
    """The names every game plays (``contract_policy`` entries) as typed: ``search``, ``search:N``
    where a budget may follow, ``ppo:PATH`` where a file may, ``psearch@S`` where a time limit may."""
    forms = []
    for name, entry in AGENTS.items():
        if entry.contract_policy:
            forms += [name, *([f"{name}:N"] if entry.budget_option else []),
                      *([f"{name}:PATH"] if entry.path_option else []),
                      *([f"{name}@S"] if entry.timed else [])]
    return tuple(forms)


EXTERNAL_NAME = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")


@functools.cache
def installed_agents() -> dict[str, AgentEntry]:
    """The agents that installed packages declare in the entry-point group ``ENTRY_POINT_GROUP``
    (``[project.entry-points."tiny_york_env.agents"] mybot = "mypkg.bots:MyBot"``), by name."""
    found = {}
    for point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        module, _, attribute = point.value.partition(EXTERNAL_SEPARATOR)
        found[point.name.lower()] = AgentEntry(module.strip(), attribute.strip(),
                                               f"installed agent ({point.value})", games=None)
    return found


def is_external_name(spec: str) -> bool:
    """True for an outside agent named by ``MODULE:ATTRIBUTE`` (``mypkg.bots:MyBot``): a factory
    taking ``seed=`` (a class, a function) that returns an ``act(observation, action_mask)`` agent."""
    name = spec.partition(BUDGET_SEPARATOR)[0].strip().lower()
    if name in AGENTS or name in installed_agents():
        return False
    return EXTERNAL_NAME.fullmatch(spec.strip()) is not None


def agent_entry(name: str) -> AgentEntry:
    """The entry of a parsed agent name: this package's, an installed package's or an outside
    ``MODULE:ATTRIBUTE``; KeyError for another name."""
    if name in AGENTS:
        return AGENTS[name]
    if name in installed_agents():
        return installed_agents()[name]
    if is_external_name(name):
        module, _, attribute = name.partition(EXTERNAL_SEPARATOR)
        return AgentEntry(module, attribute, f"outside agent {name}", games=None)
    raise KeyError(name)


def _known_names() -> str:
    return ", ".join(sorted({**AGENTS, **installed_agents()})) + ", or MODULE:ATTRIBUTE"


def agent_name_forms() -> str:
    """The registered names as typed, for help texts: ``search[:N]`` where a budget may follow,
    ``ppo[:PATH]`` where a file may, ``[@S]`` where a time limit may."""
    return ", ".join(name + ("[:N]" if entry.budget_option else "[:PATH]" if entry.path_option else "")
                     + ("[@S]" if entry.timed else "") for name, entry in AGENTS.items())


def split_time_limit(spec: str) -> tuple[str, dict[str, float | None]]:
    """``'champion@0.5'`` as ``('champion', {'time_limit': 0.5})``, ``'psearch:64@none'`` as
    ``('psearch:64', {'time_limit': None})``, a name without a limit unchanged with ``{}``. The
    limit is what follows the last '@' when that is seconds (a finite number > 0) or 'none'
    (after a path it must be, since a path may hold an '@'); ValueError for another suffix."""
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
    text = repr(float(seconds))  # the shortest spelling that reads back as the same float
    return text.removesuffix(".0")


def parse_agent_name(spec: str) -> tuple[str, dict[str, int | str | float | None]]:
    """Split ``'search:64'`` into ``('search', {'simulations': 64})`` and ``'champion@0.5'`` into
    ``('champion', {'time_limit': 0.5})``; ValueError for an unknown name, a budget that is not a
    positive int or not accepted by that agent, or a time limit on an agent that takes none."""
    if not isinstance(spec, str):
        raise ValueError(f"an agent name must be a string, got {spec!r}; known agents: {_known_names()}")
    untimed, limit = _timed_parts(spec)
    name, options = _parse_untimed(untimed, spec)
    return name, {**options, **limit}


def _timed_parts(spec: str) -> tuple[str, dict[str, float | None]]:
    """``split_time_limit(spec)`` where the agent takes a time limit; for another agent the name
    whole when the '@' is inside its path, else ValueError."""
    untimed, limit = split_time_limit(spec)
    if is_external_name(untimed):
        return untimed, limit
    name = untimed.partition(BUDGET_SEPARATOR)[0].strip().lower()
    entries = {**installed_agents(), **AGENTS}
    if not limit or name not in entries or entries[name].timed:
        return untimed, limit
    if entries[name].path_option and BUDGET_SEPARATOR in untimed:  # 'ppo:runs/policy@2': a path
        return spec.strip(), {}
    timed = ", ".join(n for n, e in AGENTS.items() if e.timed)
    raise ValueError(f"agent {name!r} takes no time limit ({spec!r}); only {timed} do (e.g. 'champion@0.5')")


def _parse_untimed(spec: str, typed: str) -> tuple[str, dict[str, int | str]]:
    """``parse_agent_name`` of a name without its time limit (``typed``: the name as given)."""
    if is_external_name(spec):
        return spec.strip(), {}
    name, separator, budget = spec.partition(BUDGET_SEPARATOR)
    name = name.lower()  # only the name: a path after the colon keeps its case
    if name not in AGENTS and name not in installed_agents():
        raise ValueError(f"unknown agent {typed!r}; known agents: {_known_names()} "
                         f"(a budget may follow a colon, e.g. 'search:64')")
    if not separator:
        return name, {}
    path_option = agent_entry(name).path_option
    if path_option is not None:
        if not budget.strip():
            raise ValueError(f"empty path in {typed!r}: give a model file after the colon, "
                             f"e.g. '{name}:runs/ppo-x/policy.zip', or plain '{name}'")
        return name, {path_option: budget.strip()}
    option = agent_entry(name).budget_option
    if option is None:
        budgeted = ", ".join(n for n, e in AGENTS.items() if e.budget_option)
        raise ValueError(f"agent {name!r} takes no budget ({typed!r}); only {budgeted} does")
    if not budget.isdigit() or int(budget) < 1:
        raise ValueError(f"bad budget in {typed!r}: after the colon give a positive int, e.g. '{name}:64'")
    return name, {option: int(budget)}


def normalize_agent_name(spec: str) -> str:
    """``spec`` checked, its agent name lowercased and stripped, a budget or path after the colon
    kept as typed, a time limit spelt one way and left out where it is the agent's default:
    ``'PPO:Runs/My.zip'`` is ``'ppo:Runs/My.zip'``, ``'Champion@2.0'`` is ``'champion@2'``,
    ``'champion@none'`` is ``'champion'``; ValueError as parse_agent_name."""
    name, options = parse_agent_name(spec)
    untimed, limit = _timed_parts(spec)
    if is_external_name(untimed):
        return spec.strip()
    _, separator, rest = untimed.partition(BUDGET_SEPARATOR)
    normal = name + separator + rest.strip() if separator else name
    if limit and options[TIME_LIMIT_OPTION] != default_time_limit(name):
        normal += TIME_LIMIT_SEPARATOR + time_limit_text(options[TIME_LIMIT_OPTION])
    return normal


def default_time_limit(name: str) -> float | None:
    """The time limit (seconds a decision, None for none) of the agent ``name`` when its name
    sets none: a limit equal to it is left out of the name (``'psearch@none'`` is ``'psearch'``)."""
    parameter = inspect.signature(agent_class(name)).parameters.get(TIME_LIMIT_OPTION)
    return None if parameter is None else parameter.default


def agent_class(name: str) -> Callable[..., Agent]:
    """The class (or factory) registered under ``name`` (imported now); ValueError if unknown or
    missing."""
    name, _ = parse_agent_name(name)
    entry = agent_entry(name)
    try:
        module = importlib.import_module(entry.module)
    except ModuleNotFoundError as error:
        raise ValueError(f"agent {name!r}: its module {entry.module} "
                         f"cannot be imported: {error}") from error
    try:
        return functools.reduce(getattr, entry.class_name.split("."), module)
    except AttributeError as error:
        raise ValueError(f"agent {name!r}: {entry.module} has no {entry.class_name}") from error


def make_agent(name: str, seed: int | None = None, **options: Any) -> Agent:
    """A new agent by registry name (``'search:64'`` sets the budget), seeded with ``seed``;
    ``options`` go to its constructor and override a budget given in the name."""
    base_name, budget = parse_agent_name(name)
    return agent_class(base_name)(seed=seed, **{**budget, **options})


@dataclass(frozen=True)
class AgentFactory:
    """``factory(seed)``: a new agent by registry name with extra constructor ``options``, labelled
    by that name (for the evaluation harness, which takes names or factories)."""

    name: str
    options: dict[str, Any] = field(default_factory=dict, hash=False)

    @property
    def label(self) -> str:
        """The name the results show."""
        return self.name

    def __call__(self, seed: int | None) -> Agent:
        """A new agent seeded with ``seed``."""
        return make_agent(self.name, seed=seed, **self.options)


def agent_specs(names: Iterable[str], unsafe_unpickle: bool) -> list:
    """``names`` for the evaluation harness: each ``ppo`` name as a factory that may unpickle an
    SB3 checkpoint when ``unsafe_unpickle``, the others unchanged."""
    if not unsafe_unpickle:
        return list(names)
    return [AgentFactory(name, {"unsafe_unpickle": True}) if parse_agent_name(name)[0] == "ppo" else name
            for name in names]


def make_agent_from_spec(spec: str | Callable[[int | None], Agent], seed: int | None) -> Agent:
    """A new agent from a registry name or a ``factory(seed)``."""
    return make_agent(spec, seed=seed) if isinstance(spec, str) else spec(seed)
