"""A seeded round robin of several agents of any registered game: OpenSkill (Plackett-Luce)
ratings and a win-rate matrix.

Every group of ``game_size`` agents (2 by default, 3 or 4 optionally) plays ``games`` games, seats
rotated and deals shared as in ``match.evaluate_vs_agents``; the game's automatic
participants given (bots; Dirk and Alea are the engine's own) join every game after them. The
ratings are computed from the games in a fixed set of orders, so they depend neither on
``workers`` nor on ``--ray``. A game's ranks put its first winner first (a shared win goes to the
first tied seat in the ratings, as in the envs' ``winner`` info).
"""

from __future__ import annotations

import csv
import itertools
import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from openskill.models import PlackettLuce, PlackettLuceRating

from ..agents.registry import AgentSpec, check_player
from ..contract import Game
from ..registry import DEFAULT_GAME, get_game
from .jobs import AutomaticSpec, rotation_jobs
from .labels import unique_labels
from .output import open_output, output_dir, refuse_symlink
from .provenance import run_provenance
from .records import GameRecord
from .runner import positive_int, run_jobs
from .seeds import KIND_TOURNAMENT, check_seed
from .tables import format_rows

DEFAULT_GAMES_PER_GROUP = 20
WINNER_RANK = 1
TIE_SHARE = 0.5  # a tie between two participants counts half a win for each in the matrix


def game_ranks(record: GameRecord) -> list[int]:
    """Rank per seat (1 = best): the engine's winner first (its tie-break, R20), the others by
    score, equal scores sharing a rank."""
    scores = record.scores
    ranks = []
    for seat, score in enumerate(scores):
        if seat == record.winner:
            ranks.append(WINNER_RANK)
        else:
            ahead = sum(1 for k, s in enumerate(scores) if k != record.winner and s > score)
            ranks.append(WINNER_RANK + 1 + ahead)
    return ranks


RATING_ORDERS = 16  # shuffled orders of the games whose ratings are averaged
RATING_SEED = 0


def _rate_in_order(model, records, num_players):
    ratings = [model.rating() for _ in range(num_players)]
    for record in records:
        teams = [[ratings[p]] for p in record.seating]
        ranks = game_ranks(record)[:len(record.seating)]
        # openskill takes int or float ranks (its docs); its annotation names float only.
        rated = model.rate(teams, ranks=ranks)  # type: ignore[arg-type]
        for p, (rating,) in zip(record.seating, rated, strict=True):
            ratings[p] = rating
    return ratings


def rate_games(records: Iterable[GameRecord], num_players: int, orders: int = RATING_ORDERS,
               seed: int = RATING_SEED) -> list[PlackettLuceRating]:
    """PlackettLuce ratings, one per player index: OpenSkill rates game after game, so a rating
    depends on the games' order; here the games are rated in ``orders`` orders shuffled with
    ``seed`` and each player's mu and sigma are the means over them (the same games in another
    order give the same ratings)."""
    model = PlackettLuce()
    records = sorted(records, key=lambda r: (r.cell, r.index, r.game_seed))  # the input order drops out
    rng = np.random.default_rng(seed)
    runs = [_rate_in_order(model, [records[k] for k in rng.permutation(len(records))], num_players)
            for _ in range(max(1, int(orders)))]
    return [model.rating(mu=float(np.mean([run[p].mu for run in runs])),
                         sigma=float(np.mean([run[p].sigma for run in runs])))
            for p in range(num_players)]


def pairwise_matrix(records: Iterable[GameRecord], num_players: int) -> list[list[float | None]]:
    """``matrix[i][j]``: the share of the games with both i and j in which i finished ahead of j
    (ties count half); None on the diagonal and where they never met."""
    ahead = [[0.0] * num_players for _ in range(num_players)]
    met = [[0] * num_players for _ in range(num_players)]
    for record in records:
        ranks = game_ranks(record)
        for (seat_i, i), (seat_j, j) in itertools.permutations(enumerate(record.seating), 2):
            met[i][j] += 1
            if ranks[seat_i] < ranks[seat_j]:
                ahead[i][j] += 1
            elif ranks[seat_i] == ranks[seat_j]:
                ahead[i][j] += TIE_SHARE
    return [[ahead[i][j] / met[i][j] if i != j and met[i][j] else None for j in range(num_players)]
            for i in range(num_players)]


@dataclass(frozen=True)
class Standing:
    """One agent's line in the standings; ``rating`` is OpenSkill's ordinal (mu - 3 sigma)."""

    agent: str
    rating: float
    mu: float
    sigma: float
    games: int
    wins: int
    win_rate: float
    mean_score: float


