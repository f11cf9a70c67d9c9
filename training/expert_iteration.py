"""Expert iteration for any game (Tiny York's champion by default): the search teaches the network
it searches with.

    python -m tiny_york_env.training.expert_iteration --generations 3 --games 200 --simulations 64 \\
        --levels 1,4,7,10,12 --selfplay-every 5 --out runs/exit

Each generation, starting from the game's champion network (the record's ``champion_policy``:
Tiny York's ``agents/models/champion.zip``, generation 1 of the first run; else its shipped policy
of the solo setup; or ``--start PATH``, e.g. ``agents/models/ppo.zip`` to begin anew):

1. **Games**: ``PolicySearchAgent`` with the current network plays ``--games`` solo games against
   the automatic participants of ``--levels`` in turn (Tom levels; another ``--game``'s bots; by
   default the record's ``train_defaults["search_levels"]``, else all of them); every
   ``--selfplay-every``-th game is instead a two-agent game of the search against itself. The
   search is the champion's by default (``--simulations`` 256 playouts, ``--skip-above`` 0.9: the
   prior's choice where it is that sure, ``--margin-weight`` 2.0; no time limit, so a seed gives
   the same games on any machine). Every decision of a
   searching seat is recorded: its observation, legal mask, the action the search chose (the
   policy target: the search's improvement on the prior), the search's prior, playouts and mean
   results where it searched (``training.search_targets``), and the discounted final margin reward
   of that seat (the value target, as ``training.imitate``). ``--workers`` plays the games in
   that many processes; each game is seeded by its index, so the records are the same.
2. **Fit**: the current network goes on learning from these decisions (``imitate.fit_policy``:
   masked cross-entropy against the search's choice, or with ``--policy-target improved`` against
   its improved policy (``training.search_targets``), and value MSE, each part kept at its best
   held-out epoch); with
   ``--window N``, from those of the N - 1 generations before it too (replayed from their
   records, accepted or not).
3. **Ladder**: the new network, played without search (deterministic), against ``--eval-levels``
   (``--eval-games`` each; by default ``train_defaults["search_eval_levels"]``, else all); the
   generation's row goes to ``generations.json`` with its teacher's win rate, how often the
   search chose other than the prior's first choice, and its fit; the best generation so far
   (mean ladder win rate) is named there.
4. **Gate** (with ``--gate-vs``): a sequential test (``arena.compare``) of the search on the
   new network against the search on the network it was trained from (``--gate-player alone``:
   the two networks alone, no search: the playouts' own strength, at a hundredth of the cost),
   paired games against the automatic participants ``--gate-vs`` (e.g. ``12``), until the SPRT
   accepts "better by at least ``--gate-delta1``" or rejects it (or ``--gate-max-pairs`` deals).
   Only an accepted generation's network goes on: a rejected one's successor is trained from the
   last accepted network again (on new games), and only accepted generations may be named best.
   The test's file is ``gen-K/gate/compare.json`` (resumed where a stopped run left it).

Writes ``gen-K/policy.zip`` (a policy file: ``psearch`` takes it as ``network=``, ``ppo:PATH``
plays it alone), ``gen-K/games/`` (the generation's records: each game's actions, 1-2 kB
a game, ``training.search_game_files``), ``gen-K/decisions.npz`` (the decisions the fit learned
from, replayed from the records: observations, masks, actions and value targets (the improved
policy targets are made from the records at the fit); large, and derived, so a run kept in git
leaves it out) and ``generations.json`` under ``--out``. A rejected generation's network is
never trained on nor named best, so a kept run may leave it out (``--resume`` needs the others).

**Stopping and resuming**: ``generations.json`` is written before the first game, and every game
of a generation as it ends (``gen-K/games/``, ``training.search_game_files``, kept as the
generation's records). ``--resume`` goes on with the run in ``--out``: the finished
generations are kept (their networks named where ``--out`` is now), the unfinished one's finished
games read back (each checked and replayed) and the rest played, so the records are those of a run
never stopped, on any machine that has the folder. The settings must be the run's, but for
``--generations`` (more to go on further), ``--workers``, and ``--window``, ``--policy-target``
and ``--target-temperature`` (for the generations still to come; each row records its own).
Without ``--resume``, an ``--out`` that already holds a run is refused rather than overwritten.
"""

from __future__ import annotations

import argparse
import json
import shutil
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

