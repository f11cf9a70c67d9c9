"""What hidden information costs the champion: its search told the deal, on the ladder's deals.

    python -m tiny_york_env.training.experiments.information_value --levels 12,10 --games 100 --workers 2 \\
        --knows everything hands --ladder docs/results/champion-tiny-york-tom10-tom12.json \\
        --out results/information-value --table docs/results/champion-clairvoyant.json

Each variant is ``ChampionAgent`` (the same network, playouts, budget and settings) with another
``determinize``, so that its playouts start from more than its seat may know:

* ``everything``: the game itself, copied: the real hands and reserves, the real order of every
  stack and the real random stream (what comes next included);
* ``hands``: the real hands and reserves of every seat (a Tom's supply included) and the real
  discard pile, while what nobody has seen yet is redrawn as ``determinize`` redraws it: the draw
  pile's order, the face-down elevator, prestige and start tiles, and the random stream (Tiny
  York's ``redraw_unseen``).

``everything`` bounds from above what any better determinization could buy the search; ``hands``
bounds what remembering and inferring the cards others hold could buy (rulings D2 and D4: the
seat's own view deals the unseen cards uniformly, within what Tom's bids show). Neither is an agent
to ship: both read what no seat may know.

Game k at level L is the ladder's game k (``evaluate_ladder``'s seeds from ``--seed``), so each
game pairs with the ``--ladder`` file's game on the same deal; the table gives both win rates on
those deals and their paired difference with a 95% interval. Games are kept one a line in
``games.jsonl`` under ``--out`` as they finish (a stopped run goes on where it was), and the table
is written as a ``"kind": "table"`` result file (``--table``, rendered by
``scripts/render_results.py``).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from tiny_york_env.agents.policy_search import ChampionAgent
from tiny_york_env.arena.game_loop import play_out
from tiny_york_env.arena.intervals import Z_95, wilson_interval
from tiny_york_env.arena.jobs import GameJob, rotation_jobs
from tiny_york_env.arena.output import output_dir, write_output_text
from tiny_york_env.arena.provenance import run_provenance
from tiny_york_env.arena.runner import pool_context
from tiny_york_env.arena.seeds import ladder_seed_keys
from tiny_york_env.games.tiny_york import redraw_unseen
from tiny_york_env.registry import get_game

PERCENT = 100.0
GAME = "tiny_york"  # the study is of Tiny York's champion against its Toms
DEFAULT_LEVELS, DEFAULT_GAMES, DEFAULT_SEED = "12,10", 100, 3
EVERYTHING, HANDS = "everything", "hands"
KNOWS = {EVERYTHING: "everything (the deal, what comes next)", HANDS: "every hand, not what comes next"}
COLUMNS = ["Tom", "the search knows", "deals", "champion won", "it won", "it - champion [95% CI]",
           "its mean margin", "s / game"]


def knows_hands(state: np.ndarray, seat: int, rng: np.random.Generator) -> np.ndarray:
    """A copy of ``state`` with every hand kept and what nobody has seen redrawn with ``rng``."""
    return redraw_unseen(state, rng)


def clairvoyant_game(knows: str = EVERYTHING):
    """Tiny York whose ``determinize`` keeps what ``knows`` says (module doc)."""
    if knows not in KNOWS:
        raise ValueError(f"knows must be one of {list(KNOWS)}, got {knows!r}")
    game = get_game(GAME)
    if knows == EVERYTHING:
        return replace(game, determinize=lambda state, seat, rng=None: state.copy())
    return replace(game, determinize=knows_hands)


def play_clairvoyant(knows: str, job: GameJob) -> dict[str, Any]:
    """One ladder game with the champion knowing ``knows`` in seat 0: its record as a dict."""
    import torch
    torch.set_num_threads(1)
    game = get_game(GAME)
    agent = ChampionAgent(seed=job.agent_seeds[0], game=clairvoyant_game(knows))
    config = game.seat_config(1, job.automatic)
    state = game.new_game(config, seed=job.game_seed)
    started = time.perf_counter()
    decisions = play_out(game, state, lambda state, seat: agent.act_state(state.copy(), seat))
    scores = [int(s) for s in game.final_scores(state)]
    winners = [int(s) for s in game.winners(state)]
    return {"knows": knows, "level": job.automatic[0], "index": job.index, "game_seed": job.game_seed,
            "scores": scores,
            "share": (1.0 / len(winners)) if 0 in winners else 0.0, "margin": scores[0] - max(scores[1:]),
            "decisions": decisions, "seconds": time.perf_counter() - started}


def _play_job(knows_and_job: tuple[str, GameJob]) -> dict[str, Any]:
    return play_clairvoyant(*knows_and_job)


def ladder_shares(path: Path) -> dict[int, float]:
    """Seat 0's win share by game seed in a ladder result file (a solo ladder: one agent seat)."""
    data = json.loads(path.read_text())
    if data.get("kind") != "ladder" or "games" not in data:
        raise ValueError(f"{path} is not a ladder result file with its games")
    return {int(g["game_seed"]): (1.0 / len(g["winners"])) if 0 in g["winners"] else 0.0
            for g in data["games"]}


