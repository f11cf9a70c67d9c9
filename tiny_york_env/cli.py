"""The ``tiny-york`` command: evaluate agents, run a tournament, or play a game yourself.

    tiny-york eval --agent greedy [--agent random] [--levels 1-12] [--games 500] [--out results]
    tiny-york eval --vs random greedy [--tom 5] --games 120
    tiny-york eval --agent ppo --games 500 --first-game 500 --out part-2   # games 500-999
    tiny-york eval --merge part-1/ladder.json part-2/ladder.json --out joined
    tiny-york eval --agent champion --levels 10,12 --games 400 --part-games 100 --out DIR   # resumable
    tiny-york eval --agent champion@0.5 --levels 10 --games 100   # at most 0.5 s a decision (@none: no limit)
    tiny-york compare ppo ppo:agents/models/champion.zip --vs 12   # paired games until an SPRT decides
    tiny-york tournament --agents random greedy tomrules --games 20 [--size 2]
    tiny-york play --tom 5 [--tom B4] [--vs greedy] [--seed 1] [--seat 0]
    tiny-york play [--game construction_yard]   # no opponent named: the Gymnasium env's (Tom 5, a greedy bot)
    tiny-york eval --game construction_yard --vs ppo greedy [--bots greedy] --games 120 --workers 2
    tiny-york eval --game fifth_avenue --agent ppo --levels greedy,random   # the ladder of its bots
    tiny-york tournament --game construction_yard --agents greedy random search:32 --games 20
    tiny-york play --game construction_yard --vs greedy [--bots random] [--seed 1] [--seat 0]
    tiny-york play --tom 5 --save game.jsonl && tiny-york replay game.jsonl
    tiny-york play --resume game.jsonl   # go on with a game saved when you quit
    tiny-york --version

Every ``--game`` takes the same commands and options: its agents by name (the registry's written
for it, an outside ``MODULE:ATTRIBUTE``, or its contract's policies: random, greedy, search[:N],
gsearch[:N], psearch[:N][@S], champion[@S], ppo[:PATH]) in the agent seats, and the engine's own
players after them (``--tom`` for Tiny York's Toms, ``--bots`` for another game's; Dirk and Alea
join two-player games by the rules).

``ppo:PATH`` plays a policy file (``agents/ppo_agent.py``), loaded without running code from it;
a stable-baselines3 checkpoint is refused unless ``--unsafe-unpickle`` is given. Output files
are never written through a symbolic link: a link as ``--out`` or as one of its files is refused.

The subcommands' modules (the arena's jobs, the web board) are imported when the subcommand runs,
so that the command starts fast.
"""

import argparse
import shlex
import sys
from collections.abc import Sequence
from typing import IO

from . import __version__
from .agents.registry import agent_name_forms, agent_specs
from .cli_types import (  # noqa: F401  (DefaultsHelpFormatter, positive: the CLI's names, kept)
    DefaultsHelpFormatter,
    agent_name,
    automatic_spec,
    non_negative,
    positive,
    positive_float,
)
from .contract import Game
from .core.labels import count_noun
from .envs.generated import default_automatic
from .registry import DEFAULT_GAME, game_names, get_game
from .terminal_game import (  # noqa: F401  (ask_choice: the CLI's name, kept)
    QUIT_WORDS,
    ask_choice,
    play_interactively,
    print_automatic_moves,
    resume_interactively,
)

LADDER_GAMES = 500
MATCH_GAMES = 120  # a multiple of 2, 3 and 4: seats rotate evenly in any match
TOURNAMENT_GAMES = 20
DEFAULT_OUT = "results"
GAME_SIZES = (2, 3, 4)
EXIT_OK, EXIT_ERROR = 0, 2
CLI_DESCRIPTION = ("Tiny York, Construction Yard and 5th Avenue (and any game a plug-in registers): "
                   "evaluate an agent against the game's automatic players or other agents (eval), "
                   "decide whether one agent is stronger than another by a sequential test (compare), "
                   "rate agents in a round robin (tournament), play at the terminal (play), step "
                   "through a saved game (replay) and play or watch games in the browser (serve).")


# ---------------------------------------------------------------- help and option types

