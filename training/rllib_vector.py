"""RLlib's runners stepping batches of games in compiled code: every game of the project, B games
a runner, one kernel call a step.

- ``GameVectorMultiAgentEnv(env_config)``: RLlib's ``VectorMultiAgentEnv`` over ``num_envs``
  games of one setup, every agent seat an RLlib agent (``"seat_0"``, ...), turn-based, the
  engine's Toms and bots inside. Game for game it equals RLlib's ``SyncVectorMultiAgentEnv``
  over ``num_envs`` ``rllib_env.GameMultiAgentEnv`` (the same observations, masks, rewards,
  terminations, truncations and infos for the same seeds and actions, through ends and
  autoresets; a test checks it), but one step of all B games is one call of the game's
  ``turn_step_kernel`` (``core/batch_loops.py``). Autoreset as RLlib's: the step after a game
  ended ignores its actions and returns the next game's first observation.
- ``VectorMultiAgentEnvRunner``: RLlib's ``MultiAgentEnvRunner`` whose env is that vector env
  (RLlib 2.60 itself vectorizes multi-agent envs only by copies, ``SyncVectorMultiAgentEnv``).
  ``config.env_runners(env_runner_cls=VectorMultiAgentEnvRunner, num_envs_per_env_runner=B)``.
- ``masked_vector_env(env_config)``: for RLlib's single-agent runners with
  ``gym_env_vectorize_mode="vector_entry_point"``: the game's native Gymnasium vector env
  (``envs/gym_vector.GameVectorEnv``, one agent against the engine's participants) with the
  observation as the Dict the masked module reads (``observations`` and ``action_mask``).

``env_config`` keys: those of ``rllib_env.GameMultiAgentEnv`` (``game``, ``reward``,
``illegal_reward`` and the setup), ``num_envs`` (games a runner, default 1) and ``num_threads``
(numba threads the games are stepped on, default 1: one runner a core).
"""

from __future__ import annotations

import secrets
import uuid
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from ray.rllib.callbacks.utils import make_callback
from ray.rllib.env.env_context import EnvContext
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner
from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner
from ray.rllib.env.vector.vector_multi_agent_env import VectorMultiAgentEnv

from tiny_york_env.core.options import check_int
from tiny_york_env.core.seeds import SEED_LIMIT, check_seed, next_seed
from tiny_york_env.envs.batch import BatchRunner, byte_view, check_num_threads
from tiny_york_env.envs.gym_vector import GameVectorEnv
from tiny_york_env.envs.rewards import DEFAULT_ILLEGAL_REWARD, check_reward_kind, final_rewards

from .rllib_env import MASK_KEY, OBS_KEY, agent_id, game_setup, masked_observation_space, obs_dtype_of

VECTOR_KEYS = ("num_envs", "num_threads")
DEFAULT_THREADS = 1  # one runner a core: the runners, not the threads, spread over the cores
ALL = "__all__"


def split_vector_config(env_config: dict[str, Any] | None) -> tuple[dict[str, Any], int, int | None]:
    """(the single env's config, num_envs, num_threads) of a vector env's ``env_config``."""
    config = dict(env_config or {})
    num_envs = config.pop("num_envs", 1)
    num_threads = config.pop("num_threads", DEFAULT_THREADS)
    check_int("num_envs", num_envs, 1)
    return config, int(num_envs), num_threads


def object_array(items) -> NDArray[np.object_]:
    """A 1-d object array of ``items`` (dicts stay dicts)."""
    array = np.empty(len(items), dtype=object)
    array[:] = list(items)
    return array


class GameSeats(MultiAgentEnv):
    """What RLlib's runner asks of each sub-env of a vector env: the agents and their spaces
    (``vector.envs[i]``). It describes game i's seats; the vector env steps the games."""

    def __init__(self, possible_agents: list[str], observation_space: gym.Space,
                 action_space: gym.Space) -> None:
        """The agent ids and the one observation and action space they share."""
        super().__init__()
        self.possible_agents = list(possible_agents)
        self.agents = list(possible_agents)
        self.observation_spaces = {agent: observation_space for agent in possible_agents}
        self.action_spaces = {agent: action_space for agent in possible_agents}

    def reset(self, *, seed=None, options=None):
        """Not played on its own: the vector env resets every game."""
        raise TypeError("GameSeats describes one game of a GameVectorMultiAgentEnv; reset the vector env")

    def step(self, action_dict):
        """Not played on its own: the vector env steps every game."""
        raise TypeError("GameSeats describes one game of a GameVectorMultiAgentEnv; step the vector env")


