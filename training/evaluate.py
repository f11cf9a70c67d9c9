"""The evaluation harness of every registered game: an agent against the ladder of the game's
automatic participants (Tiny York's Toms, another game's bots), or agents against each other.

Every game is seeded from ``(seed, what is evaluated, game number)`` alone, and each agent is made
afresh for every game from the same derivation, so a cell's results depend neither on the order
the games run in nor on ``workers`` or ``--ray``. An agent is a name (an agent of the registry
written for the game, or one of the contract's policies: ``agents/policies.py``) or a
``factory(seed)`` of an ``act``/``act_state`` agent, played through ``agents.base.choose_action``.

``evaluate_ladder`` (``evaluate_vs_toms``: Tiny York's) / ``evaluate_vs_agents`` return an
``EvalResults``; ``format_table`` prints it, ``write_results`` saves CSV, JSON and (for the
ladder) a PNG of win rate by rung.

Every file the evaluation and training commands write goes through ``output_dir`` and
``open_output``: a symbolic link planted where an output directory or file goes is refused
(ValueError) instead of being written through.
"""

from __future__ import annotations

import csv
import datetime
import errno
import json
import math
import multiprocessing
import os
import platform
import re
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Literal

import numpy as np

from tiny_york_env import __version__
from tiny_york_env.agents.base import Agent
from tiny_york_env.contract import Game
from tiny_york_env.options import check_int
from tiny_york_env.registry import DEFAULT_GAME, get_game
from tiny_york_env.training.game_loop import play_out

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

AgentSpec = str | Callable[[int], Agent]  # a registry name ('search:64') or a factory(seed) -> agent
TomSpec = int | str  # a Tom level 1-12 or a code like 'B4'
AutomaticSpec = Any  # one automatic participant as the game's ``seat_config`` takes it (a Tom, a bot name)

DEFAULT_GAMES = 100
Z_95 = 1.959963984540054  # two-sided 95% normal quantile, for the Wilson interval
SEED_BITS = 63  # the engine takes seeds below 2**63
# how a run was played: its UTC start day, the package version, the machine
RUN_PROVENANCE_KEYS = ("played_on", "version", "machine")
# Streams of the seed derivation, so a game, its agents and their choices never share a seed.
STREAM_GAME, STREAM_AGENT, STREAM_CHOICE = 0, 1, 2
# What is evaluated, the first key of every derivation.
KIND_LADDER, KIND_MATCH, KIND_TOURNAMENT = 0, 1, 2
PROGRESS_CHUNKS_PER_WORKER = 8  # jobs are handed out in chunks: few round-trips, smooth progress
PLOT_SIZE_INCHES = (8, 5)
PLOT_DPI = 100
PLOT_CAPSIZE = 3


# ---------------------------------------------------------------- agents and seeds

def derive_seed(*keys: int) -> int:
    """A 63-bit seed determined by the non-negative ints ``keys`` alone (numpy SeedSequence)."""
    word = np.random.SeedSequence([int(k) for k in keys]).generate_state(1, np.uint64)[0]
    return int(word) >> (64 - SEED_BITS)


def agent_label(spec: AgentSpec) -> str:
    """A short name for an agent given by registry name (spelt one way: ``'Champion@2.0'`` is
    ``'champion@2'``, so equal settings label alike) or by factory."""
    if isinstance(spec, str):
        from tiny_york_env.agents.registry import normalize_agent_name
        try:
            return normalize_agent_name(spec)
        except ValueError:  # not a registry name: checked (and refused) elsewhere
            return spec
    return getattr(spec, "label", None) or getattr(spec, "__name__", None) or repr(spec)


def unique_labels(specs: Iterable[AgentSpec]) -> list[str]:
    """Labels for ``specs``, with ``#2``, ``#3``... added where a label repeats."""
    labels: list[str] = []
    seen: dict[str, int] = {}
    for spec in specs:
        base = agent_label(spec)
        seen[base] = seen.get(base, 0) + 1
        labels.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    return labels


