"""Behaviour cloning: a MaskablePPO policy that imitates a teacher agent, as a warm start.

``python -m tiny_york_env.training.imitate --teacher greedy --levels 5 --games 1500 --out runs/bc`` plays the
teacher (an agent of the game by name, e.g. ``greedy``) in the one agent seat against the game's
automatic participants (``--levels``: one of them per game in turn, Tom levels or bots; else
``--tom``/``--bots`` as train_ppo, by default the game's single-agent env), records every decision of
its seat (the seat's observation, legal mask and chosen action, and the discounted end-of-game
reward that follows), then fits a fresh MaskablePPO policy of ``train_ppo``'s shape to it:
masked cross-entropy on the actions, squared error of the value head on the returns. The result
is an ordinary ``model.zip`` (stable-baselines3 checkpoint) with its policy file ``policy.zip``
beside it: play that with ``PPOAgent`` (``ppo:runs/bc/policy.zip``) or go on with reinforcement
learning, ``python -m tiny_york_env.training.train_ppo --init-from runs/bc/policy.zip``. A symbolic link in
place of the output directory or one of its files is refused.

Every game (``--game construction_yard --players 3 --bots greedy greedy``) is cloned the same way:
the teacher is a player of the game by name (the agent registry, ``agents/registry.py``: greedy,
search[:N], gsearch[:N], psearch[:N][@S], champion[@S], ppo:PATH, the game's own),
and the clone is evaluated as train_ppo's periodic evaluation is (its ladder's ``--eval-levels``,
matches against ``--eval-opponents``; the game's defaults where not given).

Starting PPO from scratch against Tom, the learning seat almost never wins, so the "win" reward
is all but silent; a cloned policy starts where the hand-written agents are.
"""

import argparse
import json
import sys
import time
import zipfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

from tiny_york_env.agents.base import choose_action
from tiny_york_env.agents.ppo_agent import POLICY_FILE
from tiny_york_env.agents.registry import check_player, make_player
from tiny_york_env.arena.ladder import check_rungs, parse_rungs
from tiny_york_env.arena.output import open_output, output_dir, refuse_symlink, write_output_text
from tiny_york_env.arena.records import EvalResults
from tiny_york_env.arena.runner import positive_int
from tiny_york_env.arena.seeds import derive_seed
from tiny_york_env.arena.tables import format_table
from tiny_york_env.cli_types import DefaultsHelpFormatter
from tiny_york_env.envs.rewards import final_rewards
from tiny_york_env.registry import DEFAULT_GAME, game_names, get_game
from tiny_york_env.training import defaults
from tiny_york_env.training.export import save_policy
from tiny_york_env.training.train_ppo import (
    CONFIG_FILE,
    DEFAULT_GAMMA,
    DEFAULT_NET_ARCH,
    MODEL_FILE,
    RUNS_DIR,
    evaluate_current_policy,
    make_config,
    make_model,
    make_vec_env,
    parse_int_list,
)

DEFAULT_TEACHER = defaults.IMITATION_TEACHER
DEFAULT_GAMES = defaults.IMITATION_GAMES
DEFAULT_EPOCHS = defaults.IMITATION_EPOCHS
DEFAULT_BATCH_SIZE = defaults.IMITATION_BATCH_SIZE
DEFAULT_LEARNING_RATE = defaults.IMITATION_LEARNING_RATE
DEFAULT_VALUE_WEIGHT = defaults.IMITATION_VALUE_WEIGHT
DEFAULT_REWARD = defaults.IMITATION_REWARD
DEFAULT_EVAL_GAMES = defaults.IMITATION_EVAL_GAMES
LEARNING_SEAT = 0  # the teacher's seat, the learning seat of train_ppo's env
BC_LABEL = "bc"  # the clone in its evaluation's tables
STREAM_GAME, STREAM_TEACHER, STREAM_CHOICE, STREAM_SPLIT, STREAM_EVAL = 21, 22, 23, 24, 25
VALIDATION_SHARE = 0.1  # of the games (whole games, so no game is on both sides)
DEMOS_FILE, HISTORY_FILE = "demonstrations.npz", "imitation.json"


