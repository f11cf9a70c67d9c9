"""The ladder: one agent against each automatic participant of a game in turn (Tiny York's Toms
1-12, another game's bots), in solo games seeded from (seed, rung, game number)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ..agents.registry import AgentSpec, check_player
from ..contract import Game
from ..core.options import check_int
from ..registry import DEFAULT_GAME, get_game
from .jobs import DEFAULT_GAMES, AutomaticSpec, rotation_jobs
from .labels import agent_label
from .play import GameSaving
from .provenance import run_provenance
from .records import EvalResults, cell_result
from .runner import positive_int, run_jobs
from .seeds import check_seed, ladder_seed_keys


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


def parse_rungs(game: Game, text: str | None) -> list | None:
    """``--levels`` for ``game``: its automatic participants that the ladder plays (None: all).
    Levels (Tiny York's Toms) as a list and ranges, e.g. '1-12' or '1,5,9-12'; names (bots) as a
    list, e.g. 'greedy,random'. ValueError naming the allowed ones otherwise."""
    if text is None:
        return None
    choices = list(game.automatic_choices)
    if not all(isinstance(c, int) for c in choices):
        names = [part.strip().lower() for part in text.split(",")]
        return check_rungs(game, [next((c for c in choices if str(c).lower() == n), n) for n in names])
    allowed = f"give levels {min(choices)}-{max(choices)} as a list and ranges, e.g. 1,5,9-12"
    levels: list[int] = []
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ValueError(f"bad levels {text!r}: {allowed}")
        first, last = int(low), int(high or low)
        if first > last:
            raise ValueError(f"bad levels {text!r}: {allowed}")
        levels += [lv for lv in range(first, last + 1) if lv not in levels]
    try:
        return check_rungs(game, levels)
    except ValueError:
        raise ValueError(f"bad levels {text!r}: {allowed}") from None


def evaluate_ladder(agent: AgentSpec, rungs: Iterable[AutomaticSpec] | None = None,
                    games: int = DEFAULT_GAMES, seed: int = 0, workers: int = 1, progress: bool = True,
                    saving: GameSaving | None = None, ray_address: str | None = None,
                    first_game: int = 0, *, game: str | Game = DEFAULT_GAME,
                    warm: bool = True) -> EvalResults:
    """Solo games of ``agent`` (a name or ``factory(seed)``, seat 0) against one automatic
    participant of ``game`` per rung (``check_rungs``: Tiny York's Tom levels, another game's bots;
    all by default); game k at rung R is seeded from (seed, R, k), k from ``first_game`` (so a long
    ladder can be played in parts and joined by ``ladder_merge``). One CellResult per rung.
    ``saving`` writes the games it selects (e.g. every lost one) as saved games. The settings
    record the run's UTC start date (``played_on``) and the package ``version`` beside its
    arguments (``provenance.run_provenance``). ``warm=False``: no warm-up game (``runner.run_jobs``)."""
    game = get_game(game)
    rungs = check_rungs(game, rungs)
    check_player(game, agent, game.seat_config(1, (rungs[0],)))
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


def check_levels(levels: Iterable[int] | None) -> list[int]:
    """Tiny York's ladder rungs: ``levels`` as a list of Tom levels 1-12 (all when None), none twice."""
    tiny_york = get_game("tiny_york")
    choices = list(tiny_york.automatic_choices)
    try:
        return check_rungs(tiny_york, None if levels is None else list(levels))
    except ValueError:
        raise ValueError(f"levels must be Tom levels {choices[0]}-{choices[-1]}, each at most once; got "
                         f"{levels!r}") from None


def evaluate_vs_toms(agent: AgentSpec, levels: Iterable[int] | None = None, games: int = DEFAULT_GAMES,
                     seed: int = 0, workers: int = 1, progress: bool = True,
                     saving: GameSaving | None = None, ray_address: str | None = None,
                     first_game: int = 0) -> EvalResults:
    """Tiny York's ladder (``evaluate_ladder``): solo games of ``agent`` against one Tom per level
    in ``levels`` (1-12; all when None)."""
    return evaluate_ladder(agent, check_levels(levels), games, seed, workers, progress, saving,
                           ray_address, first_game, game="tiny_york")


def tom_label(level: Any) -> str:
    """'Tom 5 (B4)': a rung of Tiny York's ladder as its record labels it."""
    return get_game("tiny_york").automatic_label(level)
