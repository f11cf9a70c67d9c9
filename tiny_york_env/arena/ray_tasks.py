"""Evaluation games as Ray tasks: ``tiny-york eval ... --ray [ADDRESS]`` and the tournament.

The jobs are the ones ``runner.run_jobs`` plays locally (each carries its own game, agent and
choice seeds), cut into chunks; each chunk is one Ray task that builds fresh agents from the
player specs and plays its games with the ``play`` function it is given (``play.play_job``).
So the records, sorted by (cell, game), equal those of ``--workers N`` or one process exactly,
whichever node plays which game.
Progress advances as chunks finish.

``address``: ``"local"`` starts a Ray on this machine (all its cores); anything else is passed to
``ray.init`` (``"auto"`` joins the cluster this machine belongs to, or ``ray://HEAD:10001``).
Agents are sent by name (``"greedy"``, ``"ppo:PATH"``...): a policy file's PATH must exist on
every node (a shared folder), or ship it with Ray's ``runtime_env={"working_dir": ...}``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

LOCAL = "local"
CHUNKS_PER_CPU = 4  # enough chunks to balance the nodes and show progress
# The Ray node ids that played this process's chunks (``tiny-york eval --ray`` reports how many).
NODES_SEEN: set[str] = set()


def connect(address: str) -> bool:
    """Join or start Ray unless it is running; True when this call started it (and should stop it)."""
    import ray
    if ray.is_initialized():
        return False
    ray.init(address=None if address == LOCAL else address, include_dashboard=False,
             log_to_driver=False)
    return True


def _play_chunk(play: Callable[..., Any], players: Sequence[Any], labels: Sequence[str],
                jobs: Sequence[Any], saving: Any) -> tuple[list, str]:
    """One task: ``play(players, labels, job, saving)`` for each of ``jobs`` (torch on one thread:
    the tasks are the parallelism); the records and the id of the node that played them."""
    import sys

    import ray
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)
    return [play(players, labels, job, saving) for job in jobs], ray.get_runtime_context().get_node_id()


def run_jobs_on_ray(play: Callable[..., Any], players: Sequence[Any], labels: Sequence[str],
                    jobs: Sequence[Any], saving: Any, address: str, bar: Any) -> list:
    """Every job played as Ray tasks by ``play`` (a module-level function, which Ray sends by
    name); the records (unsorted) as they come back, ``bar`` updated per finished chunk, the
    nodes that played them added to ``NODES_SEEN``."""
    import ray
    started = connect(address)
    try:
        play_chunk = ray.remote(num_cpus=1)(_play_chunk)
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        size = max(1, len(jobs) // (cpus * CHUNKS_PER_CPU))
        pending = {play_chunk.remote(play, players, labels, jobs[k:k + size], saving):
                   min(size, len(jobs) - k) for k in range(0, len(jobs), size)}
        records = []
        try:
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    played, node = ray.get(ref)
                    records += played
                    NODES_SEEN.add(node)
                    bar.update(pending.pop(ref))
        except BaseException:  # an error or Ctrl-C: the cluster should not go on playing
            for ref in pending:
                ray.cancel(ref)
            raise
        return records
    finally:
        if started:
            ray.shutdown()
