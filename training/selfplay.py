"""Self-play training: a MaskablePPO learner against a pool of its own past snapshots, 2-4 agents.

| | |
|---|---|
| run | ``python -m tiny_york_env.training.selfplay --players 3 --total-steps 1000000 --out runs/sp3`` |
| function | ``selfplay(players=2, automatic=(), num_envs=8, total_steps=..., ...) -> SelfPlayResult`` |
| learner | one MaskablePPO (``MlpPolicy``) playing ONE agent seat per game |
| opponents | every other agent seat: a snapshot of the policy from the pool (the latest with prob |
| | ``latest_prob``, else uniform over the pool), or a baseline agent (``agents.registry``) |
| seats | env i starts in seat ``i mod players`` and moves one seat on every game: all seats |
| rewards | the learner's OWN agent only: the AEC env's reward of ``player_<seat>`` (0 until the end) |
| pool | a snapshot of the policy at the start and every ``snapshot_every`` steps; oldest dropped |
| | beyond ``pool_size``; a policy file ``OUT/snapshots/snapshot_<step>.zip`` while in the pool |
| output | ``OUT/policy.zip`` (policy file), ``OUT/model.zip`` (SB3 checkpoint), ``OUT/config.json``, |
| | ``OUT/log.csv`` (training and evaluation rows); a planted symbolic link there is refused |

**Why a single-agent env over the AEC env.** Self-play runs on the PettingZoo AEC env
(``tiny_york_env.envs.aec.raw_env``): each learner env, ``SelfPlayEnv``, is a single-agent Gymnasium
view of ONE seat of one ``raw_env`` game. The learner owns the agent ``player_<seat>``; the other
agents are stepped through the AEC API (``agent_selection``, ``last()``, ``step``) by frozen pool
opponents, which decide as ``agents.base.choose_action`` makes them (a planning agent gets a
determinized seat-safe view, any other agent the observation and mask ``last()`` gives); the engine
plays its automatic participants (Toms, bots) inside ``step``. ``reset`` and ``step`` run that loop
until the learner is selected again, and after the end until every agent has stepped ``None``. SB3
therefore sees only the learner's own transitions: its ``observe(player_<seat>)`` observations and
masks, its actions, and its own reward as ``last()`` reports it, never an opponent's; and
MaskablePPO's ordinary single-agent machinery (DummyVecEnv, ``action_masks()``) applies unchanged.
Driving every seat with the learner instead would mix several agents' transitions in one stream.

**Every game** (``--game construction_yard``): the same loop on that game's AEC env
(``envs.aec.GameAECEnv`` with ``seat_config(players, automatic)``): ``--players`` agent seats plus
the engine's automatic participants after them (``automatic=``; ``--tom`` or ``toms=`` for Tiny
York's, ``--bots`` or ``bots=`` for the others'; Dirk and Alea join two-player games by the
rules). Baselines and evaluation opponents are the game's players by name (the agent registry,
``agents/registry.py``: random, greedy, search[:N], gsearch[:N], psearch[:N][@S], champion[@S],
ppo[:PATH], the game's own), and the evaluation is the arena's match
(``arena.match.evaluate_vs_agents``).

Snapshots are taken at rollout boundaries (the policy only changes there): one is taken at the
first rollout that starts at or after each multiple of ``snapshot_every`` steps. Snapshot
opponents sample from their policy (``deterministic_opponents=False``) for varied play; the
evaluation plays the learner greedily (its most probable legal action).
"""

import argparse
import csv
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import gymnasium
import numpy as np
from tqdm.auto import tqdm

from tiny_york_env.agents.base import choose_action, uses_state
from tiny_york_env.agents.ppo_agent import POLICY_FILE
from tiny_york_env.agents.registry import check_player, make_player
from tiny_york_env.agents.shipped import shipped_policy_path
from tiny_york_env.arena.match import evaluate_vs_agents
from tiny_york_env.arena.output import open_output, output_dir, refuse_symlink, write_output_text
from tiny_york_env.arena.runner import positive_int
from tiny_york_env.arena.seeds import check_seed, derive_seed
from tiny_york_env.cli_types import DefaultsHelpFormatter
from tiny_york_env.envs.aec import GameAECEnv
from tiny_york_env.envs.rewards import REWARD_KINDS, check_reward_kind, not_reset_error
from tiny_york_env.envs.single import LegalDiscrete, as_action, check_agent_seat, next_game_seed
from tiny_york_env.registry import DEFAULT_GAME, game_names, get_game
from tiny_york_env.training import defaults
from tiny_york_env.training.export import save_policy
from tiny_york_env.training.train_ppo import load_initial_weights, parse_int_list