UNSAFE_UNPICKLE_HELP = ("let ppo:PATH be a stable-baselines3 checkpoint (model.zip, checkpoints/*.zip): "
                        "loading one UNPICKLES it, which runs code from the file; only for files you "
                        "trust. Without it such files are refused; policy files (a run's policy.zip, "
                        "training.export's output, the shipped model) never need it")





# ---------------------------------------------------------------- the parser

def _add_run_options(parser, games_help):
    if games_help is not None:  # compare plays until its test decides: no --games
        parser.add_argument("--games", type=positive, help=games_help)
    parser.add_argument("--seed", type=non_negative, default=0, help="base seed")
    parser.add_argument("--workers", type=positive, default=1, help="processes")
    parser.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                        help="play the games as Ray tasks (the ray extra): alone, a Ray on this "
                             "machine; with ADDRESS ('auto', ray://HEAD:10001), that cluster. Same "
                             "seeds and results as --workers")
    parser.add_argument("--out", default=DEFAULT_OUT, help="folder for CSV/JSON/PNG; a symbolic link "
                        "as the folder or one of its files is refused")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--unsafe-unpickle", action="store_true", help=UNSAFE_UNPICKLE_HELP)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``tiny-york`` and its subcommands."""
    from .cli_compare import add_compare_parser
    forms = agent_name_forms()
    parser = argparse.ArgumentParser(prog="tiny-york", description=CLI_DESCRIPTION,
                                     formatter_class=DefaultsHelpFormatter)
    parser.add_argument("--version", action="version", version=f"tiny-york {__version__}")
    commands = parser.add_subparsers(dest="command", required=True,
                                     metavar="{eval,compare,tournament,play,replay,serve}")

    ev = commands.add_parser("eval", help="an agent against the ladder of the game's automatic players "
                                          "(Toms, bots), or agents against each other",
                             formatter_class=DefaultsHelpFormatter)
    ev.add_argument("--game", choices=game_names(),
                    help=f"the game (default: {DEFAULT_GAME}); its agents are the registry's written for "
                         f"it and its contract's policies ({forms})")
    who = ev.add_mutually_exclusive_group(required=True)
    who.add_argument("--agent", type=agent_name, action="append", metavar="NAME",
                     help=f"agent for the ladder (repeatable): {agent_name_forms()}")
    who.add_argument("--vs", type=agent_name, nargs="+", metavar="NAME",
                     help="agents that play each other (one per agent seat), seats rotated")
    who.add_argument("--merge", nargs="+", metavar="LADDER_JSON",
                     help="join ladder parts (ladder.json files of one game, --agent and --seed, disjoint "
                          "--first-game ranges) into one ladder, as if played in one run")
    ev.add_argument("--levels", metavar="RUNGS",
                    help="the ladder's opponents (default: all): Tom levels as a list and ranges "
                         "(1-12, 1,5,9-12), another game's bots by name (greedy,random)")
    ev.add_argument("--first-game", type=non_negative, default=0, metavar="K",
                    help="the ladder: play games K to K + --games - 1 of the seeded sequence, a part "
                         "of a longer ladder (join the parts with --merge)")
    ev.add_argument("--part-games", type=positive, metavar="K",
                    help="the ladder of one --agent in resumable parts of K games a rung: each part "
                         "kept in --out/parts/, the finished ones joined into --out/ladder.json; the "
                         "same command again plays only the parts not yet played")
    ev.add_argument("--tom", type=automatic_spec, action="append", default=[], metavar="TOM",
                    help="with --vs (Tiny York): a Tom joining every game (level 1-12 or code like B4)")
    ev.add_argument("--bots", nargs="+", default=[], metavar="BOT",
                    help="with --vs (another game): the engine's players in the last seats (random, greedy)")
    ev.add_argument("--players", type=positive, help="with --vs: players in all, a check (the agents "
                    "and the --tom/--bots)")
    _add_run_options(ev, f"games per cell (default: {LADDER_GAMES} per rung of the ladder; with --vs "
                         f"{MATCH_GAMES}, a multiple of the number of agents)")
    ev.add_argument("--save-games", metavar="DIR", help="save games as files tiny-york replay reads "
                    "(DIR/...jsonl): by default every game the first agent did not win")
    ev.add_argument("--save-which", choices=("lost", "all"), default="lost",
                    help="with --save-games: the first agent's lost games, or every game")

    add_compare_parser(commands, DefaultsHelpFormatter, _add_run_options)

    tour = commands.add_parser("tournament", help="round robin with OpenSkill ratings",
                               formatter_class=DefaultsHelpFormatter)
    tour.add_argument("--game", choices=game_names(), default=DEFAULT_GAME,
                      help=f"the game; its agents are the registry's written for it and its contract's "
                           f"policies ({forms})")
    tour.add_argument("--bots", nargs="+", default=[], metavar="BOT",
                      help="a game with bots: the engine's players joining every game (random, greedy)")
    tour.add_argument("--agents", type=agent_name, nargs="+", required=True, metavar="NAME")
    tour.add_argument("--size", type=int, choices=GAME_SIZES, default=2, help="agents per game")
    _add_run_options(tour, f"games per group of agents, a multiple of --size (default: {TOURNAMENT_GAMES})")

    play = commands.add_parser("play", help="play a game yourself at the terminal",
                               formatter_class=DefaultsHelpFormatter)
    play.add_argument("--game", choices=game_names(), default=None,
                      help=f"the game (default: {DEFAULT_GAME}); its agents as --vs (the registry's written "
                           f"for it, its policies: {forms}), its automatic players as --tom or --bots")
    play.add_argument("--bots", nargs="+", default=[], metavar="BOT",
                      help="a game with bots: the engine's players in the last seats (random, greedy)")
    play.add_argument("--tom", type=automatic_spec, action="append", default=[], metavar="TOM",
                      help="Tiny York: a Tom opponent (repeatable), level 1-12 or code like B4")
    play.add_argument("--vs", type=agent_name, action="extend", nargs="+", default=[], metavar="NAME",
                      help="agent opponents; with no --vs, --tom or --bots you play the opponents "
                           "gym.make(ID) gives the game's Gymnasium env (e.g. Tom 5, a greedy bot)")
    play.add_argument("--seed", type=non_negative, help="game seed (default: random, printed)")
    play.add_argument("--seat", type=non_negative, default=None,
                      help="your seat among the agent seats (0 in a new game; with --resume the seat "
                           "saved as 'you')")
    play.add_argument("--unsafe-unpickle", action="store_true", help=UNSAFE_UNPICKLE_HELP)
    play.add_argument("--save", metavar="FILE", help="save the game (JSON lines, tiny_york_env/"
                      "saved_games.py) to FILE at its end, or when you quit")
    play.add_argument("--resume", metavar="FILE",
                      help="go on with the saved game FILE from its last decision (the others' seats "
                           "played as saved, or by --vs); its game, seed and seats are the file's")

    replay = commands.add_parser("replay", help="step through a saved game (tiny-york play --save)",
                                 formatter_class=DefaultsHelpFormatter)
    replay.add_argument("file", help="a saved game (.jsonl)")
    replay.add_argument("--check", action="store_true",
                        help="only check that every recorded decision is legal; print the result")

    serve = commands.add_parser("serve", help="the browser board: play Toms and bots, watch bots, "
                                "open saved games", formatter_class=DefaultsHelpFormatter)
    serve.add_argument("--host", default=SERVE_HOST,
                       help="address to bind; 127.0.0.1 serves this machine only (another "
                            "address opens the board, and its games, to the network)")
    serve.add_argument("--port", type=non_negative, default=SERVE_PORT, help="port to listen on")
    serve.add_argument("--db", default=None, metavar="FILE",
                       help="the SQLite file the games are kept in, created on first use (default: "
                            "$XDG_DATA_HOME/tiny-york/board.sqlite3, ~/.local/share without it); "
                            "':memory:' keeps none past the server")
    serve.add_argument("--keep-finished-days", type=positive_float, default=KEEP_FINISHED_DAYS,
                       help="days a finished game (and an opened saved game) is kept after its end")
    serve.add_argument("--keep-idle-days", type=positive_float, default=KEEP_IDLE_DAYS,
                       help="days a game nobody moves in is kept")
    serve.add_argument("--max-games", type=positive, default=SERVE_MAX_GAMES,
                       help="games kept at most: the finished games that ended longest ago make room "
                            "for a new one; with every one in play a new game is refused (503)")
    serve.add_argument("--max-replays", type=positive, default=SERVE_MAX_REPLAYS,
                       help="opened saved games kept at most; those opened longest ago make room")
    return parser