def paired_row(level: int, knows: str, games: list[dict[str, Any]], baseline: dict[int, float]) -> list[str]:
    """The table row of one level and variant: both win rates on the same deals and their paired
    difference."""
    pairs = [(baseline[g["game_seed"]], g["share"]) for g in games if g["game_seed"] in baseline]
    if not pairs:
        raise ValueError(f"none of the games knowing {knows} at Tom {level} is in the ladder file")
    n = len(pairs)
    differences = np.array([b - a for a, b in pairs])
    mean = float(differences.mean())
    half = Z_95 * float(differences.std(ddof=1)) / math.sqrt(n) if n > 1 else float("nan")
    champion, clairvoyant = sum(a for a, _ in pairs), sum(b for _, b in pairs)

    def rate(wins: float) -> str:
        low, high = wilson_interval(wins, n)
        return f"{PERCENT * wins / n:.1f}% [{PERCENT * low:.1f}, {PERCENT * high:.1f}]"

    margin = np.mean([g["margin"] for g in games])
    seconds = np.mean([g["seconds"] for g in games])
    return [f"Tom {level}", KNOWS[knows], str(n), rate(champion), f"**{rate(clairvoyant)}**",
            f"{PERCENT * mean:+.1f} [{PERCENT * (mean - half):+.1f}, {PERCENT * (mean + half):+.1f}] points",
            f"{margin:+.1f}", f"{seconds:.1f}"]


def main(argv: list[str] | None = None) -> None:
    """Play the clairvoyant's games (resuming), then write the paired table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--levels", default=DEFAULT_LEVELS, help="Tom levels, comma-separated")
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="the ladder's first games a level")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="the ladder's seed")
    parser.add_argument("--knows", nargs="+", choices=list(KNOWS), default=[EVERYTHING],
                        help="what the search is told (module doc)")
    parser.add_argument("--workers", type=int, default=1, help="processes")
    parser.add_argument("--ladder", required=True, help="the champion's ladder result file on these deals")
    parser.add_argument("--out", default="results/information-value", help="folder of games.jsonl")
    parser.add_argument("--table", help="write the paired table here as a result file")
    args = parser.parse_args(argv)
    levels = [int(x) for x in args.levels.split(",")]
    baseline = ladder_shares(Path(args.ladder))
    out = output_dir(args.out)
    log = out / "games.jsonl"
    played = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    for game in played:
        game.setdefault("knows", EVERYTHING)  # the first runs' lines: the game itself was told
    done = {(g["knows"], g["level"], g["index"]) for g in played}
    jobs = [(knows, job) for knows in args.knows for level in levels
            for job in rotation_jobs(0, (0,), args.games, (level,), ladder_seed_keys(args.seed, level),
                                     game=GAME)
            if (knows, level, job.index) not in done]
    started = run_provenance()
    with pool_context().Pool(args.workers) as pool, log.open("a") as lines:
        for game in pool.imap_unordered(_play_job, jobs):
            lines.write(json.dumps(game) + "\n")
            lines.flush()
            played.append(game)
            print(f"knows {game['knows']}, Tom {game['level']} game {game['index']}: share {game['share']} "
                  f"margin {game['margin']:+d} ({game['seconds']:.1f} s)", flush=True)
    rows = [paired_row(level, knows, [g for g in played if (g["knows"], g["level"]) == (knows, level)
                                      and g["index"] < args.games], baseline)
            for level in levels for knows in args.knows]
    print("\n".join(" | ".join(row) for row in rows))
    if args.table:
        command = (f"python -m tiny_york_env.training.experiments.information_value --levels {args.levels} "
                   f"--games {args.games} --seed {args.seed} --knows {' '.join(args.knows)} "
                   f"--ladder {args.ladder}")
        table = {"kind": "table", "columns": COLUMNS, "rows": rows,
                 "provenance": {"command": command, **started,
                                "note": "the champion's column is the ladder file's games on the same deals"}}
        write_output_text(Path(args.table), json.dumps(table, indent=1) + "\n")


if __name__ == "__main__":
    main()