MIN_PLAYERS = 2  # agent seats in a self-play game: the learner and an opponent (the config bounds the rest)
DEFAULT_PLAYERS = defaults.SELFPLAY_PLAYERS
DEFAULT_NUM_ENVS = defaults.SELFPLAY_NUM_ENVS
DEFAULT_TOTAL_STEPS = defaults.SELFPLAY_TOTAL_STEPS
DEFAULT_SNAPSHOT_EVERY = defaults.SELFPLAY_SNAPSHOT_EVERY
DEFAULT_POOL_SIZE = defaults.SELFPLAY_POOL_SIZE
DEFAULT_LATEST_PROB = defaults.SELFPLAY_LATEST_PROB
DEFAULT_EVAL_EVERY = defaults.SELFPLAY_EVAL_EVERY
DEFAULT_EVAL_GAMES = defaults.SELFPLAY_EVAL_GAMES
DEFAULT_N_STEPS = defaults.SELFPLAY_N_STEPS
DEFAULT_N_EPOCHS = defaults.SELFPLAY_N_EPOCHS
DEFAULT_BATCH_SIZE = defaults.SELFPLAY_BATCH_SIZE
DEFAULT_LEARNING_RATE = defaults.LEARNING_RATE
DEFAULT_ENT_COEF = defaults.ENT_COEF
DEFAULT_TORCH_THREADS = defaults.TORCH_THREADS
DEFAULT_REWARD = defaults.REWARD
DEFAULT_EVAL_OPPONENTS = defaults.SELFPLAY_EVAL_OPPONENTS
DEFAULT_GAMMA = defaults.GAMMA
DEFAULT_NET_ARCH = defaults.NET_ARCH
SHIPPED_START = "ppo"  # init_from: the shipped policy of the game and player count
MODEL_FILE = "model.zip"
CONFIG_FILE = "config.json"
LOG_FILE = "log.csv"
SNAPSHOT_DIR = "snapshots"
SNAPSHOT_PREFIX = "snapshot_"
STEP_DIGITS = 9  # snapshot_000020000.zip sorts by step
POOL_LABEL = "pool"  # the opponent column of training rows: whoever the pool dealt
OLDEST_SNAPSHOT = "oldest-snapshot"  # an evaluation opponent: the oldest policy in the pool
LOG_COLUMNS = ("step", "seconds", "steps_per_second", "kind", "opponent", "games", "wins",
               "win_rate", "mean_reward", "mean_margin", "pool_size")
# Streams of the seed derivation (arena.seeds.derive_seed), so nothing shares a seed.
STREAM_POOL, STREAM_BASELINE, STREAM_EVAL, STREAM_SNAPSHOT = 10, 11, 12, 13
# reset options naming the automatic participants
AUTOMATIC_OPTIONS = frozenset({"automatic", "toms", "bots"})
RESET_OPTIONS = frozenset({"seat"}) | AUTOMATIC_OPTIONS
# Every seat plays masked (the learner, snapshots, baselines): an illegal action is a bug to stop at,
# never a game ended with a penalty to learn from.
ILLEGAL_ACTION = "raise"


# ---------------------------------------------------------------- policies as agents

def freeze_policy(policy):
    """A detached CPU copy of an SB3 policy in eval mode, unaffected by later training."""
    # Rebuilt from its constructor arguments as BasePolicy.save/load do: deepcopy fails on the
    # last forward pass's distribution, which the policy keeps.
    frozen = type(policy)(**policy._get_constructor_parameters())
    frozen.load_state_dict(policy.state_dict())
    frozen.optimizer = None  # not needed to act; saves the Adam moments' memory
    frozen.set_training_mode(False)
    for parameter in frozen.parameters():
        parameter.requires_grad_(False)
    return frozen


class PolicyAgent:
    """A MaskablePPO policy as an agent: ``act(observation, action_mask)`` picks the most probable
    legal action (``deterministic``) or samples one from the masked distribution with its own
    generator. The same choice as ``agents.ppo_agent.PPOAgent`` over the same weights, about 4x
    faster (no torch distribution objects): opponents decide as often as the learner. Saved
    policy files (``OUT/policy.zip``, snapshots) load with ``PPOAgent(path)`` or
    ``make_agent("ppo:PATH")``."""

    def __init__(self, policy, deterministic=True, label="policy", seed=None):
        self.policy = policy
        self.deterministic = bool(deterministic)
        self.label = label
        self.rng = np.random.default_rng(seed)

    def action_logits(self, observation):
        """float64[NUM_ACTIONS]: the policy's unmasked action logits for one observation."""
        import torch

        with torch.no_grad():
            obs = torch.as_tensor(np.asarray(observation, dtype=np.float32).reshape(1, -1))
            features = self.policy.extract_features(obs, self.policy.pi_features_extractor)
            latent = self.policy.mlp_extractor.forward_actor(features)
            return self.policy.action_net(latent)[0].numpy().astype(np.float64)

    def act(self, observation, action_mask):
        """A legal action for this observation; ValueError when the mask allows none."""
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("no legal action: the mask is all False (is the game over?)")
        logits = self.action_logits(observation)[legal]
        if self.deterministic:
            return int(legal[np.argmax(logits)])  # the first of equal maxima, as torch's argmax
        weights = np.exp(logits - logits.max())
        return int(self.rng.choice(legal, p=weights / weights.sum()))


class PolicyFactory:
    """``factory(seed) -> PolicyAgent`` over one frozen policy, for the arena."""

    def __init__(self, policy, label, deterministic=True):
        self.policy, self.label, self.deterministic = policy, label, deterministic

    def __call__(self, seed):
        """A PolicyAgent over the shared frozen policy, sampling (if it does) with ``seed``."""
        return PolicyAgent(self.policy, self.deterministic, self.label, seed)