def check_agent_spec(spec: AgentSpec, game: str | Game = DEFAULT_GAME, config: Any = None) -> AgentSpec:
    """``spec`` when it names an agent of ``game`` (a registry agent written for it, one of the
    contract's policies: ``agents.policies.check_policy_name``, whose shipped policy must exist for
    ``config`` when given) or is a callable ``factory(seed)``; ValueError saying why not."""
    from tiny_york_env.agents.policies import check_policy_name
    from tiny_york_env.agents.registry import AgentFactory
    name = spec.name if isinstance(spec, AgentFactory) else spec  # a name with options (--unsafe-unpickle)
    if isinstance(name, str):
        check_policy_name(get_game(game), name, config)
    elif not callable(spec):
        raise ValueError(f"an agent is a registry name (e.g. 'random', 'search:64') or a callable "
                         f"factory(seed) -> agent; got {spec!r}")
    return spec


def build_agent(spec: AgentSpec, seed: int) -> Agent:
    """A fresh agent from a registry name or a ``factory(seed)``."""
    from tiny_york_env.agents.base import check_agent
    from tiny_york_env.agents.registry import make_agent_from_spec
    agent = make_agent_from_spec(spec, seed)
    check_agent(agent, agent_label(spec))
    return agent


def seat_decider(game: Game, spec: AgentSpec, seed: int, config: Any,
                 rng: np.random.Generator) -> Callable[[np.ndarray], int]:
    """One seat's decision maker for one game, a function of the state: a name is
    ``agents.policies.seat_policy`` (a registry agent written for the game, seeded with ``seed``,
    else the contract's policy of that name); a ``factory(seed)`` is its agent. Both decide through
    ``agents.base.choose_action`` with ``rng`` (a planning agent gets a determinized view)."""
    from tiny_york_env.agents.base import choose_action
    from tiny_york_env.agents.policies import registry_agent_for, seat_policy
    from tiny_york_env.agents.registry import AgentFactory
    if isinstance(spec, AgentFactory) and not registry_agent_for(game, spec.name):
        # a contract policy given with options: the one it takes is unsafe_unpickle (ppo:PATH)
        return seat_policy(game, spec.name, rng, config, agent_seed=seed,
                           unsafe_unpickle=bool(spec.options.get("unsafe_unpickle")))
    if isinstance(spec, str):
        return seat_policy(game, spec, rng, config, agent_seed=seed)
    agent = build_agent(spec, seed)
    return lambda state: choose_action(agent, state, rng)


def positive_int(value: int, what: str) -> int:
    """``value`` as an int; ValueError naming ``what`` unless it is a positive int."""
    return check_int(what, value, 1)


def check_seed(value: int) -> int:
    """``value`` as an int; ValueError unless it is a non-negative int."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError(f"seed must be a non-negative int, got {value!r}")
    return int(value)


# ---------------------------------------------------------------- one game

@dataclass(frozen=True)
class GameJob:
    """One game to play: ``seating[s]`` is the index (into the players list) of agent seat s, and
    the game's ``automatic`` participants (Toms, bots) sit after the agents."""

    cell: int
    index: int
    automatic: tuple[AutomaticSpec, ...]
    seating: tuple[int, ...]
    game_seed: int
    agent_seeds: tuple[int, ...]
    choice_seed: int
    game: str = DEFAULT_GAME


@dataclass(frozen=True)
class GameRecord:
    """How one game ended; ``scores`` has one total per seat, the automatic participants (after the
    agents) included. ``winner`` is the first winning seat; ``winners`` every one (a game that
    shares the win), ``places`` each seat's place (0 = first, tied seats share the mean). Records
    read from files written before those two were kept have them empty."""

    cell: int
    index: int
    game_seed: int
    seating: tuple[int, ...]
    scores: tuple[int, ...]
    winner: int
    decisions: int
    seconds: float
    winners: tuple[int, ...] = ()
    places: tuple[float, ...] = ()

    def win_share(self, seat: int) -> float:
        """The share of the win ``seat`` took: 1 alone, 1/k among k winners, else 0."""
        winners = self.winners or (self.winner,)
        return 1 / len(winners) if seat in winners else 0.0


SAVE_WHICH = ("lost", "all")  # --save-which: the games of player 0 it did not win, or every game


