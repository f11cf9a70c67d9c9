"""Matches of any registered game through the game contract: policies in the agent seats
(rotated game by game), the engine's automatic participants in the others (``tiny-york eval
--game``).

Policies: ``random`` (uniform among the legal actions, from a seeded generator) for every game;
``greedy`` for a game whose contract names a heuristic (``Game.greedy_action``; Construction
Yard's engine bot); ``ppo`` (the shipped trained policy of the game and player count, where one is
shipped: ``SHIPPED_POLICIES``) and ``ppo:PATH`` (a policy file trained for the game, e.g. by
``python -m tiny_york_env.training.train_ppo --game NAME``); ``search`` and ``search:N`` (flat Monte
Carlo search over the game's determinized views with N playouts per decision, default 64,
``agents/game_search.py``; ``gsearch[:N]`` the same with greedy playouts); ``psearch[:N]`` (the
shipped policy of the setup as prior and playout policy, sequential halving over its most probable
actions, ``agents/policy_search.py``); ``champion`` (the same search with the champion's settings,
``agents.policy_search.ChampionAgent``: ``CHAMPION_SIMULATIONS`` playouts where the policy is less
sure than ``CHAMPION_SKIP_ABOVE``, at most ``CHAMPION_TIME_LIMIT`` s a decision). Both may end in a
time limit as Tiny York's names do: ``champion@0.5`` (seconds a decision), ``psearch:64@none``. In Python an
agent may also be a function of the state returning the action of the seat to move, or an
``act(observation, mask)`` agent wrapped by ``act_policy``. A shared win counts 1/k to each of the k winners.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from tiny_york_env.agents.ppo_agent import MODELS_DIR
from tiny_york_env.contract import Game
from tiny_york_env.options import check_int
from tiny_york_env.registry import get_game
from tiny_york_env.training.evaluate import format_rows, output_dir, run_provenance, write_output_text

POLICY_NAMES = ("random", "greedy", "ppo", "ppo:PATH", "search", "search:N", "gsearch", "gsearch:N",
                "psearch", "psearch:N", "champion", "psearch@S", "champion@S")
PPO_PREFIX, SEARCH_PREFIX, GREEDY_SEARCH_PREFIX = "ppo", "search", "gsearch"  # gsearch: greedy playouts
POLICY_SEARCH_PREFIX = "psearch"  # the shipped policy as prior and playout policy
CHAMPION = "champion"  # psearch with the champion's settings (agents.policy_search.ChampionAgent)


def _name_forms(names: Sequence[str]) -> str:
    """``("ppo", "ppo:PATH", "psearch@S")`` as ``"ppo[:PATH], psearch[@S]"``: each name once, what may
    follow it in brackets."""
    arguments = {name: argument for name, _, argument in (n.partition(":") for n in names) if argument}
    limits = {name for name, at, _ in (n.partition("@") for n in names) if at}
    return ", ".join(n + (f"[:{arguments[n]}]" if n in arguments else "") + ("[@S]" if n in limits else "")
                     for n in names if ":" not in n and "@" not in n)


POLICY_FORMS = _name_forms(POLICY_NAMES)  # for help texts: "random, greedy, ppo[:PATH], search[:N], ..."
# (game, players) -> the shipped policy file in agents/models (installed: tiny_york_env/agents/models)
SHIPPED_POLICIES = {("construction_yard", 2): "construction_yard-2p.zip",
                    ("construction_yard", 3): "construction_yard-3p.zip",
                    ("fifth_avenue", 2): "fifth_avenue-2p.zip", ("fifth_avenue", 3): "fifth_avenue-3p.zip"}
Policy = Callable[[np.ndarray], int]
POLICY_SEED_BOUND = 2 ** 31  # a seeded policy's own seed is drawn below this from the match's generator
TABLE_COLUMNS = ("agent", "games", "wins", "win rate", "mean score", "mean place")


def shipped_policy_path(game: Game, players: int) -> Path:
    """The shipped policy file for ``game`` with ``players`` seats (agents and bots); ValueError
    when none is shipped for that setup."""
    name = SHIPPED_POLICIES.get((game.name, players))
    if name is None:
        shipped = sorted(f"{g} with {n} players" for g, n in SHIPPED_POLICIES)
        raise ValueError(f"no trained policy is shipped for {game.title} with {players} players "
                         f"(shipped: {shipped}); give ppo:PATH of one you trained")
    return MODELS_DIR / name


def act_policy(game: Game, agent: Any) -> Policy:
    """A state policy of an ``act(observation, mask)`` agent: it sees only the seat's observation
    and legal mask, like in the envs."""
    def policy(state: np.ndarray) -> int:
        seat = game.current_player(state)
        return int(agent.act(game.encode(state, seat), game.legal_mask(state)))
    return policy


def ppo_policy(game: Game, name: str, config: Any, seed: int) -> Policy:
    """``ppo`` (the shipped policy for this setup) or ``ppo:PATH`` as a state policy."""
    from tiny_york_env.agents.ppo_agent import PPOAgent
    path = (shipped_policy_path(game, game.num_participants(config)) if name == PPO_PREFIX
            else name.split(":", 1)[1])
    return act_policy(game, PPOAgent(path, game=game, seed=seed))


def search_policy(game: Game, name: str, seed: int, playout: str = "random") -> Policy:
    """``search[:N]`` or ``gsearch[:N]`` (N playouts per decision; random or greedy playouts) as
    a state policy: the agent plans on ``game.determinize`` of the state from the mover's seat,
    never on the state itself."""
    from tiny_york_env.agents.game_search import DEFAULT_SIMULATIONS, GameSearchAgent
    budget = name.partition(":")[2] or str(DEFAULT_SIMULATIONS)
    if not budget.isdigit() or int(budget) < 1:
        raise ValueError(f"{name!r}: the search budget after the colon must be a positive int of "
                         f"playouts per decision, e.g. search:64")
    agent = GameSearchAgent(game, simulations=int(budget), seed=seed, playout=playout)
    rng = np.random.default_rng(seed)

    def policy(state: np.ndarray) -> int:
        seat = game.current_player(state)
        return agent.act_state(game.determinize(state, seat, rng), seat)
    return policy


def psearch_budget(name: str) -> int | None:
    """N of ``psearch:N`` (None for plain ``psearch``); ValueError when what follows the colon is
    not a positive int."""
    _, colon, argument = name.partition(":")
    if not colon:
        return None
    if not argument.isdigit() or int(argument) < 1:
        raise ValueError(f"{name!r}: the search budget after the colon must be a positive int of "
                         f"playouts per decision, e.g. psearch:64")
    return int(argument)


def split_search_name(name: str) -> tuple[str, dict[str, float | None]]:
    """``name`` without the time limit that ``psearch`` and ``champion`` may end in
    (``'champion@0.5'``: ``('champion', {'time_limit': 0.5})``), and that limit as options;
    ValueError for a limit on another policy."""
    from tiny_york_env.agents.registry import split_time_limit
    untimed, limit = split_time_limit(name)
    prefix, colon, _ = untimed.partition(":")
    if not limit or prefix in (POLICY_SEARCH_PREFIX, CHAMPION):
        return untimed, limit
    if prefix == PPO_PREFIX and colon:  # 'ppo:runs/policy@2': an '@' inside a path
        return name, {}
    raise ValueError(f"{name!r}: only psearch and champion take a time limit (e.g. champion@0.5, "
                     f"psearch:64@none)")


def policy_search_policy(game: Game, name: str, config: Any, seed: int) -> Policy:
    """``psearch[:N]`` (agents/policy_search.py, N playouts per decision, the shipped policy for
    this setup as prior and playout policy) or ``champion`` (``ChampionAgent`` with that policy),
    either with an ``@S`` time limit, as a state policy on ``game.determinize`` views."""
    from tiny_york_env.agents.policy_search import DEFAULT_SIMULATIONS, ChampionAgent, PolicySearchAgent
    network = shipped_policy_path(game, game.num_participants(config))
    search_seed, view_seed = np.random.SeedSequence(seed).generate_state(2)
    name, limit = split_search_name(name)
    if name == CHAMPION:
        agent = ChampionAgent(seed=int(search_seed), game=game, network=network, **limit)
    else:
        agent = PolicySearchAgent(game, simulations=psearch_budget(name) or DEFAULT_SIMULATIONS,
                                  seed=int(search_seed), network=network, **limit)
    rng = np.random.default_rng(int(view_seed))

    def policy(state: np.ndarray) -> int:
        seat = game.current_player(state)
        return agent.act_state(game.determinize(state, seat, rng), seat)
    policy.agent = agent  # the search behind it (for tests and tables)
    return policy


def check_policy_name(game: Game, name: object, config: Any = None) -> str:
    """``name`` when it names a policy of ``game`` (POLICY_NAMES); ValueError saying why not. The
    policy files of ``ppo``, ``psearch`` and ``champion`` are only read when the policy is made,
    but with a ``config`` the shipped one must exist for its number of players."""
    if not isinstance(name, str):
        raise ValueError(f"a policy is named by a string {POLICY_NAMES}, got {name!r}")
    typed = name  # returned as given, time limit included
    name, _ = split_search_name(name)
    prefix, colon, _ = name.partition(":")
    if prefix == CHAMPION and colon:
        raise ValueError(f"{name!r}: the champion takes no budget and no file here (it searches the shipped "
                         f"policy of the setup with its own budget); psearch:N sets a budget, and "
                         f"champion:PATH is Tiny York's (tiny-york eval --agent champion:PATH)")
    if prefix == POLICY_SEARCH_PREFIX:
        psearch_budget(name)
    if name in (PPO_PREFIX, POLICY_SEARCH_PREFIX, CHAMPION) or prefix == POLICY_SEARCH_PREFIX:
        if config is not None:  # the shipped policy of this setup (a ValueError naming the shipped ones)
            shipped_policy_path(game, game.num_participants(config))
        return typed
    if prefix != PPO_PREFIX:
        make_policy(game, name, np.random.default_rng(0), config)
    return typed


def make_policy(game: Game, name: str | Policy, rng: np.random.Generator,
                config: Any = None) -> Policy:
    """The policy ``name`` for ``game`` (``config``: the setup, whose shipped policy ``ppo``,
    ``psearch`` and ``champion`` play): a function of the state (the seat to move decides); a
    function passes through."""
    if callable(name):
        return name
    if name == PPO_PREFIX or str(name).startswith(PPO_PREFIX + ":"):
        return ppo_policy(game, name, game.make_config() if config is None else config,
                          int(rng.integers(POLICY_SEED_BOUND)))
    untimed, _ = split_search_name(str(name))
    if untimed in (POLICY_SEARCH_PREFIX, CHAMPION) or untimed.startswith(POLICY_SEARCH_PREFIX + ":"):
        return policy_search_policy(game, name, game.make_config() if config is None else config,
                                    int(rng.integers(POLICY_SEED_BOUND)))
    if name == SEARCH_PREFIX or str(name).startswith(SEARCH_PREFIX + ":"):
        return search_policy(game, name, int(rng.integers(POLICY_SEED_BOUND)))
    if name == GREEDY_SEARCH_PREFIX or str(name).startswith(GREEDY_SEARCH_PREFIX + ":"):
        return search_policy(game, name, int(rng.integers(POLICY_SEED_BOUND)), playout="greedy")
    if name == "random":
        return lambda state: int(rng.choice(np.flatnonzero(game.legal_mask(state))))
    if name == "greedy":
        if game.greedy_action is None:
            raise ValueError(f"{game.title} has no greedy heuristic in its contract; use "
                             f"tiny-york eval's Tiny York agents for it")
        return game.greedy_action
    raise ValueError(f"unknown policy {name!r} for --game {game.name}; policies: {POLICY_NAMES}")


def play_game(game: Game, config: Any, policies: Sequence[Callable], seat_of: Sequence[int],
              seed: int, recorder: Any = None) -> tuple[np.ndarray, tuple[int, ...], np.ndarray]:
    """One game: policy k plays agent seat ``seat_of[k]``; (scores, winners, placings). A
    ``saved_games.GameRecorder`` given as ``recorder`` records every decision and the end."""
    by_seat = {seat: policies[k] for k, seat in enumerate(seat_of)}
    state = game.new_game(config, seed)
    while not game.is_terminal(state):
        seat = game.current_player(state)
        action = by_seat[seat](state)
        game.apply_action(state, action)
        if recorder is not None:
            recorder.record(seat, action)
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
    policies = [make_policy(game, name, rng, config) for name in agents]
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