def run_serve(args: argparse.Namespace, out: IO[str]) -> None:
    """``tiny-york serve``: the browser board until Ctrl-C."""
    try:
        from tiny_york_env.web.app import serve
    except ImportError as error:
        raise ValueError(f"the browser board needs the web extra: pip install "
                         f"'tiny-york-env[web]' ({error})") from error
    from tiny_york_env.web.app import default_database
    from tiny_york_env.web.database import BoardDatabase, DatabaseError
    database = args.db or default_database()
    try:
        BoardDatabase(database).close()  # a file it cannot use is refused before the server starts
    except (DatabaseError, OSError) as error:
        raise ValueError(f"--db: {error}") from None
    print(f"Tiny York board on http://{args.host}:{args.port}/ (Ctrl-C stops it); games kept in "
          f"{database}", file=out, flush=True)
    serve(args.host, args.port, database=database, keep_finished_s=args.keep_finished_days * DAY_S,
          keep_idle_s=args.keep_idle_days * DAY_S, max_games=args.max_games, max_replays=args.max_replays)


# ---------------------------------------------------------------- eval and tournament

def run_eval(args: argparse.Namespace, out: IO[str]) -> None:
    """``tiny-york eval``: print the table, write CSV/JSON (and PNG for the ladder)."""
    from .arena.labels import agent_label
    from .arena.ladder import evaluate_ladder
    from .arena.match import evaluate_vs_agents
    from .arena.play import GameSaving
    from .arena.records import combine_results
    saving = GameSaving(args.save_games, args.save_which) if args.save_games else None
    if args.merge:
        if args.game or saving:
            raise ValueError("--merge joins ladder files (of the game they name) and plays no game "
                             "(no --game, no --save-games)")
        from .arena.ladder_merge import merge_ladder_files
        report(merge_ladder_files(args.merge), args, out)
        return
    game = get_game(args.game or DEFAULT_GAME)
    automatic = automatic_participants(game, args)
    progress = not args.no_progress
    option = AUTOMATIC_OPTIONS[game.automatic_kind]  # --tom or --bots
    if args.part_games:
        run_ladder_in_parts(args, game, saving, out)
        return
    if args.vs:
        for flag, given in (("--first-game", args.first_game), ("--levels", args.levels)):
            if given:
                raise ValueError(f"{flag} is for the ladder (--agent)")
        if args.players is not None and args.players != len(args.vs) + len(automatic):
            kind = game.automatic_kind  # a plural noun: "toms", "bots"
            engine = count_noun(len(automatic), kind.removesuffix("s"), kind)
            raise ValueError(f"--players {args.players}: the match has {count_noun(len(args.vs), 'agent')} "
                             f"(--vs) and {engine} ({option})")
        if len(args.vs) < 2 and not automatic:
            raise ValueError(f"--vs needs 2 or more agents (or add {option}): "
                             "e.g. --vs random greedy")
        results = evaluate_vs_agents(agent_specs(args.vs, args.unsafe_unpickle),
                                     games=args.games or MATCH_GAMES, seed=args.seed,
                                     workers=args.workers, progress=progress, saving=saving,
                                     ray_address=args.ray, game=game, automatic=automatic)
        results.settings["command"] = args.command_line  # the file says how it was made
    else:
        if automatic or args.players is not None:
            raise ValueError(f"{option} and --players are for --vs; the "
                             f"ladder's {game.automatic_kind} are chosen with --levels")
        rungs = ladder_rungs(game, args.levels)
        ladders = [evaluate_ladder(spec, rungs, games=args.games or LADDER_GAMES, seed=args.seed,
                                   workers=args.workers, progress=progress,
                                   saving=saving and saving.for_agent(agent_label(spec)),
                                   ray_address=args.ray, first_game=args.first_game, game=game)
                   for spec in agent_specs(args.agent, args.unsafe_unpickle)]
        for ladder in ladders:  # --merge names a part by the command that played it
            ladder.settings["command"] = args.command_line
        results = combine_results(ladders)
    report(results, args, out)