from tiny_york_env.agents.policy_search import (
    CHAMPION_MARGIN_WEIGHT,
    CHAMPION_SIMULATIONS,
    CHAMPION_SKIP_ABOVE,
    DEFAULT_WIDENING,
    PolicyNetwork,
    PolicySearchAgent,
    check_search_settings,
)
from tiny_york_env.agents.ppo_agent import MODELS_DIR, POLICY_FILE, PPOAgent, read_policy_file
from tiny_york_env.agents.shipped import shipped_policy_path
from tiny_york_env.arena.compare import DEFAULT_DELTA0, DEFAULT_DELTA1, compare_agents
from tiny_york_env.arena.ladder import check_rungs, parse_rungs
from tiny_york_env.arena.output import open_output, output_dir, refuse_symlink, write_output_text
from tiny_york_env.arena.runner import pool_context, positive_int
from tiny_york_env.arena.seeds import check_seed, derive_seed
from tiny_york_env.arena.sprt import ACCEPT_H1, SprtBounds
from tiny_york_env.cli_types import DefaultsHelpFormatter, automatic_spec
from tiny_york_env.core.options import check_int
from tiny_york_env.envs.rewards import final_rewards
from tiny_york_env.registry import DEFAULT_GAME, game_names, get_game
from tiny_york_env.training import defaults
from tiny_york_env.training.export import recorded_path, save_policy
from tiny_york_env.training.imitate import (
    DEFAULT_BATCH_SIZE,
    DEFAULT_LEARNING_RATE,
    DEFAULT_REWARD,
    DEFAULT_VALUE_WEIGHT,
    DemonstrationLog,
    Demonstrations,
    fit_policy,
    kept_epochs,
)
from tiny_york_env.training.search_game_files import (
    GAMES_DIR,
    SearchGame,
    game_file,
    load_search_game,
    save_search_game,
)
from tiny_york_env.training.search_targets import (
    DEFAULT_POLICY_TARGET,
    DEFAULT_TARGET_TEMPERATURE,
    POLICY_TARGETS,
    check_target_settings,
    policy_targets,
    stats_of_search,
)
from tiny_york_env.training.train_ppo import (
    DEFAULT_GAMMA,
    evaluate_policy_on_ladder,
    make_config,
    make_model,
    make_vec_env,
)

RESULTS_FILE, DECISIONS_FILE = "generations.json", "decisions.npz"
# settings --resume lets differ from the run's (a generation's row records the window it was fitted on)
RESUME_MAY_CHANGE = ("out", "generations", "workers", "window", "policy_target", "target_temperature")
STREAM_GAME, STREAM_SEARCH, STREAM_VIEW, STREAM_FIT, STREAM_EVAL, STREAM_GATE = 31, 32, 33, 34, 35, 36
SELFPLAY_AGENTS = 2  # a self-play game: the search in two seats, no Tom
DEFAULT_GENERATIONS = defaults.EXIT_GENERATIONS
DEFAULT_GAMES = defaults.EXIT_GAMES
DEFAULT_SIMULATIONS = CHAMPION_SIMULATIONS  # the teacher is the champion's search by default
DEFAULT_SELFPLAY_EVERY = defaults.EXIT_SELFPLAY_EVERY
DEFAULT_EPOCHS = defaults.EXIT_EPOCHS
DEFAULT_EVAL_GAMES = defaults.EXIT_EVAL_GAMES
DEFAULT_GATE_DELTA1 = DEFAULT_DELTA1  # a generation goes on when its search wins 5 points more a deal
DEFAULT_GATE_MAX_PAIRS = defaults.EXIT_GATE_MAX_PAIRS
GATE_DIR = "gate"
GATE_PLAYERS = ("search", "alone")  # the gate plays each network searched (the teacher's search) or alone
GATE_DEFAULTS = {"gate_vs": [], "gate_delta1": DEFAULT_GATE_DELTA1, "gate_max_pairs": DEFAULT_GATE_MAX_PAIRS,
                 "gate_player": GATE_PLAYERS[0], "window": 1, "policy_target": DEFAULT_POLICY_TARGET,
                 "target_temperature": DEFAULT_TARGET_TEMPERATURE}


