"""Play the figures the docs publish and keep each as a result file in docs/results, for every game
of the registry: what a game publishes is read from its record, so a new game's figures need no
edit here.

    python scripts/publish_runs.py matches [--games fifth_avenue]    # scripts/publish_game_matches.sh
    python scripts/publish_runs.py champion [--only NAME ...]        # scripts/publish_champion_results.sh
    python scripts/publish_runs.py comparisons [--only NAME ...]     # scripts/publish_comparisons.sh
    python scripts/publish_runs.py matches --dry-run                 # print the commands only

- **matches**: the standard matches of every game that ships a trained policy per setup (its
  record's ``shipped_policies``): the policy against each of its ``eval_opponents`` in every other
  seat for each shipped setup (1,000 games with two players, 999 with three), its greedy player
  against random and the bots; then the game's own ``published_runs`` of this group. Seed 0, two
  workers; ``docs/results/GAME-NAME.json`` without the per-game records (they stay in
  ``results/matches``). About 10 minutes on 2 cores.
- **champion**: the champion's ladders (resumable parts) and matches of each game's
  ``published_runs``, seed 3, ``--workers`` (default 1) at a time; ``docs/results/champion-NAME.json``.
  Hours on 2 cores.
- **comparisons**: each game's sequential tests (``tiny-york compare``, resumed where one stopped),
  seed 0; ``docs/results/compare-NAME.json``.

Every step keeps what it finished: run it again after a stop. ``--only NAME ...`` plays those
results alone (remove a result's run under ``results/`` first to play it anew: a finished run is
kept, not played again), ``--games GAME ...`` those games' only. The tables are redrawn at the end
(``scripts/render_results.py --no-plots``).
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the checkout's package, where this runs from a checkout

from tiny_york_env.contract import Game, PublishedRun  # noqa: E402
from tiny_york_env.registry import BUILTIN_GAMES, get_game  # noqa: E402

GROUPS = ("matches", "champion", "comparisons")
RUNS = {"matches": "results/matches", "champion": "results/champion", "comparisons": "results/compare"}
SEEDS = {"matches": 0, "champion": 3, "comparisons": 0}
MATCH_WORKERS = 2
TWO_PLAYER_GAMES, THREE_PLAYER_GAMES = 1000, 999  # a multiple of the agent seats
BASELINE_GAMES, GREEDY_RANDOM_GAMES = 300, 400
PY = os.environ.get("PY", ".venv/bin/python")
TY = os.environ.get("TY", str(Path(PY).with_name("tiny-york")))


def standard_matches(game: Game) -> list[PublishedRun]:
    """The matches every game that ships a policy per setup publishes (module doc)."""
    if not game.shipped_policies:
        return []
    opponents = tuple(game.train_defaults.get("eval_opponents", ()))
    runs = [PublishedRun("matches", "match", f"ppo-{n}p-{opponent}", ("--vs", "ppo", *[opponent] * (n - 1)),
                         TWO_PLAYER_GAMES if n == 2 else THREE_PLAYER_GAMES)
            for n in sorted(game.shipped_policies) for opponent in opponents]
    baseline = "greedy", "random"  # the game's greedy player, and random
    bot = game.automatic_choices[0]  # the first of the game's bots (greedy)
    runs.append(PublishedRun("matches", "match", "greedy-random", ("--vs", *baseline), GREEDY_RANDOM_GAMES))
    runs += [PublishedRun("matches", "match", f"{agent}-{bot}-bot", ("--vs", agent, "--bots", bot),
                          BASELINE_GAMES) for agent in baseline]
    runs.append(PublishedRun("matches", "match", "greedy-3p-random", ("--vs", "greedy", "random", "random"),
                             BASELINE_GAMES))
    runs.append(PublishedRun("matches", "match", f"greedy-2-{bot}-bots",
                             ("--vs", "greedy", "--bots", bot, bot), BASELINE_GAMES))
    return runs


def result_file(game: Game, run: PublishedRun) -> Path:
    """Where ``run`` is published."""
    prefix = {"matches": game.name.replace("_", "-"), "champion": "champion", "comparisons": "compare"}
    return Path("docs", "results", f"{prefix[run.group]}-{run.name}.json")  # from the root


def run_folder(game: Game, run: PublishedRun) -> Path:
    """Where ``run``'s own files are kept (results/, outside git)."""
    name = f"{game.name}-{run.name}" if run.group == "matches" else run.name
    return Path(RUNS[run.group], name)


def commands(game: Game, run: PublishedRun, workers: int) -> Iterator[list[str]]:
    """The commands that play ``run`` (none for a finished champion match) and publish it, to run
    from the repository's root."""
    out, seed = run_folder(game, run), str(SEEDS[run.group])
    common = ["--game", game.name, "--seed", seed, "--no-progress", "--out", str(out)]
    if run.kind == "ladder":
        yield [TY, "eval", "--agent", "champion", "--games", str(run.games), "--part-games",
               str(run.part_games), "--workers", str(workers), *common, *run.args]
        yield [PY, "scripts/publish_result.py", str(out / "ladder.json"), str(result_file(game, run)),
               "--machine-here"]
    elif run.kind == "match":
        if run.group == "matches" or not (ROOT / out / "match.json").is_file():
            yield [TY, "eval", "--games", str(run.games), "--workers", str(workers), *common, *run.args]
        yield [PY, "scripts/publish_result.py", str(out / "match.json"), str(result_file(game, run)),
               "--drop-games"]
    elif run.kind == "compare":
        resume = ["--resume"] if (ROOT / out / "compare.json").is_file() else []
        a, b, *rest = run.args
        yield [TY, "compare", a, b, *common, *resume, *rest]
        yield [PY, "scripts/publish_result.py", str(out / "compare.json"), str(result_file(game, run)),
               "--drop-games"]
    else:
        raise ValueError(f"{game.title}'s published run {run.name!r} is of an unknown kind {run.kind!r}")


def planned(group: str, games: Sequence[str], only: Sequence[str]) -> list[tuple[Game, PublishedRun]]:
    """(game, run) of every run of ``group`` of ``games``, those ``only`` names when it names any."""
    found = []
    for name in games:
        game = get_game(name)
        runs = (standard_matches(game) if group == "matches" else []) + list(game.published_runs)
        found += [(game, run) for run in runs if run.group == group and (not only or run.name in only)]
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """Play and publish the runs of one group, then redraw the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("group", choices=GROUPS)
    games = os.environ.get("GAMES", "").split() or list(BUILTIN_GAMES)
    parser.add_argument("--games", nargs="+", default=games,
                        help="the games whose runs to play (default: the built-in ones; env GAMES)")
    parser.add_argument("--only", nargs="+", default=os.environ.get("ONLY", "").split(),
                        help="play these results alone (env ONLY)")
    parser.add_argument("--workers", type=int, default=int(os.environ.get("WORKERS", 0)) or None,
                        help="games at a time (default: 2 for matches, 1 otherwise; env WORKERS)")
    parser.add_argument("--dry-run", action="store_true", help="print the commands, run none")
    args = parser.parse_args(argv)
    workers = args.workers or (MATCH_WORKERS if args.group == "matches" else 1)
    environment = {**os.environ, "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", "1")}
    for game, run in planned(args.group, args.games, args.only):
        for command in commands(game, run, workers):
            print(shlex.join(command), flush=True)
            if not args.dry_run:
                subprocess.run(command, cwd=ROOT, env=environment, check=True)
    if not args.dry_run:
        subprocess.run([PY, "scripts/render_results.py", "--no-plots"], cwd=ROOT, check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