def run_ladder_in_parts(args: argparse.Namespace, game: Game, saving: object, out: IO[str]) -> None:
    """``tiny-york eval --agent A --part-games K``: the ladder in resumable parts, then joined."""
    from .arena.ladder_parts import play_ladder_in_parts
    if args.vs or args.merge or saving or len(args.agent) != 1:
        raise ValueError("--part-games plays the ladder of one --agent (no --vs, --merge or --save-games)")
    if automatic_participants(game, args) or args.players is not None:
        raise ValueError(f"{AUTOMATIC_OPTIONS[game.automatic_kind]} and --players are for --vs; the "
                         f"ladder's {game.automatic_kind} are chosen with --levels")

    def say(folder, played):
        print(f"{'played' if played else 'kept'} {folder}", file=out, flush=True)

    (spec,) = agent_specs(args.agent, args.unsafe_unpickle)
    results = play_ladder_in_parts(spec, ladder_rungs(game, args.levels), args.games or LADDER_GAMES,
                                   args.part_games, args.out, seed=args.seed, workers=args.workers,
                                   ray_address=args.ray, first_game=args.first_game, game=game.name,
                                   progress=not args.no_progress, command=args.command_line, report=say)
    report(results, args, out)


def report(results: object, args: argparse.Namespace, out: IO[str]) -> None:
    """Print an evaluation's table and write its files into ``--out``."""
    from .arena.result_files import write_results
    from .arena.tables import format_table
    print(format_table(results), file=out)
    if getattr(args, "ray", None) is not None:
        from .arena.ray_tasks import NODES_SEEN
        if NODES_SEEN:  # this command's games (none when every part was kept or merged)
            print(f"played as Ray tasks on {count_noun(len(NODES_SEEN), 'node')}", file=out)
    paths = write_results(results, args.out)
    print("wrote " + ", ".join(str(p) for p in paths), file=out)