@dataclass
class Demonstrations:
    """Every teacher decision: observation, legal mask, action, discounted return, game index."""

    observations: np.ndarray  # float32[N, OBS_SIZE]
    masks: np.ndarray  # bool[N, NUM_ACTIONS]
    actions: np.ndarray  # int64[N]
    returns: np.ndarray  # float32[N]
    games: np.ndarray  # int64[N]: which demonstration game each decision came from
    teacher_rewards: np.ndarray  # float64[G]: the teacher's final reward in each game

    def __len__(self):
        return len(self.actions)

    def save(self, path):
        """Write the arrays to an ``.npz`` file (a path or a binary file object)."""
        np.savez_compressed(path, **asdict(self))

    @classmethod
    def load(cls, path, obs_size: int | None = None, num_actions: int | None = None):
        """Demonstrations from an ``.npz`` file written by ``save``, checked (``check``: of
        ``obs_size`` observations and ``num_actions`` actions where given); ValueError naming the
        file if it is not such a file (never unpickled)."""
        try:
            with np.load(path, allow_pickle=False) as data:
                missing = sorted(set(cls.__dataclass_fields__) - set(data.files))
                if missing:
                    raise ValueError(f"arrays {missing} are missing")
                demos = cls(**{name: data[name] for name in cls.__dataclass_fields__})
            demos.check(obs_size, num_actions)
        except (ValueError, OSError, EOFError, zipfile.BadZipFile) as error:
            raise ValueError(f"{path} is not a demonstrations file (Demonstrations.save, "
                             f"{DEMOS_FILE}): {error}") from error
        return demos

    def check(self, obs_size: int | None = None, num_actions: int | None = None) -> None:
        """ValueError unless the arrays are one set of decisions: N observations (float32, finite;
        ``obs_size`` wide if given), masks (bool; ``num_actions`` wide if given), legal actions
        (int64), finite returns (float32) and game indices (int64), N each, and finite teacher
        rewards (float, one a game)."""
        for name in self.__dataclass_fields__:
            if not isinstance(getattr(self, name), np.ndarray):
                raise ValueError(f"{name} must be a numpy array, got {type(getattr(self, name)).__name__}")
        decisions = self.actions.shape[0] if self.actions.ndim == 1 else -1  # -1: refused below
        width = self.observations.shape[-1] if self.observations.ndim else -1
        actions_wide = self.masks.shape[-1] if self.masks.ndim else -1
        expected = {"observations": (np.float32, (decisions, obs_size or width)),
                    "masks": (np.bool_, (decisions, num_actions or actions_wide)),
                    "actions": (np.int64, (decisions,)), "returns": (np.float32, (decisions,)),
                    "games": (np.int64, (decisions,))}
        check_array_shapes({name: getattr(self, name) for name in expected}, expected)
        rewards = self.teacher_rewards
        if rewards.ndim != 1 or rewards.dtype.kind != "f":
            raise ValueError(f"teacher_rewards must be one float a game, got {rewards.dtype} {rewards.shape}")
        if not all(np.isfinite(a).all() for a in (self.observations, self.returns, rewards)):
            raise ValueError("observations, returns and teacher_rewards must be finite")
        check_legal_actions(self.masks, self.actions)


def check_array_shapes(arrays: dict[str, np.ndarray],
                       expected: dict[str, tuple[type, tuple[int, ...]]]) -> None:
    """ValueError naming the first of ``arrays`` whose dtype and shape are not ``expected[name]``."""
    for name, (dtype, shape) in expected.items():
        array = arrays[name]
        if array.dtype != dtype or array.shape != shape:
            raise ValueError(f"{name} must be {np.dtype(dtype)} {shape}, got {array.dtype} {array.shape}")


