"""MaskablePPO against the automatic participants of any game: ``python -m
tiny_york_env.training.train_ppo`` or ``train(...)`` from Python.

One learning seat plays ``num_envs`` games at once against the game's automatic participants
(``GameVecEnv``, all in compiled code): Tiny York's Toms (``--tom``, default Tom 5), another
game's bots (``--bots``; Dirk and Alea join two-player games by the rules), by default the
game's single-agent env setup (the record's ``env_defaults``). With ``--curriculum "1,3,5"`` (Tom
levels; another game's bots by name, ``random,greedy``) it trains against one of them at a time,
in order, moving on after ``--curriculum-steps`` steps per level or as soon as a periodic
evaluation shows a win rate of at least ``--promote-at`` against the current level. The periodic
evaluation (``eval.csv``, one row per cell) plays the ladder's rungs ``--eval-levels`` (the agent
alone against each) and matches against each of ``--eval-opponents`` (agent names of the game)
in every other seat of the training game; the record's ``train_defaults`` say which by default
(Tiny York: Toms 1, 5, 9; the others: greedy and random opponents). The policy file's card names
the game.

**A curriculum must reach its last level.** ``--total-steps`` must be at least levels ×
``--curriculum-steps``; and as a level trains in whole rollouts (``n_steps * num_envs``
decisions), a level that moves on by steps takes ``--curriculum-steps`` rounded up to whole
rollouts, so the total must also leave the last level one whole rollout after the others (the
last level trains on to ``--total-steps``, a little less than ``--curriculum-steps`` when the
others rounded up). Without ``--promote-at``, a smaller total (e.g. the default 2,000,000 for
``--curriculum 1,3,5 --curriculum-steps 1000000``, which needs 3,000,000) is refused with a
``ValueError`` naming the numbers, before anything trains. With ``--promote-at``, levels may end
early, so such a run is allowed but warned about (``UserWarning``): only promotions can bring it
to the later levels, and ``summary.json`` lists the stages it reached.

The output directory holds ``config.json`` (the options), ``progress.csv`` (SB3's training log,
also as TensorBoard event files: ``tensorboard --logdir OUT``), ``checkpoints/ppo_<steps>_steps.zip``,
``eval.csv`` (every periodic evaluation, ``tiny_york_env.arena``, of the current policy wrapped
as a ``PPOAgent``), ``summary.json`` (stages, steps, speed), ``model.zip`` (the
stable-baselines3 checkpoint, for ``MaskablePPO.load``) and ``policy.zip``, the policy file that
``PPOAgent`` / ``make_agent("ppo:DIR/policy.zip")`` / ``training.export`` load without unpickling
anything (``agents/ppo_agent.py``). A symbolic link planted in place of the output directory or
one of these files is refused.

``--init-from`` reads only tensors (``torch.load(weights_only=True)``): the weights of a policy
file (widened to the current observation layout when it was trained on an older one) or the
policy and optimizer tensors of a stable-baselines3 checkpoint; nothing is unpickled.
"""

import argparse
import csv
import importlib.util
import json
import sys
import time
import warnings
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime
from pathlib import Path

from tqdm.auto import tqdm

from tiny_york_env.agents.ppo_agent import (
    ERROR_EXCERPT_CHARS,
    POLICY_FILE,
    PPOAgent,
    adapt_to_current_layout,
    card_game,
    file_kind,
    read_policy_file,
    read_sb3_tensors,
    resolve_model_path,
)
from tiny_york_env.agents.registry import agent_name_forms, check_player
from tiny_york_env.arena.ladder import check_rungs, evaluate_ladder, parse_rungs
from tiny_york_env.arena.match import evaluate_vs_agents
from tiny_york_env.arena.output import open_output, output_dir, refuse_symlink, write_output_text
from tiny_york_env.arena.records import CellResult
from tiny_york_env.arena.runner import positive_int
from tiny_york_env.arena.seeds import derive_seed
from tiny_york_env.cli_types import DefaultsHelpFormatter
from tiny_york_env.envs.rewards import REWARD_KINDS, check_reward_kind
from tiny_york_env.registry import DEFAULT_GAME, game_names, get_game
from tiny_york_env.training import defaults
from tiny_york_env.training.export import save_policy

