"""``make demo``: a short tour of the three games, each game's agents against its automatic
participants, with one HTML report.

For each built-in game of the registry (``TOUR``: Tiny York, Construction Yard, 5th Avenue;
``--only`` names others, a plug-in game included) it plays the arena's ladder
(``arena.ladder.evaluate_ladder``, as ``tiny-york eval --game NAME --agent X`` does): solo games of
one agent against one automatic participant per rung, Tiny York's Toms 1-12 and the other games'
bots ``greedy`` and ``random``, every game seeded from ``--seed``, the rung and the game number.
The agents, read from the registry (``tour_legs``): ppo, random, the game's own players (its
record's ``players``: every game's greedy, Tiny York's tomrules) and search:16 at 50 games a rung;
the champion at about ``CHAMPION_TOUR_GAMES`` games in all, against the first, middle and last
rungs of a longer ladder (Tiny York: 2 games against Toms 1, 6 and 12) or every rung of a short one
(the other games: 4 games a bot). A few minutes with the default 2 workers on 2 cores (about 3 on
idle ones); the champion (``agents.policy_search.ChampionAgent``, 256 playouts a searched
decision) takes the largest share, which is why it plays few games. ``ppo`` and ``champion`` need
the ``train`` extra and their shipped policy files: without them they are left out with a message.

Each game's results go to ``OUT/<game>/ladder.{csv,json,png}`` as ``tiny-york eval`` writes them
(the JSON settings of each part name the ``tiny-york eval`` command that plays it alone), and
``OUT/index.html`` is one self-contained page of the whole tour (``tiny_york_env.demo_report``):
what was played, each game's tables and plot, the command and the package version. Its path is
printed at the end. ``--quick`` is a smoke run of the same tour in seconds; ``--games``,
``--champion-games``, ``--champion`` and ``--only`` change it. ``--game`` instead prints one seeded
random game of Tiny York (the board and the final score breakdown).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import shlex
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .agents.random_agent import RandomAgent
from .agents.registry import check_player
from .agents.shipped import champion_network, shipped_policy_path
from .arena.ladder import evaluate_ladder
from .arena.output import output_dir
from .arena.records import combine_results
from .arena.result_files import write_results
from .arena.tables import format_table
from .cli_types import DefaultsHelpFormatter, agent_name, non_negative, positive
from .contract import Game
from .core.labels import count_noun
from .demo_report import GameReport, PlayedLeg, write_report
from .games.tiny_york import (
    GameConfig,
    apply_action,
    current_player,
    is_terminal,
    legal_mask,
    new_game,
    render_text,
)
from .registry import BUILTIN_GAMES, game_names, get_game


@dataclass(frozen=True)
class Leg:
    """Agents of one game that each play ``games`` games a rung against ``rungs`` (None: every rung
    of the game's ladder, ``Game.automatic_choices``)."""

    agents: tuple[str, ...]
    games: int
    rungs: tuple[int | str, ...] | None = None


CHAMPION = "champion"
TRAINED_AGENTS = ("ppo", CHAMPION)  # they need the train extra and their shipped policy files
# every game's agents around its own players (``Game.players``): the first ones before, the last after
TOUR_FIRST_AGENTS, TOUR_LAST_AGENTS = ("ppo", "random"), ("search:16",)
TOUR = tuple(BUILTIN_GAMES)  # the games toured by default, the built-in ones (--only names another)
GAMES_A_RUNG = 50  # games a rung for each agent but the champion, in every game
CHAMPION_TOUR_GAMES = 8  # the champion's games in all, shared between its rungs (at least one a rung)
CHAMPION_MOST_RUNGS = 3  # a longer ladder: the champion plays its first, middle and last rungs
LADDER_PLAYERS = 2  # a ladder game: the agent and one automatic participant
QUICK_GAMES = 1  # --quick: one game a rung, the champion one game at its first rung ...
QUICK_CHAMPION = "champion@0.02"  # ... searching at most 0.02 s a decision
DEMO_WORKERS = 2
DEMO_OUT = "results/demo"
DEMO_SEED = 2026
DEMO_NUM_AGENTS = 3
REPORT_NAME = "index.html"


def play_random_game(num_agents: int, seed: int) -> tuple[np.ndarray, int]:
    """Play a whole game with one RandomAgent per seat; returns (final state, decisions)."""
    state = new_game(GameConfig(num_agents=num_agents), seed=seed)
    players = [RandomAgent(seed=seed * 10 + seat) for seat in range(num_agents)]
    decisions = 0
    while not is_terminal(state):
        seat = current_player(state)
        apply_action(state, players[seat].act(None, legal_mask(state)))
        decisions += 1
    return state, decisions


def train_extra_installed() -> bool:
    """Whether the ``train`` extra's torch and sb3-contrib can be imported (``ppo``, ``champion``)."""
    return all(importlib.util.find_spec(name) is not None for name in ("torch", "sb3_contrib"))


@contextlib.contextmanager
def one_torch_thread() -> Iterator[None]:
    """One torch thread in this process while in the block, as the harness gives each pool worker:
    the policies' small batches run slower on more (the warm-up games and ``--workers 1`` play
    here); the number before is restored after it."""
    if not train_extra_installed():
        yield
        return
    import torch
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def shipped_file(game_name: str, agent: str) -> Path | None:
    """The shipped policy file that ``agent`` (``ppo`` or ``champion``) plays in a ladder of
    ``game_name`` (two players: the agent and one automatic participant); None when the game ships
    none."""
    game = get_game(game_name)
    if ":" in agent:  # ppo:PATH, champion:PATH: the file given, not a shipped one
        return None
    config = game.seat_config(1, (game.automatic_choices[0],))
    try:
        if agent.partition("@")[0] == CHAMPION:
            return champion_network(game, config)
        return shipped_policy_path(game, LADDER_PLAYERS)
    except ValueError:  # none shipped for this game: check_player says so
        return None


def playable_agents(game_name: str, agents: Sequence[str]) -> tuple[tuple[str, ...], list[str]]:
    """(the ``agents`` that can play ``game_name``'s ladder, a line for each left out): ``ppo`` and
    ``champion`` need the train extra and their shipped policy file; every agent must be one the
    arena plays in the game (``agents.registry.check_player``)."""
    game = get_game(game_name)
    config = game.seat_config(1, (game.automatic_choices[0],))
    kept, notes = [], []
    extra = train_extra_installed()
    for agent in agents:
        why = None
        if agent.partition(":")[0].partition("@")[0] in TRAINED_AGENTS:
            path = shipped_file(game_name, agent)
            if not extra:
                why = "it needs the train extra (pip install 'tiny-york-env[train]')"
            elif path is not None and not path.is_file():
                why = f"it needs {path}"
        if why is None:
            try:
                check_player(game, agent, config)
            except ValueError as error:
                why = str(error)
        if why is None:
            kept.append(agent)
        else:
            notes.append(f"{agent} is left out of {game.title}: {why}")
    return tuple(kept), notes


def tour_legs(game_name: str, games: int | None = None, champion_games: int | None = None,
              champion: str = CHAMPION, quick: bool = False) -> tuple[Leg, ...]:
    """The legs of ``game_name``'s part of the tour, read from its record (``tour_agents``,
    ``champion_rungs``, ``champion_games``); ``games`` / ``champion_games`` replace the counts a
    rung, ``quick`` makes both 1 and plays the champion at its first rung only."""
    game = get_game(game_name)
    rungs = champion_rungs(game)
    if games is None:
        games = QUICK_GAMES if quick else GAMES_A_RUNG
    if champion_games is None:
        champion_games = QUICK_GAMES if quick else champion_games_a_rung(game)
    if quick:
        rungs = ((rungs or game.automatic_choices)[0],)
    return Leg(tour_agents(game), games), Leg((champion,), champion_games, rungs)


def tour_agents(game: Game) -> tuple[str, ...]:
    """The agents of ``game``'s tour: ppo and random, its own players (``Game.players``), search:16."""
    return TOUR_FIRST_AGENTS + tuple(entry.name for entry in game.players) + TOUR_LAST_AGENTS


def champion_rungs(game: Game) -> tuple[int | str, ...] | None:
    """The rungs the champion plays: the first, middle and last of a ladder longer than
    ``CHAMPION_MOST_RUNGS`` (Tiny York's Toms 1, 6 and 12), else None (every rung)."""
    choices = tuple(game.automatic_choices)
    if len(choices) <= CHAMPION_MOST_RUNGS:
        return None
    return choices[0], choices[(len(choices) - 1) // 2], choices[-1]


def champion_games_a_rung(game: Game) -> int:
    """The champion's games a rung: ``CHAMPION_TOUR_GAMES`` shared between its rungs."""
    return max(1, CHAMPION_TOUR_GAMES // len(champion_rungs(game) or game.automatic_choices))


def leg_command(game_name: str, leg: Leg, agents: Sequence[str], seed: int, workers: int) -> str:
    """The ``tiny-york eval`` command that plays ``agents`` of ``leg`` alone, with the same seeds."""
    words = ["tiny-york", "eval", "--game", game_name]
    for agent in agents:
        words += ["--agent", agent]
    if leg.rungs is not None:
        words += ["--levels", ",".join(map(str, leg.rungs))]
    words += ["--games", str(leg.games), "--seed", str(seed), "--workers", str(workers)]
    return shlex.join(words)


def play_game_tour(game_name: str, legs: Sequence[Leg], seed: int, workers: int, out: Path,
                   progress: bool = True):
    """Play the legs of one game, print its table, write ``out/<game>/ladder.*``; its GameReport."""
    game = get_game(game_name)
    print(f"\n== {game.title} ({game.name}): its agents against its {game.automatic_kind}", flush=True)
    ladders, played, notes = [], [], []
    for leg in legs:
        agents, left_out = playable_agents(game_name, leg.agents)
        for note in left_out:
            print(f"({note})")
        notes += left_out
        if not agents:
            continue
        command = leg_command(game_name, leg, agents, seed, workers)
        played.append(PlayedLeg(agents, leg.games, leg.rungs, command))
        for agent in agents:
            ladder = evaluate_ladder(agent, leg.rungs, games=leg.games, seed=seed, workers=workers,
                                     progress=progress, game=game)
            ladder.settings["command"] = command  # how to play this part alone
            ladders.append(ladder)
    if not ladders:
        return GameReport(game_name, None, played, [], notes)
    results = combine_results(ladders)
    print(format_table(results), flush=True)
    paths = write_results(results, out / game_name, "ladder")
    print("wrote " + ", ".join(str(p) for p in paths))
    return GameReport(game_name, results, played, paths, notes)


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of ``python -m tiny_york_env.demo``."""
    parser = argparse.ArgumentParser(prog="python -m tiny_york_env.demo", description=__doc__,
                                     formatter_class=DefaultsHelpFormatter)
    parser.add_argument("--game", action="store_true", help="print one random game of Tiny York instead")
    parser.add_argument("--agents", type=int, default=DEMO_NUM_AGENTS,
                        help="with --game: number of agents, 2-4")
    parser.add_argument("--seed", type=non_negative, default=DEMO_SEED, help="base seed")
    parser.add_argument("--games", type=positive, metavar="N",
                        help="games a rung for every agent but the champion (by default 50)")
    parser.add_argument("--champion-games", type=positive, metavar="N",
                        help=f"the champion's games a rung (by default {CHAMPION_TOUR_GAMES} shared "
                             f"between its rungs: 2 in Tiny York, 4 in the others)")
    parser.add_argument("--champion", type=agent_name, metavar="NAME",
                        help=f"the champion as named to the harness, e.g. champion@0.2 (at most 0.2 s a "
                             f"decision: faster, weaker); by default {CHAMPION} ({QUICK_CHAMPION} with "
                             f"--quick)")
    parser.add_argument("--only", nargs="+", choices=game_names(), metavar="GAME",
                        help=f"tour these games instead of the built-in ones ({', '.join(TOUR)})")
    parser.add_argument("--quick", action="store_true",
                        help=f"a smoke run in seconds: {QUICK_GAMES} game a rung, the champion "
                             f"({QUICK_CHAMPION}) at one rung")
    parser.add_argument("--workers", type=positive, default=DEMO_WORKERS, help="processes")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    parser.add_argument("--out", default=DEMO_OUT,
                        help="folder for the report (index.html) and each game's CSV, JSON and PNG")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the tour and write its report (or, with ``--game``, print one random game)."""
    args = build_parser().parse_args(argv)
    if args.game:
        state, decisions = play_random_game(args.agents, args.seed)
        print(render_text(state))
        print(f"\n{count_noun(decisions, 'decision')}, seed {args.seed}")
        return 0
    command = "python -m tiny_york_env.demo " + shlex.join(sys.argv[1:] if argv is None else argv)
    out = output_dir(args.out)
    champion = args.champion or (QUICK_CHAMPION if args.quick else CHAMPION)
    start = time.perf_counter()
    reports = []
    with one_torch_thread():
        for name in args.only or TOUR:
            legs = tour_legs(name, args.games, args.champion_games, champion, args.quick)
            reports.append(play_game_tour(name, legs, args.seed, args.workers, out, not args.no_progress))
    seconds = time.perf_counter() - start
    path = write_report(out / REPORT_NAME, reports, command.strip(), args.seed, args.workers, seconds)
    print(f"\nThe tour took {seconds:.0f} s.\nopen {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
