"""stable-baselines3 VecEnv over a batch of games of any registered game, stepped in compiled code.

| | |
|---|---|
| class | ``TinyYorkVecEnv(num_envs, toms=(5,), reward="win", seed=None, render_mode=None,`` |
| | ``illegal_action="terminate", illegal_reward=-1.0)``, an SB3 ``VecEnv`` |
| agents | per game one learning agent (seat 0) against 1-3 Toms; no Python opponents |
| action space | ``Discrete(NUM_ACTIONS)``; ``step`` takes int[num_envs] |
| action mask | ``action_masks()``: bool[num_envs, NUM_ACTIONS]; also ``env_method("action_masks")``; |
| | ``ValueError`` before the first ``reset()`` |
| observation space | as ``TinyYorkEnv``: ``Box(0, OBSERVATION_HIGH, (OBS_SIZE,), float32)``, or the |
| | compact uint8 one with ``obs_dtype="uint8"`` (written in compiled code, envs/compact.py) |
| rewards | 0 until a game ends, then ``final_rewards(state, reward)[0]`` |
| episode end | ``done``, and the game restarts at once; ``infos[i]["terminal_observation"]`` |
| illegal action | ``"terminate"`` (default): that game is done with reward ``illegal_reward``, |
| | ``infos[i]["illegal_action"]``, its current observation as ``terminal_observation``, and |
| | restarts; a warning at the env's first one. ``"raise"``: ``ValueError`` naming the env |
| | index, no game changes. An action outside 0..263 or not int: always ``ValueError`` |
| seeding | ``seed(s)``, ``s`` in 0..2**63-1 (else ``ValueError``): game i plays ``s + i`` (mod |
| | 2**63, as the chain wraps) at the next ``reset()``, then ``next_seed`` chains |
| reset options | none: ``set_options`` refuses any non-empty options (the Toms are fixed) |
| copies | ``copy.deepcopy`` and pickle give an independent env that plays on identically |
| threads | ``num_threads=None``: the games are split over every thread numba has (all cores; |
| | one thread per 8 games at least); ``1`` steps them on the calling thread; the results |
| | are the same for any count |
| version | v0 |

``GameVecEnv(num_envs, game=..., config=...)`` is written once against the game contract;
``TinyYorkVecEnv`` and ``ConstructionYardVecEnv`` fix the game and take its setup as keywords.
The table describes Tiny York's; Construction Yard's differs only in the setup
(``num_players=2, bots=("greedy",)``: one learning seat, bots in the others, Dirk in two-player
games) and its spaces.

The default ``"terminate"`` follows SB3's convention that an env accepts every element of its
action space (``check_env``, plain ``PPO``); MaskablePPO never plays an illegal action, so it sees
no difference. ``"raise"`` is for debugging a policy that should never be illegal.

Fixed Python opponents are ``TinyYorkEnv``'s job: here every non-learning seat is a Tom, so a
whole step stays in compiled code (``step_kernel`` of the game's batch module,
``core/batch_loops.py``). One call applies every action,
lets the engine run the Toms, ends the games whose action is illegal (``"terminate"``), records
each ended game (record, final observation), restarts it with ``next_seed`` of its seed, encodes
observations and fills masks; Python only turns the ended games' records into rewards (the
shared ``final_outcome``) and infos (``terminal_observation``, ``final_scores``, ``winner``,
``TimeLimit.truncated`` = False). The seed chain is ``TinyYorkEnv.reset()``'s, so this env and
``num_envs`` single envs seeded ``s + i`` and given the same actions agree exactly:
observations, rewards, dones and masks.
"""

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv

from ..contract import Game
from ..core.compact import FLOAT_DTYPE
from ..core.options import check_int
from ..core.seeds import SEED_LIMIT, check_seed
from ..registry import get_game
from .batch import BYTE_VIEWS, LEARNING_SEAT, BatchRunner, bind_byte_views, check_num_threads
from .compact import check_game_obs_dtype, env_observation_space
from .generated import game_class_name, make_game_class, setup_config
from .rewards import (
    DEFAULT_ILLEGAL_REWARD,
    check_illegal_action,
    check_illegal_reward,
    check_reward_kind,
    final_outcome,
    not_reset_error,
    warn_first_illegal,
)
from .single import next_seed

SETTABLE_ATTRS = ("reward_kind",)
PER_GAME_METHODS = ("action_masks", "render")