class GameVectorMultiAgentEnv(VectorMultiAgentEnv):
    """``num_envs`` games as RLlib's VectorMultiAgentEnv, stepped in compiled code (module doc)."""

    metadata = {"autoreset_mode": "next_step"}

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        """``config``: the module doc's ``env_config``."""
        super().__init__()
        env_config, self.num_envs, num_threads = split_vector_config(config)
        self.game, self.game_config = game_setup(env_config)
        self.reward_kind = check_reward_kind(env_config.get("reward", "win"))
        self.illegal_reward = float(env_config.get("illegal_reward", DEFAULT_ILLEGAL_REWARD))
        self.obs_dtype = obs_dtype_of(self.game, env_config)
        game, b = self.game, self.num_envs
        self.num_agent_seats = game.num_agents(self.game_config)
        self.possible_agents = [agent_id(seat) for seat in range(self.num_agent_seats)]
        observation_space = masked_observation_space(game, self.obs_dtype)
        action_space = spaces.Discrete(game.num_actions)
        self.envs = [GameSeats(self.possible_agents, observation_space, action_space)
                     for _ in range(b)]
        self.single_observation_spaces = dict(self.envs[0].observation_spaces)
        self.single_action_spaces = dict(self.envs[0].action_spaces)
        self.single_observation_space = spaces.Dict(self.single_observation_spaces)
        self.single_action_space = spaces.Dict(self.single_action_spaces)
        self.num_threads = check_num_threads(num_threads, b)
        self._kernels = BatchRunner(game, self.num_threads)
        self._params = game.config_params(self.game_config)
        self._states = np.zeros(b, dtype=game.state_dtype)
        self._raw = byte_view(self._states)
        self._game_seeds = np.full(b, -1, dtype=np.int64)  # -1: no game yet
        self._obs = np.zeros((b, game.obs_size), dtype=self.obs_dtype)
        self._masks = np.zeros((b, game.num_actions), dtype=np.bool_)
        self._actors = np.full(b, -1, dtype=np.int64)
        self._terminated = np.zeros(b, dtype=np.bool_)
        self._autoreset = np.zeros(b, dtype=np.bool_)
        self._ended = np.zeros(b, dtype=np.int64)
        self._illegal = np.zeros(b, dtype=np.bool_)

    @property
    def game_seeds(self) -> list[int | None]:
        """The seed of each game in play (None before the first reset)."""
        return [None if s < 0 else int(s) for s in self._game_seeds]

    def _seeds(self, seed) -> NDArray[np.int64]:
        """Every game's seed for a reset: ``seed + i``, one each from a list, or the next of each
        game's chain (a random one at first); ValueError for anything else."""
        b = self.num_envs
        if seed is None:
            given = [None] * b
        elif isinstance(seed, (int, np.integer)) and not isinstance(seed, (bool, np.bool_)):
            given = [check_seed(int(seed) + i) for i in range(b)]
        elif isinstance(seed, (list, tuple)) and len(seed) == b:
            given = [None if s is None else check_seed(s) for s in seed]
        else:
            raise ValueError(f"seed must be None, an int or a list of {b} ints/None (one per game), "
                             f"got {seed!r}")
        seeds = self._game_seeds.copy()
        for i, chosen in enumerate(given):
            if chosen is not None:
                seeds[i] = chosen
            elif seeds[i] >= 0:
                seeds[i] = next_seed(seeds[i])
            else:
                seeds[i] = secrets.randbelow(SEED_LIMIT)
        return seeds

    def reset(self, *, seed=None, options: dict | None = None):
        """Start every game (seeds as ``GameMultiAgentEnv.reset``: ``seed + i`` for an int); each
        game's observation of the seat to move, and empty infos."""
        seeds = self._seeds(seed)
        self._game_seeds[:] = seeds
        self._terminated[:] = False
        self._autoreset[:] = False
        self._kernels.turn_reset_kernel(self._states, self._raw, self._game_seeds,
                                        np.ones(self.num_envs, np.bool_), self._params, self._obs,
                                        self._masks, self._actors, self._terminated)
        return [self._observe_actor(i) for i in range(self.num_envs)], [{} for _ in range(self.num_envs)]

    def step(self, actions: list[dict[str, Any]]):
        """Each game's action for its seat to move (ignored for a game that ended at the previous
        step: it restarts); observations, rewards, terminations, truncations and infos per game."""
        if self._game_seeds[0] < 0:
            raise ValueError("call reset() before step()")
        if len(actions) != self.num_envs:
            raise ValueError(f"actions must be a list of {self.num_envs} dicts (one per game), "
                             f"got {len(actions)}")
        chosen = np.zeros(self.num_envs, dtype=np.int64)
        restarting = self._autoreset.copy()
        for i in np.flatnonzero(~restarting).tolist():
            agent = agent_id(int(self._actors[i]))
            if agent not in actions[i]:
                raise ValueError(f"game {i}: it is {agent}'s turn; got actions for {sorted(actions[i])}")
            chosen[i] = int(actions[i][agent])
        movers = self._actors.copy()
        n = self._kernels.turn_step_kernel(self._states, self._raw, chosen, self._game_seeds,
                                           self._params, self._obs, self._masks, self._actors,
                                           self._terminated, self._autoreset, self._ended,
                                           self._illegal)
        ended = set(self._ended[:n].tolist())
        results = [self._restarted(i) if restarting[i]
                   else self._end(i, int(movers[i]), int(chosen[i])) if i in ended
                   else self._moved(i) for i in range(self.num_envs)]
        observations, rewards, terminateds, truncateds, infos = zip(*results, strict=True)
        # As RLlib's SyncVectorMultiAgentEnv: a list of observation dicts, arrays of the rest.
        return (list(observations), object_array(rewards), object_array(terminateds),
                object_array(truncateds), object_array(infos))

    def _observe_actor(self, i: int) -> dict[str, dict[str, NDArray[np.float32]]]:
        """Game ``i``'s observation dict: the seat to move's view and legal mask."""
        return {agent_id(int(self._actors[i])): {OBS_KEY: self._obs[i].copy(),
                                                 MASK_KEY: self._masks[i].astype(np.float32)}}

    def _moved(self, i: int):
        """A game going on: the next seat's observation and a reward of 0 for it."""
        observation = self._observe_actor(i)
        (agent,) = observation
        return observation, {agent: 0.0}, {ALL: False}, {ALL: False}, {}

    def _restarted(self, i: int):
        """A game restarted after its end (its action ignored): as RLlib's vector env."""
        zeros = {agent: 0.0 for agent in self.possible_agents}
        flags = {**{agent: False for agent in self.possible_agents}, ALL: False}
        return self._observe_actor(i), zeros, dict(flags), dict(flags), {}

    def _end(self, i: int, mover: int, action: int):
        """A game that ended: every agent seat's last observation (no legal action) and reward,
        all terminated; an illegal action's reward to the seat that played it."""
        record = self._states[i:i + 1].reshape(())
        if self._illegal[i]:
            rewards = {agent: 0.0 for agent in self.possible_agents}
            rewards[agent_id(mover)] = self.illegal_reward
            infos = {agent_id(mover): {"illegal_action": action}}
        else:
            final = final_rewards(record, self.reward_kind, self.game)
            rewards = {agent_id(seat): float(final[seat]) for seat in range(self.num_agent_seats)}
            infos = {}
        observations = {}
        for seat in range(self.num_agent_seats):
            view = np.zeros(self.game.obs_size, dtype=self.obs_dtype)
            self._kernels.encode_at(self._states, i, seat, view)
            observations[agent_id(seat)] = {OBS_KEY: view,
                                            MASK_KEY: np.zeros(self.game.num_actions, np.float32)}
        done = {agent: True for agent in self.possible_agents}
        return (observations, rewards, {**done, ALL: True},
                {**{agent: False for agent in self.possible_agents}, ALL: False}, infos)