DEFAULT_DEVICE = defaults.DEVICE
DEFAULT_ENT_COEF = defaults.ENT_COEF
DEFAULT_GAMMA = defaults.GAMMA
DEFAULT_LEARNING_RATE = defaults.LEARNING_RATE
DEFAULT_NET_ARCH = defaults.NET_ARCH
DEFAULT_BATCH_SIZE = defaults.PPO_BATCH_SIZE
DEFAULT_EVAL_GAMES = defaults.PPO_EVAL_GAMES
DEFAULT_N_EPOCHS = defaults.PPO_N_EPOCHS
DEFAULT_N_STEPS = defaults.PPO_N_STEPS
DEFAULT_NUM_ENVS = defaults.PPO_NUM_ENVS
DEFAULT_TOTAL_STEPS = defaults.PPO_TOTAL_STEPS
DEFAULT_TORCH_THREADS = defaults.TORCH_THREADS
RUNS_DIR = Path("runs")
MODEL_FILE, CONFIG_FILE, PROGRESS_FILE = "model.zip", "config.json", "progress.csv"
EVAL_FILE, SUMMARY_FILE, CHECKPOINT_DIR = "eval.csv", "summary.json", "checkpoints"
CHECKPOINT_PREFIX = "ppo"
LEARNING_SEAT = 0  # TinyYorkVecEnv's learning agent
TRAINING_ILLEGAL_ACTION = "raise"  # a masked learner never plays one: raising exposes a bug at once
STREAM_STAGE_ENV, STREAM_EVAL = 11, 12  # seed streams: each stage's games, the evaluation games
# eval.csv: one row per evaluated cell (a rung of the ladder, a match's learner); ``training_against``
# names the automatic participants of the stage being trained
EVAL_COLUMNS = ("timesteps", "training_against", *CellResult.__dataclass_fields__)
LEARNER_LABEL = "ppo"


# ---------------------------------------------------------------- options

def parse_int_list(text, what):
    """``"1,3,5"`` as (1, 3, 5); ValueError naming ``what`` for anything else."""
    parts = [p.strip() for p in str(text).split(",")]
    if not parts or not all(p.isdigit() for p in parts):
        raise ValueError(f"{what} must be comma-separated positive ints like '1,3,5', got {text!r}")
    return tuple(int(p) for p in parts)


def parse_tom(text):
    """A Tom from the command line: a level 1-12 (``"5"``) or a code (``"B4"``)."""
    text = str(text).strip()
    return int(text) if text.isdigit() else text


def _optional_positive(value, what):
    return None if value is None else positive_int(value, what)


@dataclass(frozen=True)
class TrainConfig:
    """Every training option, validated; ``stages`` is the automatic participants (Toms, bots) of
    each curriculum stage, ``eval_levels`` the rungs of the periodic evaluation's ladder."""

    stages: tuple
    curriculum_steps: int | None
    promote_at: float | None
    num_envs: int
    total_steps: int
    seed: int
    n_steps: int
    batch_size: int
    n_epochs: int
    learning_rate: float
    gamma: float
    ent_coef: float
    net_arch: tuple
    reward: str
    out: str
    checkpoint_every: int | None
    eval_every: int | None
    eval_games: int
    eval_levels: tuple
    device: str
    torch_threads: int
    init_from: str | None = None
    game: str = DEFAULT_GAME
    eval_opponents: tuple = ()

    @property
    def is_curriculum(self) -> bool:
        """True when training moves through several stages (one automatic participant each)."""
        return len(self.stages) > 1


def given_automatic(game, automatic=None, toms=None, bots=None):
    """The automatic participants named for ``game`` (``Game.automatic_from``: ``automatic``, or
    the game's own word, Tiny York's ``toms``, another game's ``bots``), None when none is named."""
    if automatic is None and toms is None and bots is None:
        return None
    return game.automatic_from(automatic=automatic, toms=toms, bots=bots)


def _check_stages(game, automatic, curriculum, num_players):
    """The automatic participants of each training stage (one learning seat): ``automatic`` (default
    the game's single-agent env's, ``env_defaults``) in one stage, or a ``curriculum`` of rungs
    (``automatic_choices``), one a stage; ``num_players``, when given, must be every stage's number
    of participants. ValueError naming what is wrong."""
    if curriculum is not None:
        if automatic:
            raise ValueError(f"give either {game.automatic_kind} (every game against the same ones) or a "
                             f"curriculum (--curriculum, one at a time), not both")
        stages = [(rung,) for rung in check_rungs(game, curriculum)]
    elif automatic is not None:
        stages = [automatic]
    else:
        stages = [game.automatic_of(game.make_config(**game.env_defaults))]
    checked = []
    for stage in stages:
        try:
            config = game.seat_config(1, stage)
        except ValueError as error:
            raise ValueError(f"one learning seat and {game.automatic_kind} {list(stage)} are no setup of "
                             f"{game.title}: {error}") from None
        participants = game.num_participants(config)
        if game.num_agents(config) != 1 or participants < 2:
            raise ValueError(f"training needs one agent seat against at least one automatic "
                             f"participant; {game.automatic_kind} {list(stage)} leave "
                             f"{game.num_agents(config)} agent seats and {participants} participants")
        if num_players is not None and participants != num_players:
            raise ValueError(f"num_players (--players) {num_players}: the learning seat and "
                             f"{game.automatic_kind} {list(stage)} are {participants} players")
        checked.append(tuple(game.automatic_of(config)))
    return tuple(checked)


