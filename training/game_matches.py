"""Matches of any registered game through the game contract: policies in the agent seats
(rotated game by game), the engine's automatic participants in the others (``tiny-york eval
--game``).

Policies: ``random`` (uniform among the legal actions, from a seeded generator) for every game,
and ``greedy`` for a game whose contract names a heuristic (``Game.greedy_action``; Construction
Yard's engine bot). A shared win counts 1/k to each of the k winners.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from tiny_york_env.contract import Game
from tiny_york_env.registry import get_game
from tiny_york_env.training.evaluate import format_rows, output_dir, write_output_text

POLICY_NAMES = ("random", "greedy")
TABLE_COLUMNS = ("agent", "games", "wins", "win rate", "mean score", "mean place")


def make_policy(game: Game, name: str, rng: np.random.Generator) -> Callable[[np.ndarray], int]:
    """The policy ``name`` for ``game``: a function of the state (the seat to move decides)."""
    if name == "random":
        return lambda state: int(rng.choice(np.flatnonzero(game.legal_mask(state))))
    if name == "greedy":
        if game.greedy_action is None:
            raise ValueError(f"{game.title} has no greedy heuristic in its contract; use "
                             f"tiny-york eval's Tiny York agents for it")
        return game.greedy_action
    raise ValueError(f"unknown policy {name!r} for --game {game.name}; policies: {POLICY_NAMES}")


def play_game(game: Game, config: Any, policies: Sequence[Callable], seat_of: Sequence[int],
              seed: int) -> tuple[np.ndarray, tuple[int, ...], np.ndarray]:
    """One game: policy k plays agent seat ``seat_of[k]``; (scores, winners, placings)."""
    by_seat = {seat: policies[k] for k, seat in enumerate(seat_of)}
    state = game.new_game(config, seed)
    while not game.is_terminal(state):
        game.apply_action(state, by_seat[game.current_player(state)](state))
    return game.final_scores(state), tuple(game.winners(state)), game.placings(state)


def evaluate_match(game_name: str, agents: Sequence[str], games: int, seed: int = 0,
                   **setup: Any) -> dict[str, Any]:
    """``games`` games of ``agents`` (policy names, one per agent seat, rotated each game) with
    the game's setup keywords ``setup`` (e.g. ``num_players=3, bots=("greedy",)``); per agent:
    games, wins (shared wins split), mean score and mean place (0 = first)."""
    game = get_game(game_name)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    config = game.make_config(**setup)
    if game.num_agents(config) != len(agents):
        raise ValueError(f"the setup {setup} has {game.num_agents(config)} agent seats but "
                         f"{len(agents)} agents were given ({list(agents)})")
    rng = np.random.default_rng(seed)
    policies = [make_policy(game, name, rng) for name in agents]
    n = len(agents)
    wins, scores, places = np.zeros(n), np.zeros(n), np.zeros(n)
    for g in range(games):
        seat_of = [(k + g) % n for k in range(n)]
        final, winners, placing = play_game(game, config, policies, seat_of, seed + g)
        for k, seat in enumerate(seat_of):
            wins[k] += (seat in winners) / len(winners)
            scores[k] += final[seat]
            places[k] += placing[seat]
    return {"game": game.name, "setup": {k: list(v) if isinstance(v, tuple) else v for k, v in setup.items()},
            "games": games, "seed": seed,
            "agents": [{"agent": name, "games": games, "wins": float(wins[k]),
                        "win_rate": float(wins[k] / games), "mean_score": float(scores[k] / games),
                        "mean_place": float(places[k] / games)} for k, name in enumerate(agents)]}


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
