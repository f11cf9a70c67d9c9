"""PettingZoo AEC environment of any registered game; the automatic participants play inside it.

| | |
|---|---|
| Import | `from tiny_york_env import env, raw_env` (or `tiny_york_env.envs.aec`) |
| Agents | `player_0` .. `player_{n-1}` = agent seats 0..n-1 (`num_agents` 1-4); Toms are not agents |
| Action space | `Discrete(264)`, the engine's flat action table (docs/actions.md) in every phase |
| Observation space | `Dict(observation=Box(0, OBSERVATION_HIGH, (1929,), float32),` |
| | `     action_mask=Box(0, 1, (264,), int8))`; `obs_dtype="uint8"`: the compact observation |
| Rewards | 0 until the end, then `final_rewards(state, reward)[seat]`: "win", "rank" or "score" |
| Termination | all agents at the end of the final scoring; truncated only by an illegal action |
| Illegal action | `illegal_action=`: `raw_env` default "raise" (the engine's `ValueError`, nothing |
| | changed; PettingZoo's classic raw envs raise too), `env()` default "terminate" (classic |
| | `env()`'s TerminateIllegalWrapper, built in: the game ends, see below); "random" is not |
| | offered: replacing a move trains a policy on actions it did not choose; masking is the tool |
| Bad action | outside `Discrete(264)` (range, bool, float, str): `ValueError` in every mode |
| State | `state()`: `encode_global_state`, hidden parts included (docs/global-state.md), in |
| | `state_space = Box(0, GLOBAL_STATE_HIGH, (2867,), float32)`, for centralized critics |
| Misuse | `raw_env`: `ValueError` for step/observe/last before reset, a step after every agent |
| | stepped `None`, an unknown agent; `env()` keeps PettingZoo's wrapper errors and warnings |
| Seeding | `reset(seed=s)`, `s` in 0..2**63-1 (others: `ValueError`); seedless resets draw from it |
| Reset options | none: `None`/`{}`; a dict's keys are ignored with a `UserWarning`, other values are a |
| | `ValueError`; for other Toms build a new env (PettingZoo's api_test passes an options dict) |
| Render modes | "ansi" (render_text), "human" (prints it), "rgb_array" (600 x 900 x 3 uint8) |
| Version | `tiny_york_v0` |

``GameAECEnv(game=..., config=...)`` is written once against the game contract; ``raw_env`` /
``env()`` are Tiny York's, ``ConstructionYardAECEnv(num_players=3, bots=())`` Construction
Yard's, and ``make_aec(game, **setup)`` / ``make_raw_aec`` build either by name
(``make_aec("construction_yard", num_players=2)``). The table describes Tiny York's; Construction
Yard's differs in its setup, spaces, render modes ("human", "ansi") and version
(``construction_yard_v0``), and has no ``state()``.

Turns follow the engine: ``agent_selection`` is always the seat ``current_player`` names, and the
engine plays the Toms (they take the seats after the agents) inside ``step``. ``observe(agent)`` is
``observation.encode(state, seat)`` (docs/observation.md) and, on that agent's turn, its legal
actions as an int8 mask; the mask is all zeros for the others and after the end (as in PettingZoo's
classic envs). Rewards (``envs/rewards.py``): "win" +1 to the winner and -1/(P-1) to the others,
"rank" +1 for first down to -1 for last, "score" the margin to the best other participant / 50;
P counts Toms, so in games with Toms the agents' rewards need not sum to zero. At the end each
agent's info holds ``final_score`` and ``winner``.

``illegal_action="terminate"`` follows PettingZoo's ``TerminateIllegalWrapper`` (classic envs'
``env()``): an action the mask forbids ends the game for every agent (terminations and
truncations all True, as that wrapper sets them), the offender gets ``illegal_reward`` (default
-1), the others 0, EnvLogger warns naming the agent and the action, and the offender's info
holds ``illegal_action``; masks are all zero afterwards and each agent steps ``None`` once, as
after a normal end. The engine's record is left as it was (not game over). A masked policy never
meets any of this: legal actions play the same in both modes.

The observation space is ``observation.observation_space()``, the one finite Box every env uses
(with ``obs_dtype="uint8"`` the compact one, envs/compact.py):
values are scaled to about [0, 1], one-hot parts are 0/1, and the quantities the rules leave
unlimited (points, dollars, skyscrapers) saturate far above anything seen in play.

The adapter holds no rules: legality, the turn order, Toms and scoring are the engine's. It only
keeps PettingZoo's bookkeeping and computes an observation or a mask when ``observe`` asks. For
speed it calls the compiled kernels behind the engine verbs directly (apply, mask, encode); an
illegal action then goes through ``apply_action``, which raises the engine's message.
"""