@dataclass(frozen=True)
class GameSaving:
    """Where evaluation games are saved (``tiny_york_env/saved_games.py`` files) and which:
    "lost" (games the first player, the evaluated agent, did not win) or "all"."""

    directory: str
    which: str = "lost"

    def __post_init__(self) -> None:
        if self.which not in SAVE_WHICH:
            raise ValueError(f"which games to save must be one of {SAVE_WHICH}, got {self.which!r}")

    def keeps(self, lost: bool) -> bool:
        """Whether a game is saved, given whether the first player ``lost`` it."""
        return self.which == "all" or lost

    def wants(self, record: GameRecord) -> bool:
        """Whether the game of ``record`` is saved: the first player (player 0) did not win it (or
        ``which`` is "all"); a share of a shared win counts as won."""
        seat = record.seating.index(0) if 0 in record.seating else None
        return self.keeps(seat is None or record.win_share(seat) == 0)

    def path(self, record: GameRecord) -> Path:
        """The file of one game: ``DIR/cell<c>-game<k>.jsonl`` (cell: the ladder's level index)."""
        return Path(self.directory) / f"cell{record.cell}-game{record.index:05d}.jsonl"

    def for_agent(self, label: str) -> GameSaving:
        """The same choice in a subfolder named after the agent (a ladder of several agents)."""
        return GameSaving(str(Path(self.directory) / re.sub(r"[^A-Za-z0-9_.-]+", "_", label)), self.which)


def play_game(game: Game, deciders: Sequence[Callable[[np.ndarray], int]], labels: Sequence[str],
              config: Any, game_seed: int, log: list | None = None) -> tuple[np.ndarray, int]:
    """Play one game of ``game``, agent seat s decided by ``deciders[s]`` (a function of the state,
    ``seat_decider``); returns (final state, decisions); each (seat, action) is appended to ``log``
    when given. An illegal choice is a ValueError naming agent, seat and seed."""
    state = game.new_game(config, seed=game_seed)
    record = None if log is None else lambda seat, action: log.append((seat, action))
    decisions = play_out(game, state, lambda state, seat: deciders[seat](state), record,
                         lambda seat: f"agent {labels[seat]!r} in seat {seat} chose an illegal action "
                                      f"in the game with seed {game_seed}")
    return state, decisions


def play_job(players: Sequence[AgentSpec], labels: Sequence[str], job: GameJob,
             saving: GameSaving | None = None) -> GameRecord:
    """Play ``job`` with fresh agents from the ``players`` specs; returns its GameRecord (and
    saves the game as ``saving`` says)."""
    game = get_game(job.game)
    config = game.seat_config(len(job.seating), job.automatic)
    rng = np.random.default_rng(job.choice_seed)
    deciders = [seat_decider(game, players[p], seed, config, rng)
                for p, seed in zip(job.seating, job.agent_seeds, strict=True)]
    seat_labels = [labels[p] for p in job.seating]
    log: list | None = [] if saving is not None else None
    start = time.perf_counter()
    state, decisions = play_game(game, deciders, seat_labels, config, job.game_seed, log)
    seconds = time.perf_counter() - start
    winners = tuple(int(seat) for seat in game.winners(state))
    record = GameRecord(job.cell, job.index, job.game_seed, job.seating,
                        tuple(int(s) for s in game.final_scores(state)), winners[0], decisions, seconds,
                        winners, tuple(float(p) for p in game.placings(state)))
    if saving is not None and saving.wants(record):
        save_played_game(saving.path(record), game, config, job.game_seed, seat_labels, log, state)
    return record


def save_played_game(path: Path, game: Game, config: Any, game_seed: int, seat_labels: Sequence[str],
                     log: Sequence[tuple[int, int]], state: np.ndarray) -> None:
    """Write one finished evaluation game as a saved game (``tiny-york replay`` reads it)."""
    from tiny_york_env.saved_games import GameRecorder
    names = list(seat_labels) + [game.automatic_label(x) for x in game.automatic_of(config)]
    recorder = GameRecorder(game.name, config, game_seed, names)
    for seat, action in log:
        recorder.record(seat, action)
    recorder.finish(state)
    recorder.write(path)


# ---------------------------------------------------------------- many games

