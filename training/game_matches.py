"""Matches of any registered game set up by its config keywords (``evaluate_match``), played by the
evaluation harness (``training.evaluate.evaluate_vs_agents``): policies in the agent seats (seats
rotated, deals shared), the engine's automatic participants in the others.

Each seat's policy is ``agents.policies.seat_policy``: an agent of the registry written for the
game (Tiny York's agents; an outside ``MODULE:ATTRIBUTE`` agent for any game), else one of the
contract's policies (``agents/policies.py``: random, greedy, ppo[:PATH], search[:N], gsearch[:N],
psearch[:N][@S], champion[@S]). In Python an agent may also be a function of the state returning
the action of the seat to move. A shared win counts 1/k to each of the k winners.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from tiny_york_env.agents.policies import (  # noqa: F401  (the policies' names, re-exported)
    CHAMPION,
    GREEDY_SEARCH_PREFIX,
    POLICY_FORMS,
    POLICY_NAMES,
    POLICY_SEARCH_PREFIX,
    POLICY_SEED_BOUND,
    PPO_PREFIX,
    SEARCH_PREFIX,
    Policy,
    StatePolicyAgent,
    act_policy,
    check_policy_name,
    make_policy,
    policy_search_policy,
    ppo_policy,
    psearch_budget,
    search_policy,
    seat_policy,
    shipped_policy_path,
    split_search_name,
)
from tiny_york_env.options import check_int
from tiny_york_env.registry import get_game
from tiny_york_env.training.evaluate import (
    RUN_PROVENANCE_KEYS,
    evaluate_vs_agents,
    format_rows,
    output_dir,
    write_output_text,
)

TABLE_COLUMNS = ("agent", "games", "wins", "win rate", "mean score", "mean place")


def agent_name(agent: str | Policy) -> str:
    """A policy's name in result tables: the name given, or a function's ``label`` attribute."""
    return agent if isinstance(agent, str) else getattr(agent, "label", "policy")


class StatePolicyFactory:
    """``factory(seed)`` of a state policy (a function of the state returning the action of the seat
    to move) for the evaluation harness: its agent plans on the seat's determinized view."""

    def __init__(self, policy: Policy) -> None:
        self.policy, self.label = policy, agent_name(policy)

    def __call__(self, seed: int | None) -> StatePolicyAgent:
        """The policy as an ``act_state`` agent (the seed is the policy's own business)."""
        return StatePolicyAgent(self.policy, self.label)


def evaluate_match(game_name: str, agents: Sequence[str | Policy], games: int, seed: int = 0,
                   saving: Any = None, workers: int = 1, progress: bool = False,
                   ray_address: str | None = None, **setup: Any) -> dict[str, Any]:
    """``games`` games of ``agents`` (policy names or state policies, one per agent seat, seats
    rotated and deals shared as in ``evaluate.evaluate_vs_agents``, which plays them) with the
    game's setup keywords ``setup`` (e.g. ``num_players=3, bots=("greedy",)``); per agent: games,
    wins (shared wins split), win rate with its Wilson 95% interval, mean score, mean place (0 =
    first) and mean margin (own score minus the best other seat's). ``saving``
    (``training.evaluate.GameSaving``) writes the first agent's lost games, or all, as saved games.
    The results record the run's ``played_on`` and ``version`` (``evaluate.run_provenance``)."""
    game = get_game(game_name)
    games = check_int("games", games, 1)
    config = game.make_config(**setup)
    if game.num_agents(config) != len(agents):
        raise ValueError(f"the setup {setup} has {game.num_agents(config)} agent seats but "
                         f"{len(agents)} agents were given ({list(agents)})")
    specs = [StatePolicyFactory(a) if callable(a) else a for a in agents]
    results = evaluate_vs_agents(specs, games, seed, workers, progress, saving=saving,
                                 ray_address=ray_address, game=game, automatic=game.automatic_of(config))
    rows = []
    for p, cell in enumerate(results.cells):
        places = [r.places[r.seating.index(p)] for r in results.records]
        rows.append({"agent": cell.agent, "games": cell.games, "wins": float(cell.wins),
                     "win_rate": cell.win_rate, "ci_low": cell.ci_low, "ci_high": cell.ci_high,
                     "mean_score": cell.mean_score, "mean_place": float(np.mean(places)),
                     "mean_margin": cell.mean_margin})
    provenance = {key: results.settings[key] for key in RUN_PROVENANCE_KEYS}
    return {"game": game.name, "setup": {k: list(v) if isinstance(v, tuple) else v for k, v in setup.items()},
            "games": games, "seed": seed, **provenance, "agents": rows}


def format_match(results: dict[str, Any]) -> str:
    """The results as a plain-text table."""
    rows = [(r["agent"], r["games"], f"{r['wins']:g}", f"{r['win_rate']:.3f}", f"{r['mean_score']:.1f}",
             f"{r['mean_place']:.2f}") for r in results["agents"]]
    return f"{results['game']} {results['setup']}\n" + format_rows(TABLE_COLUMNS, rows)


def write_match(results: dict[str, Any], out: str) -> list[Path]:
    """``match.json`` in the folder ``out``."""
    path = output_dir(out) / f"{results['game']}_match.json"
    write_output_text(path, json.dumps(results, indent=2) + "\n")
    return [path]