class VectorMultiAgentEnvRunner(MultiAgentEnvRunner):
    """RLlib's multi-agent env runner with ``GameVectorMultiAgentEnv`` as its env: B games of the
    ``env_config`` (``num_envs_per_env_runner``) stepped by one kernel call."""

    def make_env(self) -> None:
        """The compiled vector env instead of RLlib's copies of single envs; the
        ``on_environment_created`` callback as RLlib's own runner calls it."""
        if self.env is not None:
            self.env.close()
        env_context = EnvContext(self.config.env_config, worker_index=self.worker_index,
                                 num_workers=self.config.num_env_runners)
        self.env = GameVectorMultiAgentEnv({**self.config.env_config,
                                            "num_envs": self.config.num_envs_per_env_runner})
        self.num_envs = self.env.num_envs
        self._needs_initial_reset = True
        make_callback("on_environment_created", callbacks_objects=self._callbacks,
                      callbacks_functions=self.config.callbacks_on_environment_created,
                      kwargs=dict(env_runner=self, metrics_logger=self.metrics, env=self.env,
                                  env_context=env_context))


def masked_vector_env(env_config: dict[str, Any]) -> gym.vector.VectorEnv:
    """The game's compiled Gymnasium vector env (one agent seat against the engine's participants)
    with the Dict observation of the masked module, for RLlib's single-agent runners with
    ``gym_env_vectorize_mode="vector_entry_point"``; ``env_config`` as the module doc says."""
    single, num_envs, num_threads = split_vector_config(env_config)
    game, config = game_setup(single)
    env = GameVectorEnv(num_envs, game=game, config=config, reward=single.get("reward", "win"),
                        illegal_reward=float(single.get("illegal_reward", DEFAULT_ILLEGAL_REWARD)),
                        num_threads=num_threads, obs_dtype=obs_dtype_of(game, single))
    return MaskInObservation(env)