def check_legal_actions(masks: np.ndarray, actions: np.ndarray) -> None:
    """ValueError unless every action (int64[N]) is a column of ``masks`` (bool[N, A]) set in its row."""
    choices = masks.shape[1]
    in_range = ((actions >= 0) & (actions < choices)).all()
    if not in_range or not masks[np.arange(len(actions)), actions].all():
        raise ValueError(f"every action must be one of the {choices} and legal under its mask")


class DemonstrationLog:
    """The teacher's decisions as they are played; ``demonstrations()`` turns them into arrays.
    ``details`` keeps, beside each decision, what the teacher said of it (expert iteration: the
    search's statistics, ``training.search_targets``; None where there is nothing)."""

    def __init__(self, gamma):
        self.gamma = gamma
        self.observations, self.masks, self.actions, self.details = [], [], [], []
        self.returns, self.game_ids, self.teacher_rewards = [], [], []
        self._first = 0  # the current game's first decision

    def decide(self, observation, mask, action, detail=None):
        """One decision of the teacher's seat (``detail``: what the teacher said of it)."""
        self.observations.append(observation)
        self.masks.append(mask)
        self.actions.append(action)
        self.details.append(detail)

    def end_game(self, game, final):
        """The game ``game`` ended with reward ``final`` for the teacher: its discounted returns."""
        steps = len(self.actions) - self._first
        self.returns.extend(final * self.gamma ** np.arange(steps - 1, -1, -1))
        self.game_ids.extend([game] * steps)
        self.teacher_rewards.append(final)
        self._first = len(self.actions)

    def absorb(self, other):
        """Append the decisions and returns of ``other``'s finished games (not its teacher rewards)."""
        if other._first != len(other.actions) or self._first != len(self.actions):
            raise ValueError("absorb between games: both logs' games must have ended (end_game after "
                             "the last decision)")
        for mine, theirs in ((self.observations, other.observations), (self.masks, other.masks),
                             (self.actions, other.actions), (self.details, other.details),
                             (self.returns, other.returns), (self.game_ids, other.game_ids)):
            mine.extend(theirs)
        self._first = len(self.actions)

    def demonstrations(self, obs_size, num_actions):
        """Everything played so far as Demonstrations."""
        return Demonstrations(np.asarray(self.observations, dtype=np.float32).reshape(-1, obs_size),
                              np.asarray(self.masks, dtype=np.bool_).reshape(-1, num_actions),
                              np.asarray(self.actions, dtype=np.int64),
                              np.asarray(self.returns, dtype=np.float32),
                              np.asarray(self.game_ids, dtype=np.int64), np.asarray(self.teacher_rewards))


def collect_demonstrations(teacher=DEFAULT_TEACHER, levels=None, games=DEFAULT_GAMES, seed=0,
                           gamma=DEFAULT_GAMMA, reward=DEFAULT_REWARD, progress=True, game=DEFAULT_GAME,
                           stages=None):
    """Play ``games`` games of ``teacher`` (an agent of ``game`` by name) in the one agent seat
    against the automatic participants of ``stages`` (tuples, one per game in turn; ``levels``:
    one rung each, e.g. Tom levels) and record every decision of its seat; returns Demonstrations."""
    played = get_game(game)
    if levels is not None:
        stages = [(rung,) for rung in check_rungs(played, levels)]
    if not stages:
        raise ValueError("collect_demonstrations needs the levels or stages the teacher plays against")
    configs = [played.seat_config(1, stage) for stage in stages]
    check_player(played, teacher, configs[0])
    games = positive_int(games, "games")
    log = DemonstrationLog(gamma)
    for index in tqdm(range(games), desc=f"{teacher} demonstrations", unit="game", disable=not progress):
        config = configs[index % len(configs)]
        state = played.new_game(config, seed=derive_seed(seed, STREAM_GAME, index))
        agent = make_player(played, teacher, derive_seed(seed, STREAM_TEACHER, index), config)
        rng = np.random.default_rng(derive_seed(seed, STREAM_CHOICE, index))
        while not played.is_terminal(state):
            seat = played.current_player(state)
            observation, mask = played.encode(state, seat), played.legal_mask(state)
            action = choose_action(agent, state, rng)
            log.decide(observation, mask, action)
            played.apply_action(state, action)
        log.end_game(index, float(final_rewards(state, reward, played)[LEARNING_SEAT]))
    return log.demonstrations(played.obs_size, played.num_actions)


