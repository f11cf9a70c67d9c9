"""Gymnasium single-agent env: one learning seat against Toms and/or fixed opponents.

| | |
|---|---|
| id | ``TinyYork-v0``: ``TinyYorkEnv(toms=(5,), opponents=(), seat=0, reward="win")`` |
| agents | one learning seat; ``opponents`` play the other agent seats, the engine the Toms |
| action space | ``Discrete(NUM_ACTIONS)`` (264); ``action_space.sample()`` draws a legal action |
| action mask | ``info["action_mask"]``, ``action_masks()``: bool[NUM_ACTIONS]; all False at the end |
| observation space | ``Box(0, OBSERVATION_HIGH, (OBS_SIZE,), float32)``: the learning seat's view |
| rewards | 0 until the end, then ``final_rewards(state, reward)[seat]``: "win", "rank", "score" |
| episode end | ``terminated`` at the final scoring; never truncated |
| illegal action | the engine's ``ValueError``, state unchanged (also for a step after the end) |
| seeding | ``reset(seed=s)``, ``s`` in 0..2**63-1, plays seed ``s``; each later ``reset()`` |
| | ``next_seed`` of the last; other seeds are refused (``ValueError``), never wrapped |
| reset options | ``None`` or a dict with ``"toms"`` and/or ``"seat"``: kept for the later games too |
| render modes | ``"ansi"`` (``render_text``), ``"rgb_array"`` (``render.render_rgb``, when present) |
| version | v0 |

The adapter holds no rules: legality, Toms and scoring are the engine's; rewards are the shared
``final_rewards``. Agents take the first seats, Toms the rest (``GameConfig``); ``seat`` picks the
learning seat among the agent seats and ``opponents`` fill the other agent seats in seat order.
Opponents are objects with ``act(observation, action_mask) -> action``; each gets its own seat's
view and mask (a planning agent with ``act_state(view, seat)`` gets ``determinize``'s seat-safe
copy of the game, drawn from a generator seeded by the game seed), and keeps its own
randomness: ``reset(seed)`` repeats a game exactly when the opponents are deterministic or
re-seeded with it. Python opponents are this env's job; the
batched ``TinyYorkVecEnv`` plays against Toms only, with the same seed chain, so it matches B of
these envs step for step. The Box's upper bound is ``observation.OBSERVATION_HIGH``.
"""

import importlib
import importlib.util
from collections.abc import Mapping

import gymnasium
import numpy as np
from gymnasium import spaces

from ..game import (
    NUM_ACTIONS,
    GameConfig,
    apply_action,
    current_player,
    determinize,
    final_scores,
    is_terminal,
    legal_mask,
    new_game,
    render_text,
    winner,
)
from ..game.api import SEED_LIMIT, check_seed
from ..game.jit import jit
from ..observation import OBS_SIZE, OBSERVATION_HIGH, encode
from .rewards import check_reward_kind, final_rewards

ENV_ID = "TinyYork-v0"
DEFAULT_TOMS = (5,)
# The step from one game's seed to the next (golden-ratio Weyl step, odd, below SEED_LIMIT):
# env i of a batch seeded s plays s + i, then s + i + SEED_STRIDE, ..., so batches never collide.
SEED_STRIDE = 0x1E3779B97F4A7C15
_SEED_WRAP = SEED_LIMIT - SEED_STRIDE  # fits int64, unlike SEED_LIMIT, so compiled code can use it
RENDER_MODULE = "tiny_york_env.render"
RESET_OPTIONS = ("toms", "seat")


@jit
def next_seed(seed):
    """The seed of the game after the one seeded ``seed``: ``(seed + SEED_STRIDE) mod 2**63``."""
    if seed >= _SEED_WRAP:  # written so that int64 never overflows
        return seed - _SEED_WRAP
    return seed + SEED_STRIDE


def next_game_seed(seed, previous, np_random):
    """The seed of a reset's game: ``seed`` if given (ValueError unless it is in 0..2**63-1), else
    ``next_seed(previous)`` after an earlier game, else a draw from ``np_random`` (the env's
    generator)."""
    if seed is not None:
        return check_seed(seed)
    if previous is not None:
        return int(next_seed(previous))
    return int(np_random.integers(SEED_LIMIT))


def check_agent_seat(seat, num_agents, detail=""):
    """``seat`` as an int; ValueError (adding ``detail``) unless it is an agent seat 0..num_agents-1."""
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < num_agents:
        raise ValueError(f"seat must be an agent seat 0..{num_agents - 1}{detail}, got {seat!r}")
    return int(seat)


def check_reset_options(options, allowed):
    """``options`` as a dict; ValueError unless it is None or a dict whose keys are in ``allowed``."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise ValueError(f"reset options must be None or a dict with keys from {list(allowed)}, "
                         f"got {options!r}")
    unknown = [key for key in options if key not in allowed]
    if unknown:
        raise ValueError(f"unknown reset options {unknown}; allowed: {list(allowed)}")
    return dict(options)


def _check_opponents(opponents):
    """The opponents as a tuple; ValueError unless each has ``act(observation, action_mask)``."""
    if isinstance(opponents, (str, bytes)) or not hasattr(opponents, "__iter__"):
        raise ValueError(f"opponents must be a sequence of agents with act(observation, "
                         f"action_mask), one per other agent seat; got {opponents!r}")
    opponents = tuple(opponents)
    for k, opponent in enumerate(opponents):
        if not callable(getattr(opponent, "act", None)):
            raise ValueError(f"opponent {k} has no act(observation, action_mask) method")
    return opponents


def observation_space():
    """The Box every Tiny York env observes in."""
    return spaces.Box(low=0.0, high=OBSERVATION_HIGH, shape=(OBS_SIZE,), dtype=np.float32)


class LegalDiscrete(spaces.Discrete):
    """``Discrete(n)`` whose ``sample()`` without a mask draws from ``legal``, a bool array the env
    keeps equal to the current legal mask; with an explicit mask or probability it is Discrete's."""

    def __init__(self, n, legal, seed=None):
        super().__init__(n, seed=seed)
        self.legal = legal

    def sample(self, mask=None, probability=None):
        """A legal action of the current position (any action once the game is over)."""
        if mask is None and probability is None and self.legal.any():
            mask = self.legal.astype(np.int8)
        return super().sample(mask=mask, probability=probability)


