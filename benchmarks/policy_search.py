"""Time per decision of ``PolicySearchAgent`` (psearch) by budget, on one core.

Plays Tiny York solo games against Tom 12 with the shipped policy and times every searched
decision (a decision with one legal action costs nothing and is left out) at each budget of
playouts; prints ms per decision (mean and 95th percentile), playouts per second, and the same
with ``skip_above=0.9`` (the prior's choice when it is that sure).
``--network PATH`` times another policy file (the champion's: agents/models/champion.zip);
``--time-limit S`` searches against the clock as the champion does (at most S seconds a decision,
its first round in growing batches), ``--margin-weight W`` weighs the margin as the champion (2.0).
Usage:
    python benchmarks/policy_search.py [--budgets 16 64 256 1024] [--games 2] [--playout policy]
                                       [--network PATH] [--time-limit S] [--margin-weight W]
"""

import argparse
import platform
import time

import numpy as np
import torch

from tiny_york_env.agents.policy_search import (
    CHAMPION_MARGIN_WEIGHT,
    DEFAULT_MARGIN_WEIGHT,
    DEFAULT_WIDENING,
    PolicyNetwork,
    PolicySearchAgent,
    check_search_settings,
)
from tiny_york_env.games.tiny_york import (
    GameConfig,
    apply_action,
    determinize,
    is_terminal,
    legal_actions,
    new_game,
)
from tiny_york_env.registry import get_game

SKIP = 0.9
PERCENTILE = 95
MS = 1000.0
WARM_UP_BUDGET = 4


def time_budget(network, budget, games, playout, skip_above, time_limit=None,
                margin_weight=DEFAULT_MARGIN_WEIGHT):
    """(mean ms, p95 ms, playouts/s, searched decisions) over ``games`` solo games vs Tom 12."""
    agent = PolicySearchAgent(simulations=budget, seed=0, network=network, playout=playout,
                              skip_above=skip_above, time_limit=time_limit,
                              margin_weight=margin_weight)  # the prior chooses the candidates in every row
    seconds, playouts = [], 0
    for g in range(games):
        state = new_game(GameConfig(num_agents=1, toms=(12,)), seed=g)
        rng = np.random.default_rng(g)
        while not is_terminal(state):
            if legal_actions(state).size == 1:
                apply_action(state, int(legal_actions(state)[0]))
                continue
            view = determinize(state, 0, rng)
            started = time.perf_counter()
            result = agent.search(view, 0)
            seconds.append(time.perf_counter() - started)
            playouts += result["playouts"]
            apply_action(state, result["action"])
    seconds = np.array(seconds)
    rate = playouts / seconds.sum()
    return MS * seconds.mean(), MS * np.percentile(seconds, PERCENTILE), rate, seconds.size


def main():
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--budgets", type=int, nargs="+", default=[16, 64, 256, 1024])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--playout", default="policy", choices=("policy", "random"))
    parser.add_argument("--network", default=None, metavar="PATH",
                        help="the policy file searched (default: the shipped agents/models/ppo.zip)")
    parser.add_argument("--time-limit", type=float, default=None, metavar="S",
                        help="at most S seconds a decision, as the champion (default: no limit)")
    parser.add_argument("--margin-weight", type=float, default=DEFAULT_MARGIN_WEIGHT, metavar="W",
                        help=f"the margin's weight in a playout's value (champion: {CHAMPION_MARGIN_WEIGHT})")
    args = parser.parse_args()
    try:
        check_search_settings(get_game("tiny_york"), min(args.budgets), args.playout, True, None,
                              args.time_limit, args.margin_weight, DEFAULT_WIDENING, SKIP)
    except ValueError as error:
        parser.error(str(error))
    torch.set_num_threads(1)
    network = PolicyNetwork(args.network)
    time_budget(network, WARM_UP_BUDGET, 1, args.playout, None)  # compile and warm up
    limit = "no time limit" if args.time_limit is None else f"at most {args.time_limit:g} s a decision"
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}, one core, "
          f"{args.playout} playouts, network {network.source}, margin weight {args.margin_weight:g}, "
          f"{limit}, solo vs Tom 12, {args.games} games per row")
    print("| playouts | skip_above | ms / decision | p95 ms | playouts / s | decisions |")
    print("|---|---|---|---|---|---|")
    for budget in args.budgets:
        for skip in (None, SKIP):
            mean, p95, rate, n = time_budget(network, budget, args.games, args.playout, skip, args.time_limit,
                                             args.margin_weight)
            print(f"| {budget} | {skip or '-'} | {mean:.1f} | {p95:.1f} | {rate:,.0f} | {n} |", flush=True)


if __name__ == "__main__":
    main()