def _check_evaluation(game, stages, eval_levels, eval_opponents):
    """(ladder rungs, match opponents) of the periodic evaluation, checked (the record's
    ``train_defaults`` where not given)."""
    defaults = game.train_defaults
    eval_levels = tuple(defaults.get("eval_levels", ()) if eval_levels is None else eval_levels)
    eval_opponents = tuple(defaults.get("eval_opponents", ()) if eval_opponents is None else eval_opponents)
    if eval_levels:
        try:
            eval_levels = tuple(check_rungs(game, eval_levels))
        except ValueError as error:
            raise ValueError(f"eval_levels must be rungs of the ladder: {error}") from None
    config = game.seat_config(1, stages[0])
    for name in eval_opponents:
        try:
            check_player(game, name, config)
        except ValueError as error:
            raise ValueError(f"eval_opponents must be agents of {game.title} ({agent_name_forms(game)}), "
                             f"got {name!r}: {error}") from error
    return eval_levels, eval_opponents


def _check_fraction(value, what):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 1:
        raise ValueError(f"{what} must be a win rate in (0, 1], got {value!r}")
    return float(value)


def curriculum_steps_needed(levels: int, curriculum_steps: int, rollout: int) -> int:
    """The least total steps for a curriculum of ``levels`` levels: ``levels * curriculum_steps``,
    and one whole rollout (``rollout`` decisions) for the last level after the others, which
    move on after ``curriculum_steps`` rounded up to whole rollouts."""
    per_level = -(-curriculum_steps // rollout) * rollout
    return max(levels * curriculum_steps, (levels - 1) * per_level + rollout)


def _check_curriculum_reach(stages, curriculum_steps, promote_at, total_steps, rollout):
    """ValueError (or, when promotions may end levels early, a warning) for a curriculum whose
    ``total_steps`` cannot give every level its ``curriculum_steps``."""
    if len(stages) < 2 or curriculum_steps is None:
        return
    needed = curriculum_steps_needed(len(stages), curriculum_steps, rollout)
    if total_steps >= needed:
        return
    problem = (f"a curriculum of {len(stages)} levels x curriculum_steps {curriculum_steps:,} "
               f"(--curriculum-steps; each level before the last trains whole rollouts of "
               f"n_steps * num_envs = {rollout:,} decisions) needs total_steps (--total-steps) of "
               f"at least {needed:,} for every level to train its share; got {total_steps:,}")
    if promote_at is None:
        raise ValueError(f"{problem}: raise total_steps to {needed:,} or lower curriculum_steps")
    warnings.warn(f"{problem}: only promotions (promote_at {promote_at}) can bring it to the later "
                  f"levels", UserWarning, stacklevel=3)


def _check_positive_float(value, what):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ValueError(f"{what} must be a positive number, got {value!r}")
    return float(value)


def make_config(toms: Sequence[int | str] | None = None, curriculum: Sequence[int | str] | None = None,
                curriculum_steps: int | None = None, promote_at: float | None = None,
                num_envs: int = DEFAULT_NUM_ENVS, total_steps: int = DEFAULT_TOTAL_STEPS, seed: int = 0,
                n_steps: int = DEFAULT_N_STEPS, batch_size: int = DEFAULT_BATCH_SIZE,
                n_epochs: int = DEFAULT_N_EPOCHS, learning_rate: float = DEFAULT_LEARNING_RATE,
                gamma: float = DEFAULT_GAMMA, ent_coef: float = DEFAULT_ENT_COEF,
                net_arch: Sequence[int] = DEFAULT_NET_ARCH, reward: str = "win",
                out: str | Path | None = None, checkpoint_every: int | None = None,
                eval_every: int | None = None, eval_games: int = DEFAULT_EVAL_GAMES,
                eval_levels: Sequence[int | str] | None = None, device: str = DEFAULT_DEVICE,
                torch_threads: int = DEFAULT_TORCH_THREADS,
                init_from: str | Path | None = None, game: str = DEFAULT_GAME,
                num_players: int | None = None, bots: Sequence[str] | None = None,
                eval_opponents: Sequence[str] | None = None,
                automatic: Sequence[int | str] | None = None) -> TrainConfig:
    """A validated TrainConfig (see ``train``); ValueError naming the first bad option."""
    played = get_game(game)
    stages = _check_stages(played, given_automatic(played, automatic, toms, bots), curriculum, num_players)
    eval_levels, eval_opponents = _check_evaluation(played, stages, eval_levels, eval_opponents)
    curriculum_steps = _optional_positive(curriculum_steps, "curriculum_steps")
    promote_at = _check_fraction(promote_at, "promote_at")
    if len(stages) > 1 and curriculum_steps is None and promote_at is None:
        raise ValueError("a curriculum needs curriculum_steps (--curriculum-steps) and/or "
                         "promote_at (--promote-at) to know when to move to the next level")
    if len(stages) == 1 and (curriculum_steps is not None or promote_at is not None):
        raise ValueError("curriculum_steps and promote_at apply only to a curriculum of two or "
                         "more levels (--curriculum '1,3,5')")
    eval_every = _optional_positive(eval_every, "eval_every")
    if promote_at is not None and eval_every is None:
        raise ValueError("promote_at needs periodic evaluation: give eval_every (--eval-every)")
    num_envs, n_steps = positive_int(num_envs, "num_envs"), positive_int(n_steps, "n_steps")
    batch_size = positive_int(batch_size, "batch_size")
    if not 1 < batch_size <= n_steps * num_envs:
        raise ValueError(f"batch_size must be 2 to n_steps * num_envs = {n_steps * num_envs} "
                         f"(one rollout), got {batch_size}")
    net_arch = tuple(net_arch)
    if not net_arch or any(isinstance(w, bool) or not isinstance(w, int) or w < 1 for w in net_arch):
        raise ValueError(f"net_arch must be hidden layer widths (positive ints) like (256, 256), "
                         f"got {net_arch!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")
    gamma = _check_fraction(gamma, "gamma")
    if isinstance(ent_coef, bool) or not isinstance(ent_coef, (int, float)) or ent_coef < 0:
        raise ValueError(f"ent_coef must be a non-negative number, got {ent_coef!r}")
    total_steps = positive_int(total_steps, "total_steps")
    _check_curriculum_reach(stages, curriculum_steps, promote_at, total_steps, n_steps * num_envs)
    out = str(out) if out is not None else str(RUNS_DIR / f"ppo-{datetime.now():%Y%m%d-%H%M%S}")
    return TrainConfig(
        stages, curriculum_steps, promote_at, num_envs, total_steps,
        seed, n_steps, batch_size, positive_int(n_epochs, "n_epochs"),
        _check_positive_float(learning_rate, "learning_rate"), gamma, float(ent_coef), net_arch,
        check_reward_kind(reward), out, _optional_positive(checkpoint_every, "checkpoint_every"),
        eval_every, positive_int(eval_games, "eval_games"), eval_levels, str(device),
        positive_int(torch_threads, "torch_threads"),
        None if init_from is None else check_init_source(init_from, played.name), played.name,
        eval_opponents)


def check_init_source(path, game):
    """The resolved path of a model to start from: a policy file of ``game`` or a
    stable-baselines3 checkpoint (ValueError for anything else, before any training starts)."""
    path = resolve_model_path(path)
    if file_kind(path) == "policy":
        trained_for = card_game(read_policy_file(path)[0])
        if trained_for.name != game:
            raise ValueError(f"cannot start from {str(path)!r}: it plays {trained_for.title}, "
                             f"not {get_game(game).title}")
    return str(path)


# ---------------------------------------------------------------- callbacks

def _callbacks_module():
    from stable_baselines3.common import callbacks
    return callbacks


class CurrentPolicyFactory:
    """``factory(seed) -> PPOAgent`` of the model being trained, for the evaluation harness."""

    def __init__(self, model, label, game):
        self.model, self.label, self.game = model, label, game

    def __call__(self, seed):
        """A PPOAgent over the live model (its weights as they are when it acts)."""
        return PPOAgent(self.model, deterministic=True, seed=seed, game=self.game)


def evaluate_policy_on_ladder(model, levels, games, seed, label, game):
    """The current policy (deterministic) alone against each rung of ``game``'s ladder in
    ``levels`` (Tom levels, bots): an EvalResults."""
    return evaluate_ladder(CurrentPolicyFactory(model, label, game), levels, games=games, seed=seed,
                           progress=False, game=game)


def evaluate_policy_in_matches(model, config, games, seed, label=LEARNER_LABEL):
    """The current policy (deterministic) in ``games`` games of the training game's size against
    each of the config's evaluation opponents in every other seat, seats rotated: {opponent:
    EvalResults}."""
    game = get_game(config.game)
    seats = game.num_participants(game.seat_config(1, config.stages[0]))
    learner = CurrentPolicyFactory(model, label, game.name)
    games = max(seats, games - games % seats)
    return {opponent: evaluate_vs_agents([learner] + [opponent] * (seats - 1), games, seed,
                                         progress=False, game=game)
            for opponent in config.eval_opponents}


def rung_of(game, automatic):
    """The ladder's rung (one of the game's ``automatic_choices``) whose setup is ``automatic``
    (as ``automatic_of`` spells it: Tiny York's code 'B4' is Tom 5), None when none is."""
    for rung in game.automatic_choices:
        if tuple(game.automatic_of(game.seat_config(1, (rung,)))) == tuple(automatic):
            return rung
    return None


def evaluate_current_policy(model, config, games, seed, label=LEARNER_LABEL, extra_levels=()):
    """The current policy (deterministic) on the config's ladder rungs (``eval_levels`` and
    ``extra_levels``) and in matches against its ``eval_opponents``: {what it played against (the
    rung's label, the opponent's name): CellResult}."""
    game = get_game(config.game)
    levels = tuple(config.eval_levels) + tuple(r for r in extra_levels if r not in config.eval_levels)
    cells = {}
    if levels:
        for cell in evaluate_policy_on_ladder(model, levels, games, seed, label, game.name).cells:
            cells[cell.opponents] = cell
    for opponent, results in evaluate_policy_in_matches(model, config, games, seed, label).items():
        cells[opponent] = replace(results.cells[0], opponents=opponent)  # in every other seat
    return cells


def append_csv_rows(path, columns, rows):
    """Append ``rows`` (dicts over ``columns``) to the CSV at ``path``, with a header when new."""
    path = Path(path)
    new = not path.exists()
    with open_output(path, "a", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        if new:
            writer.writeheader()
        writer.writerows(rows)


def append_eval_rows(path, timesteps, training_against, cells):
    """Append one row per evaluated cell to the CSV at ``path`` (header when new)."""
    append_csv_rows(path, EVAL_COLUMNS, [
        {"timesteps": timesteps, "training_against": " ".join(map(str, training_against)), **asdict(cell)}
        for cell in cells])


def win_rate_key(game, cell):
    """The logger's key of an evaluated cell: ``eval/win_rate_tom5``, ``eval/win_rate_botgreedy``
    for a rung, ``eval/win_rate_vs_greedy`` for a match."""
    if cell.level is not None:
        return f"eval/win_rate_{game.automatic_kind.removesuffix('s')}{cell.level}"
    return f"eval/win_rate_vs_{cell.opponents.split(', ')[0]}"


def _make_callback_classes():
    """The callback classes, built on SB3's BaseCallback only when training runs."""
    base = _callbacks_module().BaseCallback

    class ProgressCallback(base):
        """A tqdm bar over all training steps (every stage)."""

        def __init__(self, total, enabled):
            super().__init__()
            # tqdm.auto: a single widget in Jupyter, not thousands of text chunks
            self.bar = tqdm(total=total, unit="step", desc="PPO", disable=not enabled,
                            dynamic_ncols=True)

        def _on_step(self):
            self.bar.update(max(0, min(self.num_timesteps, self.bar.total) - self.bar.n))
            return True

    class WinRateCallback(base):
        """Logs ``rollout/win_rate``: the share of training games the learning seat won."""

        def __init__(self):
            super().__init__()
            self.wins = self.games = 0

        def _on_step(self):
            for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
                if done:
                    self.games += 1
                    self.wins += info.get("winner") == LEARNING_SEAT
            return True

        def _on_rollout_end(self):
            if self.games:
                self.logger.record("rollout/win_rate", self.wins / self.games)
                self.logger.record("rollout/games", self.games)
            self.wins = self.games = 0

    class LadderEvalCallback(base):
        """Every ``eval_every`` steps, between rollouts: the policy on the ladder's rungs and in
        matches against the evaluation opponents, on fresh games each time (the seed moves on
        with every evaluation), rows into ``eval.csv``, win rates into the log. A curriculum
        stage with a next one is promoted when the lower end of its rung's 95% Wilson interval
        reaches ``promote_at`` (a lucky run of a few games does not promote); the rollout just
        collected is still trained on, and the stage stops at the next step (one vectorized step
        of the next rollout is left unused)."""

        def __init__(self, config, eval_path):
            super().__init__()
            self.config, self.eval_path = config, eval_path
            self.next_eval = config.eval_every
            self.stage_automatic, self.can_promote = None, False
            self.promoted = False
            self.evaluations = 0

        def start_stage(self, automatic, can_promote):
            """The automatic participants trained against now, and whether a promotion may end
            this stage."""
            self.stage_automatic, self.can_promote, self.promoted = automatic, can_promote, False

        def _on_step(self):
            return not self.promoted  # a promotion ends the stage before the next rollout

        def _on_rollout_end(self):
            if self.num_timesteps < self.next_eval:
                return
            while self.next_eval <= self.num_timesteps:
                self.next_eval += self.config.eval_every
            self.evaluate()

        def evaluate(self):
            """Run one evaluation now (fresh games); False when the stage is promoted."""
            config = self.config
            game = get_game(config.game)
            seed = derive_seed(config.seed, STREAM_EVAL, self.evaluations)
            label = f"{LEARNER_LABEL}@{self.num_timesteps}"
            stage_rung = rung_of(game, self.stage_automatic)
            extra = (stage_rung,) if self.can_promote else ()
            cells = list(evaluate_current_policy(self.model, config, config.eval_games, seed, label,
                                                 extra).values())
            append_eval_rows(self.eval_path, self.num_timesteps, self.stage_automatic, cells)
            self.evaluations += 1
            for cell in cells:
                self.logger.record(win_rate_key(game, cell), cell.win_rate)
            lower = {cell.level: cell.ci_low for cell in cells if cell.level is not None}
            if self.can_promote and lower[stage_rung] >= config.promote_at:
                self.promoted = True
                return False
            return True

    class CheckpointCallback(base):
        """Every ``every`` calls (one per vectorized step), the model as
        ``directory/ppo_<steps>_steps.zip``, written without following a planted link."""

        def __init__(self, every, directory):
            super().__init__()
            self.every, self.directory = every, Path(directory)

        def _init_callback(self):
            output_dir(self.directory)

        def _on_step(self):
            if self.n_calls % self.every == 0:
                path = self.directory / f"{CHECKPOINT_PREFIX}_{self.num_timesteps}_steps.zip"
                with open_output(path, "wb") as handle:
                    self.model.save(handle)
            return True

    return ProgressCallback, WinRateCallback, LadderEvalCallback, CheckpointCallback


# ---------------------------------------------------------------- training

@dataclass
class TrainResult:
    """The trained model and where everything was written."""

    model: object
    out_dir: Path
    model_path: Path
    policy_path: Path
    config_path: Path
    progress_csv: Path
    eval_csv: Path | None
    checkpoint_dir: Path | None
    stages: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def steps_per_second(self):
        """Training decisions per wall-clock second (rollouts, updates and evaluations)."""
        return self.model.num_timesteps / self.seconds if self.seconds else 0.0


def stage_env_seed(config: TrainConfig, stage: int) -> int:
    """The game seed of a training stage's env: game i of the batch plays it + i, then its chain
    (core/seeds.py), so stages and runs with other seeds never share a deal."""
    return derive_seed(config.seed, STREAM_STAGE_ENV, stage)


def make_vec_env(config: TrainConfig, automatic: tuple, stage: int):
    """The monitored GameVecEnv of one training stage: one learning seat against ``automatic``
    (its own game seeds). Illegal actions raise: the masked learner never plays one, so one would
    be a bug to stop at, not a penalty to learn from (the env's default, "terminate", would end
    the game and train on it)."""
    from stable_baselines3.common.vec_env import VecMonitor

    from tiny_york_env.envs.vector import GameVecEnv
    game = get_game(config.game)
    return VecMonitor(GameVecEnv(config.num_envs, game=game, config=game.seat_config(1, automatic),
                                 reward=config.reward, seed=stage_env_seed(config, stage),
                                 illegal_action=TRAINING_ILLEGAL_ACTION))


def make_logger(out_dir, verbose):
    """SB3 logger writing progress.csv, TensorBoard files when available, stdout when verbose."""
    from stable_baselines3.common.logger import configure
    formats = ["csv"]
    if importlib.util.find_spec("tensorboard") is not None:
        formats.append("tensorboard")
    if verbose:
        formats.append("stdout")
    return configure(str(out_dir), formats)


def make_model(config, env, verbose=0):
    """A MaskablePPO with the config's hyperparameters; its weights from ``config.init_from``
    (e.g. a behaviour-cloned model, ``training/imitate.py``) when given, else fresh."""
    from sb3_contrib import MaskablePPO
    model = MaskablePPO("MlpPolicy", env, n_steps=config.n_steps, batch_size=config.batch_size,
                        n_epochs=config.n_epochs, learning_rate=config.learning_rate,
                        gamma=config.gamma, ent_coef=config.ent_coef, seed=config.seed,
                        device=config.device, verbose=verbose,
                        policy_kwargs={"net_arch": list(config.net_arch)})
    if config.init_from is not None:
        load_initial_weights(model, config.init_from, config.net_arch)
    return model


def initial_tensors(path):
    """(policy state dict, optimizer state dict or None) to start from, read without unpickling:
    a policy file's weights widened to the current observation layout, or the tensors of a
    stable-baselines3 checkpoint."""
    if file_kind(path) == "policy":
        card, state = read_policy_file(path)
        return adapt_to_current_layout(card, state), None
    tensors = read_sb3_tensors(path)
    return tensors["policy"], tensors["policy.optimizer"]


def load_initial_weights(model, path, net_arch):
    """Copy the weights at ``path`` (and a checkpoint's optimizer state) into ``model``;
    ValueError when its network does not fit ``net_arch`` or the current encoder."""
    import torch
    state, optimizer = initial_tensors(path)
    try:
        model.policy.load_state_dict({name: tensor.to(torch.float32) for name, tensor in state.items()},
                                     strict=True)
        if optimizer is not None:
            model.policy.optimizer.load_state_dict(optimizer)
    except (RuntimeError, ValueError, KeyError) as error:
        raise ValueError(f"cannot start from {path!r}: its network does not fit net_arch "
                         f"{net_arch} and the current observation (give the --net-arch it was "
                         f"trained with): {str(error)[:ERROR_EXCERPT_CHARS]}") from error


OUTPUT_FILES = (CONFIG_FILE, PROGRESS_FILE, EVAL_FILE, SUMMARY_FILE, MODEL_FILE, POLICY_FILE,
                CHECKPOINT_DIR)


def _prepare_out_dir(config):
    out_dir = refuse_symlink(config.out)
    if (out_dir / MODEL_FILE).exists():
        raise ValueError(f"{str(out_dir)!r} already holds a trained {MODEL_FILE}; give another "
                         f"output directory (--out)")
    output_dir(out_dir)
    for name in OUTPUT_FILES:  # refused now, not after hours of training
        refuse_symlink(out_dir / name)
    config_path = out_dir / CONFIG_FILE
    write_output_text(config_path, json.dumps(asdict(config), indent=1) + "\n")
    return out_dir, config_path


def train(progress: bool = True, verbose: int = 0, **options) -> TrainResult:
    """Train MaskablePPO against the game's automatic participants; returns a TrainResult (model,
    output paths, stages).

    Options (all validated, ValueError naming the bad one): ``game``; ``automatic`` (the game's
    automatic participants in every game; ``toms`` for Tiny York's Toms, levels 1-12 or codes,
    default (5,), ``bots`` for another game's), or
    ``curriculum`` (rungs, one a stage, in order) with ``curriculum_steps`` and/or ``promote_at``;
    ``num_players`` (a check); ``eval_levels`` and ``eval_opponents`` (the periodic evaluation; the
    record's ``train_defaults`` by default); ``num_envs``, ``total_steps``, ``seed``,
    ``n_steps``, ``batch_size``, ``n_epochs``, ``learning_rate``, ``gamma``, ``ent_coef``,
    ``net_arch``, ``reward`` ("win", "rank", "score"), ``out`` (directory), ``checkpoint_every``,
    ``eval_every``, ``eval_games``, ``eval_levels``, ``device``, ``torch_threads`` (set
    process-wide with ``torch.set_num_threads``) and ``init_from`` (a policy file or an SB3
    model.zip whose weights training starts from, same ``net_arch``; module doc). A curriculum
    that ``total_steps`` cannot carry to its last level is refused (module doc)."""
    config = make_config(**options)
    import torch
    torch.set_num_threads(config.torch_threads)
    out_dir, config_path = _prepare_out_dir(config)
    callbacks = _callbacks_module()
    progress_class, win_rate_class, eval_class, checkpoint_class = _make_callback_classes()
    eval_path = out_dir / EVAL_FILE if config.eval_every else None
    checkpoint_dir = out_dir / CHECKPOINT_DIR if config.checkpoint_every else None
    bar = progress_class(config.total_steps, progress)
    evaluation = eval_class(config, eval_path) if config.eval_every else None
    callback_list = [bar, win_rate_class()]
    if checkpoint_dir:
        callback_list.append(checkpoint_class(max(1, config.checkpoint_every // config.num_envs),
                                              checkpoint_dir))
    if evaluation:
        callback_list.append(evaluation)
    callback = callbacks.CallbackList(callback_list)
    logger = make_logger(out_dir, verbose)
    stages, model, start = [], None, time.perf_counter()
    try:
        for stage, automatic in enumerate(config.stages):
            remaining = config.total_steps - (model.num_timesteps if model else 0)
            if remaining <= 0:
                break
            last = stage == len(config.stages) - 1
            budget = remaining if last or config.curriculum_steps is None else min(
                remaining, config.curriculum_steps)
            env = make_vec_env(config, automatic, stage)
            if model is None:
                model = make_model(config, env, verbose)
                env.seed(stage_env_seed(config, stage))  # MaskablePPO(seed=) re-seeded it to seed + i
                model.set_logger(logger)
            else:
                model.set_env(env)
            if evaluation:
                evaluation.start_stage(automatic, config.promote_at is not None and not last)
            first_step = model.num_timesteps
            model.learn(budget, callback=callback, reset_num_timesteps=stage == 0)
            promoted = bool(evaluation and evaluation.promoted)
            stages.append({"against": list(automatic), "start_step": first_step,
                           "end_step": model.num_timesteps,
                           "ended_by": "promotion" if promoted else "steps"})
            env.close()
    finally:
        bar.bar.close()
        logger.close()
    seconds = time.perf_counter() - start
    model_path, policy_path = out_dir / MODEL_FILE, out_dir / POLICY_FILE
    with open_output(model_path, "wb") as handle:
        model.save(handle)
    save_policy(model, policy_path, game=config.game, written_by="training.train_ppo")
    result = TrainResult(model, out_dir, model_path, policy_path, config_path,
                         out_dir / PROGRESS_FILE, eval_path, checkpoint_dir, stages, seconds)
    summary = {"timesteps": model.num_timesteps, "seconds": round(seconds, 3),
               "steps_per_second": round(result.steps_per_second, 1), "stages": stages,
               "evaluations": evaluation.evaluations if evaluation else 0}
    write_output_text(out_dir / SUMMARY_FILE, json.dumps(summary, indent=1) + "\n")
    return result


# ---------------------------------------------------------------- command line

def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of ``python -m tiny_york_env.training.train_ppo``."""
    p = argparse.ArgumentParser(prog="python -m tiny_york_env.training.train_ppo",
                                description=__doc__.split("\n")[0],
                                formatter_class=DefaultsHelpFormatter)
    p.add_argument("--game", choices=game_names(), default=DEFAULT_GAME,
                   help="the game to train for (docs/games.md)")
    p.add_argument("--players", type=int, help="players in every game, a check (the learning seat "
                   "and the --tom/--bots)")
    p.add_argument("--bots", nargs="+", metavar="BOT", help="a game with bots: the engine's bots in "
                   "the other seats, e.g. greedy random (default: as the game's single-agent env)")
    p.add_argument("--eval-opponents", help=f"the periodic evaluation's match opponents in every other "
                   f"seat, comma-separated agents of the game ({agent_name_forms()}; default: the game's, "
                   f"docs/games.md)")
    p.add_argument("--tom", action="append", type=parse_tom, metavar="LEVEL",
                   help="Tiny York: a Tom in every game, level 1-12 or code like B4; repeat "
                        "for several Toms (default: Tom 5, as the single-agent env)")
    p.add_argument("--curriculum", help="the automatic participants in order, one a stage: Tom "
                   "levels ('1,3,5') or bots ('random,greedy') (instead of --tom/--bots)")
    p.add_argument("--curriculum-steps", type=int, help="steps per curriculum level; --total-steps "
                   "must let every level have them (refused otherwise, unless --promote-at)")
    p.add_argument("--promote-at", type=float, help="move on when the lower end of the 95%% interval "
                   "of the evaluated win rate against the current level reaches this (fresh games "
                   "each evaluation; needs --eval-every)")
    p.add_argument("--num-envs", type=int, default=DEFAULT_NUM_ENVS, help="games in the batched env")
    p.add_argument("--total-steps", type=int, default=DEFAULT_TOTAL_STEPS,
                   help="env steps (decisions over all games) to train for")
    p.add_argument("--seed", type=int, default=0, help="seeds the games and torch")
    p.add_argument("--n-steps", type=int, default=DEFAULT_N_STEPS, help="rollout steps per env")
    p.add_argument("--batch-size", type=int, default=DEFAULT_BATCH_SIZE, help="PPO minibatch size")
    p.add_argument("--n-epochs", type=int, default=DEFAULT_N_EPOCHS, help="PPO epochs per rollout")
    p.add_argument("--learning-rate", type=float, default=DEFAULT_LEARNING_RATE, help="Adam step size")
    p.add_argument("--gamma", type=float, default=DEFAULT_GAMMA, help="discount factor")
    p.add_argument("--ent-coef", type=float, default=DEFAULT_ENT_COEF, help="entropy bonus weight")
    p.add_argument("--net-arch", default=",".join(map(str, DEFAULT_NET_ARCH)),
                   help="hidden layer widths")
    p.add_argument("--reward", choices=REWARD_KINDS, default="win",
                   help="reward at the end (docs/tiny-york.md, Rewards)")
    p.add_argument("--out", help="output directory (default: runs/ppo-<timestamp>); a symbolic link "
                   "there, or in place of a file it gets, is refused")
    p.add_argument("--checkpoint-every", type=int, help="save a checkpoint every N steps")
    p.add_argument("--eval-every", type=int, help="evaluate the policy every N steps")
    p.add_argument("--eval-games", type=int, default=DEFAULT_EVAL_GAMES, help="games per cell")
    p.add_argument("--eval-levels", help="the periodic evaluation's ladder rungs: Tom levels "
                   "('1,5,9', Tiny York's default) or bots ('greedy,random')")
    p.add_argument("--device", default=DEFAULT_DEVICE, help="torch device")
    p.add_argument("--torch-threads", type=int, default=DEFAULT_TORCH_THREADS,
                   help="torch intra-op threads (more help only on an idle many-core machine)")
    p.add_argument("--init-from", help="start from these weights: a policy file (OUT/policy.zip of "
                   "python -m tiny_york_env.training.imitate or train_ppo, or training.export's output) or a "
                   "stable-baselines3 model.zip (its policy and optimizer tensors); read with "
                   "torch.load(weights_only=True), nothing unpickled; same --net-arch")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--verbose", action="store_true", help="print SB3's log tables")
    return p


def train_options(args: argparse.Namespace) -> dict:
    """The options of ``train``/``make_config`` from parsed command-line arguments; ValueError for
    a malformed list (``--curriculum``, ``--net-arch``, ``--eval-levels``)."""
    game = get_game(args.game)
    return dict(
        toms=args.tom,
        curriculum=parse_rungs(game, args.curriculum),
        curriculum_steps=args.curriculum_steps, promote_at=args.promote_at,
        num_envs=args.num_envs, total_steps=args.total_steps, seed=args.seed,
        n_steps=args.n_steps, batch_size=args.batch_size, n_epochs=args.n_epochs,
        learning_rate=args.learning_rate, gamma=args.gamma, ent_coef=args.ent_coef,
        net_arch=parse_int_list(args.net_arch, "--net-arch"), reward=args.reward, out=args.out,
        checkpoint_every=args.checkpoint_every, eval_every=args.eval_every,
        eval_games=args.eval_games, eval_levels=parse_rungs(game, args.eval_levels),
        device=args.device, torch_threads=args.torch_threads, init_from=args.init_from,
        game=args.game, num_players=args.players, bots=args.bots,
        eval_opponents=None if args.eval_opponents is None else tuple(
            p.strip() for p in args.eval_opponents.split(",") if p.strip()))


def main(argv: Sequence[str] | None = None) -> int:
    """Run training from command-line arguments; prints where the model went."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result = train(progress=not args.no_progress, verbose=int(args.verbose), **train_options(args))
    except ValueError as error:
        parser.error(str(error))
    print(f"trained {result.model.num_timesteps} steps in {result.seconds:.0f} s "
          f"({result.steps_per_second:.0f} steps/s); policy: {result.policy_path} "
          f"(SB3 checkpoint: {result.model_path})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
