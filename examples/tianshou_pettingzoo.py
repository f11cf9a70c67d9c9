"""Recipe: masked DQN with Tianshou on Tiny York's PettingZoo env, evaluated against Tom.

    python examples/tianshou_pettingzoo.py --steps 20000 --toms 5 --seed 0

| | |
|---|---|
| Library | Tianshou 2.x (``pip install tianshou``), torch |
| Env | ``tiny_york_env.env(num_agents=N, toms=...)`` wrapped in ``tianshou.env.PettingZooEnv`` |
| Algorithm | one DQN per agent seat (``MultiAgentOffPolicyAlgorithm``); ``--num-agents 1`` (default) is |
| | one learner against the Toms, 2-3 are independent learners sharing the table with the Toms |
| Masking | ``PettingZooEnv`` turns ``observation["action_mask"]`` into ``obs.mask``; Tianshou's DQN |
| | policy pushes masked Q-values below every legal one and explores among legal actions only |
| Evaluation | ``tiny_york_env.arena.evaluate_vs_agents``: the greedy learners (seats rotated) |
| | against the same Toms; a random agent's line is printed beside it for scale |

Tianshou's multi-agent buffer stores, after a seat's move, the observation of whoever moves next;
with one agent seat (the default) that is always the learner's own next view, so the transitions
are exactly single-agent ones. With 2-3 agent seats they are Tianshou's usual MARL approximation
(its tic-tac-toe example has the same). The Toms never appear: the env plays them inside ``step``.
"""

import argparse
import logging
import math
import sys
import time

import numpy as np
import torch
from tianshou.algorithm import DQN, MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, ReplayBuffer, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.env.pettingzoo_env import PettingZooEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

import tiny_york_env
from tiny_york_env.arena import evaluate_vs_agents
from tiny_york_env.envs.rewards import REWARD_KINDS
from tiny_york_env.games.tiny_york import GameConfig

DEFAULT_STEPS = 20_000
DEFAULT_TOMS = (5,)
DEFAULT_NUM_AGENTS = 1
# "score" (the final margin / 50) grades every game; "win" stays flat while no game is won, as a
# learner from scratch against Tom rarely wins one (docs/model-cards.md).
DEFAULT_REWARD = "score"
MAX_AGENTS = 3  # plus at least one Tom: the game seats at most four
DEFAULT_NUM_ENVS = 4
DEFAULT_EVAL_GAMES = 30
DEFAULT_HIDDEN = (256, 256)
DEFAULT_LEARNING_RATE = 1e-4
DEFAULT_GAMMA = 0.99  # ~100 decisions per game and a reward only at its end
DEFAULT_N_STEP = 3
DEFAULT_TARGET_UPDATE = 500
DEFAULT_BUFFER = 20_000  # transitions; each holds two 1929-float observations (~15 KiB)
DEFAULT_BATCH_SIZE = 64
EPS_TRAIN = 0.1
EPS_TEST = 0.0
COLLECT_STEPS = 16  # env steps per collection round
UPDATES_PER_STEP = 0.25  # gradient steps per collected env step
EPOCH_STEPS = 5_000  # the trainer tests and reports once per epoch
DEFAULT_TEST_EPISODES = 5  # greedy games per epoch, for Tianshou's "Epoch #k: test_reward" line
TEST_BUFFER = 1_000  # the test collector keeps no more than a few games
# Tianshou's collector summarises multi-agent returns (one column per agent) and warns at every
# collection that it flattens them; the trainer's own figures use multi_agent_return_reduction.
QUIET_LOGGER = "tianshou.data.stats"


def parse_tom(text: str) -> int | str:
    """A Tom from the command line: a level 1-12 (``"5"``) or a code (``"B4"``)."""
    text = text.strip()
    return int(text) if text.isdigit() else text


def make_env(args: argparse.Namespace) -> PettingZooEnv:
    """Tiny York's PettingZoo AEC env (Toms inside it) in Tianshou's PettingZoo adapter."""
    return PettingZooEnv(tiny_york_env.env(num_agents=args.num_agents, toms=args.toms, reward=args.reward))


def make_learner(env: PettingZooEnv, args: argparse.Namespace) -> DQN:
    """One masked DQN learner for one agent seat."""
    obs_shape = env.observation_space["observation"].shape
    net = Net(state_shape=obs_shape, action_shape=int(env.action_space.n), hidden_sizes=args.hidden)
    policy = DiscreteQLearningPolicy(model=net, action_space=env.action_space,
                                     eps_training=EPS_TRAIN, eps_inference=EPS_TEST)
    return DQN(policy=policy, optim=AdamOptimizerFactory(lr=args.lr), gamma=DEFAULT_GAMMA,
               n_step_return_horizon=DEFAULT_N_STEP, target_update_freq=DEFAULT_TARGET_UPDATE)