class MaskInObservation(gym.vector.VectorObservationWrapper):
    """A compiled vector env whose observation is the Dict of the vector and its legal mask
    (``infos["action_mask"]``, all 0 for a game that just ended)."""

    def __init__(self, env: GameVectorEnv) -> None:
        """Wrap ``env``; its spaces become the masked Dict and its batch."""
        super().__init__(env)
        self.single_observation_space = masked_observation_space(env.game, env.obs_dtype)
        self.observation_space = gym.vector.utils.batch_space(self.single_observation_space,
                                                              env.num_envs)

    def observations(self, observations: NDArray[np.float32]) -> dict[str, NDArray[np.float32]]:
        """The Dict of ``observations`` and the env's current masks (after each reset and step)."""
        return {OBS_KEY: observations, MASK_KEY: self.env.unwrapped.action_masks().astype(np.float32)}


def compile_kernels(env_config: dict[str, Any]) -> None:
    """Compile (or load from numba's disk cache) the kernels the compiled envs of ``env_config``
    call, by one reset and step of each: done once by the driver, so that runners load them
    from the cache instead of compiling while RLlib's sampling timeout runs."""
    single, _, _ = split_vector_config(env_config)
    multi = GameVectorMultiAgentEnv({**single, "num_envs": 1})
    observations, _ = multi.reset(seed=0)
    (agent, view), = observations[0].items()
    multi.step([{agent: int(np.flatnonzero(view[MASK_KEY])[0])}])
    if multi.num_agent_seats == 1:
        vector = masked_vector_env({**single, "num_envs": 1})
        obs, _ = vector.reset(seed=0)
        vector.step(np.array([np.flatnonzero(obs[MASK_KEY][0])[0]]))


def draw_actions(logits, explore: bool):
    """(actions, their log-probabilities) for a batch of (masked) logits: a draw from each row's
    categorical distribution when exploring (the Gumbel-max trick: the argmax of the
    log-probabilities plus Gumbel noise, several times faster than torch's multinomial), else
    the most likely action with log-probability 0, as RLlib's deterministic distribution."""
    import torch
    if not explore:
        return logits.argmax(dim=-1), torch.zeros(logits.shape[0])
    log_probs = torch.log_softmax(logits, dim=-1)
    # u in [tiny, 1): a draw of exactly 0 would give a masked action infinite noise
    uniform = torch.rand_like(log_probs).clamp_(min=torch.finfo(log_probs.dtype).tiny)
    gumbel = -torch.log(-torch.log(uniform))
    actions = (log_probs + gumbel).argmax(dim=-1)
    return actions, log_probs.gather(1, actions[:, None])[:, 0]


