"""stable-baselines3 VecEnv over a batch of Tiny York games, stepped in compiled code.

| | |
|---|---|
| class | ``TinyYorkVecEnv(num_envs, toms=(5,), reward="win", seed=None)``, an SB3 ``VecEnv`` |
| agents | per game one learning agent (seat 0) against 1-3 Toms; no Python opponents |
| action space | ``Discrete(NUM_ACTIONS)``; ``step`` takes int[num_envs] |
| action mask | ``action_masks()``: bool[num_envs, NUM_ACTIONS]; also ``env_method("action_masks")`` |
| observation space | as ``TinyYorkEnv``: ``Box(0, OBSERVATION_HIGH, (OBS_SIZE,), float32)`` |
| rewards | 0 until a game ends, then ``final_rewards(state, reward)[0]`` |
| episode end | ``done``, and the game restarts at once; ``infos[i]["terminal_observation"]`` |
| illegal action | ``ValueError`` naming the env index; no game changes |
| seeding | ``seed(s)``, ``s`` in 0..2**63-1 (else ``ValueError``): game i plays ``s + i`` (mod |
| | 2**63, as the chain wraps) at the next ``reset()``, then ``next_seed`` chains |
| reset options | none: ``set_options`` refuses any non-empty options (the Toms are fixed) |
| copies | ``copy.deepcopy`` and pickle give an independent env that plays on identically |
| version | v0 |

Fixed Python opponents are ``TinyYorkEnv``'s job: here every non-learning seat is a Tom, so a
whole step stays in compiled code. One call applies every action, lets the engine run the
Toms, records each ended game (record, final observation), restarts it with ``next_seed`` of
its seed, encodes observations and fills masks; Python only turns the ended games' records
into rewards (the shared ``final_rewards``) and infos (``terminal_observation``,
``final_scores``, ``winner``, ``TimeLimit.truncated`` = False). The seed chain is
``TinyYorkEnv.reset()``'s, so this env and ``num_envs`` single envs seeded ``s + i`` and given
the same actions agree exactly: observations, rewards, dones and masks.
"""

import importlib

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv

from ..game import NUM_ACTIONS, STATE_DTYPE, GameConfig, apply_action, render_text
from ..game.api import SEED_LIMIT, check_seed, tom_arrays
from ..game.jit import jit
from ..game.kernels import new_game_kernel
from ..game.legal import fill_legal_mask
from ..game.rules import apply_unchecked
from ..game.state import DEC_GAME_OVER
from ..observation import OBS_SIZE, encode_record
from .rewards import check_reward_kind, final_rewards
from .single import DEFAULT_TOMS, RENDER_MODULE, next_seed, observation_space

LEARNING_SEAT = 0  # Toms take the seats after the agents (GameConfig), so the one agent is seat 0
SETTABLE_ATTRS = ("reward_kind",)
PER_GAME_METHODS = ("action_masks", "render")
BYTE_VIEWS = {"_raw": "_states", "_ended_raw": "_ended_states"}  # view -> the records it shows


@jit
def _restart(states, raw, i, seed, num_agents, num_toms, tom_modes, tom_draws, tom_levels):
    """Game ``i`` becomes a fresh game seeded ``seed`` (on a zeroed record, as ``new_game``)."""
    for b in range(raw.shape[1]):
        raw[i, b] = 0
    new_game_kernel(states, i, num_agents, num_toms, tom_modes, tom_draws, tom_levels, seed)


@jit
def reset_kernel(states, raw, seeds, num_agents, num_toms, tom_modes, tom_draws, tom_levels,
                 obs, masks):
    """New games with ``seeds``; their observations into ``obs``, legal masks into ``masks``."""
    for i in range(states.shape[0]):
        _restart(states, raw, i, seeds[i], num_agents, num_toms, tom_modes, tom_draws, tom_levels)
        encode_record(states[i], LEARNING_SEAT, obs[i])
        fill_legal_mask(states[i], masks[i])


