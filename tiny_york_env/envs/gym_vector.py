"""Gymnasium vector env over a batch of games of any registered game, stepped in compiled code.

| | |
|---|---|
| id | ``gym.make_vec("TinyYork-v0", num_envs=B, vectorization_mode="vector_entry_point")`` (the |
| | default mode), or ``TinyYorkVectorEnv(num_envs, toms=(5,), reward="win",`` |
| | ``illegal_action="terminate", illegal_reward=-1.0, render_mode=None,`` |
| | ``autoreset_mode=AutoresetMode.NEXT_STEP)`` |
| agents | per game one learning agent (seat 0) against 1-3 Toms; no Python opponents |
| action space | ``single_action_space = Discrete(NUM_ACTIONS)``; ``action_space`` is its batch, |
| | ``MultiDiscrete([264] * B)``, whose ``sample()`` draws a legal action for every game |
| action mask | ``infos["action_mask"]`` (always there), ``action_masks()``: bool[B, NUM_ACTIONS]; |
| | all False for a game that has just ended (its next action is ignored); ``ValueError`` |
| | before the first ``reset()`` |
| observation space | ``single_observation_space = observation.observation_space()``; batched by Gymnasium |
| | (``obs_dtype="uint8"``: the compact one, envs/compact.py) |
| rewards | float64[B]: 0 until a game ends, then ``final_rewards(state, reward)[0]`` |
| episode end | ``terminations[i]`` at the final scoring; never truncated |
| autoreset | ``autoreset_mode`` (the attribute and ``metadata["autoreset_mode"]``), as Gymnasium's |
| | ``SyncVectorEnv`` does it: ``NEXT_STEP`` (default): the next ``step`` ignores that game's |
| | action and returns its new game, reward 0; ``SAME_STEP``: the step that ends a game returns |
| | the new game's observation and mask, the ended one's in ``infos["final_obs"]`` and |
| | ``infos["final_info"]``; ``DISABLED``: an ended game waits for |
| | ``reset(options={"reset_mask": ...})``, and a ``step`` before it is a ``ValueError`` |
| episode limit | ``max_episode_steps`` (``make_vec`` passes the id's, the game's ``max_decisions``): None |
| | or at least ``max_decisions``, which no game reaches; a smaller one is a ``ValueError`` |
| end infos | ``final_scores`` (int64[B, players]) and ``winner`` (int64[B]) with their ``_key`` masks |
| | (inside ``infos["final_info"]`` with ``SAME_STEP``) |
| illegal action | ``"terminate"`` (default): that game is terminated with reward ``illegal_reward``, |
| | ``infos["illegal_action"]``, its observation and state as they were; a warning at the |
| | env's first one. ``"raise"``: ``ValueError`` naming the env index, no game changes. An |
| | action outside 0..263, or actions not int[B]: always ``ValueError`` |
| seeding | ``reset(seed=s)``, ``s`` in 0..2**63-1 (else ``ValueError``): game i plays ``s + i`` |
| | (mod 2**63, as ``TinyYorkVecEnv``); ``seed=[s0, s1, ...]``: one per game (None: the next |
| | of its chain); ``seed=None``: each game the next seed of its chain (a random one at first) |
| reset options | ``None`` or ``{"reset_mask": bool[B]}`` (reset only those games, as ``SyncVectorEnv``) |
| render modes | ``"ansi"`` / ``"rgb_array"``: ``render()`` gives one frame per game |
| copies | ``copy.deepcopy`` and pickle give an independent env that plays on identically |
| threads | ``num_threads=None``: the games are split over every thread numba has (all cores; |
| | one thread per 8 games at least); ``1`` steps them on the calling thread; the results |
| | are the same for any count |
| version | v0 |

``GameVectorEnv(num_envs, game=..., config=...)`` is written once against the game contract;
``TinyYorkVectorEnv`` (``gym.make_vec("TinyYork-v0")``) and ``ConstructionYardVectorEnv``
(``gym.make_vec("ConstructionYard-v0")``, ``num_players=2, bots=("greedy",)``) fix the game.
The table describes Tiny York's.

The Gymnasium family accepts every element of its action space, so ``"terminate"`` is the
default (``check_env``, unmasked policies); a masked policy never sees a difference. This is the
compiled twin of ``gym.make_vec("TinyYork-v0", B, vectorization_mode="sync")`` (B ``TinyYorkEnv``
against Toms): with the same seeds and actions both give the same observations, rewards,
terminations, truncations, masks and end infos, through game ends and autoresets, since the
seed chain is ``TinyYorkEnv.reset()``'s; this holds in every ``autoreset_mode`` (compared with
``make_vec(..., vectorization_mode="sync", vector_kwargs={"autoreset_mode": mode})``). One
``step`` is one call of ``next_step_kernel`` of the game's batch module (``core/batch_loops.py``;
``step_kernel`` with ``SAME_STEP``, which restarts an ended game at once); Python only reads the
ended games' scores and rewards. Gymnasium's ``make_vec`` passes no ``vector_kwargs`` to a
vector entry point, so the mode is a keyword there: ``gym.make_vec("TinyYork-v0", 8,
autoreset_mode=AutoresetMode.SAME_STEP)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from ..contract import Game
from ..core.compact import FLOAT_DTYPE
from ..core.options import check_int
from ..core.seeds import SEED_LIMIT, check_seed
from ..registry import get_game
from .batch import BYTE_VIEWS, LEARNING_SEAT, BatchRunner, bind_byte_views, check_num_threads
from .compact import check_game_obs_dtype, env_observation_space
from .generated import RENDER_FPS, game_class_name, make_game_class, render_modes, setup_config
from .rewards import (
    DEFAULT_ILLEGAL_REWARD,
    check_illegal_action,
    check_illegal_reward,
    check_render_mode,
    check_reward_kind,
    final_outcome,
    not_reset_error,
    warn_first_illegal,
)
from .single import check_reset_options, next_seed

RESET_OPTIONS = ("reset_mask",)
AUTORESET_MODES = tuple(AutoresetMode)
SYNC_HINT = "gym.make_vec(..., vectorization_mode='sync') over the single env"
INTEGER_KINDS = "iu"  # numpy dtype kinds of signed and unsigned integers


class LegalMultiDiscrete(spaces.MultiDiscrete):
    """``MultiDiscrete([n] * B)`` whose ``sample()`` without a mask draws, per game, a legal action
    from ``legal`` (bool[B, n], kept by the env equal to the current masks; any action for a row
    with none); with an explicit ``mask`` or ``probability`` it is MultiDiscrete's."""

    def __init__(self, legal: NDArray[np.bool_], seed: int | None = None):
        super().__init__(np.full(legal.shape[0], legal.shape[1], dtype=np.int64), seed=seed)
        self.legal = legal

    def sample(self, mask: tuple | None = None, probability: tuple | None = None) -> NDArray[np.int64]:
        """One action per game: uniform among its legal actions (among all once it has ended)."""
        if mask is not None or probability is not None:
            return super().sample(mask=mask, probability=probability)
        legal = self.legal
        counts = legal.sum(axis=1)
        if not counts.all():
            legal = legal.copy()
            legal[counts == 0] = True
            counts = legal.sum(axis=1)
        ids = np.flatnonzero(legal)  # row-major: row i's legal ids are contiguous
        picks = np.cumsum(counts) - counts + (self.np_random.random(len(counts)) * counts).astype(np.int64)
        return (ids[picks] - np.arange(len(counts)) * legal.shape[1]).astype(self.dtype)