def split_by_game(demos, seed):
    """(training indices, validation indices): about VALIDATION_SHARE of the games held out."""
    rng = np.random.default_rng(derive_seed(seed, STREAM_SPLIT))
    games = np.unique(demos.games)
    held = rng.permutation(games)[:max(1, int(round(len(games) * VALIDATION_SHARE)))]
    if len(games) < 2:
        held = held[:0]
    validation = np.isin(demos.games, held)
    return np.flatnonzero(~validation), np.flatnonzero(validation)


def _batch_loss(policy, demos, index, value_weight, targets=None):
    """(total loss, cross-entropy, value loss, accuracy) of the policy on decisions ``index``:
    the cross-entropy against the actions, or against ``targets`` (float32[N, A], a distribution
    over each decision's legal actions) where given; the accuracy is the actions' either way.
    One pass of each side (the policy's layers, the value's)."""
    import torch
    obs = torch.as_tensor(demos.observations[index], device=policy.device)
    actions = torch.as_tensor(demos.actions[index], device=policy.device)
    returns = torch.as_tensor(demos.returns[index], device=policy.device)
    log_probs = policy.get_distribution(obs, action_masks=demos.masks[index]).distribution.logits
    if targets is None:
        cross_entropy = -log_probs.gather(1, actions[:, None]).mean()
    else:  # illegal actions: target 0 (their masked log-probabilities are finite)
        cross_entropy = -(torch.as_tensor(targets[index], device=policy.device) * log_probs).sum(dim=1).mean()
    value_loss = torch.nn.functional.mse_loss(policy.predict_values(obs).flatten(), returns)
    with torch.no_grad():
        accuracy = (log_probs.argmax(dim=1) == actions).float().mean()
    return cross_entropy + value_weight * value_loss, cross_entropy, value_loss, accuracy


POLICY_PARTS = ("mlp_extractor.policy_net.", "action_net.")  # SB3's names of the policy's layers
VALUE_PARTS = ("mlp_extractor.value_net.", "value_net.")  # and of the value function's


def _copy_part(policy, prefixes):
    return {name: tensor.detach().clone() for name, tensor in policy.state_dict().items()
            if name.startswith(prefixes)}


def kept_epochs(history):
    """(epoch of the policy kept, epoch of the value function kept) by ``fit_policy``: each at its
    lowest held-out loss (cross-entropy, value MSE); the last epoch without held-out games."""
    if not history or "valid_cross_entropy" not in history[0]:
        return (len(history), len(history))
    best_policy = min(history, key=lambda row: row["valid_cross_entropy"])["epoch"]
    best_value = min(history, key=lambda row: row["valid_value_loss"])["epoch"]
    return best_policy, best_value