class SampleColumns:
    """The steps of a timestep sample of ``CompiledSingleAgentEnvRunner`` written into arrays
    kept from call to call (game-major: ``[game, k]`` is the game's k-th step, so that a chunk is
    one contiguous copy; grown when a call needs more steps), and each game's episode chunks cut
    from them as RLlib's numpy'd SingleAgentEpisodes."""

    def __init__(self) -> None:
        """No rows yet: the first ``start`` sizes them."""
        self.steps = 0
        self.observations: dict[str, NDArray] = {}
        self.actions = self.logp = self.logits = self.rewards = None

    def start(self, observations: dict[str, NDArray]) -> None:
        """Start a sample at the observations the games show now (row 0)."""
        self.steps = 0
        if not self.observations or any(
                (array.shape[0], *array.shape[2:]) != observations[key].shape
                for key, array in self.observations.items()):
            self.observations = {key: np.empty((len(value), 1, *value.shape[1:]), value.dtype)
                                 for key, value in observations.items()}
            self.actions = self.logp = self.logits = self.rewards = None
        for key, value in observations.items():
            self.observations[key][:, 0] = value

    def add(self, actions, logp, logits, observations, rewards) -> None:
        """One step of every game: what the module chose and what the env answered."""
        if self.actions is None:
            self._allocate(1, actions, logits)
        if self.steps == self.actions.shape[1]:
            self._allocate(2 * self.steps, actions, logits)
        k = self.steps
        self.actions[:, k], self.logp[:, k], self.logits[:, k] = actions, logp, logits
        self.rewards[:, k] = rewards
        for key, value in observations.items():
            self.observations[key][:, k + 1] = value
        self.steps += 1

    def _allocate(self, rows: int, actions, logits) -> None:
        """Room for ``rows`` steps, keeping the rows written."""
        def grown(array, shape, dtype):
            bigger = np.empty(shape, dtype)
            if array is not None:
                bigger[:, :array.shape[1]] = array
            return bigger
        games = len(actions)
        self.actions = grown(self.actions, (games, rows), actions.dtype)
        self.logp = grown(self.logp, (games, rows), np.float32)
        self.logits = grown(self.logits, (games, rows, logits.shape[1]), np.float32)
        self.rewards = grown(self.rewards, (games, rows), np.float32)
        for key, array in self.observations.items():
            self.observations[key] = grown(array, (games, rows + 1, *array.shape[2:]), array.dtype)

    def chunk(self, runner, game: int, first: int, last: int, id_: str, t_started: int,
              terminated: bool = False, truncated: bool = False):
        """Game ``game``'s episode chunk from observation row ``first`` to ``last`` (its actions:
        rows ``first`` to ``last - 1``) as RLlib's numpy'd SingleAgentEpisode."""
        from ray.rllib.core.columns import Columns
        from ray.rllib.env.single_agent_episode import SingleAgentEpisode
        from ray.rllib.env.utils.infinite_lookback_buffer import InfiniteLookbackBuffer
        from ray.rllib.utils.metrics import WEIGHTS_SEQ_NO

        def column(rows):  # a copy: the rows are written over by the next sample
            return InfiniteLookbackBuffer(rows.copy())

        steps = slice(first, last)
        observations = InfiniteLookbackBuffer({key: rows[game, first:last + 1].copy()
                                               for key, rows in self.observations.items()})
        outputs = {Columns.ACTION_LOGP: column(self.logp[game, steps]),
                   Columns.ACTION_DIST_INPUTS: column(self.logits[game, steps]),
                   WEIGHTS_SEQ_NO: InfiniteLookbackBuffer(np.full(last - first, runner._weights_seq_no))}
        return SingleAgentEpisode(
            id_=id_, observations=observations, actions=column(self.actions[game, steps]),
            rewards=column(self.rewards[game, steps]), extra_model_outputs=outputs,
            terminated=terminated, truncated=truncated, t_started=t_started, len_lookback_buffer=0,
            observation_space=runner.env.single_observation_space,
            action_space=runner.env.single_action_space)


# Where RLlib's config keeps connectors a user adds (``config.env_runners(env_to_module_connector=...)``).
OWN_CONNECTORS = ("_env_to_module_connector", "_module_to_env_connector")


