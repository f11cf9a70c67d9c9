"""Any game of the project as an RLlib ``MultiAgentEnv`` (new API stack), with the legal mask in
the observation.

``GameMultiAgentEnv(config)`` plays one game through the game contract: each agent seat is an
RLlib agent ``"seat_0"``, ``"seat_1"``, ...; the engine's own participants (Tiny York's Toms,
Construction Yard's bots) play inside it. Turn-based: each step returns the observation of the
seat to move only. The observation is the dict RLlib's masking modules expect (this is the small
adapter the issue asks for; nothing of RLlib is edited):

- ``"observations"``: the game's per-seat vector (``Game.encode``, ``Game.observation_space()``;
  with ``obs_dtype="uint8"`` the compact observation, docs/compact-observations.md);
- ``"action_mask"``: float32 0/1 of the legal actions (``Game.legal_mask``).

Rewards are 0 until the end, then each seat's ``final_rewards`` (``reward`` = "win", "rank" or
"score"), given to every agent seat with its final observation, all terminated. An action the
mask forbids (only an unmasked sampler plays one: RLlib's env pre-check does) ends the game,
the state unchanged, ``illegal_reward`` to the seat that played it and 0 to the others, as the
project's envs' ``illegal_action="terminate"``. Seeds: ``reset(seed=s)`` plays game seed ``s``;
later resets follow the seed chain of the other envs (``core.seeds.next_seed``).

``env_config`` keys: ``game`` (default "tiny_york"), ``reward`` ("win"), ``illegal_reward``
(-1.0), ``obs_dtype`` ("float32" or "uint8"), and the game's setup keywords (Tiny York:
``num_agents``, ``toms``; Construction Yard: ``num_players``, ``bots``), e.g.
``{"game": "tiny_york", "num_agents": 2, "toms": [5]}``.
"""

from __future__ import annotations

import secrets
from typing import Any

import numpy as np
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from tiny_york_env.core.compact import FLOAT_DTYPE
from tiny_york_env.core.seeds import SEED_LIMIT, check_seed, next_seed
from tiny_york_env.envs.compact import check_game_obs_dtype, env_observation_space, observation_in
from tiny_york_env.envs.rewards import DEFAULT_ILLEGAL_REWARD, check_reward_kind, final_rewards
from tiny_york_env.registry import get_game

OBS_KEY, MASK_KEY = "observations", "action_mask"
ENV_KEYS = ("game", "reward", "illegal_reward", "obs_dtype")


def agent_id(seat: int) -> str:
    """RLlib's id of an agent seat: 'seat_0'."""
    return f"seat_{seat}"


def seat_of(agent: str) -> int:
    """The seat of an RLlib agent id."""
    return int(agent.rsplit("_", 1)[1])


def masked_observation_space(game, obs_dtype: np.dtype = FLOAT_DTYPE) -> spaces.Dict:
    """The Dict observation space: the game's vector (of ``obs_dtype``) and the 0/1 legal mask."""
    return spaces.Dict({OBS_KEY: env_observation_space(game, obs_dtype),
                        MASK_KEY: spaces.Box(0.0, 1.0, (game.num_actions,), np.float32)})


def obs_dtype_of(game, env_config: dict[str, Any]) -> np.dtype:
    """The observations' dtype an ``env_config`` names (``obs_dtype``, float32 by default)."""
    return check_game_obs_dtype(game, env_config.get("obs_dtype", "float32"))


def game_setup(env_config: dict[str, Any]) -> tuple[Any, Any]:
    """(game, config) of an ``env_config``; ValueError naming what is wrong."""
    game = get_game(env_config.get("game", "tiny_york"))
    setup = {key: (tuple(value) if isinstance(value, list) else value)
             for key, value in env_config.items() if key not in ENV_KEYS}
    try:
        return game, game.make_config(**setup)
    except TypeError as error:
        raise ValueError(f"bad setup for {game.title}: {error}") from None


class GameMultiAgentEnv(MultiAgentEnv):
    """One game as an RLlib MultiAgentEnv (module doc)."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        """``config``: RLlib's env_config (module doc)."""
        super().__init__()
        env_config = dict(config or {})
        self.game, self.game_config = game_setup(env_config)
        self.reward_kind = check_reward_kind(env_config.get("reward", "win"))
        self.illegal_reward = float(env_config.get("illegal_reward", DEFAULT_ILLEGAL_REWARD))
        self.obs_dtype = obs_dtype_of(self.game, env_config)
        self.num_agent_seats = self.game.num_agents(self.game_config)
        self.possible_agents = [agent_id(seat) for seat in range(self.num_agent_seats)]
        self.agents = list(self.possible_agents)
        observation_space = masked_observation_space(self.game, self.obs_dtype)
        action_space = spaces.Discrete(self.game.num_actions)
        self.observation_spaces = {agent: observation_space for agent in self.possible_agents}
        self.action_spaces = {agent: action_space for agent in self.possible_agents}
        self.state = None
        self.game_seed = None

    def _encode(self, seat: int) -> np.ndarray:
        return observation_in(self.game, self.game.encode(self.state, seat), self.obs_dtype)

    def _observe(self, seat: int) -> dict[str, np.ndarray]:
        return {OBS_KEY: self._encode(seat),
                MASK_KEY: self.game.legal_mask(self.state).astype(np.float32)}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """A new game: seed ``seed``, else the next of the chain (a random one at first)."""
        if seed is not None:
            self.game_seed = check_seed(seed)
        elif self.game_seed is None:
            self.game_seed = secrets.randbelow(SEED_LIMIT)
        else:
            self.game_seed = next_seed(self.game_seed)
        self.state = self.game.new_game(self.game_config, self.game_seed)
        seat = self.game.current_player(self.state)
        return {agent_id(seat): self._observe(seat)}, {}

    def step(self, action_dict: dict[str, Any]):
        """Play the action of the seat to move; the next seat's observation, or every seat's
        final observation and reward at the end."""
        seat = self.game.current_player(self.state)
        agent = agent_id(seat)
        if agent not in action_dict:
            raise ValueError(f"it is {agent}'s turn; got actions for {sorted(action_dict)}")
        action = int(action_dict[agent])
        if not (0 <= action < self.game.num_actions and self.game.legal_mask(self.state)[action]):
            rewards = {a: 0.0 for a in self.possible_agents}
            rewards[agent] = self.illegal_reward
            return self._end(rewards, {agent: {"illegal_action": action}})
        self.game.apply_action(self.state, action)
        if self.game.is_terminal(self.state):
            final = final_rewards(self.state, self.reward_kind, self.game)
            return self._end({a: float(final[seat_of(a)]) for a in self.possible_agents}, {})
        nxt = self.game.current_player(self.state)
        return ({agent_id(nxt): self._observe(nxt)}, {agent_id(nxt): 0.0},
                {"__all__": False}, {"__all__": False}, {})

    def _end(self, rewards, infos):
        """Every agent seat's last observation and reward; all terminated."""
        observations = {a: {OBS_KEY: self._encode(seat_of(a)),
                            MASK_KEY: np.zeros(self.game.num_actions, np.float32)}
                        for a in self.possible_agents}
        done = {a: True for a in self.possible_agents}
        return (observations, rewards, {**done, "__all__": True},
                {**{a: False for a in self.possible_agents}, "__all__": False}, infos)