def ladder_rungs(game: Game, text: str | None) -> list | None:
    """``--levels`` for ``game`` (``arena.ladder.parse_rungs``): the rungs the ladder plays, None: all."""
    from .arena.ladder import parse_rungs
    return parse_rungs(game, text)


def run_tournament_command(args: argparse.Namespace, out: IO[str]) -> None:
    """``tiny-york tournament``: print standings and matrix, write CSV/JSON."""
    from .arena.tournament import format_tournament, run_tournament, write_tournament
    game = get_game(args.game)
    results = run_tournament(agent_specs(args.agents, args.unsafe_unpickle),
                             games=args.games or TOURNAMENT_GAMES, seed=args.seed, game_size=args.size,
                             workers=args.workers, progress=not args.no_progress, ray_address=args.ray,
                             game=game, automatic=automatic_participants(game, args))
    results.settings["command"] = args.command_line  # the file says how it was made
    print(format_tournament(results), file=out)
    paths = write_tournament(results, args.out)
    print("wrote " + ", ".join(str(p) for p in paths), file=out)


# ---------------------------------------------------------------- play

# The option that names a game's automatic participants, by the record's ``automatic_kind``
AUTOMATIC_OPTIONS = {"toms": "--tom", "bots": "--bots"}


def automatic_participants(game: Game, args: argparse.Namespace) -> list:
    """The automatic participants the command line names for ``game`` (``--tom`` or ``--bots``, as
    its ``automatic_kind`` says); ValueError when the other option is given."""
    given = {"toms": list(getattr(args, "tom", [])), "bots": list(getattr(args, "bots", []))}
    for kind, values in given.items():
        if values and kind != game.automatic_kind:
            raise ValueError(f"{AUTOMATIC_OPTIONS[kind]} does not apply to {game.title}: its engine "
                             f"players are {game.automatic_kind} ({AUTOMATIC_OPTIONS[game.automatic_kind]})")
    return given[game.automatic_kind]


def check_resume_options(args: argparse.Namespace) -> None:
    """``play --resume``: the saved game says the game, the seed and the engine's players, so the
    options that set them are refused (ValueError naming them)."""
    setting = (("--game", args.game is not None), ("--seed", args.seed is not None),
               ("--tom", bool(args.tom)), ("--bots", bool(args.bots)))
    given = [option for option, value in setting if value]
    if given:
        raise ValueError(f"--resume plays the saved game's setup; leave out {', '.join(given)}")


def play_automatic(game: Game, args: argparse.Namespace) -> list:
    """``play``'s automatic participants: those the command line names, else (no --vs either) the
    game's single-agent Gymnasium env default ones; ValueError when that leaves no opponent."""
    automatic = automatic_participants(game, args)
    if automatic or args.vs:
        return automatic
    automatic = list(default_automatic(game))
    if not automatic:
        raise ValueError(f"play needs at least one opponent: {AUTOMATIC_OPTIONS[game.automatic_kind]} "
                         f"and/or --vs NAME ({game.title}'s Gymnasium env names no default one)")
    return automatic