import warnings
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from ..contract import Game
from ..core.batch_loops import REFUSED
from ..core.compact import FLOAT_DTYPE
from ..core.seeds import SEED_LIMIT, check_seed
from ..registry import DEFAULT_GAME, get_game
from .batch import batch_kernels
from .compact import check_game_obs_dtype, env_observation_space
from .generated import RENDER_FPS, game_class_name, make_game_class, render_modes, setup_config
from .rewards import (
    DEFAULT_ILLEGAL_REWARD,
    action_id,
    check_illegal_action,
    check_illegal_reward,
    check_render_mode,
    check_reward_kind,
    final_rewards,
    not_reset_error,
)

AGENT_PREFIX = "player_"
TEXT_RENDER_MODES = ("human", "ansi")
RAW_ENV_ILLEGAL_ACTION = "raise"  # PettingZoo's classic raw envs raise on an illegal move
ENV_ILLEGAL_ACTION = "terminate"  # classic env() wraps TerminateIllegalWrapper


AEC_SETUP_WORDS = ("seat", "num_agents")  # with the game's setup keywords: fixed at construction


def _check_reset_options(options, setup_words):
    """ValueError unless ``options`` is None or a dict. No key changes the game (it is fixed at
    construction); other keys are ignored silently, as PettingZoo's own envs do (its api_test
    passes ``{"options": 1}``), but keys in ``setup_words``, which a user may expect to change
    the setup, are named in a warning."""
    if options is None:
        return
    if not isinstance(options, Mapping):
        raise ValueError(f"reset options must be None or a dict (the AEC env has none), got {options!r}")
    setup_keys = sorted(str(key) for key in options if key in setup_words)
    if setup_keys:
        warnings.warn(f"the AEC env's setup is fixed at construction; ignoring the reset options "
                      f"{setup_keys} (build a new env for another setup)", UserWarning, stacklevel=3)


def env(*, illegal_action: str = ENV_ILLEGAL_ACTION, **kwargs: Any) -> "FastOrderEnforcingWrapper":
    """``raw_env(**kwargs)`` (the default game's AEC env) in PettingZoo's order enforcing wrapper,
    illegal actions ending the game with a penalty by default (classic ``env()``'s
    TerminateIllegalWrapper, built in)."""
    return make_aec(DEFAULT_GAME, illegal_action=illegal_action, **kwargs)


def make_raw_aec(game: str | Game = DEFAULT_GAME, **kwargs: Any) -> "GameAECEnv":
    """The raw AEC env of the game named ``game`` (its generated class, ``TinyYorkAECEnv`` =
    ``raw_env``, ``ConstructionYardAECEnv``, ...) with its setup keywords ``kwargs``."""
    return aec_env_class(game)(**kwargs)


def make_aec(game: str | Game = DEFAULT_GAME, *, illegal_action: str = ENV_ILLEGAL_ACTION,
             **kwargs: Any) -> "FastOrderEnforcingWrapper":
    """``make_raw_aec(game, **kwargs)`` wrapped as ``env()`` wraps ``raw_env`` (order enforcing,
    illegal actions ending the game with a penalty by default)."""
    return FastOrderEnforcingWrapper(make_raw_aec(game, illegal_action=illegal_action, **kwargs))


def _forward(name):
    """A read-only attribute of the wrapped env, refused before reset as OrderEnforcingWrapper does."""

    def get(self):
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(get, doc=f"The wrapped env's ``{name}`` (after reset).")


class FastOrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's OrderEnforcingWrapper with the same checks, minus its per-access cost.

    The base class reaches every attribute of the env through ``__getattr__`` (a failed lookup
    first, about 1 us each, five of them in ``last()``); these direct forwards halve the time
    of a Python step loop. Behaviour is unchanged: same errors before reset, same warning on a
    step with no agents left.
    """

    agents = _forward("agents")
    agent_selection = _forward("agent_selection")
    rewards = _forward("rewards")
    terminations = _forward("terminations")
    truncations = _forward("truncations")
    infos = _forward("infos")
    _cumulative_rewards = _forward("_cumulative_rewards")

    @property
    def num_agents(self):
        """Agents still in the game (after reset)."""
        return len(self.agents)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict]:
        """The selected agent's (observation, cumulative reward, terminated, truncated, info)."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)

    def step(self, action: int | None) -> None:
        """As OrderEnforcingWrapper.step: refused before reset, a warning once all agents are done."""
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)