class GreedyDQNAgent:
    """The project's agent interface (``act(observation, action_mask)``) over a trained Q-network."""

    def __init__(self, model: torch.nn.Module, label: str) -> None:
        self.model, self.label = model, label

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The legal action with the highest Q-value."""
        with torch.no_grad():
            q_values, _ = self.model(torch.as_tensor(observation[None], dtype=torch.float32))
        q_values = q_values[0].numpy()
        return int(np.flatnonzero(action_mask)[np.argmax(q_values[action_mask.astype(bool)])])


def agent_factory(model: torch.nn.Module, label: str):
    """A ``factory(seed) -> agent`` for the evaluation harness (the greedy policy needs no seed)."""

    def factory(seed: int) -> GreedyDQNAgent:
        return GreedyDQNAgent(model, label)

    factory.label = label
    return factory


def train(args: argparse.Namespace) -> MultiAgentOffPolicyAlgorithm:
    """Train one DQN per agent seat for ``args.steps`` env steps; returns the multi-agent algorithm."""
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    env = make_env(args)
    algorithm = MultiAgentOffPolicyAlgorithm(
        algorithms=[make_learner(env, args) for _ in env.agents], env=env)
    train_envs = DummyVectorEnv([lambda: make_env(args)] * args.num_envs)
    train_envs.seed([args.seed + i for i in range(args.num_envs)])
    buffer_size = max(min(args.buffer_size, args.steps), args.num_envs)  # never more than is collected
    # VectorReplayBuffer compiles its index kernels with numba at every start (~10 s on 2 cores);
    # one env needs only the plain buffer.
    buffer = (ReplayBuffer(buffer_size) if args.num_envs == 1
              else VectorReplayBuffer(buffer_size, args.num_envs))
    collector = Collector[CollectStats](algorithm, train_envs, buffer, exploration_noise=True)
    collector.reset()
    test_env = DummyVectorEnv([lambda: make_env(args)])
    test_env.seed([args.seed + args.num_envs])  # games apart from the training ones
    test_collector = Collector[CollectStats](algorithm, test_env, ReplayBuffer(TEST_BUFFER))
    epoch_steps = min(args.steps, EPOCH_STEPS)
    algorithm.run_training(OffPolicyTrainerParams(
        training_collector=collector,
        test_collector=test_collector,
        test_step_num_episodes=args.test_episodes,
        multi_agent_return_reduction=lambda returns: returns.mean(axis=1),  # over the learners
        max_epochs=math.ceil(args.steps / epoch_steps),
        epoch_num_steps=epoch_steps,
        collection_step_num_env_steps=COLLECT_STEPS,
        update_step_num_gradient_steps_per_sample=UPDATES_PER_STEP,
        batch_size=DEFAULT_BATCH_SIZE,
        show_progress=False,
        verbose=True,
    ))
    return algorithm


def build_parser() -> argparse.ArgumentParser:
    """The recipe's command line."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--steps", type=int, default=DEFAULT_STEPS, help="env steps (decisions) to train for")
    p.add_argument("--seed", type=int, default=0, help="seeds torch, numpy, the games and the evaluation")
    p.add_argument("--toms", nargs="+", type=parse_tom, default=list(DEFAULT_TOMS),
                   help="the Toms of every game: levels 1-12 or codes like B4")
    p.add_argument("--num-agents", type=int, default=DEFAULT_NUM_AGENTS, choices=range(1, MAX_AGENTS + 1),
                   help="learning agent seats (one DQN each)")
    p.add_argument("--reward", choices=REWARD_KINDS, default=DEFAULT_REWARD,
                   help="the reward at a game's end (docs/tiny-york.md, Rewards)")
    p.add_argument("--num-envs", type=int, default=DEFAULT_NUM_ENVS, help="games collected side by side")
    p.add_argument("--eval-games", type=int, default=DEFAULT_EVAL_GAMES,
                   help="evaluation games (a multiple of --num-agents)")
    p.add_argument("--test-episodes", type=int, default=DEFAULT_TEST_EPISODES,
                   help="greedy games at each epoch's end (Tianshou's test_reward line)")
    p.add_argument("--buffer-size", type=int, default=DEFAULT_BUFFER, help="replay buffer transitions")
    p.add_argument("--hidden", type=int, nargs="+", default=list(DEFAULT_HIDDEN), help="hidden layer widths")
    p.add_argument("--lr", type=float, default=DEFAULT_LEARNING_RATE, help="Adam step size")
    return p


def main(argv: list[str] | None = None) -> int:
    """Train, then print the evaluation against the Toms."""
    parser = build_parser()
    args = parser.parse_args(argv)
    args.toms = tuple(args.toms)
    for name in ("steps", "num_envs", "eval_games", "test_episodes", "buffer_size"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be a positive int, got {getattr(args, name)}")
    if args.eval_games % args.num_agents:
        parser.error(f"--eval-games ({args.eval_games}) must be a multiple of --num-agents "
                     f"({args.num_agents}): the evaluation rotates the learners through the seats")
    try:
        GameConfig(num_agents=args.num_agents, toms=args.toms)
    except ValueError as error:
        parser.error(f"--toms/--num-agents: {error}")
    logging.getLogger(QUIET_LOGGER).setLevel(logging.ERROR)
    torch.set_num_threads(1)  # a small MLP: more threads only contend with the env loop
    start = time.perf_counter()
    algorithm = train(args)
    seconds = time.perf_counter() - start
    print(f"trained {args.num_agents} DQN learner(s) for {args.steps} steps in {seconds:.1f} s")
    agents = [agent_factory(algorithm.get_algorithm(agent).policy.model.eval(), f"dqn_{agent}")
              for agent in tiny_york_env.env(num_agents=args.num_agents, toms=args.toms).possible_agents]
    toms = " + ".join(f"Tom {t}" for t in args.toms)
    for label, players in (("random", ["random"] * args.num_agents), ("dqn", agents)):
        result = evaluate_vs_agents(players, games=args.eval_games, seed=args.seed, progress=False,
                                    toms=args.toms)
        first = result.cells[0]
        print(f"final evaluation: {label} {first.agent} won {first.wins}/{first.games} games against "
              f"{toms} (win rate {first.win_rate:.2f}, 95% CI {first.ci_low:.2f}-{first.ci_high:.2f}; "
              f"mean score {first.mean_score:.1f}, mean margin {first.mean_margin:+.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