@jit
def step_kernel(states, raw, actions, seeds, num_agents, num_toms, tom_modes, tom_draws,
                tom_levels, obs, masks, dones, ended, ended_raw, ended_obs):
    """Apply ``actions`` to every game; returns how many games ended, or ``-1 - i`` when the
    action of game ``i`` is illegal (then no game is changed).

    ``masks`` must hold the current legal masks (as this kernel and ``reset_kernel`` leave them).
    An ended game's record, final observation and index go to row k of ``ended_raw``,
    ``ended_obs`` and ``ended`` (k counts the ended games), and it restarts with ``next_seed``;
    every game's observation and next mask go to ``obs`` and ``masks``."""
    for i in range(states.shape[0]):
        a = actions[i]
        if a < 0 or a >= NUM_ACTIONS or not masks[i, a]:
            return -1 - i
    n = 0
    for i in range(states.shape[0]):
        # The mask is the engine's own legality predicate (legal.is_legal), checked above for
        # every game before any changes, so the unchecked apply cannot take an illegal action.
        apply_unchecked(states[i], actions[i])
        dones[i] = states[i]["decision"] == DEC_GAME_OVER
        if dones[i]:
            ended[n] = i
            for b in range(raw.shape[1]):
                ended_raw[n, b] = raw[i, b]
            encode_record(states[i], LEARNING_SEAT, ended_obs[n])
            n += 1
            seeds[i] = next_seed(seeds[i])
            _restart(states, raw, i, seeds[i], num_agents, num_toms, tom_modes, tom_draws,
                     tom_levels)
        encode_record(states[i], LEARNING_SEAT, obs[i])
        fill_legal_mask(states[i], masks[i])
    return n


def _byte_view(records):
    """uint8[B, itemsize] view of a 1-d record array (compiled code zeroes and copies rows)."""
    return records.view(np.uint8).reshape(records.shape[0], STATE_DTYPE.itemsize)


