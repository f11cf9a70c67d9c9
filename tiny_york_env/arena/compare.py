"""Is agent B stronger than agent A? Paired games decided by a sequential test (``tiny-york compare``).

A and B each play the same deals against the same opponents (other agents, the game's automatic
participants: Toms, bots): game k of the match is seeded from (seed, the setup, k) alone, so A in
game k and B in game k meet the same deal in the same seat, and seats rotate where the match has
more than one agent. Each deal is one observation of ``sprt``: B's share of the win minus
A's. Games are played in batches of ``batch`` deals; after each batch the test is read deal by deal
and stops at the first deal where the log-likelihood ratio crosses a bound (H1 "B is better by at
least delta1" or H0 "by at most delta0") or at ``max_pairs`` deals (inconclusive). Deals played in
the last batch after the decision are kept in the file but not counted.

The result file (``compare.json``) holds the settings, every game of both agents and the decision;
it is rewritten after every batch, so a stopped run goes on where it was with ``resume=True``
(``--resume``): the same settings, the next deals. ``render_results``' ``compare`` view publishes
it.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .. import __version__
from ..agents.registry import AgentSpec
from ..core.options import check_int
from ..registry import DEFAULT_GAME, get_game
from .jobs import AutomaticSpec
from .labels import agent_label
from .match import evaluate_vs_agents
from .output import open_output, output_dir, refuse_symlink
from .provenance import run_provenance
from .records import GameRecord
from .sprt import CONTINUE, DEFAULT_ALPHA, DEFAULT_BETA, SprtBounds, SprtState, sprt_state

DEFAULT_DELTA0 = 0.0  # H0: B is no better than A
DEFAULT_DELTA1 = 0.05  # H1: B wins at least 5 points more of the deals
DEFAULT_MAX_PAIRS = 2000
DEFAULT_BATCH = 20  # deals a batch: each agent's games of a batch run together on the workers
RESULT_NAME = "compare.json"
PARTIAL_SUFFIX = ".partial"  # the file being written, moved into place when whole
KIND = "compare"
# The settings that make two runs one test: a resumed run must match them all.
SAME_TEST_KEYS = ("game", "a", "b", "opponents", "automatic", "seed", "delta0", "delta1", "alpha",
                  "beta", "max_pairs", "files", "version")


@dataclass
class Comparison:
    """A paired test as far as it went: the settings, both agents' games (deal k is index k of
    each list) and the test's state at the deal it stopped (``counted`` deals)."""

    settings: dict[str, Any]
    a_games: list[GameRecord] = field(default_factory=list)
    b_games: list[GameRecord] = field(default_factory=list)
    state: SprtState | None = None
    counted: int = 0

    @property
    def bounds(self) -> SprtBounds:
        """The test's hypotheses and bounds."""
        s = self.settings
        return SprtBounds.of(s["delta0"], s["delta1"], s["alpha"], s["beta"])

    def differences(self) -> list[float]:
        """B's share of each deal's win minus A's, deal by deal (the agent under test sits first)."""
        return [share(b) - share(a) for a, b in zip(self.a_games, self.b_games, strict=True)]

    def decided(self) -> bool:
        """Whether the test has stopped (H0, H1 or inconclusive at the cap)."""
        return self.state is not None and self.state.decision != CONTINUE

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: settings, the decision and both agents' game records."""
        state = self.state
        a_wins = sum(share(r) for r in self.a_games[:self.counted])
        b_wins = sum(share(r) for r in self.b_games[:self.counted])
        decision = None if state is None else {
            "decision": state.decision, "pairs": self.counted, "llr": state.llr,
            "lower": self.bounds.lower, "upper": self.bounds.upper, "mean_difference": state.mean,
            "variance": state.variance, "a_wins": a_wins, "b_wins": b_wins,
            "a_seconds_per_game": mean_seconds(self.a_games),
            "b_seconds_per_game": mean_seconds(self.b_games),
            "pairs_played": len(self.a_games)}
        return {"kind": KIND, "settings": self.settings, "result": decision,
                "a_games": [asdict(r) for r in self.a_games], "b_games": [asdict(r) for r in self.b_games]}


def share(record: GameRecord) -> float:
    """The share of the win of the agent under test (player 0 of the match, in any seat)."""
    return record.win_share(record.seating.index(0))


