"""Gymnasium single-agent env of any registered game: one learning seat against the rest.

| | |
|---|---|
| id | ``TinyYork-v0``: ``TinyYorkEnv(toms=(5,), opponents=(), seat=0, reward="win",`` |
| | ``illegal_action="terminate", illegal_reward=-1.0)``; ``gym.make`` takes the same kwargs |
| agents | one learning seat; ``opponents`` play the other agent seats, the engine the Toms |
| action space | ``Discrete(NUM_ACTIONS)`` (264); ``action_space.sample()`` draws a legal action |
| action mask | ``info["action_mask"]``, ``action_masks()``: bool[NUM_ACTIONS]; all False at the end; |
| | ``action_masks()`` before the first ``reset()`` is a ``ValueError`` (no game yet) |
| observation space | ``Box(0, OBSERVATION_HIGH, (OBS_SIZE,), float32)``: the learning seat's view; |
| | ``obs_dtype="uint8"``: the compact one, ``compact_observation_space`` (envs/compact.py) |
| rewards | 0 until the end, then ``final_rewards(state, reward)[seat]``: "win", "rank", "score" |
| episode end | ``terminated`` at the final scoring; never truncated: ``gym.make``'s ``TimeLimit`` |
| | (``spec.max_episode_steps``, the game's ``max_decisions``, 1024) lies beyond any game |
| illegal action | ``illegal_action=``: "terminate" (default; a Gymnasium env must accept every |
| | element of its action space, so ``check_env`` and unmasked PPO work): the episode ends, |
| | ``(obs, illegal_reward, True, False, info)`` with ``info["illegal_action"]``, a |
| | ``UserWarning``; or "raise": the engine's ``ValueError``, state unchanged. "random" is not |
| | offered: replacing a move trains a policy on actions it did not choose; masking is the tool |
| bad action | outside ``Discrete(264)`` (range, bool, float, str), or a step after the end: |
| | ``ValueError`` in either mode, state unchanged |
| seeding | ``reset(seed=s)``, ``s`` in 0..2**63-1, plays seed ``s``; each later ``reset()`` |
| | ``next_seed`` of the last; other seeds are refused (``ValueError``), never wrapped |
| reset options | ``None`` or a dict with ``"toms"`` and/or ``"seat"``: kept for the later games too |
| render modes | ``"human"`` (prints ``render_text`` after each reset and step; no window, no |
| | pygame), ``"ansi"`` (``render_text``), ``"rgb_array"`` (``render.render_rgb``, when present) |
| version | v0 |

``GameEnv`` is written once against the game contract; ``TinyYorkEnv`` (``TinyYork-v0``, against
Toms) and ``ConstructionYardEnv`` (``ConstructionYard-v0``: ``ConstructionYardEnv(num_players=2,
bots=("greedy",), opponents=(), seat=0, ...)``, bots in the last seats, Dirk in two-player
games; reset options ``num_players``, ``bots``, ``seat``) fix the game and its setup keywords.
The table describes Tiny York's; Construction Yard's differs in its setup, spaces and render
modes ("human", "ansi").

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

An illegal action is an id in 0..263 that ``action_masks()`` forbids. With "terminate" the
step returns the current observation (the game record is left as it was), reward
``illegal_reward``, ``terminated=True``, and an info whose ``action_mask`` is all False; a further
step before ``reset`` is a ``ValueError``. A masked policy never meets it: legal actions play
the same in both modes. Opponents that choose an illegal action always raise (a bug in the
opponent, not the learner's doing).
"""

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..contract import Game
from ..core.labels import count_noun
from ..core.seeds import SEED_LIMIT, SEED_STRIDE, check_seed, next_seed  # noqa: F401  (SEED_STRIDE re-exported)
from ..registry import BUILTIN_GAMES, DEFAULT_GAME, get_game
from .compact import check_game_obs_dtype, env_observation_space, observation_in
from .generated import RENDER_FPS, game_class_name, make_game_class, normal_setup, render_modes, setup_config
from .rewards import (
    DEFAULT_ILLEGAL_REWARD,
    action_id,
    check_illegal_action,
    check_illegal_reward,
    check_render_mode,
    check_reward_kind,
    final_info,
    final_rewards,
    not_reset_error,
)

ENV_ID = BUILTIN_GAMES[DEFAULT_GAME].env_id  # the default game's Gymnasium id, "TinyYork-v0"
TEXT_RENDER_MODES = ("human", "ansi")
DEFAULT_ILLEGAL_ACTION = "terminate"  # a Gymnasium env accepts every element of its action space


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