# ---------------------------------------------------------------- the opponent pool

def check_probability(value, what):
    """``value`` as a float; ValueError naming ``what`` unless it is a number in [0, 1]."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise ValueError(f"{what} must be a probability in [0, 1], got {value!r}")
    return float(value)


@dataclass
class PoolEntry:
    """One opponent the pool can deal: a policy snapshot (with its step) or a baseline agent."""

    label: str
    agent: object
    step: int | None = None  # None for a baseline
    path: Path | None = None  # the snapshot's file, when the run saves one


class OpponentPool:
    """Past snapshots of the learning policy (at most ``pool_size``, oldest dropped) plus fixed
    baseline agents. ``sample(rng)`` deals the latest snapshot with probability ``latest_prob``,
    else any entry uniformly (snapshots and baselines alike)."""

    def __init__(self, pool_size=DEFAULT_POOL_SIZE, latest_prob=DEFAULT_LATEST_PROB, baselines=()):
        self.pool_size = positive_int(pool_size, "pool_size")
        self.latest_prob = check_probability(latest_prob, "latest_prob")
        self.baselines = [PoolEntry(label, agent) for label, agent in baselines]
        self.snapshots = []
        self.dropped = []  # entries that left the pool, oldest first (their files are deleted)

    @property
    def entries(self):
        """Every entry that may be dealt: the snapshots (oldest first), then the baselines."""
        return self.snapshots + self.baselines

    @property
    def latest(self):
        """The newest snapshot; ValueError while there is none."""
        if not self.snapshots:
            raise ValueError("the pool holds no snapshot yet: add_snapshot() first")
        return self.snapshots[-1]

    def add_snapshot(self, label, agent, step, path=None):
        """Put a snapshot in the pool, dropping (and deleting the file of) the oldest beyond size."""
        self.snapshots.append(PoolEntry(label, agent, int(step), path))
        while len(self.snapshots) > self.pool_size:
            old = self.snapshots.pop(0)
            if old.path is not None:
                old.path.unlink(missing_ok=True)
            self.dropped.append(old)

    def sample(self, rng):
        """A pool entry: the latest snapshot with probability ``latest_prob``, else uniform."""
        if rng.random() < self.latest_prob:
            return self.latest
        entries = self.entries
        if not entries:
            raise ValueError("the pool is empty: add a snapshot or give baselines")
        return entries[int(rng.integers(len(entries)))]


class OpponentSlot:
    """A fixed stand-in for one opponent seat whose agent is swapped every game: it forwards
    ``act`` and, when the agent has one, ``act_state`` (so planning baselines get their view)."""

    def __init__(self):
        self.entry = None

    def act(self, observation, action_mask):
        """The dealt agent's action."""
        return self.entry.agent.act(observation, action_mask)

    def __getattr__(self, name):
        entry = self.__dict__.get("entry")
        if entry is None:
            raise AttributeError(name)
        return getattr(entry.agent, name)


# ---------------------------------------------------------------- the learner's env