def check_autoreset_mode(mode: Any) -> AutoresetMode:
    """``mode`` as an ``AutoresetMode``: a member, its value (``"NextStep"``, ``"SameStep"``,
    ``"Disabled"``) or its name (``"NEXT_STEP"``, ...); ValueError naming the choices otherwise."""
    if isinstance(mode, AutoresetMode):
        return mode
    named = [m for m in AUTORESET_MODES if isinstance(mode, str) and mode in (m.value, m.name)]
    if named:
        return named[0]
    choices = ", ".join(f"AutoresetMode.{m.name} ({m.value!r})" for m in AUTORESET_MODES)
    raise ValueError(f"autoreset_mode must be one of {choices}; got {mode!r}")


def check_episode_limit(game: Game, max_episode_steps: int | None) -> int | None:
    """``max_episode_steps`` as an int (or None); ValueError unless it is None or at least the
    game's ``max_decisions``: the compiled games are never truncated, so only a limit that no game
    reaches (such as the one gym.make_vec passes from the registered id) is kept."""
    if max_episode_steps is None:
        return None
    bound = game.max_decisions
    if (bound is None or isinstance(max_episode_steps, (bool, np.bool_))
            or not isinstance(max_episode_steps, (int, np.integer)) or max_episode_steps < bound):
        least = ("None" if bound is None
                 else f"None or an int of at least {bound} ({game.title}'s max_decisions)")
        raise ValueError(f"max_episode_steps must be {least}: the compiled vector env never truncates "
                         f"a game; got {max_episode_steps!r}. For a shorter TimeLimit use {SYNC_HINT}")
    return int(max_episode_steps)


