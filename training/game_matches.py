"""Matches of any registered game through the game contract: policies in the agent seats
(rotated game by game), the engine's automatic participants in the others (``tiny-york eval
--game``).

Each seat's policy is ``agents.policies.seat_policy``: an agent of the registry written for the
game (Tiny York's agents; an outside ``MODULE:ATTRIBUTE`` agent for any game), else one of the
contract's policies (``agents/policies.py``: random, greedy, ppo[:PATH], search[:N], gsearch[:N],
psearch[:N][@S], champion[@S]). In Python an agent may also be a function of the state returning
the action of the seat to move. A shared win counts 1/k to each of the k winners.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
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
from tiny_york_env.contract import Game
from tiny_york_env.options import check_int
from tiny_york_env.registry import get_game
from tiny_york_env.training.evaluate import format_rows, output_dir, run_provenance, write_output_text
from tiny_york_env.training.game_loop import play_out

TABLE_COLUMNS = ("agent", "games", "wins", "win rate", "mean score", "mean place")


def play_game(game: Game, config: Any, policies: Sequence[Callable], seat_of: Sequence[int],
              seed: int, recorder: Any = None) -> tuple[np.ndarray, tuple[int, ...], np.ndarray]:
    """One game: policy k plays agent seat ``seat_of[k]``; (scores, winners, placings). A
    ``saved_games.GameRecorder`` given as ``recorder`` records every decision and the end."""
    by_seat = {seat: policies[k] for k, seat in enumerate(seat_of)}
    state = game.new_game(config, seed)
    play_out(game, state, lambda state, seat: by_seat[seat](state),
             None if recorder is None else recorder.record)
    if recorder is not None:
        recorder.finish(state)
    return game.final_scores(state), tuple(game.winners(state)), game.placings(state)


def agent_name(agent: str | Policy) -> str:
    """A policy's name in result tables: the name given, or a function's ``label`` attribute."""
    return agent if isinstance(agent, str) else getattr(agent, "label", "policy")


def evaluate_match(game_name: str, agents: Sequence[str | Policy], games: int, seed: int = 0,
                   saving: Any = None, **setup: Any) -> dict[str, Any]:
    """``games`` games of ``agents`` (policy names or state policies, one per agent seat,
    rotated each game) with the game's setup keywords ``setup`` (e.g. ``num_players=3,
    bots=("greedy",)``); per agent: games, wins (shared wins split), mean score, mean place
    (0 = first) and mean margin (own score minus the best other seat's). ``saving``
    (``training.evaluate.GameSaving``) writes the first agent's lost games, or all, as saved
    games ``DIR/game<k>.jsonl``. Game g plays the deal ``seed + g``: runs whose seeds are closer
    than ``games`` share deals. The results record the run's ``played_on`` and ``version``
    (``evaluate.run_provenance``)."""
    game = get_game(game_name)
    games = check_int("games", games, 1)
    provenance = run_provenance()
    config = game.make_config(**setup)
    if game.num_agents(config) != len(agents):
        raise ValueError(f"the setup {setup} has {game.num_agents(config)} agent seats but "
                         f"{len(agents)} agents were given ({list(agents)})")
    rng = np.random.default_rng(seed)
    policies = [seat_policy(game, name, rng, config) for name in agents]
    n = len(agents)
    wins, scores, places, margins = np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(n)
    for g in range(games):
        seat_of = [(k + g) % n for k in range(n)]
        recorder = None
        if saving is not None:
            from tiny_york_env.saved_games import GameRecorder
            names = {seat: agent_name(agents[k]) for k, seat in enumerate(seat_of)}
            recorder = GameRecorder(game, config, seed + g, [
                names.get(seat, "bot") for seat in range(game.num_participants(config))])
        final, winners, placing = play_game(game, config, policies, seat_of, seed + g, recorder)
        if recorder is not None and saving.keeps(lost=seat_of[0] not in winners):
            output_dir(saving.directory)
            recorder.write(Path(saving.directory) / f"game{g:05d}.jsonl")
        for k, seat in enumerate(seat_of):
            wins[k] += (seat in winners) / len(winners)
            scores[k] += final[seat]
            places[k] += placing[seat]
            margins[k] += final[seat] - np.delete(final, seat).max()
    return {"game": game.name, "setup": {k: list(v) if isinstance(v, tuple) else v for k, v in setup.items()},
            "games": games, "seed": seed, **provenance,
            "agents": [{"agent": agent_name(name), "games": games, "wins": float(wins[k]),
                        "win_rate": float(wins[k] / games), "mean_score": float(scores[k] / games),
                        "mean_place": float(places[k] / games),
                        "mean_margin": float(margins[k] / games)} for k, name in enumerate(agents)]}


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