def as_action(action: object) -> object:
    """An int from a Python/numpy integer or a one-element integer array (as SB3 passes actions)."""
    if (isinstance(action, np.ndarray) and action.size == 1
            and np.issubdtype(action.dtype, np.integer)):
        return int(action.reshape(()))
    return action  # anything else is judged (and rejected) by the engine


class GameEnv(gymnasium.Env):
    """One learning seat of a game against its automatic participants and/or fixed opponents
    (see module doc). Subclasses name the game and turn their setup keywords into a config."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": RENDER_FPS}
    game_name = ""  # the registry name; set by each subclass
    reset_options: tuple[str, ...] = ("seat",)

    def __init__(self, setup: dict[str, Any], opponents: Sequence[Any] = (),
                 seat: int = 0, reward: str = "win",
                 render_mode: str | None = None, illegal_action: str = DEFAULT_ILLEGAL_ACTION,
                 illegal_reward: float = DEFAULT_ILLEGAL_REWARD, obs_dtype: str = "float32") -> None:
        """A game with the setup keywords ``setup`` against ``opponents`` (see the module's
        table); a bad argument is a ValueError naming what is allowed."""
        self.game: Game = get_game(self.game_name)
        self.obs_dtype = check_game_obs_dtype(self.game, obs_dtype)
        self.opponents = _check_opponents(opponents)
        self.reward_kind = check_reward_kind(reward)
        self.illegal_action = check_illegal_action(illegal_action)
        self.illegal_reward = check_illegal_reward(illegal_reward)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self._configure(*self._setup(setup, seat))
        self.observation_space = env_observation_space(self.game, self.obs_dtype)
        self._mask = np.zeros(self.game.num_actions, dtype=np.bool_)
        self.action_space = LegalDiscrete(self.game.num_actions, self._mask)
        self._state = None
        self._game_seed = None
        self._illegal = None  # the illegal action that ended the game ("terminate"), else None

    def make_config(self, num_agents: int, setup: dict[str, Any]) -> Any:
        """The game's config for ``num_agents`` agent seats and the setup keywords ``setup``."""
        return setup_config(self.game, num_agents, setup)

    def _setup(self, setup, seat):
        """The checked (config, seat, setup) for the setup keywords and ``seat``; ValueError
        (from the game's config or here) when they are not a valid setup. Changes nothing."""
        config = self.make_config(1 + len(self.opponents), setup)
        detail = f" (1 learning seat + {count_noun(len(self.opponents), 'opponent')})"
        return config, check_agent_seat(seat, self.game.num_agents(config), detail), setup

    def _configure(self, config, seat, setup):
        """Use the checked setup (from ``_setup``), as the config keeps it (Tom codes normalised)."""
        self.config, self.seat, self.setup = config, seat, normal_setup(config, setup)
        others = [s for s in range(self.game.num_agents(config)) if s != self.seat]
        self._opponent_of_seat = dict(zip(others, self.opponents, strict=True))

    @property
    def state(self):
        """A copy of the current game record (None before the first reset)."""
        return None if self._state is None else self._state.copy()

    @property
    def game_seed(self):
        """The seed of the game in play (None before the first reset)."""
        return self._game_seed

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Start a game: seed ``seed``, else the next seed of the chain; ``options`` may set
        the setup keywords (``reset_options``) and ``seat`` for this game and the following
        ones. A bad seed or option is a ValueError that changes nothing."""
        seed = None if seed is None else check_seed(seed)
        options = check_reset_options(options, self.reset_options)
        if options:
            setup = {**self.setup, **{k: v for k, v in options.items() if k != "seat"}}
            checked = self._setup(setup, options.get("seat", self.seat))
        else:
            checked = (self.config, self.seat, self.setup)
        super().reset(seed=seed)
        self._configure(*checked)
        self._game_seed = next_game_seed(seed, self._game_seed, self.np_random)
        self._state = self.game.new_game(self.config, self._game_seed)
        self._view_rng = np.random.default_rng(self._game_seed)  # the planning opponents' views
        self._illegal = None
        self._play_opponents()
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._info()

    def step(self, action: int | np.integer | np.ndarray
             ) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play the learning seat's ``action``, then the opponents until its next turn or the end;
        an illegal action raises or ends the episode (``illegal_action``)."""
        if self._state is None:
            raise not_reset_error("step")
        if self._illegal is not None:
            raise ValueError(f"step(): the episode ended on the illegal action {self._illegal} "
                             "(illegal_action='terminate'); call reset() to play again")
        action = action_id(action, self.game.num_actions)  # ValueError outside the action space
        if self.game.is_terminal(self._state):
            raise ValueError(f"action {action}: the game is over; call reset() to play again")
        if not self._mask[action]:
            if self.illegal_action == "raise":
                self.game.apply_action(self._state, action)  # raises the engine's ValueError
                raise AssertionError("unreachable: the mask refused a legal action")
            return self._terminate_illegal(action)
        self.game.apply_action(self._state, action)
        self._play_opponents()
        terminated = self.game.is_terminal(self._state)
        reward = (float(final_rewards(self._state, self.reward_kind, self.game)[self.seat])
                  if terminated else 0.0)
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, terminated, False, self._info()

    def _terminate_illegal(self, action):
        """End the episode on the learning seat's illegal ``action``; the game record is kept."""
        warnings.warn(f"illegal action {action} ({self.game.describe_action(action)}) for the learning seat "
                      f"{self.seat}: the episode ends with reward {self.illegal_reward} "
                      "(illegal_action='terminate'); action_masks() gives the legal actions",
                      UserWarning, stacklevel=3)
        self._illegal = action
        self._mask[:] = False
        info = self._info()
        info["illegal_action"] = action
        if self.render_mode == "human":
            self.render()
        return self._observe(), self.illegal_reward, True, False, info

    def action_masks(self) -> np.ndarray:
        """bool[num_actions]: the learning seat's legal actions now (for MaskablePPO); ValueError
        before the first reset (there is no game to ask)."""
        if self._state is None:
            raise not_reset_error("action_masks")
        return self._mask.copy()

    def _play_opponents(self):
        """Let the opponents decide until it is the learning seat's turn or the game is over."""
        game = self.game
        while not game.is_terminal(self._state):
            actor = game.current_player(self._state)
            if actor == self.seat:
                break
            opponent = self._opponent_of_seat[actor]
            if callable(getattr(opponent, "act_state", None)):  # a planning agent: a seat-safe view
                view = game.determinize(self._state, actor, int(self._view_rng.integers(SEED_LIMIT)))
                action = opponent.act_state(view, actor)
            else:
                action = opponent.act(game.encode(self._state, actor), game.legal_mask(self._state))
            try:
                game.apply_action(self._state, as_action(action))
            except ValueError as error:
                raise ValueError(f"the opponent in seat {actor} chose an illegal action: "
                                 f"{error}") from error
        self._mask[:] = game.legal_mask(self._state)  # in place: the action space samples from it

    def _observe(self):
        return observation_in(self.game, self.game.encode(self._state, self.seat), self.obs_dtype)

    def _info(self):
        info = {"action_mask": self._mask.copy()}
        if self.game.is_terminal(self._state):
            info.update(final_info(self.game, self._state))
        return info

    def render(self) -> str | np.ndarray | None:
        """``"human"``: prints the game as text (returns None); ``"ansi"``: the text;
        ``"rgb_array"``: a picture (the game's ``render_rgb``, its ``picture.py``)."""
        if self.render_mode is None or self._state is None:
            return None
        if self.render_mode == "human":
            print(self.game.render_text(self._state))
            return None
        if self.render_mode == "ansi":
            return self.game.render_text(self._state)
        return self.game.render_rgb(self._state)


def _build(env: GameEnv, game: Game, setup: dict[str, Any], **arguments: Any) -> None:
    GameEnv.__init__(env, setup, **arguments)


def env_class(game: str | Game) -> type[GameEnv]:
    """The single-agent env class of ``game``, generated from its record (``TinyYorkEnv``, ...):
    its setup keywords are the record's ``env_defaults``, then ``GameEnv``'s."""
    return make_game_class(
        GameEnv, "Env", get_game(game).name, lambda g: g.env_defaults, _build,
        lambda g: {"metadata": {**GameEnv.metadata, "render_modes": render_modes(g, TEXT_RENDER_MODES)},
                   "reset_options": (*g.env_defaults, "seat")})


def __getattr__(name: str) -> type[GameEnv]:
    """A game's generated class by name (``TinyYorkEnv``, ``ConstructionYardEnv``, ...)."""
    game = game_class_name(name, "Env")
    if game is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return env_class(game)