class SelfPlayEnv(gymnasium.Env):
    """One agent seat of the PettingZoo AEC env (``aec.raw_env``) as a Gymnasium env for SB3: the
    learner plays ``player_<seat>``, frozen pool opponents the other agents, the engine its automatic
    participants.
    The learning seat moves on one seat every game and the opponents are dealt afresh from ``pool``
    every game. ``info`` holds ``action_mask``, ``seat`` and ``opponents`` (labels by seat, the
    learner's seat holding ``None``); at the end also ``final_scores`` and ``winner``."""

    metadata = {"render_modes": []}

    def __init__(self, pool, players=DEFAULT_PLAYERS, toms=(), reward=DEFAULT_REWARD, first_seat=0,
                 pool_seed=0, game=DEFAULT_GAME, bots=(), automatic=()):
        self.pool = pool
        self.game = get_game(game)
        self.players = int(players)
        self.reward_kind = check_reward_kind(reward)
        self.slots = tuple(OpponentSlot() for _ in range(self.players - 1))
        self._pool_rng = np.random.default_rng(pool_seed)
        self._build_aec(self.game.automatic_from(automatic=automatic, toms=toms, bots=bots))
        self.seat = self._check_seat(first_seat)
        self._next_seat = self.seat
        self.observation_space = self.game.observation_space()
        self._mask = self.game.empty_mask()
        self.action_space = LegalDiscrete(self.game.num_actions, self._mask)
        self._game_seed = None
        self._view_rng = None
        self._learner = None
        self._slot_of_agent = {}
        self._labels = [None] * self.players

    def _build_aec(self, automatic):
        """A fresh AEC env for ``players`` agents and the ``automatic`` participants after them
        (ValueError from the game's config if invalid)."""
        self.aec = GameAECEnv(game=self.game, config=self.game.seat_config(self.players, tuple(automatic)),
                              reward=self.reward_kind, illegal_action=ILLEGAL_ACTION)
        self.config = self.aec.config

    def _check_seat(self, seat):
        """``seat`` as an int; ValueError unless it is an agent seat."""
        return check_agent_seat(seat, self.players)

    @property
    def game_seed(self):
        """The seed of the game in play (None before the first reset)."""
        return self._game_seed

    def reset(self, *, seed=None, options=None):
        """Start the next game: fresh opponents, the next learning seat (or ``options["seat"]``;
        ``options["automatic"]``, ``["toms"]`` or ``["bots"]`` changes them from this game on), the
        AEC env reset with the game seed (``seed``, else ``next_seed`` of the last), the opponents
        played up to the learner."""
        super().reset(seed=seed)
        options = dict(options or {})
        unknown = set(options) - RESET_OPTIONS
        if unknown:
            raise ValueError(f"unknown reset options {sorted(unknown)}; allowed: {sorted(RESET_OPTIONS)}")
        if options.keys() & AUTOMATIC_OPTIONS:  # the automatic participants from this game on
            named = {k: options[k] for k in options.keys() & AUTOMATIC_OPTIONS}
            self._build_aec(self.game.automatic_from(**named))
        self.seat = self._check_seat(options.get("seat", self._next_seat))
        self._next_seat = (self.seat + 1) % self.players
        for slot in self.slots:
            slot.entry = self.pool.sample(self._pool_rng)
        self._learner = self.aec.possible_agents[self.seat]
        others = [agent for agent in self.aec.possible_agents if agent != self._learner]
        self._slot_of_agent = dict(zip(others, self.slots, strict=True))  # seat order
        self._labels = [None if agent == self._learner else self._slot_of_agent[agent].entry.label
                        for agent in self.aec.possible_agents]
        self._game_seed = next_game_seed(seed, self._game_seed, self.np_random)
        self._view_rng = np.random.default_rng(self._game_seed)  # the planning opponents' views
        self.aec.reset(seed=self._game_seed)
        observation, _, terminated = self._play_until_learner()
        return observation, self._info(terminated)

    def step(self, action):
        """The learner's ``action`` through ``aec.step``, then the opponents until the learner is
        selected again or the game is over; the reward is the learner's own (``last()``'s)."""
        if self._learner is None:
            raise ValueError("call reset() before step()")
        if not self.aec.agents or self.aec.terminations[self._learner]:
            raise ValueError("the game is over: call reset() before step()")
        self.aec.step(as_action(action))  # the engine's ValueError on an illegal action
        observation, reward, terminated = self._play_until_learner()
        return observation, reward, terminated, False, self._info(terminated)

    def action_masks(self):
        """bool[NUM_ACTIONS]: the learner's legal actions now (for MaskablePPO)."""
        if self._learner is None:
            raise not_reset_error("action_masks")
        return self._mask.copy()

    def _play_until_learner(self):
        """The standard AEC loop until the learner is selected on a live turn (it returns the
        learner's observation and reward from ``last()`` and False) or every agent has stepped
        ``None`` after the end (the learner's final observation and reward, and True)."""
        aec = self.aec
        final = None
        while aec.agents:
            agent = aec.agent_selection
            if agent == self._learner:
                observation, reward, terminated, truncated, _ = aec.last()
                self._mask[:] = observation["action_mask"]  # in place: the action space samples it
                if not (terminated or truncated):
                    return observation["observation"], float(reward), False
                final = observation["observation"], float(reward), True
                aec.step(None)
                continue
            slot = self._slot_of_agent[agent]
            planner = uses_state(slot)
            observation, _, terminated, truncated, _ = aec.last(observe=not planner)
            if terminated or truncated:
                aec.step(None)
                continue
            if planner:  # a seat-safe determinized view of the game, as choose_action gives
                action = choose_action(slot, aec.unwrapped.game_state, self._view_rng)
            else:  # choose_action's observation and mask, as the AEC env hands them out
                action = slot.act(observation["observation"], observation["action_mask"].astype(np.bool_))
            self._opponent_step(agent, action)
        return final

    def _opponent_step(self, agent, action):
        """An opponent's ``action`` through ``aec.step``; ValueError naming its seat if illegal."""
        try:
            self.aec.step(as_action(action))
        except ValueError as error:
            seat = self.aec.possible_agents.index(agent)
            raise ValueError(f"the opponent in seat {seat} chose an illegal action: {error}") from error

    def _info(self, terminated):
        """The learner's mask and the seating; at the end, every participant's score and the winner."""
        info = {"action_mask": self._mask.copy(), "seat": self.seat, "opponents": list(self._labels)}
        if terminated:
            state = self.aec.unwrapped.game_state
            info["final_scores"] = self.game.final_scores(state)
            info["winner"] = self.game.winners(state)[0]
        return info


# ---------------------------------------------------------------- options and results

