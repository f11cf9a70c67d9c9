"""Time per decision of shipped agents, the champion beside the reference agents, in one run on one core.

An agent's strength is defined by counts (playouts), never by the clock; how long its decisions
take on a given machine is reported beside its figures by this script. Each agent plays ``--games``
solo games against one automatic participant of the game (Tiny York: Tom 12; another game: its
greedy bot), the same deals for every agent, and every decision it makes is timed through
its player (``agents.seats.seat_decider``, as the arena plays it; the decisions with one
legal action too: a player waits for them as well).
Prints, and with ``--out`` writes as a result file, the mean and 95th percentile in ms, the
largest, and the decisions timed. The reference agents (random, greedy, ppo) run in the same
process, so a reader can scale the figures to another machine by their ratio.

Usage:
    python benchmarks/decision_time.py [--game tiny_york] [--agents champion psearch:64 ppo greedy]
                                       [--games 4] [--out docs/results/champion-decision-time.json]
"""

import argparse
import time
from pathlib import Path

import numpy as np

from tiny_york_env.agents.seats import seat_decider
from tiny_york_env.arena.seeds import derive_seed
from tiny_york_env.registry import get_game

DEFAULT_AGENTS = ("champion", "psearch:64", "search:32", "ppo", "greedy", "random")
OPPONENT = {"tiny_york": 12}  # the hardest-scoring Tom of the ladder's top; other games: their greedy bot
DEFAULT_OPPONENT = "greedy"
PERCENTILE = 95
MS = 1000.0
SEED_KEY = 47  # the deals of this benchmark: derive_seed(SEED_KEY, game number)
COLUMNS = ("agent", "ms / decision (mean)", f"p{PERCENTILE} ms", "max ms", "decisions", "games")


def time_decisions(game, name: str, games: int, opponent) -> np.ndarray:
    """Seconds of each decision ``name`` made in ``games`` solo games against ``opponent``."""
    config = game.seat_config(1, (opponent,))
    seconds = []
    for g in range(games):
        seed = derive_seed(SEED_KEY, g)
        policy = seat_decider(game, name, g, config, np.random.default_rng(seed))
        state = game.new_game(config, seed)
        while not game.is_terminal(state):
            started = time.perf_counter()
            action = policy(state)
            seconds.append(time.perf_counter() - started)
            game.apply_action(state, action)
    return np.array(seconds)


def main() -> None:
    """Time each agent and print (and write) the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="tiny_york")
    parser.add_argument("--agents", nargs="+", default=list(DEFAULT_AGENTS))
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--out", type=Path, help="write the table as a result file (kind: table)")
    args = parser.parse_args()
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")
    import torch
    torch.set_num_threads(1)
    game = get_game(args.game)
    opponent = OPPONENT.get(game.name, DEFAULT_OPPONENT)
    rows = []
    print(f"{game.title}, solo against {game.automatic_label(opponent)}, {args.games} games an agent, "
          f"one core")
    print("  ".join(COLUMNS))
    for name in args.agents:
        time_decisions(game, name, 1, opponent)  # compiled code and the network loaded, untimed
        seconds = MS * time_decisions(game, name, args.games, opponent)
        p95 = float(np.percentile(seconds, PERCENTILE))
        row = [f"`{name}`", round(float(seconds.mean()), 2), round(p95, 2), round(float(seconds.max()), 1),
               int(seconds.size), args.games]
        rows.append(row)
        print("  ".join(map(str, row)), flush=True)
    if args.out:
        from result_file import write_table_result
        write_table_result(args.out, COLUMNS, rows,
                           f"{game.title}: every decision of {args.games} solo games against "
                           f"{game.automatic_label(opponent)} (the same deals for every agent), every "
                           f"decision timed, one torch thread", "one core, one process")


if __name__ == "__main__":
    main()
