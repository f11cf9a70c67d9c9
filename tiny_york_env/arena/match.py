"""Matches: agents of a game against each other, one per agent seat, seats rotated and deals shared
(game k is seeded from the seed, the setup and k alone, so two agents in one seat meet the same
deals), with the game's automatic participants (Toms, bots) after them."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..agents.registry import AgentSpec, check_player, spec_name
from ..contract import Game
from ..core.options import check_int
from ..core.players import StatePolicy, StatePolicyAgent
from ..registry import DEFAULT_GAME, get_game
from .jobs import DEFAULT_GAMES, AutomaticSpec, rotation_jobs
from .labels import unique_labels
from .output import output_dir, write_output_text
from .play import GameSaving
from .provenance import RUN_PROVENANCE_KEYS, run_provenance
from .records import EvalResults, cell_result
from .runner import positive_int, run_jobs
from .seeds import KIND_MATCH, automatic_key, check_seed
from .tables import format_rows

MATCH_TABLE_COLUMNS = ("agent", "games", "wins", "win rate", "mean score", "mean place")


def match_automatic(game: Game, toms: Iterable[AutomaticSpec], automatic: Iterable[AutomaticSpec]) -> tuple:
    """The automatic participants of a match: ``automatic``, or ``toms`` (Tiny York's name for
    them, ``Game.automatic_from``); ValueError when both are given or ``toms`` for a game without
    Toms."""
    return game.automatic_from(automatic=tuple(automatic), toms=tuple(toms))


def evaluate_vs_agents(agents: Iterable[AgentSpec], games: int = DEFAULT_GAMES, seed: int = 0,
                       workers: int = 1, progress: bool = True, toms: Iterable[AutomaticSpec] = (),
                       saving: GameSaving | None = None, ray_address: str | None = None, *,
                       game: str | Game = DEFAULT_GAME,
                       automatic: Iterable[AutomaticSpec] = (), first_game: int = 0,
                       warm: bool = True) -> EvalResults:
    """Agents of ``game`` (names or factories, one per agent seat, with its ``automatic``
    participants after them: Toms, bots; ``toms`` for Tiny York's) against each other, seats
    rotated: ``games`` must be a multiple of the number of agents. Game k is seeded from (seed, the
    setup, k) alone, not from the agents, so two agents in the same seat meet the same deals; k runs
    from ``first_game`` (a multiple of the agents; a match in parts). One CellResult per agent.
    ``warm=False``: no warm-up game (``runner.run_jobs``). ``saving`` writes the games it selects
    (the first agent's lost ones, or all). The settings record the run's ``played_on`` and
    ``version`` (``provenance.run_provenance``)."""
    game = get_game(game)
    agents = list(agents)
    automatic = match_automatic(game, toms, automatic)
    if not agents:
        raise ValueError("a match needs at least one agent")
    try:
        config = game.seat_config(len(agents), automatic)
    except ValueError as error:
        raise ValueError(f"{len(agents)} agents and {game.automatic_kind} {list(automatic)} are no "
                         f"setup of {game.title} (it takes {game.automatic_participants}): {error}") from None
    if game.num_participants(config) < 2:
        raise ValueError(f"a match has 2 or more participants; got {len(agents)} agent and no "
                         f"{game.automatic_kind}")
    agents = [check_player(game, a, config) for a in agents]
    codes = game.automatic_of(config)  # validated, one spelling each
    games, seed = positive_int(games, "games"), check_seed(seed)
    first_game = check_int("first_game", first_game, 0)
    labels = unique_labels(agents)
    provenance = run_provenance()
    jobs = rotation_jobs(0, tuple(range(len(agents))), games, automatic,
                         (seed, KIND_MATCH, len(agents), *map(automatic_key, codes)), first_game, game.name)
    records = run_jobs(agents, labels, jobs, workers, progress, " vs ".join(labels), saving, ray_address,
                       warm)
    cells = []
    automatic_labels = [game.automatic_label(x) for x in codes]
    for p, label in enumerate(labels):
        others = [x for x in labels if x != label] + automatic_labels
        cells.append(cell_result(records, p, label, ", ".join(others)))
    settings = {"game": game.name, "agents": labels, game.automatic_kind: list(automatic), "games": games,
                "seed": seed, **({"first_game": first_game} if first_game else {}), **provenance}
    return EvalResults("match", cells, records, settings)


class StatePolicyFactory:
    """``factory(seed)`` of a state policy (a function of the state returning the action of the seat
    to move) for the arena: its agent plans on the seat's determinized view."""

    def __init__(self, policy: StatePolicy) -> None:
        self.policy, self.label = policy, getattr(policy, "label", "policy")

    def __call__(self, seed: int | None) -> StatePolicyAgent:
        """The policy as an ``act_state`` agent (the seed is the policy's own business)."""
        return StatePolicyAgent(self.policy, self.label)


def evaluate_match(game_name: str, agents: Sequence[str | StatePolicy], games: int, seed: int = 0,
                   saving: Any = None, workers: int = 1, progress: bool = False,
                   ray_address: str | None = None, **setup: Any) -> dict[str, Any]:
    """``games`` games of ``agents`` (names or state policies, one per agent seat, seats rotated and
    deals shared as in ``evaluate_vs_agents``, which plays them) with the game's setup keywords
    ``setup`` (e.g. ``num_players=3, bots=("greedy",)``); per agent: games, wins (shared wins
    split), win rate with its Wilson 95% interval, mean score, mean place (0 = first) and mean
    margin (own score minus the best other seat's). ``saving`` (``play.GameSaving``) writes the
    first agent's lost games, or all, as saved games. The results record the run's ``played_on``
    and ``version``."""
    game = get_game(game_name)
    games = check_int("games", games, 1)
    config = game.make_config(**setup)
    if game.num_agents(config) != len(agents):
        raise ValueError(f"the setup {setup} has {game.num_agents(config)} agent seats but "
                         f"{len(agents)} agents were given ({list(agents)})")
    specs = [a if spec_name(a) is not None else StatePolicyFactory(a) for a in agents]
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
    """The results of ``evaluate_match`` as a plain-text table."""
    rows = [(r["agent"], r["games"], f"{r['wins']:g}", f"{r['win_rate']:.3f}", f"{r['mean_score']:.1f}",
             f"{r['mean_place']:.2f}") for r in results["agents"]]
    return f"{results['game']} {results['setup']}\n" + format_rows(MATCH_TABLE_COLUMNS, rows)


def write_match(results: dict[str, Any], out: str) -> list[Path]:
    """``<game>_match.json`` in the folder ``out``."""
    path = output_dir(out) / f"{results['game']}_match.json"
    write_output_text(path, json.dumps(results, indent=2) + "\n")
    return [path]