@dataclass
class TournamentResults:
    """Standings (best first), the win-rate matrix over ``labels``, the game records, the settings."""

    standings: list[Standing]
    labels: list[str]
    matrix: list[list[float | None]]
    records: list[GameRecord] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of everything."""
        return {"settings": self.settings, "standings": [asdict(s) for s in self.standings],
                "labels": self.labels, "matrix": self.matrix,
                "games": [asdict(r) for r in self.records]}


def _standings(records: Sequence[GameRecord], labels: Sequence[str]) -> list[Standing]:
    ratings = rate_games(records, len(labels))
    standings = []
    for p, label in enumerate(labels):
        seats = [(r, r.seating.index(p)) for r in records if p in r.seating]
        wins = sum(r.winner == seat for r, seat in seats)
        standings.append(Standing(label, float(ratings[p].ordinal()), float(ratings[p].mu),
                                  float(ratings[p].sigma), len(seats), wins,
                                  wins / len(seats) if seats else 0.0,
                                  sum(r.scores[seat] for r, seat in seats) / max(1, len(seats))))
    return sorted(standings, key=lambda s: -s.rating)


def run_tournament(agents: Iterable[AgentSpec], games: int = DEFAULT_GAMES_PER_GROUP, seed: int = 0,
                   game_size: int = 2, workers: int = 1, progress: bool = True,
                   ray_address: str | None = None, *, game: str | Game = DEFAULT_GAME,
                   automatic: Sequence[AutomaticSpec] = ()) -> TournamentResults:
    """Round robin of ``agents`` of ``game`` (names or ``factory(seed)``): every group of
    ``game_size`` plays ``games`` games (a multiple of ``game_size``), seats rotated, with the
    game's ``automatic`` participants (bots) after them. The settings record the run's
    ``played_on`` and ``version`` (``provenance.run_provenance``)."""
    game = get_game(game)
    agents, automatic = list(agents), tuple(automatic)
    game_size = positive_int(game_size, "game_size")
    try:
        config = game.seat_config(game_size, automatic)
    except ValueError as error:
        raise ValueError(f"game_size {game_size} with {game.automatic_kind} {list(automatic)} is no "
                         f"setup of {game.title}: {error}") from None
    if game.num_participants(config) < 2:
        raise ValueError(f"game_size {game_size} with no {game.automatic_kind} is a game of one")
    agents = [check_player(game, a, config) for a in agents]
    if len(agents) < game_size:
        raise ValueError(f"a tournament with games of {game_size} needs at least {game_size} agents, "
                         f"got {len(agents)}")
    games, seed = positive_int(games, "games"), check_seed(seed)
    labels = unique_labels(agents)
    provenance = run_provenance()
    jobs = []
    for cell, group in enumerate(itertools.combinations(range(len(agents)), game_size)):
        jobs += rotation_jobs(cell, group, games, automatic, (seed, KIND_TOURNAMENT, game_size, *group),
                              game=game.name)
    records = run_jobs(agents, labels, jobs, workers, progress, "tournament", ray_address=ray_address)
    settings = {"game": game.name, "agents": labels, "games_per_group": games, "game_size": game_size,
                game.automatic_kind: list(automatic), "seed": seed, **provenance}
    return TournamentResults(_standings(records, labels), labels,
                             pairwise_matrix(records, len(labels)), records, settings)


def run_game_tournament(game_name: str, agents: Sequence[AgentSpec], games: int = DEFAULT_GAMES_PER_GROUP,
                        seed: int = 0, game_size: int = 2, bots: Sequence[str] = (),
                        progress: bool = False, workers: int = 1,
                        ray_address: str | None = None) -> TournamentResults:
    """``run_tournament`` of ``game_name`` with its ``bots`` joining every game."""
    return run_tournament(agents, games, seed, game_size, workers, progress, ray_address,
                          game=game_name, automatic=bots)


STANDINGS_COLUMNS = ("#", "agent", "rating", "mu", "sigma", "games", "wins", "win rate", "mean score")


def format_tournament(results: TournamentResults) -> str:
    """Standings and the win-rate matrix (row's share of games finished ahead of column) as text."""
    standings = [(k + 1, s.agent, f"{s.rating:.2f}", f"{s.mu:.2f}", f"{s.sigma:.2f}", s.games, s.wins,
                  f"{s.win_rate:.1%}", f"{s.mean_score:.1f}") for k, s in enumerate(results.standings)]
    matrix = [(label, *("-" if x is None else f"{x:.1%}" for x in row))
              for label, row in zip(results.labels, results.matrix, strict=True)]
    return (format_rows(STANDINGS_COLUMNS, standings) + "\n\nRow finished ahead of column:\n"
            + format_rows(("", *results.labels), matrix))


def write_tournament(results: TournamentResults, out_dir: str | os.PathLike[str],
                     stem: str = "tournament") -> list[Path]:
    """Write ``<stem>.csv`` (standings), ``<stem>_matrix.csv`` and ``<stem>.json``; returns the paths.
    A symbolic link as ``out_dir`` or as one of the files is refused (ValueError)."""
    out = output_dir(out_dir)
    standings, matrix, full = out / f"{stem}.csv", out / f"{stem}_matrix.csv", out / f"{stem}.json"
    for path in (standings, matrix, full):
        refuse_symlink(path)
    with open_output(standings, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(Standing.__dataclass_fields__))
        writer.writeheader()
        writer.writerows(asdict(s) for s in results.standings)
    with open_output(matrix, "w", newline="") as handle:
        matrix_writer = csv.writer(handle)
        matrix_writer.writerow(["agent", *results.labels])
        for label, row in zip(results.labels, results.matrix, strict=True):
            matrix_writer.writerow([label, *("" if x is None else f"{x:.6f}" for x in row)])
    with open_output(full) as handle:
        json.dump(results.to_dict(), handle, indent=1)
    return [standings, matrix, full]