class GameVecEnv(VecEnv):
    """``num_envs`` games of ``game`` with one learning agent (seat 0) each, the other seats
    played by the engine's automatic participants, stepped together (see module doc)."""

    def __init__(self, num_envs: int, *, game: str | Game, config: Any, reward: str = "win",
                 seed: int | None = None, render_mode: str | None = None,
                 illegal_action: str = "terminate", illegal_reward: float = DEFAULT_ILLEGAL_REWARD,
                 num_threads: int | None = None, obs_dtype: str = "float32") -> None:
        """``config``: the game's config with exactly one agent seat; the rest as the module says."""
        check_int("num_envs", num_envs, 1)
        num_envs = int(num_envs)
        self.game = game = get_game(game)
        self.obs_dtype = check_game_obs_dtype(game, obs_dtype)
        if not isinstance(config, game.config_type) or game.num_agents(config) != 1:
            raise ValueError(f"config must be a {game.config_type.__name__} with one agent seat (the "
                             f"learning one; the engine plays the others), got {config!r}")
        self.config = config
        self.reward_kind = check_reward_kind(reward)
        self.illegal_action = check_illegal_action(illegal_action)
        self.illegal_reward = check_illegal_reward(illegal_reward)
        self._warned_illegal = False
        if render_mode not in (None, "ansi", "rgb_array"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'rgb_array', got {render_mode!r}")
        self.render_mode = render_mode
        self.num_envs = num_envs  # get_attr, called by VecEnv.__init__, needs these two
        self._params = game.config_params(config)  # the set-up kernel's parameters, built once
        self.num_threads = check_num_threads(num_threads, num_envs)
        self._kernels = BatchRunner(game, self.num_threads)
        self._states = np.zeros(num_envs, dtype=game.state_dtype)
        self._game_seeds = np.full(num_envs, -1, dtype=np.int64)  # -1: no game yet
        self._masks = np.zeros((num_envs, game.num_actions), dtype=np.bool_)
        self._dones = np.zeros(num_envs, dtype=np.bool_)
        self._illegal = np.zeros(num_envs, dtype=np.bool_)
        self._all = np.ones(num_envs, dtype=np.bool_)
        self._ended = np.zeros(num_envs, dtype=np.int64)
        self._ended_states = np.zeros(num_envs, dtype=game.state_dtype)
        bind_byte_views(self)
        self._ended_obs = np.zeros((num_envs, game.obs_size), dtype=self.obs_dtype)
        self._actions = None
        super().__init__(num_envs, env_observation_space(game, self.obs_dtype),
                         spaces.Discrete(game.num_actions))
        if seed is not None:
            self.seed(seed)

    def __getstate__(self):
        """Pickle and deepcopy without the byte views (a copy would lose their link to the records)
        and the batch kernels (a module; found again from the game)."""
        data = self.__dict__.copy()
        for view in (*BYTE_VIEWS, "_kernels"):
            data.pop(view, None)
        return data

    def __setstate__(self, data):
        """Restore, re-linking the byte views to the copied records."""
        data.setdefault("obs_dtype", FLOAT_DTYPE)  # pickled before the compact observations
        self.__dict__.update(data)
        self._kernels = BatchRunner(self.game, self.num_threads)
        bind_byte_views(self)

    def reset(self) -> np.ndarray:
        """Start every game: seed from ``seed()`` if given, else the next seed of its chain."""
        if any(self._options):
            raise ValueError(f"{type(self).__name__} takes no reset options; build another env for "
                             "another setup")
        fresh = self._game_seeds < 0
        base = None
        for i in range(self.num_envs):
            if self._seeds[i] is not None:
                self._game_seeds[i] = check_seed(self._seeds[i])
            elif fresh[i]:
                if base is None:
                    base = int(np.random.randint(0, np.iinfo(np.uint32).max, dtype=np.uint32))
                self._game_seeds[i] = base + i
            else:
                self._game_seeds[i] = next_seed(self._game_seeds[i])
        self._reset_seeds()
        self._reset_options()
        obs = np.empty((self.num_envs, self.game.obs_size), dtype=self.obs_dtype)
        self._kernels.reset_kernel(self._states, self._raw, self._game_seeds, self._all, self._params,
                                   obs, self._masks)
        self.reset_infos = [{} for _ in range(self.num_envs)]
        self._actions = None
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        """Keep ``actions`` (int[num_envs]) for ``step_wait``."""
        actions = np.asarray(actions)
        if actions.shape not in ((self.num_envs,), (self.num_envs, 1)) or not np.issubdtype(
                actions.dtype, np.integer):
            raise ValueError(f"actions must be integers, one per env ({self.num_envs}); got shape "
                             f"{actions.shape} of {actions.dtype}")
        self._actions = np.ascontiguousarray(actions.reshape(self.num_envs), dtype=np.int64)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        """Step every game in compiled code; rewards and infos for the games that ended."""
        if self._actions is None:
            raise ValueError("call reset() and step_async(actions) before step_wait()")
        if self._game_seeds[0] < 0:
            raise not_reset_error("step")
        actions, self._actions = self._actions, None
        obs = np.empty((self.num_envs, self.game.obs_size), dtype=self.obs_dtype)
        n = self._kernels.step_kernel(self._states, self._raw, actions, self._game_seeds, self._params,
                                      obs, self._masks, self._dones, self._ended, self._ended_raw,
                        self._ended_obs, self._illegal, self.illegal_action == "terminate")
        if n < 0:
            self._raise_illegal(-1 - n, int(actions[-1 - n]))
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        infos = [{} for _ in range(self.num_envs)]
        if n:
            for i in self._ended[:n].tolist():  # an ended game's record and observation: row i
                terminal_obs = self._ended_obs[i].copy()
                if self._illegal[i]:  # ended unplayed, never scored
                    rewards[i] = self.illegal_reward
                    infos[i] = {"terminal_observation": terminal_obs,
                                "illegal_action": int(actions[i]), "TimeLimit.truncated": False}
                    warn_first_illegal(self, i, int(actions[i]), "infos[i]['illegal_action']")
                    continue
                record = self._ended_states[i:i + 1].reshape(())
                seat_rewards, info = final_outcome(record, self.reward_kind, self.game)
                rewards[i] = seat_rewards[LEARNING_SEAT]
                infos[i] = {"terminal_observation": terminal_obs, **info, "TimeLimit.truncated": False}
        return obs, rewards, self._dones.copy(), infos

    def _raise_illegal(self, i, action):
        """The engine's message for game ``i``'s illegal ``action``, with the env index."""
        try:
            self.game.apply_action(self.game_state(i), action)  # a copy: the batch stays unchanged
        except ValueError as error:
            raise ValueError(f"env {i}: {error}") from None
        raise ValueError(f"env {i}: action {action} was refused by the engine")

    def action_masks(self) -> np.ndarray:
        """bool[num_envs, NUM_ACTIONS]: each game's legal actions now (for MaskablePPO); ValueError
        before the first reset."""
        if self._game_seeds[0] < 0:
            raise not_reset_error("action_masks")
        return self._masks.copy()

    def game_state(self, i: int) -> np.ndarray:
        """A copy of game ``i``'s record (a single game, as ``new_game`` returns)."""
        return self._states[i:i + 1].reshape(()).copy()

    def close(self) -> None:
        """Nothing to release: the games live in numpy arrays."""

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """At the next ``reset()`` game i plays seed ``(seed + i) mod 2**63`` (random base when
        None); ValueError unless ``seed`` is None or an int in 0..2**63-1."""
        if seed is None:
            return super().seed(None)
        seed = check_seed(seed)
        self._seeds = [(seed + i) % SEED_LIMIT for i in range(self.num_envs)]
        return self._seeds

    def set_options(self, options: list[dict] | dict | None = None) -> None:
        """Only empty options: the Toms and reward are fixed at construction."""
        if options and any(options if isinstance(options, list) else [options]):
            raise ValueError(f"{type(self).__name__} takes no reset options; build another env for "
                             "another setup")
        super().set_options(options)

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """Per game: ``game_seed``, ``state``; anything else is this env's shared attribute."""
        idx = list(self._get_indices(indices))
        if attr_name == "game_seed":
            return [int(self._game_seeds[i]) for i in idx]
        if attr_name == "state":
            return [self.game_state(i) for i in idx]
        value = getattr(self, attr_name)  # AttributeError, as VecEnv.has_attr expects
        return [value for _ in idx]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Only ``reward_kind``, for all games at once."""
        idx = sorted(set(self._get_indices(indices)))
        if attr_name not in SETTABLE_ATTRS or idx != list(range(self.num_envs)):
            raise ValueError(f"only {SETTABLE_ATTRS} can be set, and for all envs at once; "
                             f"got {attr_name!r} for envs {idx}")
        self.reward_kind = check_reward_kind(value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None,
                   **method_kwargs: Any) -> list[Any]:
        """Per game ``action_masks()`` (bool[NUM_ACTIONS] rows) and ``render()``."""
        idx = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()  # ValueError before the first reset
            return [masks[i] for i in idx]
        if method_name == "render":
            return [self._render_game(i) for i in idx]
        raise AttributeError(f"{type(self).__name__} games have no method {method_name!r}; "
                             f"available: {PER_GAME_METHODS}")

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        """The games are not gymnasium envs, so nothing is wrapped."""
        return [False for _ in self._get_indices(indices)]

    def get_images(self) -> list[np.ndarray]:
        """One picture per game (the game's ``render_rgb``)."""
        if self.game.render_rgb is None:
            raise ValueError(f"{self.game.title} has no picture view; use render_mode='ansi'")
        return [self.game.render_rgb(self.game_state(i)) for i in range(self.num_envs)]

    def _render_game(self, i):
        if self.render_mode == "rgb_array":
            return self.get_images()[i]
        return self.game.render_text(self.game_state(i))


def _build(env: GameVecEnv, game: Game, setup: dict[str, Any], **arguments: Any) -> None:
    GameVecEnv.__init__(env, game=game, config=setup_config(game, 1, setup), **arguments)


def vec_env_class(game: str | Game) -> type[GameVecEnv]:
    """The VecEnv class of ``game`` (one learning seat, seat 0, in every game), generated from its
    record (``TinyYorkVecEnv``, ...): its setup keywords are the record's ``env_defaults``."""
    return make_game_class(GameVecEnv, "VecEnv", get_game(game).name, lambda g: g.env_defaults, _build,
                           lambda g: {})


def __getattr__(name: str) -> type[GameVecEnv]:
    """A game's generated class by name (``TinyYorkVecEnv``, ``ConstructionYardVecEnv``, ...)."""
    game = game_class_name(name, "VecEnv")
    if game is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return vec_env_class(game)