def fit_policy(model, demos, epochs=DEFAULT_EPOCHS, batch_size=DEFAULT_BATCH_SIZE,
               learning_rate=DEFAULT_LEARNING_RATE, value_weight=DEFAULT_VALUE_WEIGHT, seed=0,
               progress=True, targets=None):
    """Fit ``model.policy`` to ``demos`` in place (the policy to their actions, or to ``targets``,
    float32[N, A] distributions over each decision's legal actions, where given); a list of
    per-epoch dicts (losses, accuracy on the training and the held-out games). The policy layers
    and the value layers end as they were at their own best held-out epoch (``kept_epochs``): the
    value head overfits long before the policy does (its held-out loss rises from the first
    epochs)."""
    import torch
    policy = model.policy
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    train_index, valid_index = split_by_game(demos, seed)
    rng = np.random.default_rng(derive_seed(seed, STREAM_SPLIT, 1))
    history = []
    best = {"policy": (np.inf, None), "value": (np.inf, None)}
    for epoch in tqdm(range(positive_int(epochs, "epochs")), desc="imitation", unit="epoch",
                      disable=not progress):
        policy.set_training_mode(True)
        sums = np.zeros(3)
        order = rng.permutation(train_index)
        for start in range(0, len(order), batch_size):
            index = order[start:start + batch_size]
            loss, cross_entropy, value_loss, accuracy = _batch_loss(policy, demos, index, value_weight,
                                                                    targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            sums += np.array([cross_entropy.item(), value_loss.item(), accuracy.item()]) * len(index)
        row = {"epoch": epoch + 1, "train_cross_entropy": sums[0] / len(order),
               "train_value_loss": sums[1] / len(order), "train_accuracy": sums[2] / len(order)}
        row.update(_validation(policy, demos, valid_index, value_weight, batch_size, targets))
        history.append(row)
        for part, loss, prefixes in (("policy", "valid_cross_entropy", POLICY_PARTS),
                                     ("value", "valid_value_loss", VALUE_PARTS)):
            if loss in row and row[loss] < best[part][0]:
                best[part] = (row[loss], _copy_part(policy, prefixes))
    kept = {**(best["policy"][1] or {}), **(best["value"][1] or {})}
    if kept:
        policy.load_state_dict({**policy.state_dict(), **kept})
    policy.set_training_mode(False)
    return history


def _validation(policy, demos, index, value_weight, batch_size, targets=None):
    import torch
    if len(index) == 0:
        return {}
    policy.set_training_mode(False)
    sums = np.zeros(3)
    with torch.no_grad():
        for start in range(0, len(index), batch_size):
            part = index[start:start + batch_size]
            _, cross_entropy, value_loss, accuracy = _batch_loss(policy, demos, part, value_weight, targets)
            sums += np.array([cross_entropy.item(), value_loss.item(), accuracy.item()]) * len(part)
    sums /= len(index)
    return {"valid_cross_entropy": sums[0], "valid_value_loss": sums[1], "valid_accuracy": sums[2]}


@dataclass
class ImitationResult:
    """The cloned model, its file, the fit's history and the quick evaluation (if any)."""

    model: object
    model_path: Path
    policy_path: Path
    history: list
    evaluation: object | None
    decisions: int
    seconds: float


def imitate(teacher: str = DEFAULT_TEACHER, levels: Sequence[int | str] | None = None,
            games: int = DEFAULT_GAMES, out: str | Path | None = None, seed: int = 0,
            epochs: int = DEFAULT_EPOCHS, batch_size: int = DEFAULT_BATCH_SIZE,
            learning_rate: float = DEFAULT_LEARNING_RATE, value_weight: float = DEFAULT_VALUE_WEIGHT,
            net_arch: Sequence[int] = DEFAULT_NET_ARCH, gamma: float = DEFAULT_GAMMA,
            reward: str = DEFAULT_REWARD, eval_games: int = DEFAULT_EVAL_GAMES,
            eval_levels: Sequence[int | str] | None = None,
            demonstrations: Demonstrations | str | Path | None = None,
            torch_threads: int | None = None, progress: bool = True, game: str = DEFAULT_GAME,
            num_players: int | None = None, bots: Sequence[str] | None = None,
            toms: Sequence[int | str] | None = None,
            eval_opponents: Sequence[str] | None = None,
            automatic: Sequence[int | str] | None = None) -> ImitationResult:
    """Clone ``teacher`` into a MaskablePPO policy saved as ``out/model.zip`` and ``out/policy.zip``;
    an ImitationResult.

    ``demonstrations`` (a Demonstrations or an ``.npz`` path) skips the collection; otherwise
    they are collected and saved as ``out/demonstrations.npz``. The teacher plays ``levels`` (a
    rung per game in turn) or else the setup of ``automatic`` (``toms``/``bots``, the game's own
    word) and ``num_players`` (as train_ppo).
    ``eval_games`` > 0 evaluates the clone (deterministic play) as train_ppo's periodic
    evaluation: the ladder's ``eval_levels`` and matches against ``eval_opponents`` (the game's
    ``train_defaults`` where not given)."""
    import torch
    start = time.perf_counter()
    out_dir = Path(out) if out is not None else RUNS_DIR / f"bc-{teacher.replace(':', '-')}"
    refuse_symlink(out_dir)
    if (out_dir / MODEL_FILE).exists():
        raise ValueError(f"{str(out_dir)!r} already holds a {MODEL_FILE}; give another --out")
    # the shapes and hyperparameters of the model train_ppo will continue from
    config = make_config(net_arch=tuple(net_arch), gamma=gamma, reward=reward, seed=seed,
                         out=str(out_dir), num_envs=1, batch_size=2, n_steps=2, game=game,
                         num_players=num_players, toms=toms, bots=bots, automatic=automatic,
                         eval_levels=eval_levels, eval_opponents=eval_opponents)
    played = get_game(config.game)
    stages = config.stages if levels is None else [(rung,) for rung in check_rungs(played, levels)]
    check_player(played, teacher, played.seat_config(1, stages[0]))
    if torch_threads is not None:
        torch.set_num_threads(positive_int(torch_threads, "torch_threads"))
    sizes = get_game(config.game).obs_size, get_game(config.game).num_actions
    if isinstance(demonstrations, Demonstrations):
        demonstrations.check(*sizes)
    elif demonstrations is not None:  # a file: read and checked before anything is written
        demonstrations = Demonstrations.load(demonstrations, *sizes)
    output_dir(out_dir)
    for name in (DEMOS_FILE, MODEL_FILE, POLICY_FILE, CONFIG_FILE, HISTORY_FILE):
        refuse_symlink(out_dir / name)  # refused before the work, not after
    if demonstrations is None:
        demos = collect_demonstrations(teacher, None, games, seed, gamma, reward, progress, played.name,
                                       stages)
        with open_output(out_dir / DEMOS_FILE, "wb") as handle:
            demos.save(handle)
    else:
        demos = demonstrations
    env = make_vec_env(config, config.stages[0], 0)
    model = make_model(config, env)
    history = fit_policy(model, demos, epochs, batch_size, learning_rate, value_weight, seed, progress)
    env.close()
    model_path, policy_path = out_dir / MODEL_FILE, out_dir / POLICY_FILE
    with open_output(model_path, "wb") as handle:
        model.save(handle)
    save_policy(model, policy_path, game=config.game, written_by="training.imitate")
    evaluation = None
    if eval_games:
        evaluation = evaluate_current_policy(model, config, positive_int(eval_games, "eval_games"),
                                             derive_seed(seed, STREAM_EVAL), label=BC_LABEL)
    seconds = time.perf_counter() - start
    write_output_text(out_dir / CONFIG_FILE, json.dumps({
        "teacher": teacher, "game": config.game, "stages": [list(stage) for stage in stages],
        "games": int(len(np.unique(demos.games))),
        "seed": seed, "epochs": epochs, "batch_size": batch_size, "learning_rate": learning_rate,
        "value_weight": value_weight, "net_arch": list(net_arch), "gamma": gamma, "reward": reward},
        indent=1) + "\n")
    write_output_text(out_dir / HISTORY_FILE, json.dumps({
        "decisions": len(demos), "teacher_mean_reward": float(np.mean(demos.teacher_rewards)),
        "seconds": round(seconds, 1), "history": history,
        "kept": dict(zip(("policy_epoch", "value_epoch"), kept_epochs(history), strict=True)),
        "evaluation": {against: {k: v for k, v in asdict(cell).items() if k != "seconds_per_game"}
                       for against, cell in evaluation.items()} if evaluation else None},
        indent=1) + "\n")
    return ImitationResult(model, model_path, policy_path, history, evaluation, len(demos), seconds)


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of ``python -m tiny_york_env.training.imitate``."""
    p = argparse.ArgumentParser(prog="python -m tiny_york_env.training.imitate",
                                description=__doc__.split("\n")[0],
                                formatter_class=DefaultsHelpFormatter)
    p.add_argument("--game", choices=game_names(), default=DEFAULT_GAME, help="the game (docs/games.md)")
    p.add_argument("--players", type=int, help="players in every game, a check (as train_ppo)")
    p.add_argument("--bots", nargs="+", metavar="BOT", help="a game with bots: the engine's bots in the "
                   "other seats (as train_ppo)")
    p.add_argument("--teacher", default=DEFAULT_TEACHER, help="the agent to imitate: an agent of the game "
                   "by name (the registry's written for it, or one of its policies)")
    p.add_argument("--levels", help="the automatic participants the teacher plays against, one per game "
                   "in turn: Tom levels ('1,5,9') or bots ('greedy,random'); default: the game's "
                   "single-agent env (Tiny York: Tom 5)")
    p.add_argument("--games", type=int, default=DEFAULT_GAMES, help="demonstration games")
    p.add_argument("--demonstrations", help="an .npz of earlier demonstrations (skips playing)")
    p.add_argument("--epochs", type=int, default=DEFAULT_EPOCHS, help="passes over the demonstrations")
    p.add_argument("--batch-size", type=int, default=DEFAULT_BATCH_SIZE, help="decisions per gradient step")
    p.add_argument("--learning-rate", type=float, default=DEFAULT_LEARNING_RATE, help="Adam step size")
    p.add_argument("--value-weight", type=float, default=DEFAULT_VALUE_WEIGHT,
                   help="weight of the value head's loss next to the cross-entropy")
    p.add_argument("--net-arch", default=",".join(map(str, DEFAULT_NET_ARCH)), help="hidden layer widths")
    p.add_argument("--reward", default=DEFAULT_REWARD, help="the value head's target reward kind")
    p.add_argument("--seed", type=int, default=0, help="seeds the games and torch")
    p.add_argument("--eval-games", type=int, default=DEFAULT_EVAL_GAMES, help="games per cell (0: none)")
    p.add_argument("--eval-levels", help="the evaluation's ladder rungs after training: Tom levels or "
                   "bots (default: the game's, as train_ppo)")
    p.add_argument("--eval-opponents", help="the evaluation's match opponents, comma-separated agents "
                   "of the game (default: the game's, as train_ppo)")
    p.add_argument("--torch-threads", type=int,
                   help="torch's intra-op threads (default: torch's own choice, one per core)")
    p.add_argument("--out", help="output directory (default: runs/bc-<teacher>); a symbolic link "
                   "there, or in place of a file it gets, is refused")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    game = get_game(args.game)
    try:
        result = imitate(
            teacher=args.teacher, levels=parse_rungs(game, args.levels), games=args.games,
            out=args.out, seed=args.seed, epochs=args.epochs, batch_size=args.batch_size,
            learning_rate=args.learning_rate, value_weight=args.value_weight,
            net_arch=parse_int_list(args.net_arch, "--net-arch"), reward=args.reward,
            eval_games=args.eval_games, eval_levels=parse_rungs(game, args.eval_levels),
            eval_opponents=None if args.eval_opponents is None else tuple(
                name.strip() for name in args.eval_opponents.split(",") if name.strip()),
            demonstrations=args.demonstrations, torch_threads=args.torch_threads,
            progress=not args.no_progress, game=args.game, num_players=args.players, bots=args.bots)
    except ValueError as error:
        parser.error(str(error))
    last = result.history[-1]
    print(f"{result.decisions} decisions; last epoch: " + ", ".join(
        f"{k} {v:.3f}" for k, v in last.items() if k != "epoch"))
    policy_epoch, value_epoch = kept_epochs(result.history)
    print(f"kept: the policy of epoch {policy_epoch}, the value function of epoch {value_epoch} "
          f"(their lowest held-out losses)")
    if result.evaluation:
        print(format_table(EvalResults("match", list(result.evaluation.values()))))
    print(f"policy: {result.policy_path} (SB3 checkpoint: {result.model_path}; {result.seconds:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