class GameAECEnv(AECEnv):
    """A game for its agent seats, the engine playing the automatic participants (see the
    module's table); subclasses fix the game and take its setup as keywords."""

    metadata = {
        "render_modes": list(TEXT_RENDER_MODES),
        "name": "game_v0",
        "is_parallelizable": False,
        "render_fps": RENDER_FPS,
    }

    def __init__(self, *, game: str | Game, config: Any, reward: str = "win",
                 render_mode: str | None = None, seed: int | None = None,
                 illegal_action: str = RAW_ENV_ILLEGAL_ACTION,
                 illegal_reward: float = DEFAULT_ILLEGAL_REWARD, obs_dtype: str = "float32") -> None:
        """A new environment for ``game`` and its checked ``config``; ``seed`` (0..2**63-1) is the
        first ``reset``'s seed when that reset names none; ``illegal_action`` "raise" or
        "terminate" (see the module's table); ``obs_dtype`` "float32" or "uint8" (the compact
        observation, envs/compact.py)."""
        super().__init__()
        self.game = game = get_game(game)
        self.obs_dtype = check_game_obs_dtype(game, obs_dtype)
        seed = None if seed is None else check_seed(seed)
        if not isinstance(config, game.config_type):
            raise ValueError(f"config must be a {game.config_type.__name__}, got {config!r}")
        self.config = config
        self.reward_kind = check_reward_kind(reward)
        self.illegal_action = check_illegal_action(illegal_action)
        self.illegal_reward = check_illegal_reward(illegal_reward)
        # the game's own name and render modes, also when this class is used directly
        self.metadata = {**self.metadata, "name": game.aec_name,
                         "render_modes": render_modes(game, TEXT_RENDER_MODES)}
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self._kernels = batch_kernels(game)
        num_agents = game.num_agents(config)
        self.possible_agents = [f"{AGENT_PREFIX}{seat}" for seat in range(num_agents)]
        self.agents = self.possible_agents[:]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": env_observation_space(game, self.obs_dtype),
            "action_mask": spaces.Box(low=0, high=1, shape=(game.num_actions,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(game.num_actions) for a in self.possible_agents}
        if game.global_state_space is not None:
            self.state_space = game.global_state_space()
        self._first_seed = seed
        self._seed_rng = None
        self._state = None
        self._illegal_end = False  # the game ended on an illegal action ("terminate")

    # --- spaces -----------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Dict:
        """The agent's observation space (one object per agent, as PettingZoo asks)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """``Discrete(num_actions)``."""
        return self.action_spaces[agent]

    def state(self) -> np.ndarray:
        """float32[GLOBAL_STATE_SIZE]: the whole game, hidden parts included, for a centralized
        critic (docs/global-state.md); never give it to a policy that acts."""
        if self.game.global_state is None:
            raise NotImplementedError(f"{self.game.title} has no global state encoder yet")
        if self._state is None:
            self._refuse("state")
        return self.game.global_state(self._state)

    @property
    def game_state(self):
        """The engine's live state record (read it, copy it; changing it breaks the env)."""
        return self._state

    # --- the game -----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game. A seed (0..2**63-1) gives the same game every time and seeds the seedless
        resets after it. No option changes the game: a dict's keys are ignored, with a warning for
        those naming a setup keyword (build a new env for another setup)."""
        seed = None if seed is None else check_seed(seed)
        _check_reset_options(options, (*self.game.aec_defaults, *self.game.env_defaults, *AEC_SETUP_WORDS))
        if seed is None and self._first_seed is not None:
            seed, self._first_seed = self._first_seed, None
        if seed is not None:
            game_seed = seed
        elif self._seed_rng is not None:
            game_seed = int(self._seed_rng.integers(SEED_LIMIT))
        else:
            game_seed = None  # fresh entropy
        self._bind(self.game.new_game(self.config, game_seed))
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self._illegal_end = False
        self._actor = self._kernels.actor_at(self._batch, 0)  # the seat to decide, -1 at the end
        self.agent_selection = self.possible_agents[self._actor]
        if self.render_mode == "human":
            self.render()

    def _bind(self, state):
        """Keep ``state`` and a (1,)-shaped view of it for the compiled kernels."""
        self._state = state
        self._batch = state.reshape(1)

    def __getstate__(self):
        """Pickle and deepcopy without the batch view (it would lose its link to the state) and
        the compiled kernels (rebuilt from the game)."""
        out = self.__dict__.copy()
        for key in ("_batch", "_kernels"):
            out.pop(key, None)
        return out

    def __setstate__(self, data):
        """Restore, re-linking the batch view to the copied state."""
        data.setdefault("obs_dtype", FLOAT_DTYPE)  # pickled before the compact observations
        self.__dict__.update(data)
        self._kernels = batch_kernels(self.game)
        if self._state is not None:
            self._bind(self._state)

    def _refuse(self, verb):
        """The ValueError for ``verb`` before the first reset or after every agent's dead step."""
        if self._state is None:
            raise not_reset_error(verb)
        raise ValueError(f"{verb}(): the game is over and every agent has stepped None "
                         "(PettingZoo's dead steps); call reset() to play again")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict]:
        """The selected agent's (observation, cumulative reward, terminated, truncated, info)."""
        if self._state is None or not self.agents:
            self._refuse("last")
        return super().last(observe)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's view and, on its turn, its legal actions (int8); computed on each call."""
        if self._state is None:
            self._refuse("observe")
        seat = self._seat.get(agent)
        if seat is None:
            raise ValueError(f"unknown agent {agent!r}; the agents are {self.possible_agents}")
        obs = np.empty(self.game.obs_size, dtype=self.obs_dtype)
        self._kernels.encode_at(self._batch, 0, seat, obs)
        if agent == self.agent_selection and self._actor >= 0 and not self._illegal_end:
            mask = np.empty(self.game.num_actions, dtype=np.bool_)
            self._kernels.mask_at(self._batch, 0, mask)
            mask = mask.view(np.int8)
        else:
            mask = np.zeros(self.game.num_actions, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action; after the end, each agent steps ``None`` once."""
        if self._state is None or not self.agents:
            self._refuse("step")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is not int or not 0 <= action < self.game.num_actions:
            # a numpy int or one-element array; else a ValueError
            action = action_id(action, self.game.num_actions)
        # The compiled kernel checks legality and changes nothing on an illegal action.
        actor = self._kernels.apply_at(self._batch, 0, action)
        if actor == REFUSED:
            if self.illegal_action == "raise":
                self.game.apply_action(self._state, action)  # raises the engine's ValueError
                raise AssertionError("unreachable: apply_at refused a legal action")
            self._terminate_illegal(agent, action)
        else:
            self._actor = actor
            if actor < 0:
                self._end_game(agent)
            else:
                self.agent_selection = self.possible_agents[actor]
        if self.render_mode == "human":
            self.render()

    def _terminate_illegal(self, agent, action):
        """End the game on ``agent``'s illegal ``action`` as TerminateIllegalWrapper does."""
        EnvLogger._generic_warning(
            f"[WARNING]: Illegal move made by {agent}: action {action} "
            f"({self.game.describe_action(action)}) "
            f"is not legal now; game terminating with {agent} losing (reward {self.illegal_reward}, "
            "illegal_action='terminate'). obs['action_mask'] contains a mask of all legal moves "
            "that can be chosen.")
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = self.illegal_reward
        self._accumulate_rewards()
        self.infos[agent] = {**self.infos[agent], "illegal_action": action}
        self._illegal_end = True
        self._deads_step_first()

    def _end_game(self, last_agent):
        """Final rewards, terminations and score infos for every agent."""
        rewards = final_rewards(self._state, self.reward_kind, self.game)
        scores = self.game.final_scores(self._state)
        best = self.game.winners(self._state)
        self._cumulative_rewards[last_agent] = 0.0
        for agent in self.agents:
            seat = self._seat[agent]
            self.rewards[agent] = float(rewards[seat])
            self._cumulative_rewards[agent] += self.rewards[agent]
            self.terminations[agent] = True
            self.infos[agent] = {"final_score": int(scores[seat]), "winner": seat in best}
        self.agent_selection = self.agents[0]

    # --- views ----------------------------------------------------------------------------------
    def render(self) -> str | np.ndarray | None:
        """The render mode's view: text (ansi), printed text (human) or a picture (rgb_array)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; give render_mode= "
                                  f"one of {tuple(self.metadata['render_modes'])} to the env")
            return None
        if self._state is None:
            raise not_reset_error("render")
        if self.render_mode == "rgb_array":
            return self.game.render_rgb(self._state)
        text = self.game.render_text(self._state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def _build(env: GameAECEnv, game: Game, setup: dict[str, Any], **arguments: Any) -> None:
    GameAECEnv.__init__(env, game=game, config=setup_config(game, None, setup), **arguments)


def aec_env_class(game: str | Game) -> type[GameAECEnv]:
    """The raw AEC env class of ``game``, generated from its record (``TinyYorkAECEnv``, ...): its
    setup keywords are the record's ``aec_defaults`` (every agent seat and the automatic ones)."""
    return make_game_class(
        GameAECEnv, "AECEnv", get_game(game).name, lambda g: g.aec_defaults, _build,
        lambda g: {"metadata": {**GameAECEnv.metadata, "name": g.aec_name,
                                "render_modes": render_modes(g, TEXT_RENDER_MODES)}})


def __getattr__(name: str) -> type[GameAECEnv]:
    """``raw_env`` (the default game's AEC class) or a game's generated class by name
    (``TinyYorkAECEnv``, ``ConstructionYardAECEnv``, ...)."""
    if name == "raw_env":
        return aec_env_class(DEFAULT_GAME)
    game = game_class_name(name, "AECEnv")
    if game is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return aec_env_class(game)