@dataclass(frozen=True)
class ExpertIterationSettings:
    """What one run does (module doc); checked on construction."""

    out: str
    generations: int = DEFAULT_GENERATIONS
    games: int = DEFAULT_GAMES
    simulations: int = DEFAULT_SIMULATIONS
    skip_above: float | None = CHAMPION_SKIP_ABOVE  # None: search every decision
    margin_weight: float = CHAMPION_MARGIN_WEIGHT
    levels: tuple | None = None  # rungs of the game's ladder; None: the record's default
    selfplay_every: int = DEFAULT_SELFPLAY_EVERY  # 0: no self-play games
    epochs: int = DEFAULT_EPOCHS
    eval_levels: tuple | None = None  # rungs of the game's ladder; None: the record's default
    eval_games: int = DEFAULT_EVAL_GAMES
    start: str | None = None  # the first generation's network; None: the champion's shipped network
    seed: int = 0
    workers: int = 1  # processes playing the games; the records do not depend on it
    game: str = DEFAULT_GAME
    gate_vs: tuple = ()  # automatic participants of the gate's paired games; (): no gate
    gate_delta1: float = DEFAULT_GATE_DELTA1
    gate_max_pairs: int = DEFAULT_GATE_MAX_PAIRS
    gate_player: str = GATE_PLAYERS[0]  # "search": the teacher's search on each network; "alone": no search
    window: int = 1  # a generation is fitted on its own games and those of the window - 1 before it
    policy_target: str = DEFAULT_POLICY_TARGET  # "chosen": the search's action; "improved": search_targets
    target_temperature: float = DEFAULT_TARGET_TEMPERATURE  # the improved target's, in result units

    def __post_init__(self) -> None:
        for name in ("generations", "games", "simulations", "epochs", "eval_games", "workers",
                     "gate_max_pairs", "window"):
            object.__setattr__(self, name, positive_int(getattr(self, name), name))  # numpy ints as int
        object.__setattr__(self, "selfplay_every", check_int("selfplay_every", self.selfplay_every, 0,
                                                             "0: no self-play"))
        check_seed(self.seed)
        game = get_game(self.game)
        object.__setattr__(self, "game", game.name)
        check_search_settings(game, self.simulations, "policy", True, None, None,
                              self.margin_weight, DEFAULT_WIDENING, self.skip_above)
        if self.start is not None and not Path(self.start).is_file():
            raise ValueError(f"start must be a policy file (e.g. runs/exit/gen-1/policy.zip), "
                             f"got {self.start!r}")
        for name, default in (("levels", "search_levels"), ("eval_levels", "search_eval_levels")):
            given = getattr(self, name)
            rungs = game.train_defaults.get(default) if given is None else given
            try:
                object.__setattr__(self, name, tuple(check_rungs(game, rungs)))
            except ValueError as error:
                raise ValueError(f"{name}: {error}") from None
        check_target_settings(self.policy_target, self.target_temperature)
        object.__setattr__(self, "target_temperature", float(self.target_temperature))
        object.__setattr__(self, "gate_vs", tuple(self.gate_vs))
        if self.gate_player not in GATE_PLAYERS:
            raise ValueError(f"gate_player must be one of {GATE_PLAYERS} (each network searched or "
                             f"alone), got {self.gate_player!r}")
        if self.gate_vs:
            try:
                game.seat_config(1, self.gate_vs)
            except (ValueError, TypeError) as error:
                raise ValueError(f"gate_vs: the gate's games are the search alone against "
                                 f"{game.automatic_kind}; {list(self.gate_vs)} is no setup: "
                                 f"{error}") from None
            try:
                SprtBounds.of(DEFAULT_DELTA0, self.gate_delta1)
            except ValueError:
                raise ValueError(f"gate_delta1 is the win share a deal by which a generation must be "
                                 f"better, in (0, 1]; got {self.gate_delta1!r}") from None

    def start_network(self) -> Path:
        """The first generation's network: ``start``, else the game's champion network, else its
        shipped policy of the solo setup."""
        game = get_game(self.game)
        if self.start:
            return Path(self.start)
        if game.champion_policy is not None:
            return MODELS_DIR / game.champion_policy
        return shipped_policy_path(game, game.num_participants(game.seat_config(1, self.levels[:1])))


def game_config(settings: ExpertIterationSettings, index: int):
    """Game ``index``'s setup: a self-play game every ``selfplay_every``-th, else solo against the
    next rung of ``levels`` (counting solo games only, so every level comes in turn)."""
    game = get_game(settings.game)
    every = settings.selfplay_every
    if every and (index + 1) % every == 0:
        return game.seat_config(SELFPLAY_AGENTS, ())
    solo_index = index - index // every if every else index
    return game.seat_config(1, (settings.levels[solo_index % len(settings.levels)],))


def game_seed(settings: ExpertIterationSettings, generation: int, index: int) -> int:
    """The seed of game ``index`` of ``generation`` (its deal and the engine's participants)."""
    return derive_seed(settings.seed, STREAM_GAME, generation, index)