# (players, labels, saving), set in each pool worker by its initializer
_WORKER_PLAYERS: tuple[Sequence[AgentSpec], Sequence[str], GameSaving | None] | None = None


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
    """Play every job (in ``workers`` processes when > 1, or as Ray tasks on ``ray_address``:
    ``training/ray_jobs.py``); GameRecords in job order, the same whichever way they ran. The
    progress bar (``tqdm.auto``: a widget in a notebook, text in a terminal) is off when
    ``progress`` is False. ``saving``: write the games it selects as saved games into its folder
    (on a cluster, a folder every node shares). ``warm=False`` skips the untimed warm-up game
    (``warm_up``) where this process has played the players already."""
    from tqdm.auto import tqdm
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
            from .ray_jobs import run_jobs_on_ray
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


def rotation_jobs(cell: int, members: Sequence[int], games: int, automatic: Iterable[AutomaticSpec],
                  seed_keys: Sequence[int], first_game: int = 0, game: str = DEFAULT_GAME) -> list[GameJob]:
    """``games`` jobs of ``game`` for the players ``members`` (one per agent seat, the
    ``automatic`` participants after them), seats rotated cyclically:
    game k seats ``members`` shifted by k mod n, and each block of n games shares one deal, so
    every player sits in every seat equally often and plays every seat's deal. The jobs are games
    ``first_game`` to ``first_game + games - 1`` of the seeded sequence (a multiple of n)."""
    seats = len(members)
    if games % seats:
        raise ValueError(f"games must be a multiple of the number of agent seats ({seats}) so that "
                         f"each agent sits in each seat equally often; got {games} "
                         f"(use {games - games % seats or seats} or {games + seats - games % seats})")
    if first_game % seats:
        raise ValueError(f"first_game must be a multiple of the number of agent seats ({seats}); "
                         f"got {first_game}")
    jobs = []
    for k in range(first_game, first_game + games):
        shift = k % seats
        seating = tuple(members[(seat + shift) % seats] for seat in range(seats))
        jobs.append(GameJob(
            cell, k, tuple(automatic), seating,
            game_seed=derive_seed(*seed_keys, STREAM_GAME, k // seats),
            agent_seeds=tuple(derive_seed(*seed_keys, STREAM_AGENT, k, seat) for seat in range(seats)),
            choice_seed=derive_seed(*seed_keys, STREAM_CHOICE, k), game=game))
    return jobs


# ---------------------------------------------------------------- statistics

def wilson_interval(wins: float, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval (low, high) for ``wins`` successes in ``games`` trials (shared
    wins may make ``wins`` fractional)."""
    if games < 1 or not 0 <= wins <= games:
        raise ValueError(f"need 0 <= wins <= games and games >= 1; got wins={wins}, games={games}")
    rate = wins / games
    z2 = z * z
    centre = (rate + z2 / (2 * games)) / (1 + z2 / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    low = 0.0 if wins == 0 else max(0.0, centre - half)  # exact at the ends, not rounded near them
    high = 1.0 if wins == games else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class CellResult:
    """One agent's results in one cell (a Tom level, or a match between agents)."""

    agent: str
    opponents: str
    level: int | str | None  # the ladder's rung (a Tom level, a bot's name); None in a match
    games: int
    wins: int | float  # a win shared by k seats counts 1/k
    win_rate: float
    ci_low: float
    ci_high: float
    mean_score: float
    mean_margin: float
    seconds_per_game: float


def seat_outcome(record: GameRecord, seat: int) -> tuple[float, int, int]:
    """(share of the win, score, margin over the best other participant) of ``seat`` in ``record``."""
    scores = record.scores
    best_other = max(s for k, s in enumerate(scores) if k != seat)
    return record.win_share(seat), scores[seat], scores[seat] - best_other


def cell_result(records: Sequence[GameRecord], player: int, label: str, opponents: str,
                level: int | None = None) -> CellResult:
    """The CellResult of players-list index ``player`` over ``records`` (all one cell)."""
    outcomes = [seat_outcome(r, seat) for r in records for seat, p in enumerate(r.seating) if p == player]
    if not outcomes:
        raise ValueError(f"agent {label!r} played no game in the cell against {opponents}")
    wins = sum(won for won, _, _ in outcomes)
    wins = int(wins) if float(wins).is_integer() else float(wins)  # a shared win counts 1/k
    low, high = wilson_interval(wins, len(outcomes))
    return CellResult(label, opponents, level, len(outcomes), wins, wins / len(outcomes), low, high,
                      float(np.mean([s for _, s, _ in outcomes])),
                      float(np.mean([m for _, _, m in outcomes])),
                      float(np.mean([r.seconds for r in records])))


@dataclass
class EvalResults:
    """Cells (one row per agent and opponent), every game's record, and the settings used."""

    kind: Literal["ladder", "match"]
    cells: list[CellResult]
    records: list[GameRecord] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)

    def outcomes(self) -> list[dict[str, Any]]:
        """The cells without their timings: equal for equal seeds, whatever ``workers`` was."""
        return [{k: v for k, v in asdict(c).items() if k != "seconds_per_game"} for c in self.cells]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: settings, cells and game records."""
        return {"kind": self.kind, "settings": self.settings,
                "cells": [asdict(c) for c in self.cells],
                "games": [asdict(r) for r in self.records]}


def combine_results(results: Iterable[EvalResults]) -> EvalResults:
    """Several EvalResults of one kind (e.g. the ladder of several agents) as one."""
    results = list(results)
    if not results or len({r.kind for r in results}) != 1:
        raise ValueError("combine_results needs one or more EvalResults of the same kind")
    settings = {"runs": [r.settings for r in results]} if len(results) > 1 else results[0].settings
    return EvalResults(results[0].kind, [c for r in results for c in r.cells],
                       [rec for r in results for rec in r.records], settings)


# ---------------------------------------------------------------- the two evaluations

def tom_label(level: int) -> str:
    """'Tom 5 (B4)': a rung of Tiny York's ladder as its record labels it."""
    return get_game(DEFAULT_GAME).automatic_label(level)


def check_levels(levels: Iterable[int] | None) -> list[int]:
    """``levels`` as a list of ints (all when None); ValueError unless each is a rung of Tiny
    York's ladder (a Tom level 1-12), none twice."""
    choices = list(get_game(DEFAULT_GAME).automatic_choices)
    try:
        return check_rungs(get_game(DEFAULT_GAME), None if levels is None else list(levels))
    except ValueError:
        raise ValueError(f"levels must be Tom levels {choices[0]}-{choices[-1]}, each at most once; got "
                         f"{levels!r}") from None


def check_rungs(game: Game, rungs: Iterable[AutomaticSpec] | None) -> list[AutomaticSpec]:
    """The ladder's rungs of ``game``: each one of its ``automatic_choices`` (Tiny York's Tom levels
    1-12, another game's bot names), none twice; all of them when ``rungs`` is None. ValueError
    naming the allowed ones otherwise."""
    choices = list(game.automatic_choices)
    if rungs is None:
        return choices
    rungs = [int(r) if isinstance(r, np.integer) else r for r in rungs]
    bad = [r for r in rungs if isinstance(r, bool) or r not in choices]
    if not rungs or bad or len(set(rungs)) != len(rungs):
        raise ValueError(f"the ladder's rungs of {game.title} are its {game.automatic_kind} "
                         f"{choices}, each at most once; got {rungs!r}")
    return rungs


def automatic_key(automatic: AutomaticSpec) -> int:
    """One automatic participant as a seed key: a level as it is, a name (a Tom code, a bot) as the
    int of its bytes."""
    if isinstance(automatic, (int, np.integer)) and not isinstance(automatic, bool):
        return int(automatic)
    return int.from_bytes(str(automatic).encode(), "big")


def ladder_seed_keys(seed: int, level: AutomaticSpec) -> tuple[int, int, int]:
    """The keys every seed of the ladder's games at rung ``level`` (a Tom level) derives from."""
    return seed, KIND_LADDER, automatic_key(level)


def machine_description() -> str:
    """The machine a run plays on, for its provenance: the CPU model where the system names it, the
    cores, the Python version."""
    model = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        names = [line.split(":", 1)[1].strip() for line in cpuinfo.read_text(errors="replace").splitlines()
                 if line.startswith("model name")]
        model = names[0] if names else model
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}"