class TinyYorkVecEnv(VecEnv):
    """``num_envs`` games of one agent against Toms, stepped together (see module doc)."""

    def __init__(self, num_envs, toms=DEFAULT_TOMS, reward="win", seed=None, render_mode=None):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")
        num_envs = int(num_envs)
        self.config = GameConfig(num_agents=1, toms=toms)
        self.reward_kind = check_reward_kind(reward)
        if render_mode not in (None, "ansi", "rgb_array"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'rgb_array', got {render_mode!r}")
        self.render_mode = render_mode
        self.num_envs = num_envs  # get_attr, called by VecEnv.__init__, needs these two
        self._tom_arrays = tom_arrays(self.config)
        self._states = np.zeros(num_envs, dtype=STATE_DTYPE)
        self._game_seeds = np.full(num_envs, -1, dtype=np.int64)  # -1: no game yet
        self._masks = np.zeros((num_envs, NUM_ACTIONS), dtype=np.bool_)
        self._dones = np.zeros(num_envs, dtype=np.bool_)
        self._ended = np.zeros(num_envs, dtype=np.int64)
        self._ended_states = np.zeros(num_envs, dtype=STATE_DTYPE)
        self._bind_views()
        self._ended_obs = np.zeros((num_envs, OBS_SIZE), dtype=np.float32)
        self._actions = None
        super().__init__(num_envs, observation_space(), spaces.Discrete(NUM_ACTIONS))
        if seed is not None:
            self.seed(seed)

    def _bind_views(self):
        """The byte views the compiled code writes through, on this env's own record arrays."""
        for view, records in BYTE_VIEWS.items():
            setattr(self, view, _byte_view(getattr(self, records)))

    def __getstate__(self):
        """Pickle and deepcopy without the byte views (a copy would lose their link to the records)."""
        data = self.__dict__.copy()
        for view in BYTE_VIEWS:
            data.pop(view, None)
        return data

    def __setstate__(self, data):
        """Restore, re-linking the byte views to the copied records."""
        self.__dict__.update(data)
        self._bind_views()

    def _engine_args(self):
        c = self.config
        return (c.num_agents, len(c.toms), *self._tom_arrays)

    def reset(self):
        """Start every game: seed from ``seed()`` if given, else the next seed of its chain."""
        if any(self._options):
            raise ValueError("TinyYorkVecEnv takes no reset options; build another env for other Toms")
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
        obs = np.empty((self.num_envs, OBS_SIZE), dtype=np.float32)
        reset_kernel(self._states, self._raw, self._game_seeds, *self._engine_args(), obs,
                     self._masks)
        self.reset_infos = [{} for _ in range(self.num_envs)]
        self._actions = None
        return obs

    def step_async(self, actions):
        """Keep ``actions`` (int[num_envs]) for ``step_wait``."""
        actions = np.asarray(actions)
        if actions.shape not in ((self.num_envs,), (self.num_envs, 1)) or not np.issubdtype(
                actions.dtype, np.integer):
            raise ValueError(f"actions must be integers, one per env ({self.num_envs}); got shape "
                             f"{actions.shape} of {actions.dtype}")
        self._actions = np.ascontiguousarray(actions.reshape(self.num_envs), dtype=np.int64)

    def step_wait(self):
        """Step every game in compiled code; rewards and infos for the games that ended."""
        if self._actions is None:
            raise ValueError("call reset() and step_async(actions) before step_wait()")
        if self._game_seeds[0] < 0:
            raise ValueError("call reset() before step()")
        actions, self._actions = self._actions, None
        obs = np.empty((self.num_envs, OBS_SIZE), dtype=np.float32)
        n = step_kernel(self._states, self._raw, actions, self._game_seeds, *self._engine_args(),
                        obs, self._masks, self._dones, self._ended, self._ended_raw,
                        self._ended_obs)
        if n < 0:
            self._raise_illegal(-1 - n, int(actions[-1 - n]))
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        infos = [{} for _ in range(self.num_envs)]
        if n:
            ended = self._ended_states[:n]
            # What final_scores() and winner() return for each ended game, read at once.
            scores = ended["score_lines"][:, :self.config.num_participants].sum(axis=2)
            winners = ended["winner"].tolist()
            terminal_obs = self._ended_obs[:n].copy()
            for k, i in enumerate(self._ended[:n].tolist()):
                rewards[i] = final_rewards(ended[k:k + 1], self.reward_kind)[LEARNING_SEAT]
                infos[i] = {"terminal_observation": terminal_obs[k], "final_scores": scores[k],
                            "winner": winners[k], "TimeLimit.truncated": False}
        return obs, rewards, self._dones.copy(), infos

    def _raise_illegal(self, i, action):
        """The engine's message for game ``i``'s illegal ``action``, with the env index."""
        try:
            apply_action(self.game_state(i), action)  # a copy: the batch stays unchanged
        except ValueError as error:
            raise ValueError(f"env {i}: {error}") from None
        raise ValueError(f"env {i}: action {action} was refused by the engine")

    def action_masks(self):
        """bool[num_envs, NUM_ACTIONS]: each game's legal actions now (for MaskablePPO)."""
        return self._masks.copy()

    def game_state(self, i):
        """A copy of game ``i``'s record (a single game, as ``new_game`` returns)."""
        return self._states[i:i + 1].reshape(()).copy()

    def close(self):
        """Nothing to release: the games live in numpy arrays."""

    def seed(self, seed=None):
        """At the next ``reset()`` game i plays seed ``(seed + i) mod 2**63`` (random base when
        None); ValueError unless ``seed`` is None or an int in 0..2**63-1."""
        if seed is None:
            return super().seed(None)
        seed = check_seed(seed)
        self._seeds = [(seed + i) % SEED_LIMIT for i in range(self.num_envs)]
        return self._seeds

    def set_options(self, options=None):
        """Only empty options: the Toms and reward are fixed at construction."""
        if options and any(options if isinstance(options, list) else [options]):
            raise ValueError("TinyYorkVecEnv takes no reset options; build another env for other Toms")
        super().set_options(options)

    def get_attr(self, attr_name, indices=None):
        """Per game: ``game_seed``, ``state``; anything else is this env's shared attribute."""
        idx = list(self._get_indices(indices))
        if attr_name == "game_seed":
            return [int(self._game_seeds[i]) for i in idx]
        if attr_name == "state":
            return [self.game_state(i) for i in idx]
        value = getattr(self, attr_name)  # AttributeError, as VecEnv.has_attr expects
        return [value for _ in idx]

    def set_attr(self, attr_name, value, indices=None):
        """Only ``reward_kind``, for all games at once."""
        idx = sorted(set(self._get_indices(indices)))
        if attr_name not in SETTABLE_ATTRS or idx != list(range(self.num_envs)):
            raise ValueError(f"only {SETTABLE_ATTRS} can be set, and for all envs at once; "
                             f"got {attr_name!r} for envs {idx}")
        self.reward_kind = check_reward_kind(value)

    def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
        """Per game ``action_masks()`` (bool[NUM_ACTIONS] rows) and ``render()``."""
        idx = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self._masks.copy()
            return [masks[i] for i in idx]
        if method_name == "render":
            return [self._render_game(i) for i in idx]
        raise AttributeError(f"TinyYorkVecEnv games have no method {method_name!r}; "
                             f"available: {PER_GAME_METHODS}")

    def env_is_wrapped(self, wrapper_class, indices=None):
        """The games are not gymnasium envs, so nothing is wrapped."""
        return [False for _ in self._get_indices(indices)]

    def get_images(self):
        """One picture per game (``tiny_york_env.render.render_rgb``)."""
        render_rgb = importlib.import_module(RENDER_MODULE).render_rgb
        return [render_rgb(self.game_state(i)) for i in range(self.num_envs)]

    def _render_game(self, i):
        if self.render_mode == "rgb_array":
            return importlib.import_module(RENDER_MODULE).render_rgb(self.game_state(i))
        return render_text(self.game_state(i))