def mean_seconds(records: Sequence[GameRecord]) -> float | None:
    """Mean seconds a game over ``records`` (None for none)."""
    return sum(r.seconds for r in records) / len(records) if records else None


def read_comparison(path: str | os.PathLike[str]) -> Comparison:
    """A compare.json file as a Comparison (its test state recomputed from the games); ValueError
    for a file that is not one."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if data.get("kind") != KIND:
            raise ValueError(f"its kind is {data.get('kind')!r}, not {KIND!r}")
        games = [[GameRecord(**{k: tuple(v) if isinstance(v, list) else v for k, v in g.items()})
                  for g in data[key]] for key in ("a_games", "b_games")]
        comparison = Comparison(data["settings"], *games)
        missing = [key for key in SAME_TEST_KEYS if key not in comparison.settings]
        if missing:
            raise ValueError(f"its settings lack {missing}")
        if len(comparison.a_games) != len(comparison.b_games):
            raise ValueError("A and B played different numbers of deals")
        read_decision(comparison)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"{path}: not a compare result file of tiny-york compare ({error})") from None
    return comparison


def read_decision(comparison: Comparison) -> None:
    """Set ``comparison.state`` and ``counted``: the test read deal by deal, stopped at the first
    deal where it decides (or at the cap), else after the last deal played."""
    differences = comparison.differences()
    cap = comparison.settings["max_pairs"]
    comparison.state, comparison.counted = None, 0
    for n in range(1, min(len(differences), cap) + 1):
        comparison.state = sprt_state(differences[:n], comparison.bounds, cap)
        comparison.counted = n
        if comparison.state.decision != CONTINUE:
            return


def write_comparison(comparison: Comparison, path: Path) -> None:
    """Write the file whole, then move it into place: a run killed mid-write leaves the last one."""
    partial = path.with_name(path.name + PARTIAL_SUFFIX)
    with open_output(partial) as handle:
        json.dump(comparison.to_dict(), handle, separators=(",", ":"))
    os.replace(partial, refuse_symlink(path))


def compare_settings(a: AgentSpec, b: AgentSpec, game_name: str, opponents: Sequence[AgentSpec],
                     automatic: Sequence[AutomaticSpec], seed: int, bounds: SprtBounds, alpha: float,
                     beta: float, max_pairs: int) -> dict[str, Any]:
    """The settings that define a test (``SAME_TEST_KEYS``): the players, the hypotheses, and what
    pins the players' play beside their names (the sha256 of every file a name or a network
    names, the package version), so that a resumed test is the same one."""
    players = [a, b, *opponents]
    files = sorted({path for spec in players for path in named_files(spec)})
    return {"game": game_name, "a": agent_label(a), "b": agent_label(b),
            "opponents": [agent_label(o) for o in opponents], "automatic": list(automatic),
            "seed": seed, "delta0": bounds.delta0, "delta1": bounds.delta1, "alpha": float(alpha),
            "beta": float(beta), "max_pairs": max_pairs,
            "files": {path: file_digest(path) for path in files},
            "version": __version__}


def named_files(spec: AgentSpec) -> list[str]:
    """The files an agent's name or factory plays from: the path after a name's colon when it is
    a file (``ppo:PATH``, ``champion:PATH``), a factory's ``network``."""
    name = getattr(spec, "name", spec)  # an AgentFactory (--unsafe-unpickle) keeps the name
    if isinstance(name, str):
        after = name.partition(":")[2]
        candidates = (after, after.rpartition("@")[0])  # the path, or the path before a time limit
        return [path for path in candidates if path and Path(path).is_file()][:1]
    network = getattr(spec, "network", None)
    return [str(network)] if network is not None and Path(network).is_file() else []