SERVE_HOST, SERVE_PORT = "127.0.0.1", 8000  # as web/app.py's DEFAULT_HOST/PORT (no web import here)
KEEP_FINISHED_DAYS, KEEP_IDLE_DAYS = 7, 30  # as web/sessions.py's KEEP_FINISHED_S/KEEP_IDLE_S
SERVE_MAX_GAMES, SERVE_MAX_REPLAYS = 10_000, 1_000  # as web/sessions.py's MAX_GAMES/MAX_REPLAYS
DAY_S = 24 * 3600


REPLAY_HELP = "Enter or n: next decision; p: previous; j N: jump to decision N; e: the end; q: quit"


def replay_game(path: str, stdin: IO[str], out: IO[str], check_only: bool = False) -> None:
    """``tiny-york replay FILE``: check the saved game (every decision legal, the end as
    recorded), then step through it: the whole board after each decision."""
    from .saved_games import read_saved_game, replay_states
    saved = read_saved_game(path)
    game = get_game(saved.game)
    states = list(replay_states(saved))
    ending = "not finished"
    if saved.result:
        ending = "ended: scores " + ", ".join(f"{saved.players[seat]} {score}"
                                              for seat, score in enumerate(saved.result["scores"]))
    print(f"{path}: {game.title}, seed {saved.seed}, {', '.join(saved.players)}; "
          f"{count_noun(len(saved.decisions), 'decision')}, every one legal; {ending}", file=out)
    if check_only:
        return
    print(REPLAY_HELP, file=out)
    at = 0
    while True:
        if at:
            seat, action = saved.decisions[at - 1]
            print(f"\n[{at}/{len(saved.decisions)}] {saved.players[seat]} ({game.seat_name(seat)}): "
                  f"{game.describe_action(action)}", file=out)
            print_automatic_moves(game, states[at], saved.players, out)
        else:
            print(f"\n[0/{len(saved.decisions)}] the start", file=out)
            print_automatic_moves(game, states[0], saved.players, out)
        print(game.render_text(states[at]), file=out)
        print("replay> ", end="", file=out, flush=True)
        line = stdin.readline()
        command = line.strip().lower()
        if not line or command in QUIT_WORDS:
            return
        if command in ("", "n"):
            at = min(at + 1, len(saved.decisions))
        elif command == "p":
            at = max(at - 1, 0)
        elif command == "e":
            at = len(saved.decisions)
        elif command.startswith("j") and command[1:].strip().isascii() and command[1:].strip().isdigit():
            at = min(int(command[1:].strip()), len(saved.decisions))
        else:
            print(f"{line.strip()!r}: {REPLAY_HELP}", file=out)


# ---------------------------------------------------------------- main

def main(argv: Sequence[str] | None = None, stdin: IO[str] | None = None,
         stdout: IO[str] | None = None) -> int:
    """Run ``tiny-york`` with ``argv`` (default: the command line); returns the exit status
    (``--help`` and ``--version`` print to standard output and exit with ``SystemExit(0)``)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    args.command_line = "tiny-york " + shlex.join(sys.argv[1:] if argv is None else argv)
    stdin, out = stdin or sys.stdin, stdout or sys.stdout
    try:
        if args.command == "eval":
            run_eval(args, out)
        elif args.command == "compare":
            from .cli_compare import run_compare
            run_compare(args, out)
        elif args.command == "replay":
            replay_game(args.file, stdin, out, check_only=args.check)
        elif args.command == "tournament":
            run_tournament_command(args, out)
        elif args.command == "serve":
            run_serve(args, out)
        elif args.resume is not None:
            check_resume_options(args)
            resume_interactively(args.resume, args.vs, args.seat, stdin, out, args.unsafe_unpickle, args.save)
        else:
            game = get_game(args.game or DEFAULT_GAME)
            automatic = play_automatic(game, args)
            play_interactively(game.name, args.vs, automatic, args.seed, args.seat or 0, stdin, out,
                               args.unsafe_unpickle, args.save)
    except ValueError as error:
        parser.exit(EXIT_ERROR, f"tiny-york {args.command}: error: {error}\n")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