class CompiledSingleAgentEnvRunner(SingleAgentEnvRunner):
    """RLlib's single-agent runner whose timestep sampling skips its per-game Python machinery:
    the module's forward pass on the whole batch, actions drawn from its masked logits, one
    compiled step of all the games, the steps kept as batches, and RLlib's episode objects cut
    from them once per chunk (numpy'd) instead of built step by step. The episodes it returns are
    what RLlib's learners read (observations, actions, rewards, action log-probabilities and
    logits, chunks continuing across calls; a chunk that continues an episode carries no lookback
    buffer, which PPO's learner does not read). Sampling by episodes, random actions, episodes
    not numpy'd, or connectors configured of one's own go through RLlib's loop. It makes no
    per-step or per-episode callbacks and does not catch env errors (RLlib's runner resets and
    goes on): use RLlib's runner when you need those."""

    def _sample(self, *, num_timesteps=None, num_episodes=None, explore, random_actions=False,
                force_reset=False):
        if (num_timesteps is None or random_actions or self.module is None
                or not self.config.episodes_to_numpy
                or any(getattr(self.config, name, None) is not None for name in OWN_CONNECTORS)):
            # RLlib's loop, on games it starts afresh after ours (its episodes are stale), and
            # ours start afresh after it.
            switching = getattr(self, "_ids", None) is not None
            self._ids = None
            return super()._sample(num_timesteps=num_timesteps, num_episodes=num_episodes,
                                   explore=explore, random_actions=random_actions,
                                   force_reset=force_reset or switching)
        import torch

        if force_reset or self._needs_initial_reset or getattr(self, "_ids", None) is None:
            self._reset_games()
        observations, restarting = self._obs, self._restarting
        columns = self._columns
        columns.start(observations)
        # Each game's current chunk starts at this observation row (1 for a game restarting
        # now: its first observation is what this call's first step returns).
        first = np.where(restarting, 1, 0)
        ended_chunks, steps, step = [], 0, 0
        while steps < num_timesteps:
            with torch.no_grad():
                batch = {"obs": {key: torch.from_numpy(value) for key, value in observations.items()}}
                outputs = (self.module.forward_exploration(batch) if explore
                           else self.module.forward_inference(batch))
                logits = outputs["action_dist_inputs"]
                actions, logp = draw_actions(logits, explore)
            chosen = actions.numpy()
            observations, rewards, terminated, truncated, _ = self.env.step(chosen)
            columns.add(chosen, logp.numpy(), logits.numpy(), observations, rewards)
            steps += self.num_envs - int(restarting.sum())  # a restarting game's action is ignored
            ended = terminated | truncated
            for game in np.flatnonzero(ended):
                ended_chunks.append((game, first[game], step + 1, bool(terminated[game]),
                                     bool(truncated[game])))
                first[game] = step + 2  # the next step restarts it: the new game's first view
            restarting = ended
            step += 1
        self._obs, self._restarting = observations, restarting
        done = []
        for game, start, last, is_terminated, is_truncated in ended_chunks:
            done.append(columns.chunk(self, game, start, last, self._ids[game], self._t[game],
                                      is_terminated, is_truncated))
            self._ids[game], self._t[game] = uuid.uuid4().hex, 0
        ongoing = []
        for game in range(self.num_envs):
            if first[game] >= step:  # restarting, or no action of the new game yet
                continue
            chunk = columns.chunk(self, game, first[game], step, self._ids[game], self._t[game])
            ongoing.append(chunk)
            self._ongoing_episodes_for_metrics[chunk.id_].append(chunk)
            self._t[game] += len(chunk)
        self._done_episodes_for_metrics.extend(done)
        self._log_env_steps(metric=self._metrics_num_env_steps_sampled, num_steps=steps)
        self._increase_sampled_metrics(steps, len(done))
        return done + ongoing

    def _reset_games(self) -> None:
        """Start every game (seeded on the first reset) and a new episode for each."""
        self._ongoing_episodes_for_metrics.clear()
        observations, _ = self.env.reset(seed=self._seed if self._needs_initial_reset else None)
        self._needs_initial_reset = False
        self._obs = observations
        self._restarting = np.zeros(self.num_envs, dtype=np.bool_)
        self._ids = [uuid.uuid4().hex for _ in range(self.num_envs)]
        self._t = [0] * self.num_envs
        self._columns = SampleColumns()
