"""Many games: a list of ``GameJob``s played in this process, in a pool of worker processes, or as
Ray tasks (``ray_tasks.py``); the records come back in job order, the same whichever way they ran."""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from tqdm.auto import tqdm

from ..agents.registry import AgentSpec
from ..core.options import check_int
from .jobs import GameJob
from .output import output_dir
from .play import GameSaving, play_job
from .ray_tasks import run_jobs_on_ray
from .records import GameRecord

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

PROGRESS_CHUNKS_PER_WORKER = 8  # jobs are handed out in chunks: few round-trips, smooth progress
# (players, labels, saving), set in each pool worker by its initializer
_WORKER_PLAYERS: tuple[Sequence[AgentSpec], Sequence[str], GameSaving | None] | None = None


def positive_int(value: int, what: str) -> int:
    """``value`` as an int; ValueError naming ``what`` unless it is a positive int."""
    return check_int(what, value, 1)


def _install_players(players: Sequence[AgentSpec], labels: Sequence[str],
                     saving: GameSaving | None = None) -> None:
    global _WORKER_PLAYERS
    _WORKER_PLAYERS = (players, labels, saving)
    torch = sys.modules.get("torch")  # a policy agent: one thread per worker, the pool is the parallelism
    if torch is not None:
        torch.set_num_threads(1)


def _run_in_worker(job: GameJob) -> GameRecord:
    assert _WORKER_PLAYERS is not None, "the pool initializer sets the players"
    players, labels, saving = _WORKER_PLAYERS
    return play_job(players, labels, job, saving)


def pool_context() -> BaseContext:
    """The process start method for worker pools: fork where there is one (it passes factories,
    even lambdas, without pickling and keeps compiled code), else the platform's default."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else None)


def warm_up(players: Sequence[AgentSpec], labels: Sequence[str], jobs: Sequence[GameJob]) -> None:
    """Play one untimed game per player, every agent seat its own, on the first job's setup:
    compiled code is loaded before timing starts and before pool workers fork."""
    if not jobs:
        return
    first = jobs[0]
    for player in sorted(set(p for job in jobs for p in job.seating)):
        play_job(players, labels, replace(first, seating=(player,) * len(first.seating)))


def run_jobs(players: Sequence[AgentSpec], labels: Sequence[str], jobs: Sequence[GameJob], workers: int = 1,
             progress: bool = True, description: str = "games",
             saving: GameSaving | None = None, ray_address: str | None = None,
             warm: bool = True) -> list[GameRecord]:
    """Play every job (in ``workers`` processes when > 1, or as Ray tasks on ``ray_address``);
    GameRecords in job order, the same whichever way they ran. The progress bar (``tqdm.auto``: a
    widget in a notebook, text in a terminal) is off when ``progress`` is False. ``saving``: write
    the games it selects as saved games into its folder (on a cluster, a folder every node
    shares). ``warm=False`` skips the untimed warm-up game (``warm_up``) where this process has
    played the players already."""
    workers = positive_int(workers, "workers")
    if ray_address is not None and workers != 1:
        raise ValueError("give --workers or --ray, not both: with --ray the cluster's CPUs play the games")
    if saving is not None:
        output_dir(saving.directory)
    if ray_address is None and warm:
        warm_up(players, labels, jobs)
    records = []
    with tqdm(total=len(jobs), desc=description, unit="game", disable=not progress) as bar:
        if ray_address is not None:
            records = run_jobs_on_ray(play_job, players, labels, jobs, saving, ray_address, bar)
        elif workers == 1 or len(jobs) <= 1:
            for job in jobs:
                records.append(play_job(players, labels, job, saving))
                bar.update()
        else:
            chunk = max(1, len(jobs) // (workers * PROGRESS_CHUNKS_PER_WORKER))
            with pool_context().Pool(workers, _install_players, (players, labels, saving)) as pool:
                for record in pool.imap_unordered(_run_in_worker, jobs, chunksize=chunk):
                    records.append(record)
                    bar.update()
    return sorted(records, key=lambda r: (r.cell, r.index))
