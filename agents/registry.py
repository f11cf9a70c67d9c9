"""The agents by name, for the evaluation harness, the tournament and the ``tiny-york`` command.

A name may carry a budget after a colon: ``"search:64"`` is ``SearchAgent(simulations=64)``;
``"ppo:PATH"`` is ``PPOAgent("PATH")`` (plain ``"ppo"`` plays the shipped model) and
``"champion:PATH"`` the champion's search with that policy file. Only the name is
case-insensitive: a budget or path after the colon is kept as typed. Agent modules are imported
only when an agent is made, so a missing one breaks only its name.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the engine is imported only when an agent is made
    from tiny_york_env.agents.base import Agent

BUDGET_SEPARATOR = ":"


@dataclass(frozen=True)
class AgentEntry:
    """Where an agent class lives and which constructor option, if any, a ``name:N`` budget sets."""

    module: str
    class_name: str
    description: str
    budget_option: str | None = None
    path_option: str | None = None  # the constructor option a ``name:PATH`` sets (kept as typed)


AGENTS = {
    "random": AgentEntry("tiny_york_env.agents.random_agent", "RandomAgent",
                         "uniform over the legal actions"),
    "tomrules": AgentEntry("tiny_york_env.agents.tom_rules_agent", "TomRulesAgent",
                           "plays by the rulebook's automatic-player rules"),
    "greedy": AgentEntry("tiny_york_env.agents.greedy_agent", "GreedyAgent", "one-step lookahead heuristic"),
    "search": AgentEntry("tiny_york_env.agents.search_agent", "SearchAgent",
                         "determinized tree search; 'search:N' sets N simulations",
                         budget_option="simulations"),
    "psearch": AgentEntry("tiny_york_env.agents.policy_search", "PolicySearchAgent",
                          "determinized search with the shipped policy as prior and playout policy; "
                          "'psearch:N' sets N playouts per decision", budget_option="simulations"),
    "champion": AgentEntry("tiny_york_env.agents.policy_search", "ChampionAgent",
                           "the strongest shipped agent: psearch with its tuned budget on its own network, "
                           "agents/models/champion.zip (docs/champion.md); 'champion:PATH' searches with "
                           "the policy file PATH instead (an expert-iteration generation)",
                           path_option="network"),
    "ppo": AgentEntry("tiny_york_env.agents.ppo_agent", "PPOAgent",
                      "trained MaskablePPO policy; 'ppo:PATH' loads a policy file (a training run's "
                      "policy.zip or training.export's output), plain 'ppo' the shipped model",
                      path_option="path_or_model"),
    "rllib": AgentEntry("tiny_york_env.agents.rllib_agent", "RLlibAgent",
                        "a module trained with RLlib (training/rllib_train.py); 'rllib:OUT' loads the "
                        "run folder OUT (needs the ray extra's msgpack)", path_option="path"),
}


def _known_names() -> str:
    return ", ".join(sorted(AGENTS))


def agent_name_forms() -> str:
    """The registered names as typed, for help texts: ``search[:N]`` where a budget may follow,
    ``ppo[:PATH]`` where a file may."""
    return ", ".join(name + ("[:N]" if entry.budget_option else "[:PATH]" if entry.path_option else "")
                     for name, entry in AGENTS.items())


def parse_agent_name(spec: str) -> tuple[str, dict[str, int | str]]:
    """Split ``'search:64'`` into ``('search', {'simulations': 64})``; ValueError for an unknown
    name or a budget that is not a positive int or not accepted by that agent."""
    if not isinstance(spec, str):
        raise ValueError(f"an agent name must be a string, got {spec!r}; known agents: {_known_names()}")
    name, separator, budget = spec.strip().partition(BUDGET_SEPARATOR)
    name = name.lower()  # only the name: a path after the colon keeps its case
    if name not in AGENTS:
        raise ValueError(f"unknown agent {spec!r}; known agents: {_known_names()} "
                         f"(a budget may follow a colon, e.g. 'search:64')")
    if not separator:
        return name, {}
    path_option = AGENTS[name].path_option
    if path_option is not None:
        if not budget.strip():
            raise ValueError(f"empty path in {spec!r}: give a model file after the colon, "
                             f"e.g. '{name}:runs/ppo-x/policy.zip', or plain '{name}'")
        return name, {path_option: budget.strip()}
    option = AGENTS[name].budget_option
    if option is None:
        budgeted = ", ".join(n for n, e in AGENTS.items() if e.budget_option)
        raise ValueError(f"agent {name!r} takes no budget ({spec!r}); only {budgeted} does")
    if not budget.isdigit() or int(budget) < 1:
        raise ValueError(f"bad budget in {spec!r}: after the colon give a positive int, e.g. '{name}:64'")
    return name, {option: int(budget)}


def normalize_agent_name(spec: str) -> str:
    """``spec`` checked, its agent name lowercased and stripped, a budget or path after the colon
    kept as typed: ``'PPO:Runs/My.zip'`` is ``'ppo:Runs/My.zip'``; ValueError as parse_agent_name."""
    name, _ = parse_agent_name(spec)
    _, separator, rest = spec.strip().partition(BUDGET_SEPARATOR)
    return name + separator + rest.strip() if separator else name


def agent_class(name: str) -> Callable[..., Agent]:
    """The class registered under ``name`` (imported now); ValueError if unknown or missing."""
    name, _ = parse_agent_name(name)
    entry = AGENTS[name]
    try:
        module = importlib.import_module(entry.module)
    except ModuleNotFoundError as error:
        raise ValueError(f"agent {name!r} is registered but its module {entry.module} "
                         f"cannot be imported: {error}") from error
    return getattr(module, entry.class_name)


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
