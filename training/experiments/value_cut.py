"""Whether the value head pays: the champion's search on a network with whole playouts against the
same search whose playouts stop after ``--depth`` decisions and read the network's value head
(``PolicySearchAgent(value_depth=D)``), by ``tiny-york compare``'s paired sequential test against a
Tom.

    python -m tiny_york_env.training.experiments.value_cut --network agents/models/champion.zip \\
        --depth 10 --tom 12 --workers 2 --out results/compare/value-cut-champion-d10-tom12
    python scripts/publish_result.py results/compare/value-cut-champion-d10-tom12/compare.json \\
        docs/results/compare-value-cut-champion-d10-tom12.json --drop-games

A is the search with whole playouts, B the cut one; H1 is "B wins at least ``--delta1`` more a
deal". Both run ``--simulations`` playouts a searched decision (the counts define the players;
the cut playouts are cheaper, which the file's seconds a game show). A stopped test goes on with
``--resume``.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from tiny_york_env.agents.policy_search import (
    CHAMPION_MARGIN_WEIGHT,
    CHAMPION_SIMULATIONS,
    CHAMPION_SKIP_ABOVE,
    PolicySearchAgent,
)
from tiny_york_env.agents.ppo_agent import CHAMPION_MODEL_PATH
from tiny_york_env.arena.compare import DEFAULT_DELTA1, DEFAULT_MAX_PAIRS, compare_agents, format_comparison

DEFAULT_DEPTH = 10  # decisions before the cut: the ablation's rows (docs/champion.md)
DEFAULT_TOM = 12


@dataclass(frozen=True)
class SearchWithCut:
    """``factory(seed)``: the champion's search (its skip and margin weight) on ``network`` with
    ``simulations`` playouts a searched decision, cut after ``depth`` decisions (None: whole)."""

    network: str
    simulations: int = CHAMPION_SIMULATIONS
    depth: int | None = None

    @property
    def label(self) -> str:
        """How the result file names it: the network's folder and file, the playouts, the cut."""
        cut = "whole playouts" if self.depth is None else f"value head after {self.depth}"
        network = Path(self.network)
        return f"psearch:{self.simulations} on {network.parent.name}/{network.name}, {cut}"

    def __call__(self, seed: int | None):
        """A new search agent, seeded with ``seed``."""
        return PolicySearchAgent(simulations=self.simulations, network=self.network,
                                 margin_weight=CHAMPION_MARGIN_WEIGHT, skip_above=CHAMPION_SKIP_ABOVE,
                                 value_depth=self.depth, seed=seed)


def main(argv: list[str] | None = None) -> None:
    """Play the test (resuming with ``--resume``) and print its decision."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--network", default=str(CHAMPION_MODEL_PATH), help="the policy file searched")
    parser.add_argument("--simulations", type=int, default=CHAMPION_SIMULATIONS,
                        help="playouts a searched decision")
    parser.add_argument("--depth", type=int, default=DEFAULT_DEPTH, help="decisions before B's cut")
    parser.add_argument("--tom", type=int, default=DEFAULT_TOM, help="the Tom level of the deals")
    parser.add_argument("--delta1", type=float, default=DEFAULT_DELTA1, help="H1: B better by this a deal")
    parser.add_argument("--max-pairs", type=int, default=DEFAULT_MAX_PAIRS, help="deals at most")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1, help="processes")
    parser.add_argument("--out", required=True, help="folder of compare.json")
    parser.add_argument("--resume", action="store_true", help="go on with the test in --out")
    args = parser.parse_args(argv)
    whole = SearchWithCut(args.network, args.simulations)
    cut = SearchWithCut(args.network, args.simulations, args.depth)
    cut(0)  # the settings checked before any game
    command = (f"python -m tiny_york_env.training.experiments.value_cut --network {args.network} "
               f"--simulations {args.simulations} --depth {args.depth} --tom {args.tom} "
               f"--delta1 {args.delta1} --max-pairs {args.max_pairs} --seed {args.seed}")
    comparison = compare_agents(whole, cut, automatic=[args.tom], delta1=args.delta1,
                                max_pairs=args.max_pairs, seed=args.seed, workers=args.workers,
                                out=args.out, resume=args.resume,
                                report=lambda c: print(format_comparison(c), flush=True), command=command)
    print(format_comparison(comparison))


if __name__ == "__main__":
    main()