class GameVectorEnv(VectorEnv):
    """``num_envs`` games of ``game`` with one learning agent (seat 0) each against the engine's
    automatic participants, a native Gymnasium vector env (module doc)."""

    metadata = {"render_modes": ["ansi"], "render_fps": RENDER_FPS,
                "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int, *, game: str | Game, config: Any, reward: str = "win",
                 illegal_action: str = "terminate", illegal_reward: float = DEFAULT_ILLEGAL_REWARD,
                 render_mode: str | None = None, opponents: Sequence = (), seat: int = 0,
                 num_threads: int | None = None, max_episode_steps: int | None = None,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
                 obs_dtype: str = "float32") -> None:
        """``config``: the game's config with exactly one agent seat; the rest as the module says;
        ``num_threads``: the threads the games are stepped on (None: all of numba's)."""
        check_int("num_envs", num_envs, 1)
        self.game = game = get_game(game)
        self.obs_dtype = check_game_obs_dtype(game, obs_dtype)
        if not isinstance(opponents, (list, tuple)) or opponents or seat != 0:
            raise ValueError("the compiled vector env plays one learning seat (0) against the engine's "
                             f"automatic participants only; for opponents or another seat use {SYNC_HINT}")
        if not isinstance(config, game.config_type) or game.num_agents(config) != 1:
            raise ValueError(f"config must be a {game.config_type.__name__} with one agent seat (the "
                             f"learning one; the engine plays the others), got {config!r}")
        self.max_episode_steps = check_episode_limit(game, max_episode_steps)
        self.autoreset_mode = check_autoreset_mode(autoreset_mode)
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.num_envs = int(num_envs)
        self.config = config
        self.reward_kind = check_reward_kind(reward)
        self.illegal_action = check_illegal_action(illegal_action)
        self.illegal_reward = check_illegal_reward(illegal_reward)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self._params = game.config_params(config)  # the set-up kernel's parameters, built once
        self.num_threads = check_num_threads(num_threads, num_envs)
        self._kernels = BatchRunner(game, self.num_threads)
        b = self.num_envs
        self._states = np.zeros(b, dtype=game.state_dtype)
        self._game_seeds = np.full(b, -1, dtype=np.int64)  # -1: no game yet
        self._masks = np.zeros((b, game.num_actions), dtype=np.bool_)
        self._terminated = np.zeros(b, dtype=np.bool_)
        self._autoreset = np.zeros(b, dtype=np.bool_)
        self._ended = np.zeros(b, dtype=np.int64)
        self._dones = np.zeros(b, dtype=np.bool_)  # SAME_STEP: the games that ended this step
        self._ended_states = np.zeros(b, dtype=game.state_dtype)  # SAME_STEP: their final records
        bind_byte_views(self)  # _raw and _ended_raw
        self._ended_obs = np.zeros((b, game.obs_size), dtype=self.obs_dtype)  # and final observations
        self._illegal = np.zeros(b, dtype=np.bool_)
        self._all = np.ones(b, dtype=np.bool_)
        self._warned_illegal = False
        self.single_observation_space = env_observation_space(game, self.obs_dtype)
        self.observation_space = batch_space(self.single_observation_space, b)
        self.single_action_space = spaces.Discrete(game.num_actions)
        self.action_space = LegalMultiDiscrete(self._masks)

    def __getstate__(self) -> dict:
        """Pickle and deepcopy without the byte views (a copy would lose their link to the records)
        and the batch kernels (a module; found again from the game)."""
        data = self.__dict__.copy()
        for name in (*BYTE_VIEWS, "_kernels"):
            data.pop(name, None)
        return data

    def __setstate__(self, data: dict) -> None:
        """Restore, re-linking the byte views to the copied records."""
        data.setdefault("obs_dtype", FLOAT_DTYPE)  # pickled before the compact observations
        self.__dict__.update(data)
        self._kernels = BatchRunner(self.game, self.num_threads)
        bind_byte_views(self)

    @property
    def game_seeds(self) -> list[int | None]:
        """The seed of each game in play (None before its first reset)."""
        return [None if s < 0 else int(s) for s in self._game_seeds]

    def _seeds_for(self, seed, which):
        """int64[B] game seeds for a reset of the games in ``which``; ValueError (nothing changed)
        for a bad ``seed``."""
        b = self.num_envs
        if seed is None:
            given = [None] * b
        elif isinstance(seed, (int, np.integer)) and not isinstance(seed, (bool, np.bool_)):
            check_seed(seed)
            # SyncVectorEnv's seed + i, wrapped as the seed chain wraps so every seed serves any B.
            given = [(int(seed) + i) % SEED_LIMIT for i in range(b)]
        elif isinstance(seed, (list, tuple)) and len(seed) == b:
            given = [None if s is None else check_seed(s) for s in seed]
        else:
            raise ValueError(f"seed must be None, an int or a list of {b} ints/None (one per env), "
                             f"got {seed!r}")
        seeds = self._game_seeds.copy()
        for i in np.flatnonzero(which).tolist():
            if given[i] is not None:
                seeds[i] = given[i]
            elif seeds[i] >= 0:
                seeds[i] = next_seed(seeds[i])
            else:
                seeds[i] = int(self.np_random.integers(SEED_LIMIT))
        return seeds

    def _reset_mask(self, options):
        """bool[B]: the games a reset restarts (all, or ``options["reset_mask"]``); ValueError
        for other options."""
        options = check_reset_options(options, RESET_OPTIONS)
        if "reset_mask" not in options:
            return np.ones(self.num_envs, dtype=np.bool_)
        which = options["reset_mask"]
        if not (isinstance(which, np.ndarray) and which.dtype == np.bool_
                and which.shape == (self.num_envs,) and which.any()):
            raise ValueError(f"options['reset_mask'] must be a bool array of shape ({self.num_envs},) "
                             f"with at least one True, got {which!r}")
        if not which.all() and (self._game_seeds < 0).any():
            raise ValueError("the first reset must start every game (no reset_mask)")
        return which

    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[NDArray, dict[str, Any]]:
        """Start the games (all, or those in ``options["reset_mask"]``): seeds from ``seed``, else
        the next seed of each game's chain. A bad seed or option is a ValueError that changes
        nothing."""
        which = self._reset_mask(options)
        seeds = self._seeds_for(seed, which)
        if isinstance(seed, (int, np.integer)):
            super().reset(seed=int(seed))
        self._game_seeds[:] = seeds
        # Every game's observation: a game not reset shows its position as the last step did.
        obs = np.empty((self.num_envs, self.game.obs_size), dtype=self.obs_dtype)
        self._kernels.reset_kernel(self._states, self._raw, self._game_seeds, which, self._params, obs,
                                   self._masks)
        self._terminated[which] = False
        self._autoreset[which] = False
        # ``_action_mask`` flags the games reset, as SyncVectorEnv's; unlike its zero rows, every
        # row holds that game's legal mask now, for readers that skip the flags (TorchRL's).
        infos = {"action_mask": self._masks.copy(), "_action_mask": which.copy()}
        return obs, infos

    def step(self, actions: NDArray[np.integer]) -> tuple[
            NDArray, NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]:
        """Play one action per game (ignored for a game that ended at the previous step, which
        restarts instead, with ``NEXT_STEP``); observations, rewards, terminations, truncations
        and infos."""
        if self._game_seeds[0] < 0:
            raise not_reset_error("step")
        actions = self._check_actions(actions)
        if self.autoreset_mode == AutoresetMode.DISABLED and self._autoreset.any():
            waiting = np.flatnonzero(self._autoreset).tolist()
            raise ValueError(f"envs {waiting} ended and autoreset_mode is AutoresetMode.DISABLED: reset "
                             "them first with reset(options={'reset_mask': mask}) (mask True for them)")
        if self.autoreset_mode == AutoresetMode.SAME_STEP:
            return self._step_restarting(actions)
        # A fresh array each step (every row is written): what the caller holds never changes.
        obs = np.empty((self.num_envs, self.game.obs_size), dtype=self.obs_dtype)
        n = self._kernels.next_step_kernel(self._states, self._raw, actions, self._game_seeds,
                                           self._params, obs, self._masks, self._terminated,
                                           self._autoreset, self._ended, self._illegal,
                                           self.illegal_action == "terminate")
        if n < 0:
            self._refuse(-1 - n, int(actions[-1 - n]))
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        infos = {"action_mask": self._masks.copy(), "_action_mask": self._all.copy()}
        if n:
            infos.update(self._end_infos(self._ended[:n].tolist(), self._states, actions, rewards))
        return (obs, rewards, self._terminated.copy(),
                np.zeros(self.num_envs, dtype=np.bool_), infos)

    def _step_restarting(self, actions):
        """``step`` with ``SAME_STEP`` autoreset: an ended game restarts at once (``step_kernel``);
        its final observation and infos go to ``infos["final_obs"]`` and ``infos["final_info"]``
        as ``SyncVectorEnv`` lays them out."""
        b = self.num_envs
        obs = np.empty((b, self.game.obs_size), dtype=self.obs_dtype)
        n = self._kernels.step_kernel(self._states, self._raw, actions, self._game_seeds, self._params,
                                      obs, self._masks, self._dones, self._ended, self._ended_raw,
                                      self._ended_obs, self._illegal, self.illegal_action == "terminate")
        if n < 0:
            self._refuse(-1 - n, int(actions[-1 - n]))
        rewards = np.zeros(b, dtype=np.float64)
        infos = {"action_mask": self._masks.copy(), "_action_mask": self._all.copy()}
        if n:
            ended = self._ended[:n].tolist()
            final_obs = np.full(b, None, dtype=object)
            for i in ended:
                final_obs[i] = self._ended_obs[i].copy()
            has = self._dones.copy()
            final_info = {"action_mask": np.zeros_like(self._masks), "_action_mask": has.copy()}
            final_info.update(self._end_infos(ended, self._ended_states, actions, rewards))
            infos.update(final_obs=final_obs, _final_obs=has, final_info=final_info, _final_info=has.copy())
        return obs, rewards, self._dones.copy(), np.zeros(b, dtype=np.bool_), infos

    def _check_actions(self, actions):
        """``actions`` as contiguous int64[B]; ValueError unless they are B integers."""
        array = np.asarray(actions)
        if array.shape != (self.num_envs,) or array.dtype.kind not in INTEGER_KINDS:
            raise ValueError(f"actions must be integers in 0..{self.game.num_actions - 1}, one per env "
                             f"({self.num_envs},); got shape {array.shape} of {array.dtype}")
        return np.ascontiguousarray(array, dtype=np.int64)

    def _refuse(self, i, action):
        """The ValueError for game ``i``'s refused ``action``: out of range, or the engine's."""
        n = self.game.num_actions
        if not 0 <= action < n:
            raise ValueError(f"env {i}: action {action} is not in the action space "
                             f"Discrete({n}) (0..{n - 1})")
        try:
            self.game.apply_action(self.game_state(i), action)  # a copy: the batch stays unchanged
        except ValueError as error:
            raise ValueError(f"env {i}: {error}") from None
        raise ValueError(f"env {i}: action {action} was refused by the engine")

    def _end_infos(self, ended, records, actions, rewards):
        """The end infos of the games in ``ended`` (their final records in ``records``), their
        rewards written into ``rewards``."""
        b, players = self.num_envs, self.game.num_participants(self.config)
        infos = {}
        scored = [i for i in ended if not self._illegal[i]]
        if scored:
            scores = np.zeros((b, players), dtype=np.int64)
            winners = np.zeros(b, dtype=np.int64)
            has = np.zeros(b, dtype=np.bool_)
            has[scored] = True
            for i in scored:
                record = records[i:i + 1].reshape(())
                seat_rewards, info = final_outcome(record, self.reward_kind, self.game)
                scores[i], winners[i] = info["final_scores"], info["winner"]
                rewards[i] = seat_rewards[LEARNING_SEAT]
            infos.update(final_scores=scores, _final_scores=has, winner=winners, _winner=has.copy())
        illegal = [i for i in ended if self._illegal[i]]
        if illegal:
            played = np.zeros(b, dtype=np.int64)
            played[illegal] = actions[illegal]
            has = np.zeros(b, dtype=np.bool_)
            has[illegal] = True
            rewards[illegal] = self.illegal_reward
            infos.update(illegal_action=played, _illegal_action=has)
            warn_first_illegal(self, illegal[0], int(actions[illegal[0]]), "infos['illegal_action']")
        return infos

    def action_masks(self) -> NDArray[np.bool_]:
        """bool[B, NUM_ACTIONS]: each game's legal actions now (all False for one that just ended);
        ValueError before the first reset."""
        if self._game_seeds[0] < 0:
            raise not_reset_error("action_masks")
        return self._masks.copy()

    def game_state(self, i: int) -> np.ndarray:
        """A copy of game ``i``'s record (a single game, as ``new_game`` returns)."""
        return self._states[i:i + 1].reshape(()).copy()

    def render(self) -> tuple | None:
        """One frame per game: text (``"ansi"``) or a picture (``"rgb_array"``); None without a
        render mode or before the first reset."""
        if self.render_mode is None or self._game_seeds[0] < 0:
            return None
        if self.render_mode == "rgb_array":
            return tuple(self.game.render_rgb(self.game_state(i)) for i in range(self.num_envs))
        return tuple(self.game.render_text(self.game_state(i)) for i in range(self.num_envs))


def _build(env: GameVectorEnv, game: Game, setup: dict[str, Any], **arguments: Any) -> None:
    GameVectorEnv.__init__(env, game=game, config=setup_config(game, 1, setup), **arguments)


def vector_env_class(game: str | Game) -> type[GameVectorEnv]:
    """The VectorEnv class of ``game`` (one learning seat, seat 0, in every game), generated from its
    record (``TinyYorkVectorEnv``, ...): its setup keywords are the record's ``env_defaults``."""
    return make_game_class(
        GameVectorEnv, "VectorEnv", get_game(game).name, lambda g: g.env_defaults, _build,
        lambda g: {"metadata": {**GameVectorEnv.metadata, "render_modes": render_modes(g, ("ansi",))}})


def __getattr__(name: str) -> type[GameVectorEnv]:
    """A game's generated class by name (``TinyYorkVectorEnv``, ``ConstructionYardVectorEnv``, ...)."""
    game = game_class_name(name, "VectorEnv")
    if game is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return vector_env_class(game)