def play_search_game(settings: ExpertIterationSettings, network, generation: int, index: int) -> SearchGame:
    """Game ``index`` of ``generation``, every agent seat played by the search on ``network`` (a
    PolicyNetwork); seeded by the indices alone."""
    config = game_config(settings, index)
    game = get_game(settings.game)
    state = game.new_game(config, seed=game_seed(settings, generation, index))
    agent = PolicySearchAgent(settings.game, simulations=settings.simulations, network=network,
                              margin_weight=settings.margin_weight, skip_above=settings.skip_above,
                              seed=derive_seed(settings.seed, STREAM_SEARCH, generation, index))
    rng = np.random.default_rng(derive_seed(settings.seed, STREAM_VIEW, generation, index))
    seats = [DemonstrationLog(DEFAULT_GAMMA) for _ in range(config.num_agents)]
    searched = changed = 0
    played, searches = [], []
    while not game.is_terminal(state):
        seat = game.current_player(state)
        observation, mask = game.encode(state, seat), game.legal_mask(state)
        agent.last_search = None  # a forced move runs no search
        action = agent.act_state(game.determinize(state, seat, rng), seat)
        search, stats = agent.last_search, None
        if search is not None and search["playouts"] > 0:
            searched += 1
            changed += int(action != int(search["legal"][np.argmax(search["prior"])]))
            if not np.array_equal(search["legal"], np.flatnonzero(mask)):
                raise ValueError(f"the search's legal actions in a redrawn view are not the game's at "
                                 f"action {len(played)}: the game's determinize changed what seat "
                                 f"{seat} may do")
            stats = stats_of_search(search, len(played))
            searches.append(stats)
        seats[seat].decide(observation, mask, action, stats)
        game.apply_action(state, action)
        played.append(action)
    rewards = [float(r) for r in final_rewards(state, DEFAULT_REWARD, game)]
    for seat, log in enumerate(seats):
        log.end_game(index, rewards[seat])
    solo_win = (0 in game.winners(state)) if game.automatic_of(config) else None
    return SearchGame(seats, rewards, solo_win, searched, changed, played, searches)


_WORKER_GAMES: tuple | None = None  # (settings, network, generation) in a pool worker


def _install_search(settings: ExpertIterationSettings, network_path: str, generation: int) -> None:
    global _WORKER_GAMES
    import torch
    torch.set_num_threads(1)  # the pool is the parallelism (and a forked OpenMP pool can hang)
    _WORKER_GAMES = (settings, PolicyNetwork(network_path), generation)


def _play_in_worker(index: int) -> tuple[int, SearchGame]:
    assert _WORKER_GAMES is not None, "the pool initializer sets the search"
    settings, network, generation = _WORKER_GAMES
    return index, play_search_game(settings, network, generation, index)


def kept_games(settings: ExpertIterationSettings, generation: int, games_dir: str | Path | None
               ) -> dict[int, SearchGame]:
    """The games of ``generation`` already written under ``games_dir`` (none if it is None),
    each checked (``search_game_files.load_search_game``)."""
    if games_dir is None:
        return {}
    return {index: load_search_game(games_dir, generation, index, game_config(settings, index),
                                    game_seed(settings, generation, index), DEFAULT_GAMMA, settings.game)
            for index in range(settings.games) if game_file(games_dir, index).exists()}


def search_games(settings: ExpertIterationSettings, network_path: str | Path, generation: int,
                 progress: bool = True, games_dir: str | Path | None = None):
    """Every game of a generation (in ``settings.workers`` processes), in game order. With
    ``games_dir``, the games already written there are read back, not played, and each game
    played is written there as it ends."""
    games = kept_games(settings, generation, games_dir)
    missing = [index for index in range(settings.games) if index not in games]
    bar = tqdm(total=settings.games, initial=len(games), desc=f"generation {generation} games", unit="game",
               disable=not progress)

    def finished(index: int, game: SearchGame) -> None:
        if games_dir is not None:
            save_search_game(games_dir, generation, index, game)
        games[index] = game
        bar.update()

    with bar:
        if missing and settings.workers == 1:
            network = PolicyNetwork(network_path)
            for index in missing:
                finished(index, play_search_game(settings, network, generation, index))
        elif missing:
            with pool_context().Pool(settings.workers, _install_search,
                                     (settings, str(network_path), generation)) as pool:
                for index, game in pool.imap_unordered(_play_in_worker, missing):
                    finished(index, game)
    return [games[index] for index in range(settings.games)]


def play_search_games(settings: ExpertIterationSettings, network_path: str | Path, generation: int,
                      progress: bool = True, games_dir: str | Path | None = None):
    """(Demonstrations of every searching decision, each one's search statistics or None, the
    search's win rate against the Toms, the share of searched decisions where the search
    overruled the prior's first choice); with ``games_dir``, as ``search_games``."""
    logs = DemonstrationLog(DEFAULT_GAMMA)
    games = search_games(settings, network_path, generation, progress, games_dir)
    for game in games:
        for log in game.seats:
            logs.absorb(log)
        logs.teacher_rewards.append(game.rewards[0])
    solo = [game.solo_win for game in games if game.solo_win is not None]
    searched = sum(game.searched for game in games)
    changed = sum(game.changed for game in games)
    played = get_game(settings.game)
    return (logs.demonstrations(played.obs_size, played.num_actions), logs.details,
            float(np.mean(solo)) if solo else None,
            {"searched_decisions": searched, "changed_decisions": changed,
             "changed_share": changed / searched if searched else None})


