"""What each ingredient of ``PolicySearchAgent`` buys: solo games against one Tom level, the same
deals for every cell (the ladder's seeds), one row per search setting.

    python -m tiny_york_env.training.experiments.search_ablation --level 12 --games 40 --workers 2 \\
        --cells ppo random-blind-64 random-prior-64 policy-blind-64 policy-prior-16 \\
        --out results/search_ablation

A cell is ``ppo`` (the shipped policy without search) or ``PLAYOUT-PRIOR-N[-vD][-sT][-mM][-wW]``:
playouts ``policy`` or ``random``, ``prior`` (the network's most probable actions searched) or
``blind`` (random candidates), N playouts a decision, ``vD`` cuts policy playouts after D decisions
for the network's value, ``sT`` plays the prior's choice without a search when its probability is
at least T percent, ``mM`` weighs the margin M percent (default 50), ``wW`` sets the widening to
W percent (default 100: ``max(2, ceil(W/100 * sqrt(N)))`` candidates). Writes ``ablation.json``
(every row run under that folder, all levels) and ``ablation-tomL.md`` per level (win rate with
its 95% Wilson interval, mean margin, ms a decision: all the agent's decisions, forced ones
included, so less than ``benchmarks/policy_search.py``'s searched decisions).
"""

from __future__ import annotations

import argparse
import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tiny_york_env.agents.policy_search import (
    DEFAULT_MARGIN_WEIGHT,
    DEFAULT_WIDENING,
    PolicySearchAgent,
    check_search_settings,
)
from tiny_york_env.agents.ppo_agent import PPOAgent
from tiny_york_env.arena.intervals import wilson_interval
from tiny_york_env.arena.ladder import evaluate_vs_toms
from tiny_york_env.arena.output import output_dir, refuse_symlink, write_output_text
from tiny_york_env.registry import get_game

CELL_PATTERN = re.compile(r"^(policy|random)-(prior|blind)-(\d+)"
                          r"(?:-v(\d+))?(?:-s(\d+))?(?:-m(\d+))?(?:-w(\d+))?$")
PERCENT = 100.0
GAME = "tiny_york"  # the ablation plays Tiny York's ladder (its Toms)
DEFAULT_LEVEL, DEFAULT_GAMES, DEFAULT_WORKERS = 12, 40, 2
DEFAULT_CELLS = ("ppo", "random-blind-64", "random-prior-64", "policy-blind-64", "policy-prior-16",
                 "policy-prior-64", "policy-prior-64-v10")


def cell_options(name: str) -> dict[str, Any]:
    """PolicySearchAgent options of cell ``name`` (module doc); ValueError for a bad name."""
    match = CELL_PATTERN.match(name)
    if match is None:
        raise ValueError(f"bad cell {name!r}: give 'ppo' or PLAYOUT-PRIOR-N[-vD][-sT][-mM][-wW], e.g. "
                         f"policy-prior-64, random-blind-64, policy-prior-256-v10-s90-m100-w200")
    playout, prior, simulations, depth, skip, margin, widening = match.groups()
    options: dict[str, Any] = {"playout": playout, "prior": prior == "prior",
                               "simulations": int(simulations)}
    if depth is not None:
        options["value_depth"] = int(depth)
    if skip is not None:
        options["skip_above"] = int(skip) / PERCENT
    if margin is not None:
        options["margin_weight"] = int(margin) / PERCENT
    if widening is not None:
        options["widening"] = int(widening) / PERCENT
    check_search_settings(get_game(GAME), options["simulations"], playout, options["prior"],
                          options.get("value_depth"), None,
                          options.get("margin_weight", DEFAULT_MARGIN_WEIGHT),
                          options.get("widening", DEFAULT_WIDENING), options.get("skip_above"))
    return options


@dataclass(frozen=True)
class SearchCell:
    """``factory(seed)`` of one cell's agent, labelled by the cell's name (picklable for workers)."""

    label: str
    options: dict[str, Any] = field(default_factory=dict, hash=False)

    def __call__(self, seed: int | None):
        """A new agent of this cell, seeded with ``seed``."""
        if self.label == "ppo":
            return PPOAgent(seed=seed)
        return PolicySearchAgent(GAME, seed=seed, **self.options)


def run_cell(name: str, level: int, games: int, seed: int, workers: int) -> dict[str, Any]:
    """One cell's row: wins, the interval, mean margin, seconds a game and a decision."""
    cell = SearchCell(name, {} if name == "ppo" else cell_options(name))
    started = time.perf_counter()
    result = evaluate_vs_toms(cell, levels=(level,), games=games, seed=seed, workers=workers, progress=False)
    wall = time.perf_counter() - started
    row = result.cells[0]
    decisions = sum(r.decisions for r in result.records)
    seconds = sum(r.seconds for r in result.records)
    low, high = wilson_interval(row.wins, row.games)
    return {"cell": name, "options": cell.options, "games": row.games, "wins": row.wins,
            "win_rate": row.wins / row.games, "ci_low": low, "ci_high": high,
            "mean_margin": row.mean_margin, "ms_per_decision": 1000 * seconds / max(decisions, 1),
            "seconds_per_game": seconds / row.games, "wall_seconds": wall}


def markdown(rows: list[dict[str, Any]], level: int) -> str:
    """The rows as a Markdown table."""
    lines = [f"| cell (vs Tom {level}) | games | win rate [95% CI] | mean margin | ms / decision |",
             "|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| `{r['cell']}` | {r['games']} | {PERCENT * r['win_rate']:.1f}% "
                     f"[{PERCENT * r['ci_low']:.1f}, {PERCENT * r['ci_high']:.1f}] | "
                     f"{r['mean_margin']:+.1f} | {r['ms_per_decision']:.1f} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    """Run the cells and write ablation.json / ablation.md under --out."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--level", type=int, default=DEFAULT_LEVEL, help="the Tom level (1-12)")
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="games per cell")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=DEFAULT_WORKERS)
    parser.add_argument("--cells", nargs="+", default=list(DEFAULT_CELLS))
    parser.add_argument("--out", default="results/search_ablation")
    args = parser.parse_args(argv)
    for name in args.cells:
        if name != "ppo":
            cell_options(name)
    out = Path(args.out)
    refuse_symlink(out)
    output_dir(out)
    path = out / "ablation.json"
    rows = json.loads(path.read_text())["rows"] if path.exists() else []
    for name in args.cells:
        row = run_cell(name, args.level, args.games, args.seed, args.workers)
        rows = [r for r in rows if not (r["cell"] == name and r.get("level") == args.level)]
        rows.append({**row, "level": args.level, "seed": args.seed})
        print(markdown([row], args.level).splitlines()[-1], flush=True)
        write_output_text(path, json.dumps({"rows": rows}, indent=1) + "\n")
    for level in sorted({r["level"] for r in rows}):
        table = markdown([r for r in rows if r["level"] == level], level)
        write_output_text(out / f"ablation-tom{level}.md", table)


if __name__ == "__main__":
    main()