@dataclass
class SelfPlayConfig:
    """Every option of a self-play run (saved as config.json)."""

    players: int = DEFAULT_PLAYERS
    toms: tuple = ()  # Tiny York's word for ``automatic``
    num_envs: int = DEFAULT_NUM_ENVS
    total_steps: int = DEFAULT_TOTAL_STEPS
    seed: int = 0
    snapshot_every: int = DEFAULT_SNAPSHOT_EVERY
    pool_size: int = DEFAULT_POOL_SIZE
    latest_prob: float = DEFAULT_LATEST_PROB
    baselines: tuple = ()
    reward: str = DEFAULT_REWARD
    eval_every: int = DEFAULT_EVAL_EVERY
    eval_games: int = DEFAULT_EVAL_GAMES
    eval_opponents: tuple = DEFAULT_EVAL_OPPONENTS
    n_steps: int = DEFAULT_N_STEPS
    n_epochs: int = DEFAULT_N_EPOCHS
    batch_size: int = DEFAULT_BATCH_SIZE
    learning_rate: float = DEFAULT_LEARNING_RATE
    ent_coef: float = DEFAULT_ENT_COEF
    deterministic_opponents: bool = False
    torch_threads: int = DEFAULT_TORCH_THREADS
    game: str = DEFAULT_GAME
    bots: tuple = ()  # another game's word for ``automatic``
    gamma: float = DEFAULT_GAMMA  # train_ppo's defaults: a game pays only at its end
    net_arch: tuple = DEFAULT_NET_ARCH
    init_from: str | None = None  # a policy file or SB3 checkpoint, or "ppo" (the shipped policy)
    automatic: tuple = ()  # the engine's participants after the agent seats (Toms, bots)

    def check(self):
        """Validate and normalise the options; ValueError saying what is wrong and what is allowed."""
        game = get_game(self.game)
        self.game = game.name
        automatic = game.automatic_from(automatic=self.automatic, toms=self.toms, bots=self.bots)
        if isinstance(self.players, bool) or not isinstance(self.players, int) or self.players < MIN_PLAYERS:
            raise ValueError(f"players must be at least {MIN_PLAYERS} agent seats, got {self.players!r}")
        config = game.seat_config(self.players, automatic)  # validates the seats and the automatic ones
        if game.num_agents(config) != self.players:
            raise ValueError(f"{game.title} with {self.players} players and {game.automatic_kind} "
                             f"{list(automatic)} has {game.num_agents(config)} agent seats, not "
                             f"{self.players}")
        # one spelling each (Tiny York's codes), under both words: ``automatic`` and the game's own
        normalised = {"toms": (), "bots": (), game.automatic_kind: tuple(game.automatic_of(config))}
        self.toms, self.bots = normalised["toms"], normalised["bots"]
        self.automatic = normalised[game.automatic_kind]
        return self._check_common(lambda name: check_player(game, name, config))

    def _check_common(self, check_name):
        """The options every game shares; ``check_name`` refuses an unknown opponent name."""
        for name in ("num_envs", "total_steps", "snapshot_every", "pool_size", "eval_every",
                     "eval_games", "n_steps", "n_epochs", "batch_size", "torch_threads"):
            setattr(self, name, positive_int(getattr(self, name), name))
        self.seed = check_seed(self.seed)
        check_reward_kind(self.reward)
        self.baselines = tuple(self.baselines)
        self.eval_opponents = tuple(self.eval_opponents)
        for name in self.baselines + tuple(o for o in self.eval_opponents if o != OLDEST_SNAPSHOT):
            check_name(name)
        self.latest_prob = check_probability(self.latest_prob, "latest_prob")
        if isinstance(self.gamma, bool) or not isinstance(self.gamma, (int, float)) \
                or not 0 < self.gamma <= 1:
            raise ValueError(f"gamma must be a number in (0, 1], got {self.gamma!r}")
        self.net_arch = tuple(positive_int(width, "net_arch widths") for width in self.net_arch)
        if not self.net_arch:
            raise ValueError("net_arch needs at least one hidden layer width")
        if self.init_from is not None and not isinstance(self.init_from, (str, Path)):
            raise ValueError(f"init_from is a policy file, an SB3 checkpoint or {SHIPPED_START!r}, "
                             f"got {self.init_from!r}")
        if self.init_from is not None:
            self.init_from = str(self.init_from)
        return self

    def start_path(self):
        """The weights to start from: None (fresh), ``init_from``'s path, or the shipped policy of
        this game and player count for "ppo" (ValueError when none is shipped)."""
        if self.init_from != SHIPPED_START:
            return self.init_from
        game = get_game(self.game)
        return str(shipped_policy_path(game, game.num_participants(game.seat_config(self.players,
                                                                                    self.automatic))))


@dataclass(frozen=True)
class EpisodeRecord:
    """One finished training game as the learner saw it: its seat, the reward SB3 received for
    it, and the game's outcome (scores of every participant, the automatic ones last; the winning
    seat)."""

    seat: int
    reward: float
    scores: tuple
    winner: int
    opponents: tuple


@dataclass
class SelfPlayResult:
    """What a run produced: the model, its pool, the log rows and the measured speed."""

    model: object
    pool: OpponentPool
    log: list = field(default_factory=list)
    steps: int = 0
    train_seconds: float = 0.0
    eval_seconds: float = 0.0
    episodes: list = field(default_factory=list)  # an EpisodeRecord per finished training game

    @property
    def steps_per_second(self):
        """Environment steps per second of training time (evaluation excluded)."""
        return self.steps / self.train_seconds if self.train_seconds > 0 else 0.0


# ---------------------------------------------------------------- evaluation

