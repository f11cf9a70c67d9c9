"""The ``tiny-york`` command: evaluate agents, run a tournament, or play a game yourself.

    tiny-york eval --agent greedy [--agent random] [--levels 1-12] [--games 500] [--out results]
    tiny-york eval --vs random greedy [--tom 5] --games 120
    tiny-york tournament --agents random greedy tomrules --games 20 [--size 2]
    tiny-york play --tom 5 [--tom B4] [--vs greedy] [--seed 1] [--seat 0]
    tiny-york --version

``ppo:PATH`` plays a policy file (``agents/ppo_agent.py``), loaded without running code from it;
a stable-baselines3 checkpoint is refused unless ``--unsafe-unpickle`` is given. Output files
are never written through a symbolic link: a link as ``--out`` or as one of its files is refused.

``DefaultsHelpFormatter`` is the help layout of this command and of the training scripts: each
option's default is shown once.
"""

import argparse
import secrets
import sys
from collections.abc import Iterable, Sequence
from typing import IO

import numpy as np

from . import __version__
from .game import (
    GameConfig,
    apply_action,
    current_player,
    describe_action,
    final_scores,
    is_terminal,
    legal_actions,
    new_game,
    pending_decision,
    render_text,
    winner,
)
from .game.config import ALLOWED_TOMS, NUM_TOM_LEVELS, tom_code, tom_level
from .registry import game_names

LADDER_GAMES = 500
MATCH_GAMES = 120  # a multiple of 2, 3 and 4: seats rotate evenly in any match
TOURNAMENT_GAMES = 20
DEFAULT_OUT = "results"
GAME_SIZES = (2, 3, 4)
PLAY_SEED_BOUND = 2 ** 31
QUIT_WORDS = ("q", "quit", "exit")
FIRST_CHOICE = 1  # the legal actions are numbered from 1 for people
EXIT_OK, EXIT_ERROR = 0, 2


# ---------------------------------------------------------------- help and option types

class DefaultsHelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """``(default: X)`` after an option's help, once: not when the help already states its default
    (a computed one, such as ``runs/ppo-<timestamp>``), and not for flags or options whose default
    is "not given" (None or empty); a list or tuple default is shown comma-separated."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if (action.nargs == 0 or default is None or default == argparse.SUPPRESS
                or "default" in text.lower()
                or (isinstance(default, (list, tuple)) and not default)):
            return action.help
        if isinstance(default, (list, tuple)):
            return f"{text} (default: {','.join(map(str, default))})"
        return super()._get_help_string(action)


def agent_name(text: str) -> str:
    """argparse type: a registry agent name such as 'greedy', 'search:64' or 'ppo:PATH'; only the
    name is case-insensitive (a path keeps its capitals)."""
    from tiny_york_env.agents.registry import normalize_agent_name
    try:
        return normalize_agent_name(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from error


UNSAFE_UNPICKLE_HELP = ("let ppo:PATH be a stable-baselines3 checkpoint (model.zip, checkpoints/*.zip): "
                        "loading one UNPICKLES it, which runs code from the file; only for files you "
                        "trust. Without it such files are refused; policy files (a run's policy.zip, "
                        "training.export's output, the shipped model) never need it")


def agent_specs(names: Iterable[str], unsafe_unpickle: bool) -> list:
    """``names`` for the evaluation harness: each ``ppo`` name as a factory that may unpickle an
    SB3 checkpoint when ``unsafe_unpickle``, the others unchanged."""
    from tiny_york_env.agents.registry import AgentFactory, parse_agent_name
    if not unsafe_unpickle:
        return list(names)
    return [AgentFactory(name, {"unsafe_unpickle": True}) if parse_agent_name(name)[0] == "ppo" else name
            for name in names]


def tom_spec(text: str) -> int | str:
    """argparse type: a Tom level 1-12 (as an int) or a code like 'B4'."""
    spec = int(text) if text.strip().isdigit() else text
    try:
        tom_code(spec)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from error
    return spec


def tom_levels(text: str) -> list[int]:
    """argparse type: Tom levels as a list and ranges, e.g. '1-12' or '1,5,9-12'."""
    allowed = f"give Tom levels 1-{NUM_TOM_LEVELS} as a list and ranges, e.g. 1-12 or 1,5,9-12"
    levels = []
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise argparse.ArgumentTypeError(f"bad levels {text!r}: {allowed}")
        first, last = int(low), int(high or low)
        if not 1 <= first <= last <= NUM_TOM_LEVELS:
            raise argparse.ArgumentTypeError(f"bad levels {text!r}: {allowed}")
        levels += [lv for lv in range(first, last + 1) if lv not in levels]
    return levels


def positive(text: str) -> int:
    """argparse type: an int >= 1."""
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return int(text)


def non_negative(text: str) -> int:
    """argparse type: an int >= 0."""
    if not text.strip().isdigit():
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {text!r}")
    return int(text)


# ---------------------------------------------------------------- the parser

def _add_run_options(parser, games_help):
    parser.add_argument("--games", type=positive, help=games_help)
    parser.add_argument("--seed", type=non_negative, default=0, help="base seed")
    parser.add_argument("--workers", type=positive, default=1, help="processes")
    parser.add_argument("--out", default=DEFAULT_OUT, help="folder for CSV/JSON/PNG; a symbolic link "
                        "as the folder or one of its files is refused")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--unsafe-unpickle", action="store_true", help=UNSAFE_UNPICKLE_HELP)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``tiny-york`` and its subcommands."""
    parser = argparse.ArgumentParser(prog="tiny-york", description="Tiny York: evaluate, compare, play.",
                                     formatter_class=DefaultsHelpFormatter)
    parser.add_argument("--version", action="version", version=f"tiny-york {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="{eval,tournament,play}")

    ev = commands.add_parser("eval", help="an agent against the Tom ladder, or agents against each other",
                             formatter_class=DefaultsHelpFormatter)
    ev.add_argument("--game", choices=game_names(), default="tiny_york",
                    help="the game; for another than tiny_york: --vs with its policies (random, "
                         "greedy), --players and --bots")
    ev.add_argument("--players", type=positive, help="another game: players in all (default: one per --vs)")
    ev.add_argument("--bots", nargs="+", default=[], metavar="BOT",
                    help="another game: the engine's players in the last seats (random, greedy)")
    who = ev.add_mutually_exclusive_group(required=True)
    who.add_argument("--agent", type=agent_name, action="append", metavar="NAME",
                     help="agent for the Tom ladder (repeatable): random, tomrules, greedy, "
                          "search[:N], ppo[:PATH]")
    who.add_argument("--vs", type=agent_name, nargs="+", metavar="NAME",
                     help="2-4 agents that play each other, seats rotated")
    ev.add_argument("--levels", type=tom_levels, default=list(range(1, NUM_TOM_LEVELS + 1)),
                    help="Tom levels for the ladder (default: 1-12)")
    ev.add_argument("--tom", type=tom_spec, action="append", default=[], metavar="TOM",
                    help="with --vs: a Tom joining every game (level 1-12 or code like B4)")
    _add_run_options(ev, f"games per cell (default: {LADDER_GAMES} per Tom level; with --vs "
                         f"{MATCH_GAMES}, a multiple of the number of agents)")

    tour = commands.add_parser("tournament", help="round robin with OpenSkill ratings",
                               formatter_class=DefaultsHelpFormatter)
    tour.add_argument("--agents", type=agent_name, nargs="+", required=True, metavar="NAME")
    tour.add_argument("--size", type=int, choices=GAME_SIZES, default=2, help="agents per game")
    _add_run_options(tour, f"games per group of agents, a multiple of --size (default: {TOURNAMENT_GAMES})")

    play = commands.add_parser("play", help="play a game yourself at the terminal",
                               formatter_class=DefaultsHelpFormatter)
    play.add_argument("--tom", type=tom_spec, action="append", default=[], metavar="TOM",
                      help=f"a Tom opponent (repeatable): {ALLOWED_TOMS}")
    play.add_argument("--vs", type=agent_name, action="extend", nargs="+", default=[], metavar="NAME",
                      help="agent opponents")
    play.add_argument("--seed", type=non_negative, help="game seed (default: random, printed)")
    play.add_argument("--seat", type=non_negative, default=0, help="your seat among the agent seats")
    play.add_argument("--unsafe-unpickle", action="store_true", help=UNSAFE_UNPICKLE_HELP)
    return parser


# ---------------------------------------------------------------- eval and tournament

def run_eval(args: argparse.Namespace, out: IO[str]) -> None:
    """``tiny-york eval``: print the table, write CSV/JSON (and PNG for the ladder)."""
    from tiny_york_env.training.evaluate import (
        combine_results,
        evaluate_vs_agents,
        evaluate_vs_toms,
        format_table,
        write_results,
    )
    if args.game != "tiny_york":
        run_game_match(args, out)
        return
    if args.players or args.bots:
        raise ValueError("--players and --bots are for another --game than tiny_york (Toms: --tom)")
    progress = not args.no_progress
    if args.vs:
        if len(args.vs) < 2 and not args.tom:
            raise ValueError("--vs needs 2-4 agents (or add --tom): e.g. --vs random greedy")
        results = evaluate_vs_agents(agent_specs(args.vs, args.unsafe_unpickle),
                                     games=args.games or MATCH_GAMES, seed=args.seed,
                                     workers=args.workers, progress=progress, toms=args.tom)
    else:
        if args.tom:
            raise ValueError("--tom is for --vs; the ladder's Toms are chosen with --levels")
        results = combine_results(
            evaluate_vs_toms(spec, levels=args.levels, games=args.games or LADDER_GAMES, seed=args.seed,
                             workers=args.workers, progress=progress)
            for spec in agent_specs(args.agent, args.unsafe_unpickle))
    print(format_table(results), file=out)
    paths = write_results(results, args.out)
    print("wrote " + ", ".join(str(p) for p in paths), file=out)


def run_game_match(args: argparse.Namespace, out: IO[str]) -> None:
    """``tiny-york eval --game NAME --vs A B ...``: a match through the game contract."""
    from tiny_york_env.training.game_matches import evaluate_match, format_match, write_match
    if not args.vs:
        raise ValueError(f"--game {args.game} needs --vs with one policy per agent seat (random, "
                         "greedy), e.g. --vs greedy random")
    players = args.players or len(args.vs) + len(args.bots)
    results = evaluate_match(args.game, args.vs, games=args.games or MATCH_GAMES, seed=args.seed,
                             num_players=players, bots=tuple(args.bots))
    print(format_match(results), file=out)
    paths = write_match(results, args.out)
    print("wrote " + ", ".join(str(p) for p in paths), file=out)


def run_tournament_command(args: argparse.Namespace, out: IO[str]) -> None:
    """``tiny-york tournament``: print standings and matrix, write CSV/JSON."""
    from tiny_york_env.training.tournament import format_tournament, run_tournament, write_tournament
    results = run_tournament(agent_specs(args.agents, args.unsafe_unpickle),
                             games=args.games or TOURNAMENT_GAMES, seed=args.seed,
                             game_size=args.size, workers=args.workers, progress=not args.no_progress)
    print(format_tournament(results), file=out)
    paths = write_tournament(results, args.out)
    print("wrote " + ", ".join(str(p) for p in paths), file=out)


# ---------------------------------------------------------------- play


def participant_names(config: GameConfig, person: int, opponents: Sequence[str]) -> list[str]:
    """A name per seat: 'you', the agents' names, then 'Tom 5 (B4)' for each Tom."""
    names, rest = [], iter(opponents)
    for seat in range(config.num_agents):
        names.append("you" if seat == person else next(rest))
    for code in config.toms:
        level = tom_level(code)
        names.append(f"Tom {level} ({code})" if level else f"Tom ({code})")
    return names


def ask_choice(count: int, stdin: IO[str], out: IO[str]) -> int | None:
    """The person's choice 1..count as an index from 0, or None to quit (q or end of input)."""
    allowed = f"type a number from {FIRST_CHOICE} to {count} (or q to quit)"
    while True:
        print(f"Your choice ({FIRST_CHOICE}-{count}, q quits): ", end="", file=out, flush=True)
        line = stdin.readline()
        if not line:
            print("\nInput ended: the game is abandoned.", file=out)
            return None
        text = line.strip()
        if text.lower() in QUIT_WORDS:
            print("You quit the game.", file=out)
            return None
        if not text:
            print(f"Nothing typed: {allowed}.", file=out)
        elif not text.isdigit():
            print(f"{text!r} is not a number: {allowed}.", file=out)
        elif not FIRST_CHOICE <= int(text) < FIRST_CHOICE + count:
            print(f"{text} is out of range: {allowed}.", file=out)
        else:
            return int(text) - FIRST_CHOICE


def print_final(state: np.ndarray, names: Sequence[str], person: int, out: IO[str]) -> None:
    """The final board with the score breakdown, the totals and the winner."""
    print(render_text(state), file=out)
    scores = final_scores(state)
    print("Final scores: " + ", ".join(f"P{s} {names[s]} {int(scores[s])}" for s in range(len(names))),
          file=out)
    best = winner(state)
    print("You win!" if best == person else f"Winner: P{best} {names[best]}.", file=out)


def play_game_interactively(opponents: Sequence[str], toms: Sequence[int | str], seed: int | None,
                            person: int, stdin: IO[str], out: IO[str],
                            unsafe_unpickle: bool = False) -> np.ndarray | None:
    """A person at agent seat ``person`` against agents ``opponents`` and ``toms``; reads choices
    from ``stdin``, writes to ``out``. Returns the final state, or None when the person quit.
    ``unsafe_unpickle`` lets a ``ppo:PATH`` opponent be an SB3 checkpoint (runs code from it)."""
    from tiny_york_env.agents.base import choose_action
    from tiny_york_env.training.evaluate import build_agent
    config = GameConfig(num_agents=1 + len(opponents), toms=tuple(toms))
    if not 0 <= person < config.num_agents:
        raise ValueError(f"--seat {person} is not an agent seat: choose 0-{config.num_agents - 1}")
    names = participant_names(config, person, opponents)
    seed = secrets.randbelow(PLAY_SEED_BOUND) if seed is None else seed
    seed_sequence = np.random.SeedSequence(seed)
    specs = dict(zip((seat for seat in range(config.num_agents) if seat != person),
                     agent_specs(opponents, unsafe_unpickle), strict=True))
    agents = {seat: build_agent(specs[seat], int(s.generate_state(1)[0]))
              for seat, s in zip(range(config.num_agents), seed_sequence.spawn(config.num_agents),
                                 strict=True) if seat != person}
    rng = np.random.default_rng(seed)
    state = new_game(config, seed=seed)
    print(f"Tiny York, seed {seed}: you are P{person}; "
          + ", ".join(f"P{s} {n}" for s, n in enumerate(names) if s != person), file=out)
    my_turn_before = False
    while not is_terminal(state):
        seat = current_player(state)
        if seat != person:
            action = choose_action(agents[seat], state, rng)
            apply_action(state, action)
            print(f"P{seat} {names[seat]}: {describe_action(action)}", file=out)
            my_turn_before = False
            continue
        if not my_turn_before:
            print("\n" + render_text(state, viewer=person), file=out)
        legal = legal_actions(state)
        print(f"\nYou ({pending_decision(state)}):", file=out)
        for k, action in enumerate(legal):
            print(f"  {k + FIRST_CHOICE:>3}. {describe_action(int(action))}", file=out)
        choice = ask_choice(len(legal), stdin, out)
        if choice is None:
            return None
        apply_action(state, int(legal[choice]))
        my_turn_before = True
    print_final(state, names, person, out)
    return state


# ---------------------------------------------------------------- main

def main(argv: Sequence[str] | None = None, stdin: IO[str] | None = None,
         stdout: IO[str] | None = None) -> int:
    """Run ``tiny-york`` with ``argv`` (default: the command line); returns the exit status
    (``--help`` and ``--version`` print to standard output and exit with ``SystemExit(0)``)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    stdin, out = stdin or sys.stdin, stdout or sys.stdout
    try:
        if args.command == "eval":
            run_eval(args, out)
        elif args.command == "tournament":
            run_tournament_command(args, out)
        else:
            if not args.tom and not args.vs:
                raise ValueError("play needs at least one opponent: --tom LEVEL and/or --vs AGENT")
            play_game_interactively(args.vs, args.tom, args.seed, args.seat, stdin, out,
                                    args.unsafe_unpickle)
    except ValueError as error:
        parser.exit(EXIT_ERROR, f"tiny-york {args.command}: error: {error}\n")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