def run_provenance() -> dict[str, str]:
    """How a run was played, for its results' settings (``RUN_PROVENANCE_KEYS``): its UTC start day,
    the package version and the machine."""
    played_on = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    return dict(zip(RUN_PROVENANCE_KEYS, (played_on, __version__, machine_description()), strict=True))


def evaluate_ladder(agent: AgentSpec, rungs: Iterable[AutomaticSpec] | None = None,
                    games: int = DEFAULT_GAMES, seed: int = 0, workers: int = 1, progress: bool = True,
                    saving: GameSaving | None = None, ray_address: str | None = None,
                    first_game: int = 0, *, game: str | Game = DEFAULT_GAME,
                    warm: bool = True) -> EvalResults:
    """Solo games of ``agent`` (a name or ``factory(seed)``, seat 0) against one automatic
    participant of ``game`` per rung (``check_rungs``: Tiny York's Tom levels, another game's bots;
    all by default); game k at rung R is seeded from (seed, R, k), k from ``first_game`` (so a long
    ladder can be played in parts and joined by ``training.ladder_merge``). One CellResult per
    rung. ``saving`` writes the games it selects (e.g. every lost one) as saved games. The settings
    record the run's UTC start date (``played_on``) and the package ``version`` beside its arguments
    (``run_provenance``). ``warm=False``: no warm-up game (``run_jobs``)."""
    game = get_game(game)
    rungs = check_rungs(game, rungs)
    check_agent_spec(agent, game, game.seat_config(1, (rungs[0],)))
    games, seed = positive_int(games, "games"), check_seed(seed)
    first_game = check_int("first_game", first_game, 0)
    label = agent_label(agent)
    provenance = run_provenance()
    jobs = []
    for cell, rung in enumerate(rungs):
        jobs += rotation_jobs(cell, (0,), games, (rung,), ladder_seed_keys(seed, rung), first_game, game.name)
    records = run_jobs([agent], [label], jobs, workers, progress,
                       f"{label} vs {game.automatic_kind}", saving, ray_address, warm)
    cells = [cell_result([r for r in records if r.cell == cell], 0, label, game.automatic_label(rung), rung)
             for cell, rung in enumerate(rungs)]
    settings = {"game": game.name, "agent": label, "levels": rungs, "games": games, "seed": seed,
                "first_game": first_game, **provenance}
    return EvalResults("ladder", cells, records, settings)


