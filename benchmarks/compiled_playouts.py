"""The champion's policy playouts, compiled against torch, side by side in one run on one core.

For every game the champion (``agents.policy_search.ChampionAgent``: its network, 256 playouts a
searched decision, the prior's choice above 0.9) plays ``--games`` solo games against one
automatic participant (Tiny York: Tom 12; another game: its greedy bot), once with its playouts
in one compiled call a batch (``forward="compiled"``: ``core/batch_loops.py``'s
``network_playouts`` with the compiled forward pass of ``core/network.py``) and once stepping
the batch from Python with the network in torch (``forward="torch"``, the path before), game by
game in turn so both meet the same machine. The same seeds give both the same deals and, but for
float rounding of near-ties, the same decisions (the ``same actions`` column says how many).

Each row: decisions with more than one legal action (the searched ones and those the prior is
sure of), ms a decision (mean, 95th percentile), playouts a second and network evaluations a
second (the rows the playouts evaluated, over the decisions' time).

A last row a game plays the same search with uniformly random playouts: what the engine and its
automatic participants cost without a network (the floor a smaller network approaches).
``--network PATH`` plays the champion's search on another network (a policy file of the one
``--game``, e.g. a smaller network made for search) beside the shipped one, each with both forward
passes; the ``network`` column names the file.

Usage:
    python benchmarks/compiled_playouts.py [--games 2] [--game tiny_york ...] [--network PATH]
        [--out FILE.json]
"""

import argparse
import time
from pathlib import Path

import numpy as np
import torch
from decision_time import DEFAULT_OPPONENT, MS, OPPONENT, PERCENTILE
from result_file import write_table_result

from tiny_york_env.agents.policy_search import FORWARDS, ChampionAgent
from tiny_york_env.agents.shipped import champion_network
from tiny_york_env.arena.seeds import derive_seed
from tiny_york_env.registry import BUILTIN_GAMES, get_game

RANDOM = "random"  # the floor row's playouts: the engine and its participants, no network
SEED_KEY = 61  # the deals of this benchmark: derive_seed(SEED_KEY, game number)
COLUMNS = ("game", "network", "forward", "decisions", "ms / decision (mean)", f"p{PERCENTILE} ms",
           "playouts / s", "evaluations / s", "same actions")


def play(game, forward: str, games: int, network: str | None = None, playout: str = "policy"
         ) -> tuple[np.ndarray, int, int, list[int]]:
    """(seconds of each decision with a choice, playouts, network evaluations, actions taken) of
    the champion with ``forward`` in ``games`` solo games (on ``network``, else its own; with
    ``playout="random"``, uniformly random playouts: the engine's own cost)."""
    config = game.seat_config(1, (OPPONENT.get(game.name, DEFAULT_OPPONENT),))
    network = champion_network(game, config) if network is None else network
    seconds, playouts, evaluations, actions = [], 0, 0, []
    for g in range(games):
        seed = derive_seed(SEED_KEY, g)
        agent = ChampionAgent(g, game=game, network=network, forward=forward, playout=playout)
        rng = np.random.default_rng(seed)
        state = game.new_game(config, seed)
        while not game.is_terminal(state):
            legal = np.flatnonzero(game.legal_mask(state))
            if legal.size == 1:
                game.apply_action(state, int(legal[0]))
                continue
            view = game.determinize(state, 0, rng)
            started = time.perf_counter()
            result = agent.search(view, 0)
            seconds.append(time.perf_counter() - started)
            playouts += result["playouts"]
            actions.append(result["action"])
            game.apply_action(state, result["action"])
        evaluations += agent.evaluations
    return np.array(seconds), playouts, evaluations, actions


def timing_row(labels: list, seconds: np.ndarray, playouts: int, evaluations: int, same: str) -> list:
    """The table's row of one run (its ``labels`` first), printed as Markdown as soon as it is
    measured."""
    total = seconds.sum()
    row = [*labels, int(seconds.size), round(MS * seconds.mean(), 1),
           round(MS * float(np.percentile(seconds, PERCENTILE)), 1), round(playouts / total),
           round(evaluations / total), same]
    print("| " + " | ".join(f"{v:,}" if isinstance(v, int) else str(v) for v in row) + " |", flush=True)
    return row


def main() -> None:
    """Print the table (and write it with ``--out``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="solo games a game and forward pass")
    parser.add_argument("--game", nargs="+", default=list(BUILTIN_GAMES), choices=list(BUILTIN_GAMES))
    parser.add_argument("--network", type=Path, default=None,
                        help="also play the search on this policy file (one --game only)")
    parser.add_argument("--out", type=Path, default=None, help="write the table as a result file")
    args = parser.parse_args()
    if args.network is not None and len(args.game) != 1:
        parser.error("--network is a policy file of one game: give one --game")
    torch.set_num_threads(1)
    rows = []
    print("| " + " | ".join(COLUMNS) + " |")
    for name in args.game:
        game = get_game(name)
        networks = {"shipped": None, **({args.network.name: str(args.network)} if args.network else {})}
        for label, network in networks.items():
            for forward in FORWARDS:
                play(game, forward, 1, network)  # compile and warm up
            runs = {forward: play(game, forward, args.games, network) for forward in FORWARDS}
            reference = runs["torch"][3]
            for forward, (seconds, playouts, evaluations, actions) in runs.items():
                # games that diverged may differ in length
                same = sum(a == b for a, b in zip(actions, reference, strict=False))
                rows.append(timing_row([name, label, forward], seconds, playouts, evaluations,
                                       f"{same} of {len(reference)}"))
        play(game, FORWARDS[0], 1, playout=RANDOM)
        seconds, playouts, evaluations, _ = play(game, FORWARDS[0], args.games, playout=RANDOM)
        rows.append(timing_row([name, "none", "random playouts"], seconds, playouts, evaluations, "-"))
    if args.out is not None:
        write_table_result(args.out, COLUMNS, rows,
                           note=f"the champion, {args.games} solo games a game and forward pass, one core "
                                f"(torch.set_num_threads(1)), compiled and torch playouts in turn")


if __name__ == "__main__":
    main()
