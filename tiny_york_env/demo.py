"""``make demo``: a quick Tom-ladder evaluation of the shipped agent and the baselines.

Plays the shipped PPO agent (when the ``train`` extra is installed) and every baseline (random,
tomrules, greedy, search with a small budget) against Tom 1-12 in solo games, prints the
win-rate table and writes CSV, JSON and the PNG plot under ``--out`` (a few minutes at most).
``--game`` instead prints one seeded random game (the board and the final score breakdown).
"""

import argparse
import importlib.util
from collections.abc import Sequence

import numpy as np

from tiny_york_env.agents.random_agent import RandomAgent

from .cli import DefaultsHelpFormatter
from .cli import main as cli_main
from .games.tiny_york import (
    GameConfig,
    apply_action,
    current_player,
    is_terminal,
    legal_mask,
    new_game,
    render_text,
)

DEMO_AGENTS = ("random", "tomrules", "greedy", "search:16")
SHIPPED_AGENT = "ppo"  # agents/models/ppo.zip, played when sb3-contrib is installed
DEMO_GAMES = 100  # per agent and Tom level: the ladder's shape in about 3 minutes, not a leaderboard
DEMO_WORKERS = 2
DEMO_OUT = "results/demo"
DEMO_SEED = 2026
DEMO_NUM_AGENTS = 3


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


def demo_agents() -> tuple[str, ...]:
    """The agents of the quick ladder: the shipped PPO agent first when it can be loaded."""
    from tiny_york_env.agents.ppo_agent import DEFAULT_MODEL_PATH
    if importlib.util.find_spec("sb3_contrib") is None or not DEFAULT_MODEL_PATH.is_file():
        print(f"(the shipped PPO agent is left out: it needs the train extra and {DEFAULT_MODEL_PATH})")
        return DEMO_AGENTS
    return (SHIPPED_AGENT, *DEMO_AGENTS)


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of ``python -m tiny_york_env.demo``."""
    parser = argparse.ArgumentParser(prog="python -m tiny_york_env.demo", description=__doc__,
                                     formatter_class=DefaultsHelpFormatter)
    parser.add_argument("--game", action="store_true", help="print one random game instead")
    parser.add_argument("--agents", type=int, default=DEMO_NUM_AGENTS,
                        help="with --game: number of agents, 2-4")
    parser.add_argument("--seed", type=int, default=DEMO_SEED, help="base seed")
    parser.add_argument("--games", type=int, default=DEMO_GAMES, help="games per Tom level")
    parser.add_argument("--workers", type=int, default=DEMO_WORKERS, help="processes")
    parser.add_argument("--out", default=DEMO_OUT, help="folder for the CSV, JSON and PNG results")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the quick ladder (or, with ``--game``, print one random game)."""
    args = build_parser().parse_args(argv)
    if args.game:
        state, decisions = play_random_game(args.agents, args.seed)
        print(render_text(state))
        print(f"\n{decisions} decisions, seed {args.seed}")
        return 0
    ladder = ["eval", "--games", str(args.games), "--seed", str(args.seed), "--workers",
              str(args.workers), "--out", args.out]
    for name in demo_agents():
        ladder += ["--agent", name]
    return cli_main(ladder)


if __name__ == "__main__":
    raise SystemExit(main())
