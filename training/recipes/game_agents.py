"""The recipe of a game's shipped policies, one for every game whose record names one (its
``train_defaults["shipped_recipe"]``): Construction Yard's and 5th Avenue's two- and three-player
policies were trained by it, and a new game's are by the same commands.

    python -m tiny_york_env.training.recipes.game_agents construction_yard [--out runs/construction_yard]
    python -m tiny_york_env.training.recipes.game_agents fifth_avenue --evaluate-only
    python -m tiny_york_env.training.recipes.game_agents fifth_avenue --dry-run    # print the commands

For each player count of the recipe (its ``players``, else those the record ships a policy for,
``shipped_policies``), as for Tiny York's shipped agent:

1. behaviour cloning of the game's greedy player in the agent seat against greedy bots in every
   other seat (the recipe's ``bc_games`` games, ``bc_epochs`` epochs);
2. MaskablePPO from the clone against the same bots, reward "score" (the final margin over the
   game's score scale), a low learning rate and entropy bonus so that it improves on the clone
   instead of leaving it, for the recipe's ``steps`` of that player count (a checkpoint holds the
   weights after the last whole rollout, so a run stops on a rollout's end);
3. the compact export over the shipped file (agents/models: the record's ``shipped_policies`` name,
   else ``GAME-Np.zip``) with its model card;
4. the 1,000-game matches against greedy and random in every other seat (the published figures,
   docs/results).

Run it from the repository root (its paths are relative to it). The player counts train side by
side, one process each. Every stage is seeded, but torch's CPU
arithmetic may round differently on another CPU or thread count: expect figures nearby.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tiny_york_env.cli_types import DefaultsHelpFormatter
from tiny_york_env.contract import Game
from tiny_york_env.registry import game_names, get_game

RECIPE_KEY = "shipped_recipe"  # the record's train_defaults entry naming the recipe's numbers
RECIPE_FIELDS = ("bc_games", "bc_epochs", "steps", "eval_every", "eval_games")
TEACHER = "greedy"  # the game's own greedy player, cloned first
BOT = "greedy"  # the engine's bot in every other seat while training
OPPONENTS = ("greedy", "random")  # the published matches: the policy against these in every other seat
BC_EVAL_GAMES = 200
PPO_OPTIONS = ("--reward", "score", "--learning-rate", "1e-4", "--ent-coef", "0.003")
BC_SEED, PPO_SEED, MATCH_SEED = 0, 2, 0
MATCH_GAMES = 1000
MODELS = Path("agents/models")
MODULE = "tiny_york_env.training"


def recipe_of(game: Game) -> Mapping[str, Any]:
    """The recipe's numbers of ``game`` (``train_defaults["shipped_recipe"]``); ValueError naming
    the games that have one when it has none or one misses a number."""
    recipe = game.train_defaults.get(RECIPE_KEY)
    if recipe is None:
        having = [name for name in game_names() if RECIPE_KEY in get_game(name).train_defaults]
        raise ValueError(f"{game.title} names no shipped recipe (train_defaults[{RECIPE_KEY!r}]); the games "
                         f"that do: {having}")
    missing = [name for name in RECIPE_FIELDS if name not in recipe]
    if missing:
        raise ValueError(f"{game.title}'s shipped recipe misses {missing}")
    return recipe


def training_commands(game: Game, players: int, out: Path, python: str) -> list[list[str]]:
    """The commands that train, and export, ``game``'s shipped policy for ``players`` players."""
    recipe = recipe_of(game)
    bots = [BOT] * (players - 1)
    setup = ["--game", game.name, "--players", str(players), "--bots", *bots]
    clone, ppo = out / f"{players}p-bc", out / f"{players}p-ppo"
    every = str(recipe["eval_every"])
    return [
        [python, "-m", f"{MODULE}.imitate", *setup, "--teacher", TEACHER, "--games", str(recipe["bc_games"]),
         "--epochs", str(recipe["bc_epochs"]), "--eval-games", str(BC_EVAL_GAMES), "--torch-threads", "1",
         "--seed", str(BC_SEED), "--no-progress", "--out", str(clone)],
        [python, "-m", f"{MODULE}.train_ppo", *setup, "--init-from", str(clone / "policy.zip"), *PPO_OPTIONS,
         "--total-steps", str(recipe["steps"][players]), "--eval-every", every,
         "--eval-games", str(recipe["eval_games"]), "--checkpoint-every", every, "--seed", str(PPO_SEED),
         "--no-progress", "--out", str(ppo)],
        [python, "-m", f"{MODULE}.export", str(ppo / "policy.zip"), str(shipped_file(game, players)),
         "--stage", str(clone), "--stage", str(ppo)],
    ]


def shipped_file(game: Game, players: int) -> Path:
    """Where the policy for ``players`` players is exported: the record's shipped file of that
    setup, else ``agents/models/GAME-Np.zip``."""
    return MODELS / game.shipped_policies.get(players, f"{game.name}-{players}p.zip")


def recipe_players(game: Game) -> list[int]:
    """The player counts the recipe trains: its ``players``, else the setups the game ships."""
    return sorted(recipe_of(game).get("players", game.shipped_policies))


def match_commands(game: Game, players: int, out: Path, python: str) -> list[list[str]]:
    """The published matches of the shipped policy for ``players`` players."""
    return [[python, "-m", "tiny_york_env.cli", "eval", "--game", game.name, "--vs", "ppo",
             *[opponent] * (players - 1), "--games", str(MATCH_GAMES), "--seed", str(MATCH_SEED),
             "--out", str(out / f"eval-{players}p-{opponent}")] for opponent in OPPONENTS]


def run_in_order(commands: Sequence[Sequence[str]]) -> subprocess.Popen:
    """One process running ``commands`` one after the other, stopping at the first that fails."""
    return subprocess.Popen(["bash", "-c", " && ".join(shlex.join(c) for c in commands)])


def build_parser() -> argparse.ArgumentParser:
    """The command line (module doc)."""
    parser = argparse.ArgumentParser(prog=f"python -m {MODULE}.recipes.game_agents",
                                     description=__doc__.split("\n")[0],
                                     formatter_class=DefaultsHelpFormatter)
    parser.add_argument("game", choices=game_names(), help="a game whose record names a shipped recipe")
    parser.add_argument("--out", help="the runs' folder (default: runs/GAME)")
    parser.add_argument("--evaluate-only", action="store_true", help="only the published matches")
    parser.add_argument("--dry-run", action="store_true", help="print the commands, run none")
    parser.add_argument("--python", default=sys.executable, help="the interpreter the stages run with")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Train every shipped policy of the game side by side, then play the published matches."""
    parser = build_parser()
    args = parser.parse_args(argv)
    game = get_game(args.game)
    try:
        recipe_of(game)
    except ValueError as error:
        parser.error(str(error))
    out = Path(args.out or f"runs/{game.name}")
    players = recipe_players(game)
    training = [] if args.evaluate_only else [training_commands(game, n, out, args.python) for n in players]
    matches = [command for n in players for command in match_commands(game, n, out, args.python)]
    if args.dry_run:
        for command in [c for stage in training for c in stage] + matches:
            print(shlex.join(command))
        return 0
    running = [run_in_order(stage) for stage in training]  # the player counts side by side
    if any([process.wait() != 0 for process in running]):  # every one waited for
        print("a training stage failed: see its output above", file=sys.stderr)
        return 1
    return run_in_order(matches).wait()


if __name__ == "__main__":
    sys.exit(main())