def file_digest(path: str) -> str:
    """The sha256 of a file's bytes, in hex."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def compare_agents(a: AgentSpec, b: AgentSpec, *, game: str = DEFAULT_GAME,
                   opponents: Iterable[AgentSpec] = (), automatic: Iterable[AutomaticSpec] = (),
                   delta0: float = DEFAULT_DELTA0, delta1: float = DEFAULT_DELTA1,
                   alpha: float = DEFAULT_ALPHA, beta: float = DEFAULT_BETA,
                   max_pairs: int = DEFAULT_MAX_PAIRS, batch: int = DEFAULT_BATCH, seed: int = 0,
                   workers: int = 1, ray_address: str | None = None,
                   out: str | os.PathLike[str] | None = None,
                   resume: bool = False,
                   report: Callable[[Comparison], None] | None = None,
                   command: str | None = None) -> Comparison:
    """Play A and B on the same deals, a batch at a time, until the SPRT decides whether B is better
    than A by at least ``delta1`` (H1) or at most ``delta0`` (H0), or ``max_pairs`` deals pass.
    ``opponents`` are agents in the other agent seats, ``automatic`` the game's engine players (at
    least one of the two). With ``out`` the result file ``out/compare.json`` is written after every
    batch; ``resume`` goes on from it (the same test's settings), else an existing file is refused.
    ``report(comparison)`` is called after each batch; ``command`` (the command line) is kept in the
    file's settings. ValueError for bad settings."""
    game_record = get_game(game)
    opponents, automatic = list(opponents), list(automatic)
    bounds = SprtBounds.of(delta0, delta1, alpha, beta)
    max_pairs = check_int("max_pairs", max_pairs, 1, "the most deals the test plays")
    seats = 1 + len(opponents)
    batch = check_int("batch", batch, 1, "deals a batch")
    if batch % seats:
        raise ValueError(f"batch must be a multiple of the agent seats ({seats}) so that seats rotate "
                         f"evenly; got {batch}")
    seed = check_int("seed", seed, 0, "the base seed")
    settings = compare_settings(a, b, game_record.name, opponents, automatic, seed, bounds, alpha, beta,
                                max_pairs)
    settings["batch"] = batch
    if command is not None:
        settings["command"] = command
    path = None if out is None else output_dir(out) / RESULT_NAME
    comparison = start_comparison(settings, path, resume)
    warm = True  # the first batch warms each agent up (compiled code, network) before it is timed
    while not comparison.decided():
        first = len(comparison.a_games)
        left = max_pairs - first
        count = min(batch, left + (-left) % seats)  # the last batch: what the cap leaves, seats rotated
        for spec, games in ((a, comparison.a_games), (b, comparison.b_games)):
            results = evaluate_vs_agents([spec, *opponents], games=count, seed=seed, workers=workers,
                                         progress=False, ray_address=ray_address, game=game_record,
                                         automatic=automatic, first_game=first, warm=warm)
            games += results.records
        warm = False
        read_decision(comparison)
        if path is not None:
            write_comparison(comparison, path)
        if report is not None:
            report(comparison)
    return comparison


def start_comparison(settings: dict[str, Any], path: Path | None, resume: bool) -> Comparison:
    """A new Comparison, or the one in ``path`` when resuming (ValueError if its settings differ or
    there is none); ValueError for an existing file without ``resume``."""
    if resume and path is None:
        raise ValueError("resume goes on with the test in a result file: give out (--out)")
    if path is None or not path.exists():
        if resume:
            raise ValueError(f"nothing to resume: {path} does not exist (run without --resume to start)")
        return Comparison({**settings, **run_provenance()})
    if not resume:
        raise ValueError(f"{path} exists: --resume goes on with that test, or choose another --out")
    comparison = read_comparison(path)
    differ = [k for k in SAME_TEST_KEYS if comparison.settings.get(k) != settings[k]]
    if differ:
        raise ValueError(f"{path} is another test: its " + ", ".join(
            f"{k} is {comparison.settings.get(k)!r}, not {settings[k]!r}" for k in differ))
    comparison.settings["batch"] = settings["batch"]
    comparison.settings.setdefault("resumed", []).append(run_provenance()["played_on"])
    return comparison


def format_comparison(comparison: Comparison) -> str:
    """One line: where the test stands."""
    s, state = comparison.settings, comparison.state
    if state is None:
        return f"{s['a']} vs {s['b']}: no deal played"
    return (f"{s['b']} vs {s['a']}: {comparison.counted} deals, B - A {state.mean:+.3f} a deal, "
            f"LLR {state.llr:+.2f} in [{comparison.bounds.lower:.2f}, {comparison.bounds.upper:.2f}]: "
            f"{DECISION_WORDS[state.decision]}")


DECISION_WORDS = {"H1": "H1 accepted (B is better by at least delta1)",
                  "H0": "H0 accepted (B is not better by more than delta0)",
                  "inconclusive": "inconclusive (the cap was reached)", CONTINUE: "continue"}