def as_action(action):
    """An int from a Python/numpy integer or a one-element integer array (as SB3 passes actions)."""
    if (isinstance(action, np.ndarray) and action.size == 1
            and np.issubdtype(action.dtype, np.integer)):
        return int(action.reshape(()))
    return action  # anything else is judged (and rejected) by the engine


class TinyYorkEnv(gymnasium.Env):
    """One learning seat of a Tiny York game against Toms and/or fixed opponents (see module doc)."""

    metadata = {
        "render_modes": ["ansi"] + (["rgb_array"] if importlib.util.find_spec(RENDER_MODULE) else []),
        "render_fps": 4,
    }

    def __init__(self, toms=DEFAULT_TOMS, opponents=(), seat=0, reward="win", render_mode=None):
        self.opponents = _check_opponents(opponents)
        self.reward_kind = check_reward_kind(reward)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, "
                             f"got {render_mode!r}")
        self.render_mode = render_mode
        self._configure(*self._setup(toms, seat))
        self.observation_space = observation_space()
        self._mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        self.action_space = LegalDiscrete(NUM_ACTIONS, self._mask)
        self._state = None
        self._game_seed = None

    def _setup(self, toms, seat):
        """The checked (GameConfig, seat) for ``toms`` and ``seat``; ValueError (from GameConfig
        or here) when they are not a valid setup. Changes nothing."""
        config = GameConfig(num_agents=1 + len(self.opponents), toms=toms)
        return config, check_agent_seat(seat, config.num_agents,
                                        f" (1 learning seat + {len(self.opponents)} opponents)")

    def _configure(self, config, seat):
        """Use the checked setup ``config`` and learning ``seat`` (from ``_setup``)."""
        self.config, self.seat = config, seat
        others = [s for s in range(config.num_agents) if s != self.seat]
        self._opponent_of_seat = dict(zip(others, self.opponents, strict=True))

    @property
    def state(self):
        """A copy of the current game record (None before the first reset)."""
        return None if self._state is None else self._state.copy()

    @property
    def game_seed(self):
        """The seed of the game in play (None before the first reset)."""
        return self._game_seed

    def reset(self, *, seed=None, options=None):
        """Start a game: seed ``seed``, else the next seed of the chain; ``options`` may set
        ``toms`` and ``seat`` for this game and the following ones. A bad seed or option is a
        ValueError that changes nothing."""
        seed = None if seed is None else check_seed(seed)
        options = check_reset_options(options, RESET_OPTIONS)
        setup = (self._setup(options.get("toms", self.config.toms), options.get("seat", self.seat))
                 if options else (self.config, self.seat))
        super().reset(seed=seed)
        self._configure(*setup)
        self._game_seed = next_game_seed(seed, self._game_seed, self.np_random)
        self._state = new_game(self.config, self._game_seed)
        self._view_rng = np.random.default_rng(self._game_seed)  # the planning opponents' views
        self._play_opponents()
        return self._observe(), self._info()

    def step(self, action):
        """Play the learning seat's ``action``, then the opponents until its next turn or the end."""
        if self._state is None:
            raise ValueError("call reset() before step()")
        apply_action(self._state, as_action(action))  # ValueError on an illegal action
        self._play_opponents()
        terminated = is_terminal(self._state)
        reward = float(final_rewards(self._state, self.reward_kind)[self.seat]) if terminated else 0.0
        return self._observe(), reward, terminated, False, self._info()

    def action_masks(self):
        """bool[NUM_ACTIONS]: the learning seat's legal actions now (for MaskablePPO)."""
        return self._mask.copy()

    def _play_opponents(self):
        """Let the opponents decide until it is the learning seat's turn or the game is over."""
        while not is_terminal(self._state):
            actor = current_player(self._state)
            if actor == self.seat:
                break
            opponent = self._opponent_of_seat[actor]
            if callable(getattr(opponent, "act_state", None)):  # a planning agent: a seat-safe view
                view = determinize(self._state, actor, int(self._view_rng.integers(SEED_LIMIT)))
                action = opponent.act_state(view, actor)
            else:
                action = opponent.act(encode(self._state, actor), legal_mask(self._state))
            try:
                apply_action(self._state, as_action(action))
            except ValueError as error:
                raise ValueError(f"the opponent in seat {actor} chose an illegal action: "
                                 f"{error}") from error
        self._mask[:] = legal_mask(self._state)  # in place: the action space samples from it

    def _observe(self):
        return encode(self._state, self.seat)

    def _info(self):
        info = {"action_mask": self._mask.copy()}
        if is_terminal(self._state):
            info["final_scores"] = final_scores(self._state)
            info["winner"] = winner(self._state)
        return info

    def render(self):
        """``"ansi"``: the game as text; ``"rgb_array"``: a picture (``tiny_york_env.render``)."""
        if self.render_mode is None or self._state is None:
            return None
        if self.render_mode == "ansi":
            return render_text(self._state)
        return importlib.import_module(RENDER_MODULE).render_rgb(self._state)