def network_widths(path: str | Path) -> tuple[int, ...]:
    """The hidden layer widths of the policy file at ``path`` (the policy and value sides alike);
    ValueError for a file whose two sides differ, which a generation's fit cannot continue."""
    card, _ = read_policy_file(path)
    pi, vf = (tuple(card["network"][side]) for side in ("pi", "vf"))
    if pi != vf or not pi:
        raise ValueError(f"{path}: expert iteration fits a network whose policy and value sides have the "
                         f"same hidden layers; this one has pi={list(pi)}, vf={list(vf)}")
    return pi


def window_generations(settings: ExpertIterationSettings, generation: int) -> list[int]:
    """The generations whose games ``generation`` is fitted on: itself and the ``window - 1``
    before it (those there are)."""
    return list(range(max(1, generation - settings.window + 1), generation + 1))


def earlier_games(settings: ExpertIterationSettings, out: Path, generation: int
                  ) -> tuple[Demonstrations, list]:
    """The decisions of the games of every generation of ``generation``'s window but itself,
    replayed from their records under ``out`` (``gen-K/games/``), each game numbered apart
    (``games`` a generation), and each one's search statistics (None where the record has
    none); ValueError where a generation's records are not all there."""
    played = get_game(settings.game)
    logs = DemonstrationLog(DEFAULT_GAMMA)
    for earlier in window_generations(settings, generation)[:-1]:
        games = kept_games(settings, earlier, out / f"gen-{earlier}" / GAMES_DIR)
        if len(games) != settings.games:
            raise ValueError(f"the window of generation {generation} needs the {settings.games} game "
                             f"records of generation {earlier} under {out}; {len(games)} are there")
        for index in range(settings.games):
            for log in games[index].seats:
                log.game_ids = [(earlier - 1) * settings.games + index] * len(log.actions)
                logs.absorb(log)
    return logs.demonstrations(played.obs_size, played.num_actions), logs.details


def joined(parts: Sequence[Demonstrations]) -> Demonstrations:
    """The demonstrations of ``parts`` one after another."""
    return Demonstrations(*(np.concatenate([getattr(part, field.name) for part in parts])
                            for field in fields(Demonstrations)))


def fit_generation(settings: ExpertIterationSettings, network_path: str | Path, demos, generation: int,
                   policy_path: Path, progress: bool = True, details: Sequence | None = None):
    """The network of ``network_path`` fitted to ``demos``, saved at ``policy_path``; (model, history).
    The fitted network has ``network_path``'s hidden layers (``network_widths``). With
    ``settings.policy_target`` "improved", the policy is fitted to the improved policy of each
    searched decision (``details``: its search statistics, None where there are none: the action)."""
    targets = None
    if settings.policy_target == "improved":
        targets = policy_targets(details if details is not None else [None] * len(demos), demos.actions,
                                 demos.masks, settings.target_temperature)
    config = make_config(net_arch=network_widths(network_path), gamma=DEFAULT_GAMMA, reward=DEFAULT_REWARD,
                         seed=settings.seed, out=str(policy_path.parent), num_envs=1, batch_size=2,
                         n_steps=2, game=settings.game, curriculum=None,
                         **{get_game(settings.game).automatic_kind: settings.levels[:1]},
                         init_from=str(network_path))
    env = make_vec_env(config, config.stages[0], 0)
    model = make_model(config, env)
    history = fit_policy(model, demos, settings.epochs, DEFAULT_BATCH_SIZE, DEFAULT_LEARNING_RATE,
                         DEFAULT_VALUE_WEIGHT, derive_seed(settings.seed, STREAM_FIT, generation), progress,
                         targets)
    env.close()
    save_policy(model, policy_path, game=settings.game, written_by="training.expert_iteration")
    return model, history


def ladder_row(evaluation) -> dict[str, dict[str, float]]:
    """Each Tom level's games, wins, win rate and 95% interval."""
    return {str(cell.level): {"games": cell.games, "wins": cell.wins, "win_rate": cell.win_rate,
                              "ci_low": cell.ci_low, "ci_high": cell.ci_high} for cell in evaluation.cells}


def settings_record(settings: ExpertIterationSettings) -> dict:
    """``settings`` as ``generations.json`` keeps them (JSON types: lists, not tuples)."""
    return json.loads(json.dumps(asdict(settings)))


