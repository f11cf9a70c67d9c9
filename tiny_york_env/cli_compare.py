"""``tiny-york compare A B --game G --vs OPPONENT...``: the command line of ``arena.compare``.

    tiny-york compare ppo ppo:agents/models/champion.zip --vs 12 --out results/compare/gen1-tom12
    tiny-york compare ppo champion --game construction_yard --vs greedy --workers 2
    tiny-york compare psearch:64 psearch:256 --vs C5 --delta1 0.1 --max-pairs 400 --resume --out DIR

Each ``--vs`` entry is one opponent: one of the game's automatic participants where the game
takes it as one (a Tom level 1-12 or code such as C5, a bot such as greedy), else an agent name.
"""

from __future__ import annotations

import argparse
from typing import IO

from .agents.registry import agent_specs
from .arena.compare import (
    DEFAULT_BATCH,
    DEFAULT_DELTA0,
    DEFAULT_DELTA1,
    DEFAULT_MAX_PAIRS,
    RESULT_NAME,
    compare_agents,
    format_comparison,
)
from .arena.sprt import DEFAULT_ALPHA, DEFAULT_BETA
from .cli_types import agent_name, automatic_spec, positive
from .contract import Game
from .registry import DEFAULT_GAME, game_names, get_game

COMPARE_HELP = ("is agent B stronger than agent A? Paired games (the same deals, seats rotated) until a "
                "sequential probability ratio test decides")


def add_compare_parser(commands: argparse._SubParsersAction, formatter: type, add_run_options) -> None:
    """The ``compare`` subcommand's options (the run options as ``eval``'s, without --games)."""
    parser = commands.add_parser("compare", help=COMPARE_HELP, description=COMPARE_HELP + ".",
                                 formatter_class=formatter)
    parser.add_argument("a", type=agent_name, metavar="A", help="the agent as it is")
    parser.add_argument("b", type=agent_name, metavar="B", help="the candidate: is it better than A?")
    parser.add_argument("--game", choices=game_names(), default=DEFAULT_GAME, help="the game")
    parser.add_argument("--vs", nargs="+", required=True, metavar="OPPONENT",
                        help="the opponents of every game: the game's automatic participants (a Tom "
                             "level or code, a bot name) and agent names")
    parser.add_argument("--delta0", type=float, default=DEFAULT_DELTA0,
                        help="H0: B wins at most this much more of a deal than A (win share, -1 to 1)")
    parser.add_argument("--delta1", type=float, default=DEFAULT_DELTA1,
                        help="H1: B wins at least this much more of a deal than A")
    parser.add_argument("--alpha", type=float, default=DEFAULT_ALPHA, help="the chance of accepting H1 "
                        "when H0 holds")
    parser.add_argument("--beta", type=float, default=DEFAULT_BETA, help="the chance of accepting H0 "
                        "when H1 holds")
    parser.add_argument("--max-pairs", type=positive, default=DEFAULT_MAX_PAIRS, metavar="N",
                        help="the cap: at most N deals (each played by A and by B)")
    parser.add_argument("--batch", type=positive, default=DEFAULT_BATCH, metavar="K",
                        help="deals played between two readings of the test (the file is written "
                             "after each batch)")
    parser.add_argument("--resume", action="store_true",
                        help=f"go on with the test in --out/{RESULT_NAME} (the same settings)")
    add_run_options(parser, None)


def split_opponents(game: Game, entries: list[str]) -> tuple[list[str], list]:
    """``--vs`` as (agent names, automatic participants): an entry the game seats as an automatic
    participant (``game.seat_config(1, (entry,))`` accepts it) is one, any other an agent name
    (ValueError when it is neither)."""
    agents, automatic = [], []
    for entry in entries:
        spec = automatic_spec(entry)
        try:
            game.seat_config(1, (spec,))
        except (ValueError, TypeError):
            try:
                agents.append(agent_name(entry))
            except argparse.ArgumentTypeError as error:
                raise ValueError(f"--vs {entry!r} is neither one of {game.title}'s "
                                 f"{game.automatic_kind} {list(game.automatic_choices)} nor an agent: "
                                 f"{error}") from None
            continue
        automatic.append(spec)
    return agents, automatic


def run_compare(args: argparse.Namespace, out: IO[str]) -> None:
    """``tiny-york compare``: play until the test decides, printing a line a batch; the result file
    goes to ``--out/compare.json``."""
    game = get_game(args.game)
    opponents, automatic = split_opponents(game, args.vs)
    a, b, *others = agent_specs([args.a, args.b, *opponents], args.unsafe_unpickle)
    comparison = compare_agents(
        a, b, game=game.name, opponents=others, automatic=automatic, delta0=args.delta0,
        delta1=args.delta1, alpha=args.alpha, beta=args.beta, max_pairs=args.max_pairs, batch=args.batch,
        seed=args.seed, workers=args.workers, ray_address=args.ray, out=args.out, resume=args.resume,
        report=None if args.no_progress else lambda c: print(format_comparison(c), file=out, flush=True),
        command=args.command_line)
    result = comparison.to_dict()["result"]
    print(f"{comparison.settings['b']} against {comparison.settings['a']}: {result['decision']} after "
          f"{result['pairs']} deals (A won {result['a_wins']:g}, B {result['b_wins']:g}); wrote "
          f"{args.out}/{RESULT_NAME}", file=out)