def evaluate_policy(policy, opponent, config, seed):
    """(games, wins, mean margin) of the greedy ``policy`` in every seat against ``opponent`` (an
    agent name of the game or a factory) in all other agent seats, over ~``config.eval_games``
    games (a shared win counts 1/k)."""
    players = config.players
    games = max(players, config.eval_games - config.eval_games % players)
    learner = PolicyFactory(policy, "learner")
    results = evaluate_vs_agents([learner] + [opponent] * (players - 1), games=games, seed=seed,
                                 workers=1, progress=False, game=config.game,
                                 automatic=config.automatic)
    cell = results.cells[0]
    return cell.games, cell.wins, cell.mean_margin


def seat_margin(scores, seat):
    """``seat``'s final score minus the best other participant's (the automatic ones included)."""
    return scores[seat] - max(score for other, score in enumerate(scores) if other != seat)


def evaluation_opponents(config, pool):
    """(label, registry name or factory) of each evaluation opponent of ``config`` now."""
    opponents = []
    for name in config.eval_opponents:
        if name == OLDEST_SNAPSHOT:
            oldest = pool.snapshots[0]
            opponents.append((oldest.label, PolicyFactory(oldest.agent.policy, oldest.label)))
        else:
            opponents.append((name, name))
    return opponents


# ---------------------------------------------------------------- the training loop

def _callback_class():
    """The SB3 callback class (defined on demand: stable-baselines3 is an optional extra)."""
    from stable_baselines3.common.callbacks import BaseCallback

    class SelfPlayCallback(BaseCallback):
        """Snapshots into the pool, episode statistics, periodic evaluation, CSV log, progress."""

        def __init__(self, run):
            super().__init__()
            self.run = run

        def _on_training_start(self):
            self.run.start_progress()

        def _on_rollout_start(self):
            self.run.at_rollout_start(self.num_timesteps)

        def _on_step(self):
            self.run.record_step(self.locals["infos"], self.locals["rewards"], self.locals["dones"],
                                 self.num_timesteps)
            return True

        def _on_training_end(self):
            self.run.finish(self.num_timesteps)

    return SelfPlayCallback