def evaluate_vs_toms(agent: AgentSpec, levels: Iterable[int] | None = None, games: int = DEFAULT_GAMES,
                     seed: int = 0, workers: int = 1, progress: bool = True,
                     saving: GameSaving | None = None, ray_address: str | None = None,
                     first_game: int = 0) -> EvalResults:
    """Tiny York's ladder (``evaluate_ladder``): solo games of ``agent`` against one Tom per level
    in ``levels`` (1-12; all when None)."""
    return evaluate_ladder(agent, check_levels(levels), games, seed, workers, progress, saving,
                           ray_address, first_game, game=DEFAULT_GAME)


def match_automatic(game: Game, toms: Iterable[TomSpec], automatic: Iterable[AutomaticSpec]) -> tuple:
    """The automatic participants of a match: ``automatic``, or ``toms`` (Tiny York's name for
    them, ``Game.automatic_from``); ValueError when both are given or ``toms`` for a game without
    Toms."""
    toms, automatic = tuple(toms), tuple(automatic)
    if toms and automatic:
        raise ValueError("give the automatic participants once: toms= or automatic=")
    return game.automatic_from(toms=toms) or automatic


def evaluate_vs_agents(agents: Iterable[AgentSpec], games: int = DEFAULT_GAMES, seed: int = 0,
                       workers: int = 1, progress: bool = True, toms: Iterable[TomSpec] = (),
                       saving: GameSaving | None = None, ray_address: str | None = None, *,
                       game: str | Game = DEFAULT_GAME,
                       automatic: Iterable[AutomaticSpec] = (), first_game: int = 0,
                       warm: bool = True) -> EvalResults:
    """Agents of ``game`` (names or factories, one per agent seat, with its ``automatic``
    participants after them: Toms, bots; ``toms`` for Tiny York's) against each other, seats
    rotated: ``games`` must be a multiple of the number of agents. Game k is seeded from (seed, the
    setup, k) alone, not from the agents, so two agents in the same seat meet the same deals; k runs
    from ``first_game`` (a multiple of the agents; a match in parts). One CellResult per agent.
    ``warm=False``: no warm-up game (``run_jobs``).
    ``saving`` writes the games it selects (the first agent's lost ones, or all). The settings
    record the run's ``played_on`` and ``version`` (``run_provenance``)."""
    game = get_game(game)
    agents = list(agents)
    automatic = match_automatic(game, toms, automatic)
    if not agents:
        raise ValueError("a match needs at least one agent")
    try:
        config = game.seat_config(len(agents), automatic)
    except ValueError as error:
        raise ValueError(f"{len(agents)} agents and {game.automatic_kind} {list(automatic)} are no "
                         f"setup of {game.title} (it takes {game.automatic_participants}): {error}") from None
    if game.num_participants(config) < 2:
        raise ValueError(f"a match has 2 or more participants; got {len(agents)} agent and no "
                         f"{game.automatic_kind}")
    agents = [check_agent_spec(a, game, config) for a in agents]
    codes = game.automatic_of(config)  # validated, one spelling each
    games, seed = positive_int(games, "games"), check_seed(seed)
    first_game = check_int("first_game", first_game, 0)
    labels = unique_labels(agents)
    provenance = run_provenance()
    jobs = rotation_jobs(0, tuple(range(len(agents))), games, automatic,
                         (seed, KIND_MATCH, len(agents), *map(automatic_key, codes)), first_game, game.name)
    records = run_jobs(agents, labels, jobs, workers, progress, " vs ".join(labels), saving, ray_address,
                       warm)
    cells = []
    automatic_labels = [game.automatic_label(x) for x in codes]
    for p, label in enumerate(labels):
        others = [x for x in labels if x != label] + automatic_labels
        cells.append(cell_result(records, p, label, ", ".join(others)))
    settings = {"game": game.name, "agents": labels, game.automatic_kind: list(automatic), "games": games,
                "seed": seed, **({"first_game": first_game} if first_game else {}), **provenance}
    return EvalResults("match", cells, records, settings)