def resumed_results(settings: ExpertIterationSettings, results_path: Path) -> dict:
    """The results of the run that ``results_path`` records, to go on with under ``settings``;
    ValueError if there is none, it is unreadable, or it was run with other settings (all but
    ``RESUME_MAY_CHANGE`` must be the same)."""
    try:
        results = json.loads(results_path.read_text(encoding="utf-8"))
        recorded, rows = results["settings"], results["generations"]
        if not isinstance(recorded, dict) or not isinstance(rows, list):
            raise TypeError("settings must be an object and generations a list")
        recorded.setdefault("game", DEFAULT_GAME)  # runs from before every game had expert iteration
        for name, default in GATE_DEFAULTS.items():  # runs from before the gate: none
            recorded.setdefault(name, default)
    except FileNotFoundError:
        raise ValueError(f"nothing to resume: {results_path} does not exist (run without --resume to "
                         f"start)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError) as error:
        raise ValueError(f"{results_path} is not an expert-iteration results file: {error}") from None
    wanted = settings_record(settings)
    differs = sorted(name for name in set(wanted) | set(recorded)
                     if name not in RESUME_MAY_CHANGE and wanted.get(name) != recorded.get(name))
    if differs:
        raise ValueError("--resume goes on with the same settings: " + ", ".join(
            f"{name} was {recorded.get(name)!r}, now {wanted.get(name)!r}" for name in differs))
    for number, row in enumerate(rows, 1):
        if not isinstance(row, dict) or row.get("generation") != number:
            raise ValueError(f"{results_path}: generation row {number} is not generation {number}")
        network = results_path.parent / f"gen-{number}" / POLICY_FILE  # where it is now, if out moved
        rejected = row.get("gate", {}).get("accepted", True) is False  # its network is never used again
        if not network.is_file() and not rejected:
            raise ValueError(f"{results_path}: generation {number}'s network {str(network)!r} is missing")
        row["network"] = str(network)
        if "next_generation" in row:  # the network the next generation trains from, where it is now
            after = row["next_generation"]
            row["next_network"] = rows[after - 1]["network"] if after else str(settings.start_network())
    best = results.get("best")
    if rows and isinstance(best, dict) and best.get("generation") in range(1, len(rows) + 1):
        best["network"] = rows[best["generation"] - 1]["network"]  # where it is now, as its row
    results["settings"] = wanted
    return results


class SearchOnNetwork:
    """``factory(seed)``: the generation's search (the teacher's settings) on one network, labelled
    by the network's path, for the gate's paired games."""

    def __init__(self, settings: ExpertIterationSettings, network: str | Path) -> None:
        self.settings, self.network = settings, str(network)
        self.label = f"search:{Path(network).parent.name}/{Path(network).name}"  # as where the run moves

    def __call__(self, seed: int | None):
        """A new search agent seeded with ``seed``."""
        s = self.settings
        return PolicySearchAgent(s.game, simulations=s.simulations, network=self.network,
                                 margin_weight=s.margin_weight, skip_above=s.skip_above, seed=seed)


class NetworkAlone:
    """``factory(seed)``: one network played alone (its most probable legal action), labelled by the
    network's path, for the gate's paired games."""

    def __init__(self, settings: ExpertIterationSettings, network: str | Path) -> None:
        self.network = str(network)
        self.label = f"alone:{Path(network).parent.name}/{Path(network).name}"  # as where the run moves

    def __call__(self, seed: int | None):
        """The network as a deterministic agent (``seed`` is not needed)."""
        return PPOAgent(self.network)


GATE_FACTORIES = {"search": SearchOnNetwork, "alone": NetworkAlone}


def gate_generation(settings: ExpertIterationSettings, previous: Path, candidate: Path, gen_dir: Path,
                    generation: int) -> dict:
    """The gate's sequential test of ``candidate`` against ``previous``, each searched or alone as
    ``settings.gate_player`` says (module doc, step 4): its decision, deals, LLR and file."""
    folder = gen_dir / GATE_DIR
    player = GATE_FACTORIES[settings.gate_player]
    comparison = compare_agents(
        player(settings, previous), player(settings, candidate), game=settings.game,
        automatic=settings.gate_vs, delta1=settings.gate_delta1, max_pairs=settings.gate_max_pairs,
        seed=derive_seed(settings.seed, STREAM_GATE, generation), workers=settings.workers, out=folder,
        resume=(folder / "compare.json").exists())
    state = comparison.state
    return {"decision": state.decision, "accepted": state.decision == ACCEPT_H1, "pairs": comparison.counted,
            "llr": state.llr, "mean_difference": state.mean, "file": str(folder / "compare.json")}


def next_network(rows: Sequence[dict], start: Path) -> Path:
    """The network the generation after ``rows`` trains from: the last accepted generation's (where
    its row says the network is now), else ``start``."""
    if not rows:
        return start
    number = rows[-1].get("next_generation", rows[-1]["generation"])  # runs before the gate: the last
    return Path(rows[number - 1]["network"]) if number else start


def run(settings: ExpertIterationSettings, progress: bool = True, resume: bool = False) -> dict:
    """Run every generation (module doc); the results dict also written to ``generations.json``.
    With ``resume``, go on with the run already in ``settings.out``: its finished generations are
    kept and its unfinished one's finished games read back (``search_game_files``); without, an
    ``out`` that already holds a run is refused."""
    out = Path(settings.out)
    refuse_symlink(out)
    results_path = refuse_symlink(out / RESULTS_FILE)
    start = settings.start_network()
    if resume:
        results = resumed_results(settings, results_path)
    elif results_path.exists():
        raise ValueError(f"{out} already holds an expert-iteration run ({RESULTS_FILE}): resume it "
                         f"(--resume) or choose another --out")
    else:
        results = {"settings": settings_record(settings), "generations": [], "best": None}
    results["start"] = recorded_path(start)  # no machine prefix where it lies below the working directory
    output_dir(out)
    write_output_text(results_path, json.dumps(results, indent=1) + "\n")
    rows = results["generations"][:settings.generations]
    network_path = next_network(rows, start)
    for generation in range(len(rows) + 1, settings.generations + 1):
        started = time.perf_counter()
        gen_dir = out / f"gen-{generation}"
        output_dir(gen_dir)
        games_dir = gen_dir / GAMES_DIR
        if not resume and games_dir.exists():
            shutil.rmtree(refuse_symlink(games_dir))  # a stale generation's games are not this run's
        resumed_games = sum(game_file(games_dir, index).exists() for index in range(settings.games))
        demos, details, teacher_win_rate, choices = play_search_games(settings, network_path, generation,
                                                                      progress, games_dir)
        own_decisions = len(demos)
        if settings.window > 1:  # this generation's games last, numbered after the earlier ones'
            demos.games = demos.games + (generation - 1) * settings.games
            earlier, earlier_details = earlier_games(settings, out, generation)
            demos, details = joined([earlier, demos]), earlier_details + details
        with open_output(gen_dir / DECISIONS_FILE, "wb") as handle:
            demos.save(handle)
        policy_path = gen_dir / POLICY_FILE
        model, history = fit_generation(settings, network_path, demos, generation, policy_path, progress,
                                        details)
        evaluation = evaluate_policy_on_ladder(model, settings.eval_levels, settings.eval_games,
                                               derive_seed(settings.seed, STREAM_EVAL, generation),
                                               label=f"gen-{generation}", game=settings.game)
        ladder = ladder_row(evaluation)
        row = {"generation": generation, "network": str(policy_path),
               "trained_from": recorded_path(Path(network_path)),
               "games": settings.games, "resumed_games": resumed_games, "decisions": own_decisions,
               "fitted_on_generations": window_generations(settings, generation),
               "fitted_decisions": len(demos),
               "policy_target": settings.policy_target,
               **({"target_temperature": settings.target_temperature,
                   "fitted_searched_decisions": sum(d is not None for d in details)}
                  if settings.policy_target == "improved" else {}),
               "search_win_rate_vs_toms": teacher_win_rate,
               **choices,
               "kept_epochs": dict(zip(("policy", "value"), kept_epochs(history), strict=True)),
               "history": history, "ladder": ladder,
               "mean_ladder_win_rate": float(np.mean([c["win_rate"] for c in ladder.values()])),
               "seconds": round(time.perf_counter() - started, 1)}
        if settings.gate_vs:
            row["gate"] = gate_generation(settings, network_path, policy_path, gen_dir, generation)
        accepted = row.get("gate", {}).get("accepted", True)
        previous_next = results["generations"][-1].get("next_generation", generation - 1) if (
            results["generations"]) else 0
        row["next_generation"] = generation if accepted else previous_next  # 0: the start network
        row["next_network"] = str(policy_path if accepted else network_path)
        results["generations"].append(row)
        candidates = [r for r in results["generations"] if r.get("gate", {}).get("accepted", True)]
        best = max(candidates, key=lambda r: r["mean_ladder_win_rate"]) if candidates else None
        results["best"] = best and {"generation": best["generation"], "network": best["network"],
                                    "mean_ladder_win_rate": best["mean_ladder_win_rate"]}
        write_output_text(results_path, json.dumps(results, indent=1) + "\n")
        network_path = Path(row["next_network"])
    return results


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of ``python -m tiny_york_env.training.expert_iteration``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                     formatter_class=DefaultsHelpFormatter)
    parser.add_argument("--out", required=True, help="the run's folder")
    parser.add_argument("--generations", type=int, default=DEFAULT_GENERATIONS)
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="search games a generation")
    parser.add_argument("--simulations", type=int, default=DEFAULT_SIMULATIONS, help="playouts a decision")
    parser.add_argument("--skip-above", type=float, default=CHAMPION_SKIP_ABOVE,
                        help="no search where the prior is at least this sure (default: the champion's)")
    parser.add_argument("--search-every-decision", action="store_true",
                        help="search every decision (no --skip-above)")
    parser.add_argument("--margin-weight", type=float, default=CHAMPION_MARGIN_WEIGHT,
                        help="weight of a playout's margin beside its win (default: the champion's)")
    parser.add_argument("--game", choices=game_names(), default=DEFAULT_GAME, help="the game")
    parser.add_argument("--levels", help="the automatic participants of the solo games, in turn: Tom "
                        "levels (e.g. 7,10,12; default 1,4,7,10,12) or bots (default: all)")
    parser.add_argument("--selfplay-every", type=int, default=DEFAULT_SELFPLAY_EVERY,
                        help="every N-th game is self-play (0: none)")
    parser.add_argument("--epochs", type=int, default=DEFAULT_EPOCHS)
    parser.add_argument("--eval-levels", help="the rungs each generation's network is laddered on "
                        "(Tiny York's default: 5,10,12; another game's: all)")
    parser.add_argument("--eval-games", type=int, default=DEFAULT_EVAL_GAMES)
    parser.add_argument("--start", default=None,
                        help="the first network (a policy file); default: agents/models/champion.zip")
    parser.add_argument("--gate-vs", nargs="+", default=[], metavar="OPPONENT",
                        help="accept a generation only if a paired sequential test against these "
                             "automatic participants (e.g. 12, or greedy greedy) finds its search better "
                             "than the last accepted one's (default: no gate)")
    parser.add_argument("--gate-delta1", type=float, default=DEFAULT_GATE_DELTA1,
                        help="the gate's H1: better by at least this much win share a deal")
    parser.add_argument("--gate-max-pairs", type=int, default=DEFAULT_GATE_MAX_PAIRS,
                        help="the gate's cap on deals (inconclusive: rejected)")
    parser.add_argument("--gate-player", choices=GATE_PLAYERS, default=GATE_PLAYERS[0],
                        help="the gate plays each network with the teacher's search or alone (no search: "
                             "a few seconds a hundred deals)")
    parser.add_argument("--window", type=int, default=1,
                        help="fit each generation on its games and those of the N - 1 generations before "
                             "it (replayed from their records; may change on --resume)")
    parser.add_argument("--policy-target", choices=POLICY_TARGETS, default=DEFAULT_POLICY_TARGET,
                        help="fit the policy to the search's action (chosen) or to its improved policy "
                             "(improved: the prior moved toward the actions' mean results; may change "
                             "on --resume)")
    parser.add_argument("--target-temperature", type=float, default=DEFAULT_TARGET_TEMPERATURE,
                        help="the improved target's temperature, in result units (may change on --resume)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1, help="processes playing the games")
    parser.add_argument("--torch-threads", type=int, default=1)
    parser.add_argument("--resume", action="store_true",
                        help="go on with the run in --out (same settings; more --generations or other "
                             "--workers allowed): finished generations kept, finished games read back")
    return parser


def settings_from_args(args: argparse.Namespace) -> ExpertIterationSettings:
    """The run's settings from the parsed command line (checked)."""
    game = get_game(args.game)
    return ExpertIterationSettings(
        out=args.out, generations=args.generations, games=args.games, simulations=args.simulations,
        skip_above=None if args.search_every_decision else args.skip_above,
        margin_weight=args.margin_weight, levels=parse_rungs(game, args.levels),
        selfplay_every=args.selfplay_every, epochs=args.epochs,
        eval_levels=parse_rungs(game, args.eval_levels), eval_games=args.eval_games,
        start=args.start, seed=args.seed, workers=args.workers, game=game.name,
        gate_vs=tuple(automatic_spec(x) for x in args.gate_vs), gate_delta1=args.gate_delta1,
        gate_max_pairs=args.gate_max_pairs, gate_player=args.gate_player, window=args.window,
        policy_target=args.policy_target, target_temperature=args.target_temperature)


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    import torch
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        torch.set_num_threads(positive_int(args.torch_threads, "torch_threads"))
        settings = settings_from_args(args)
    except ValueError as error:
        parser.error(str(error))
    try:
        results = run(settings, resume=args.resume)
    except ValueError as error:
        parser.error(str(error))
    print(json.dumps(results["best"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
