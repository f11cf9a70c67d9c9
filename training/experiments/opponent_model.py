"""Whether an opponent model pays: a game's champion against the same search whose playouts give the
other agent seat the contract's greedy heuristic (``PolicySearchAgent(opponents="greedy")``), by
``tiny-york compare``'s paired sequential test with the greedy agent as the opponent.

    python -m tiny_york_env.training.experiments.opponent_model --game construction_yard --workers 2 \\
        --out results/compare/construction-yard-opponent-model
    python scripts/publish_result.py results/compare/construction-yard-opponent-model/compare.json \\
        docs/results/compare-construction-yard-opponent-model.json --drop-games
    python -m tiny_york_env.training.experiments.opponent_model --game construction_yard --match 100 \\
        --workers 2 --out results/champion/construction-yard-2p-greedy-agent-opponent-model

``--match GAMES`` plays the modelled champion's match against the greedy agent instead, seats
rotated, on the deals of the champion's own match (seed 3), kept as ``match.json``.

Two players: the champion's playouts model the other agent as its own policy, while the engine
plays the bots by their rules; told that its opponent plays greedy, the search plays that seat's
turns of every playout with the greedy heuristic. A stopped test goes on with ``--resume``.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from tiny_york_env.agents.policy_search import ChampionAgent
from tiny_york_env.agents.shipped import shipped_policy_path
from tiny_york_env.arena.compare import DEFAULT_MAX_PAIRS, compare_agents, format_comparison
from tiny_york_env.arena.match import evaluate_vs_agents
from tiny_york_env.arena.result_files import write_results
from tiny_york_env.arena.tables import format_table
from tiny_york_env.registry import get_game

PLAYERS = 2
OPPONENT = "greedy"
MATCH_SEED = 3  # the seed of the champion's published matches (scripts/publish_champion_results.sh)


@dataclass(frozen=True)
class ModelledChampion:
    """``factory(seed)`` of a game's two-player champion, its playouts' other seat played by
    ``opponents`` (None: its own network, the champion as shipped)."""

    game: str
    opponents: str | None = None

    @property
    def label(self) -> str:
        """How the result file names it."""
        return "champion" if self.opponents is None else f"champion, {self.opponents} opponents"

    @property
    def network(self) -> Path:
        """The game's shipped two-player policy, which the champion searches."""
        return Path(shipped_policy_path(get_game(self.game), PLAYERS))

    def __call__(self, seed: int | None):
        """A new agent, seeded with ``seed``."""
        return ChampionAgent(seed=seed, game=self.game, network=self.network, opponents=self.opponents)


def play_match(game: str, games: int, workers: int, out: str) -> None:
    """The champion told its opponent plays greedy, against the greedy agent, seats rotated, on
    the deals of the published champion match (``MATCH_SEED``); written as ``out/match.json``."""
    results = evaluate_vs_agents([ModelledChampion(game, OPPONENT), OPPONENT], games=games, seed=MATCH_SEED,
                                 workers=workers, progress=False, game=game)
    results.settings["command"] = (f"python -m tiny_york_env.training.experiments.opponent_model "
                                   f"--game {game} "
                                   f"--match {games} --out {out}")
    write_results(results, out, stem="match")
    print(format_table(results))


def main(argv: list[str] | None = None) -> None:
    """Play the test (resuming with ``--resume``) and print its decision."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", required=True, help="construction_yard or fifth_avenue")
    parser.add_argument("--max-pairs", type=int, default=DEFAULT_MAX_PAIRS, help="deals at most")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1, help="processes")
    parser.add_argument("--out", required=True, help="folder of compare.json")
    parser.add_argument("--resume", action="store_true", help="go on with the test in --out")
    parser.add_argument("--match", type=int, metavar="GAMES",
                        help="play the modelled champion's match against greedy instead of the test")
    args = parser.parse_args(argv)
    game = get_game(args.game)
    if args.match is not None:
        play_match(game.name, args.match, args.workers, args.out)
        return
    command = (f"python -m tiny_york_env.training.experiments.opponent_model --game {game.name} "
               f"--max-pairs {args.max_pairs} --seed {args.seed}")
    comparison = compare_agents(ModelledChampion(game.name), ModelledChampion(game.name, OPPONENT),
                                game=game.name, opponents=[OPPONENT], max_pairs=args.max_pairs,
                                seed=args.seed, workers=args.workers, out=args.out, resume=args.resume,
                                report=lambda c: print(format_comparison(c), flush=True),
                                command=command)
    print(format_comparison(comparison))


if __name__ == "__main__":
    main()