class SelfPlayRun:
    """The state of one run that the callback drives: pool, counters, log file, progress bar."""

    def __init__(self, config, model, pool, out, progress):
        self.config, self.model, self.pool, self.out = config, model, pool, out
        self.progress = progress
        self.result = SelfPlayResult(model, pool)
        self.next_snapshot = 0
        self.next_eval = config.eval_every
        self.evaluations = 0
        self._reset_counts()
        self.bar = None
        self.started = time.perf_counter()
        self.last_step = 0
        if out is not None:
            output_dir(out / SNAPSHOT_DIR)
            with open_output(out / LOG_FILE, "w", newline="") as handle:
                csv.writer(handle).writerow(LOG_COLUMNS)

    def _reset_counts(self):
        self.games = self.wins = 0
        self.reward_sum = self.margin_sum = 0.0

    def start_progress(self):
        """Open the tqdm bar (when ``progress``) and restart the clock."""
        self.started = time.perf_counter()
        if self.progress:
            self.bar = tqdm(total=self.config.total_steps, desc="self-play", unit="step")

    def take_snapshot(self, step):
        """Freeze the current policy into the pool (and save its policy file under OUT/snapshots/)."""
        label = f"{SNAPSHOT_PREFIX}{step:0{STEP_DIGITS}d}"
        path = None
        if self.out is not None:
            path = self.out / SNAPSHOT_DIR / f"{label}.zip"
            save_policy(self.model, path, game=self.config.game, written_by="training.selfplay",
                        timesteps=int(step))
        agent = PolicyAgent(freeze_policy(self.model.policy), self.config.deterministic_opponents, label,
                            seed=derive_seed(self.config.seed, STREAM_SNAPSHOT, step))
        self.pool.add_snapshot(label, agent, step, path)

    def at_rollout_start(self, step):
        """Snapshot and evaluate when their step counts are due (the policy just changed)."""
        if step >= self.next_snapshot:
            self.take_snapshot(step)
            self.next_snapshot = (step // self.config.snapshot_every + 1) * self.config.snapshot_every
        if step >= self.next_eval:
            self.log_progress(step)
            self.next_eval = (step // self.config.eval_every + 1) * self.config.eval_every

    def record_step(self, infos, rewards, dones, step):
        """Count the finished games: the learner's seat, its reward, whether it won."""
        for info, reward, done in zip(infos, rewards, dones, strict=True):
            if done:
                self.games += 1
                self.wins += int(info["winner"] == info["seat"])
                self.reward_sum += float(reward)
                self.margin_sum += float(seat_margin(info["final_scores"], info["seat"]))
                self.result.episodes.append(EpisodeRecord(
                    info["seat"], float(reward), tuple(int(x) for x in info["final_scores"]),
                    int(info["winner"]), tuple(info["opponents"])))
        if self.bar is not None:
            self.bar.update(step - self.last_step)
        self.last_step = step

    def log_progress(self, step):
        """Write a training row (games since the last one) and one row per evaluation opponent."""
        train_seconds = time.perf_counter() - self.started - self.result.eval_seconds
        speed = step / train_seconds if train_seconds > 0 else 0.0
        base = {"step": step, "steps_per_second": round(speed, 1), "pool_size": len(self.pool.snapshots)}
        rows = [{**base, "kind": "train", "opponent": POOL_LABEL, "games": self.games, "wins": self.wins,
                 "win_rate": self.wins / self.games if self.games else "",
                 "mean_reward": self.reward_sum / self.games if self.games else "",
                 "mean_margin": self.margin_sum / self.games if self.games else ""}]
        self._reset_counts()
        eval_start = time.perf_counter()
        policy = freeze_policy(self.model.policy)
        for k, (label, opponent) in enumerate(evaluation_opponents(self.config, self.pool)):
            seed = derive_seed(self.config.seed, STREAM_EVAL, self.evaluations, k)
            games, wins, margin = evaluate_policy(policy, opponent, self.config, seed)
            rows.append({**base, "kind": "eval", "opponent": label, "games": games, "wins": wins,
                         "win_rate": wins / games, "mean_margin": margin})
        self.evaluations += 1
        self.result.eval_seconds += time.perf_counter() - eval_start
        elapsed = time.perf_counter() - self.started
        for row in rows:
            row["seconds"] = round(elapsed, 2)
            self.result.log.append(row)
        if self.out is not None:
            with open_output(self.out / LOG_FILE, "a", newline="") as handle:
                writer = csv.DictWriter(handle, LOG_COLUMNS)
                writer.writerows(rows)
        if self.bar is not None:
            rates = ", ".join(f"{r['opponent']} {r['win_rate']:.2f}" for r in rows[1:])
            self.bar.set_postfix_str(f"eval win rate: {rates}")

    def finish(self, step):
        """The last log rows, the speed, the progress bar closed."""
        self.log_progress(step)
        self.result.steps = step
        self.result.train_seconds = time.perf_counter() - self.started - self.result.eval_seconds
        if self.bar is not None:
            self.bar.close()


def build_pool(config):
    """An empty-of-snapshots pool with the configured baselines, each seeded from the run's seed
    (``agents.registry.make_player``)."""
    game = get_game(config.game)
    setup = game.seat_config(config.players, config.automatic)
    baselines = [(name, make_player(game, name, derive_seed(config.seed, STREAM_BASELINE, k), setup))
                 for k, name in enumerate(config.baselines)]
    return OpponentPool(config.pool_size, config.latest_prob, baselines)


def build_vec_env(config, pool):
    """A DummyVecEnv of ``num_envs`` SelfPlayEnvs, env i starting in seat ``i mod players``."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    def make(index):
        return lambda: SelfPlayEnv(pool, config.players, reward=config.reward,
                                   first_seat=index % config.players,
                                   pool_seed=derive_seed(config.seed, STREAM_POOL, index),
                                   game=config.game, automatic=config.automatic)

    vec_env = DummyVecEnv([make(i) for i in range(config.num_envs)])
    vec_env.seed(config.seed)  # env i plays seed + i, then the next_seed chain
    return vec_env


def selfplay(out: str | Path | None = None, progress: bool = True, **options) -> SelfPlayResult:
    """Train a MaskablePPO learner by self-play (options: the fields of SelfPlayConfig); with
    ``out``, write policy.zip, model.zip, config.json, log.csv and snapshots/ there (a planted
    symbolic link is refused). Returns SelfPlayResult."""
    import torch
    from sb3_contrib import MaskablePPO

    config = SelfPlayConfig(**options).check()
    torch.set_num_threads(config.torch_threads)
    out = None if out is None else Path(out)
    if out is not None:
        output_dir(out)
        for name in (CONFIG_FILE, LOG_FILE, SNAPSHOT_DIR, MODEL_FILE, POLICY_FILE):
            refuse_symlink(out / name)  # refused before training, not after
        write_output_text(out / CONFIG_FILE, json.dumps(asdict(config), indent=2) + "\n")
    pool = build_pool(config)
    vec_env = build_vec_env(config, pool)
    model = MaskablePPO("MlpPolicy", vec_env, n_steps=config.n_steps, n_epochs=config.n_epochs,
                        batch_size=config.batch_size, gamma=config.gamma,
                        learning_rate=config.learning_rate, ent_coef=config.ent_coef,
                        seed=config.seed, device="cpu", verbose=0,
                        policy_kwargs={"net_arch": list(config.net_arch)})
    if config.init_from is not None:
        load_initial_weights(model, config.start_path(), config.net_arch)
    run = SelfPlayRun(config, model, pool, out, progress)
    run.take_snapshot(0)  # the pool is never empty: the first games are against the initial policy
    run.next_snapshot = config.snapshot_every
    model.learn(config.total_steps, callback=_callback_class()(run))
    if out is not None:
        with open_output(out / MODEL_FILE, "wb") as handle:
            model.save(handle)
        save_policy(model, out / POLICY_FILE, game=config.game, written_by="training.selfplay")
    return run.result


# ---------------------------------------------------------------- command line

def _names(text):
    """A comma-separated list of agent names ('' for none)."""
    return tuple(name.strip() for name in text.split(",") if name.strip())


def _toms(text):
    """A comma-separated list of Tom levels or codes ('5,B4')."""
    return tuple(int(t) if t.isdigit() else t for t in _names(text))


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of ``python -m tiny_york_env.training.selfplay``."""
    parser = argparse.ArgumentParser(prog="python -m tiny_york_env.training.selfplay",
                                     description=__doc__.splitlines()[0],
                                     formatter_class=DefaultsHelpFormatter)
    parser.add_argument("--game", choices=game_names(), default=DEFAULT_GAME,
                        help="the game (docs/games.md): its automatic participants are --tom or --bots")
    parser.add_argument("--players", type=int, default=DEFAULT_PLAYERS,
                        help="agent seats (at least 2; Tiny York: up to 4 participants in all)")
    parser.add_argument("--bots", type=_names, default=(),
                        help="a game with bots: the engine's players after the agents, comma-separated "
                             "(e.g. greedy,random)")
    parser.add_argument("--tom", type=_toms, default=(), dest="toms",
                        help="Tiny York: Toms after the agents, levels or codes, comma-separated "
                             "(e.g. 5,B4); none when not given")
    parser.add_argument("--num-envs", type=int, default=DEFAULT_NUM_ENVS,
                        help="games played side by side (one SelfPlayEnv each)")
    parser.add_argument("--total-steps", type=int, default=DEFAULT_TOTAL_STEPS,
                        help="learner decisions to train for")
    parser.add_argument("--seed", type=int, default=0, help="seeds the games, the pool draws and torch")
    parser.add_argument("--snapshot-every", type=int, default=DEFAULT_SNAPSHOT_EVERY,
                        help="add a snapshot of the policy to the pool every N steps")
    parser.add_argument("--pool-size", type=int, default=DEFAULT_POOL_SIZE,
                        help="snapshots kept in the pool (oldest dropped)")
    parser.add_argument("--latest-prob", type=float, default=DEFAULT_LATEST_PROB,
                        help="chance an opponent seat gets the latest snapshot (else uniform over the pool)")
    parser.add_argument("--baselines", type=_names, default=(),
                        help="baseline opponents in the pool, e.g. random,greedy (agent names; "
                             "another game's policies); none when not given")
    parser.add_argument("--reward", choices=REWARD_KINDS, default=DEFAULT_REWARD,
                        help="the learner's own reward at the end (docs/tiny-york.md, Rewards)")
    parser.add_argument("--eval-every", type=int, default=DEFAULT_EVAL_EVERY,
                        help="evaluate the learner every N steps (and at the end)")
    parser.add_argument("--eval-games", type=int, default=DEFAULT_EVAL_GAMES,
                        help="games per evaluation opponent")
    parser.add_argument("--eval-opponents", type=_names, default=DEFAULT_EVAL_OPPONENTS,
                        help=f"registry names and/or {OLDEST_SNAPSHOT}, comma-separated")
    parser.add_argument("--n-steps", type=int, default=DEFAULT_N_STEPS, help="rollout steps per env")
    parser.add_argument("--n-epochs", type=int, default=DEFAULT_N_EPOCHS, help="PPO epochs per rollout")
    parser.add_argument("--batch-size", type=int, default=DEFAULT_BATCH_SIZE, help="PPO minibatch size")
    parser.add_argument("--learning-rate", type=float, default=DEFAULT_LEARNING_RATE, help="Adam step size")
    parser.add_argument("--ent-coef", type=float, default=DEFAULT_ENT_COEF, help="entropy bonus weight")
    parser.add_argument("--deterministic-opponents", action="store_true",
                        help="snapshot opponents play their most probable action instead of sampling")
    parser.add_argument("--torch-threads", type=int, default=DEFAULT_TORCH_THREADS,
                        help="torch intra-op threads")
    parser.add_argument("--gamma", type=float, default=DEFAULT_GAMMA, help="discount factor (as train_ppo)")
    parser.add_argument("--net-arch", type=lambda text: parse_int_list(text, "--net-arch"),
                        default=DEFAULT_NET_ARCH, help="hidden layer widths (as train_ppo)")
    parser.add_argument("--init-from", default=None,
                        help=f"start from a policy file or SB3 checkpoint (imitate's clone, a train_ppo "
                             f"run), or {SHIPPED_START!r}: the shipped policy of this game and player count")
    parser.add_argument("--out", default=None, help="output folder (policy.zip, model.zip, config.json, "
                        "log.csv, snapshots/); a symbolic link there is refused")
    parser.add_argument("--no-progress", action="store_false", dest="progress", help="no progress bar")
    return parser


def parse_args(argv: Sequence[str] | None = None) -> dict:
    """The command line's options as a dict of selfplay() keyword arguments."""
    return vars(build_parser().parse_args(argv))


def main(argv: Sequence[str] | None = None) -> None:
    """Run self-play from the command line and print where the results went."""
    options = parse_args(argv)
    try:
        result = selfplay(**options)
    except ValueError as error:
        print(f"python -m tiny_york_env.training.selfplay: error: {error}", file=sys.stderr)
        sys.exit(2)
    print(f"{result.steps} steps in {result.train_seconds:.1f} s of training "
          f"({result.steps_per_second:.0f} steps/s), {result.eval_seconds:.1f} s of evaluation")
    for row in result.log:
        if row["step"] == result.steps and row["kind"] == "eval":
            print(f"  vs {row['opponent']}: win rate {row['win_rate']:.2f} over {row['games']} games")
    if options["out"]:
        print(f"policy file, model, config, log and snapshots in {options['out']}")


if __name__ == "__main__":
    main()