# ---------------------------------------------------------------- output

def refuse_symlink(path: str | os.PathLike[str]) -> Path:
    """``path`` as a Path; ValueError if it is a symbolic link (writing there would follow it)."""
    path = Path(path)
    if path.is_symlink():
        raise ValueError(f"refusing to write {str(path)!r}: it is a symbolic link (to "
                         f"{os.readlink(path)!r}); remove it or choose another output path")
    return path


def output_dir(path: str | os.PathLike[str]) -> Path:
    """The output directory ``path`` as a Path, created with its parents if missing; ValueError
    if it is a symbolic link or not a directory."""
    path = refuse_symlink(path)
    path.mkdir(parents=True, exist_ok=True)
    refuse_symlink(path)  # nothing swapped in meanwhile
    if not path.is_dir():
        raise ValueError(f"the output path {str(path)!r} is not a directory")
    return path


def open_output(path: str | os.PathLike[str], mode: Literal["w", "a", "wb"] = "w",
                newline: str | None = None) -> IO[Any]:
    """``path`` opened for writing (``mode`` "w", "a" or "wb") without following a symbolic link
    there (``O_NOFOLLOW``); ValueError if it is one."""
    if mode not in ("w", "a", "wb"):
        raise ValueError(f"open_output mode must be 'w', 'a' or 'wb', got {mode!r}")
    path = refuse_symlink(path)
    flags = (os.O_WRONLY | os.O_CREAT | (os.O_APPEND if mode == "a" else os.O_TRUNC)
             | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        descriptor = os.open(path, flags, 0o666)
    except OSError as error:
        if error.errno == errno.ELOOP:
            refuse_symlink(path)
        raise
    if mode == "wb":
        return os.fdopen(descriptor, mode)
    return os.fdopen(descriptor, mode, newline=newline, encoding="utf-8")


def write_output_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` through ``open_output`` (a symbolic link there is refused)."""
    with open_output(path) as handle:
        handle.write(text)


TABLE_COLUMNS = ("agent", "opponents", "games", "wins", "win rate [95% CI]", "mean score",
                 "mean margin", "s/game")


def format_rows(header: Sequence[object], rows: Iterable[Sequence[object]]) -> str:
    """A plain-text table: ``header`` and ``rows`` of strings, columns padded to fit."""
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows, strict=True)]
    lines = ["  ".join(str(x).ljust(w) for x, w in zip(row, widths, strict=True)).rstrip()
             for row in [header, *rows]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def format_table(results: EvalResults) -> str:
    """The cells of ``results`` as a plain-text table."""
    rows = [(c.agent, c.opponents, c.games, c.wins,
             f"{c.win_rate:6.1%} [{c.ci_low:5.1%}, {c.ci_high:5.1%}]",
             f"{c.mean_score:.1f}", f"{c.mean_margin:+.1f}", f"{c.seconds_per_game:.3f}")
            for c in results.cells]
    return format_rows(TABLE_COLUMNS, rows)


def write_csv(results: EvalResults, path: str | os.PathLike[str]) -> None:
    """One CSV row per cell."""
    names = list(CellResult.__dataclass_fields__)
    with open_output(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=names)
        writer.writeheader()
        for cell in results.cells:
            writer.writerow(asdict(cell))


def write_json(results: EvalResults, path: str | os.PathLike[str]) -> None:
    """Settings, cells and every game record as JSON."""
    with open_output(path) as handle:
        json.dump(results.to_dict(), handle, indent=1)


def _ladder_rung(cell: CellResult) -> int | str:
    """The rung of a ladder cell; ValueError for a match cell, which has none."""
    if cell.level is None:
        raise ValueError(f"plot_ladder plots ladder results (a rung per cell); the cell of "
                         f"{cell.agent!r} against {cell.opponents} has no rung")
    return cell.level


def plot_ladder(results: EvalResults, path: str | os.PathLike[str]) -> None:
    """A PNG of win rate by rung (Tom level, bot), Wilson 95% intervals as error bars, one line per
    agent; every one of the game's ``automatic_choices`` on the axis, in their order."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    runs = results.settings.get("runs", [results.settings])
    game = get_game(runs[0].get("game", DEFAULT_GAME))
    rungs = list(game.automatic_choices)  # every rung is a tick, played or not
    rungs += sorted({_ladder_rung(c) for c in results.cells} - set(rungs), key=str)
    position = {rung: k for k, rung in enumerate(rungs)}
    figure = Figure(figsize=PLOT_SIZE_INCHES)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for label in dict.fromkeys(c.agent for c in results.cells):
        cells = sorted((c for c in results.cells if c.agent == label),
                       key=lambda c: position[_ladder_rung(c)])
        rates = np.array([c.win_rate for c in cells])
        # Clipped at zero: at 0 or all wins the Wilson bound and the rate differ by rounding only.
        below = np.maximum(rates - [c.ci_low for c in cells], 0.0)
        above = np.maximum(np.array([c.ci_high for c in cells]) - rates, 0.0)
        errors = [below, above]
        axes.errorbar([position[_ladder_rung(c)] for c in cells], rates, yerr=errors, marker="o",
                      capsize=PLOT_CAPSIZE, label=label)
    axes.set_xticks(range(len(rungs)), [str(r) for r in rungs])
    axes.set_xlabel(f"{game.title}: {game.automatic_kind}")
    axes.set_ylabel("win rate (95% Wilson interval)")
    axes.set_ylim(0, 1)
    axes.grid(alpha=0.3)
    axes.legend()
    axes.set_title(f"Win rate against each of the {game.automatic_kind}")
    with open_output(path, "wb") as handle:
        figure.savefig(handle, format="png", dpi=PLOT_DPI)


def write_results(results: EvalResults, out_dir: str | os.PathLike[str],
                  stem: str | None = None) -> list[Path]:
    """Write ``<stem>.csv``, ``<stem>.json`` and, for the ladder, ``<stem>.png`` into ``out_dir``
    (created); ``stem`` defaults to the kind. Returns the paths written. A symbolic link as
    ``out_dir`` or as one of the files is refused (ValueError) before anything is written."""
    out = output_dir(out_dir)
    stem = stem or results.kind
    paths = [out / f"{stem}.csv", out / f"{stem}.json"]
    if results.kind == "ladder":
        paths.append(out / f"{stem}.png")
    for path in paths:
        refuse_symlink(path)
    write_csv(results, paths[0])
    write_json(results, paths[1])
    if results.kind == "ladder":
        plot_ladder(results, paths[2])
    return paths
