"""Recipe: CleanRL-style single-file PPO with invalid-action masking on Tiny York's vector env.

    python examples/cleanrl_masked_ppo.py --total-timesteps 200000 --num-envs 16 --toms 5 --seed 1

| | |
|---|---|
| Library | torch only (the PPO is in this file, after CleanRL's ``ppo.py``) |
| Env | ``gym.make_vec("TinyYork-v0", num_envs=N, vectorization_mode="vector_entry_point")``: the |
| | compiled batch (``--vectorization-mode sync`` runs N Python ``TinyYorkEnv`` instead) |
| Masking | ``infos["action_mask"]`` (bool[N, 264]); illegal logits are set to a large negative |
| | number before the ``Categorical``, so illegal actions get probability 0 (Huang & Ontañón, |
| | "A Closer Look at Invalid Action Masking in Policy Gradient Algorithms", 2020) |
| Autoreset | Gymnasium 1.x ``NEXT_STEP``: after ``terminations[i]`` the next ``step`` ignores env i's |
| | action and returns its new game with reward 0; that step is stored but left out of the loss |
| Output | per iteration the episodic win rate and SPS; at the end ``final evaluation:`` the greedy |
| | masked policy against the same Toms through the arena, ``tiny_york_env.arena`` |

The step after a game ends is not a decision: its observation is the finished game's (mask all
False) and its action is ignored. CleanRL's Gymnasium-1.x scripts keep such steps out of the
update; here ``valid[t, i]`` is False for them, their advantages are zero and the losses average
over valid steps only. A game's last real step has ``done`` set, so no value leaks across games.
"""

import argparse
import math
import random
import sys
import time
from collections import deque

import gymnasium as gym
import numpy as np
import torch
from torch import nn
from torch.distributions.categorical import Categorical

import tiny_york_env  # noqa: F401  (registers TinyYork-v0)
from tiny_york_env.arena import evaluate_vs_agents
from tiny_york_env.envs.rewards import REWARD_KINDS
from tiny_york_env.games.tiny_york import GameConfig

ENV_ID = "TinyYork-v0"
VECTORIZATION_MODES = ("vector_entry_point", "sync", "async")
LEARNING_SEAT = 0  # the vector env's learning agent sits in seat 0
MASKED_LOGIT = -1e8  # far below any real logit, finite so that 0 * logit stays 0 in the entropy
WIN_WINDOW = 100  # the printed win rate is over the last this many finished games
DEFAULT_TOTAL_TIMESTEPS = 200_000
DEFAULT_NUM_ENVS = 16
DEFAULT_NUM_STEPS = 128  # per env and rollout
DEFAULT_TOMS = (5,)
# "score" (the final margin / 50) grades every game; "win" stays flat while no game is won, as a
# learner from scratch against Tom rarely wins one (docs/model-cards.md).
DEFAULT_REWARD = "score"
DEFAULT_LEARNING_RATE = 2.5e-4
DEFAULT_GAMMA = 0.995  # ~100 decisions a game, a reward only at its end
DEFAULT_GAE_LAMBDA = 0.95
DEFAULT_NUM_MINIBATCHES = 4
DEFAULT_UPDATE_EPOCHS = 4
DEFAULT_CLIP_COEF = 0.2
DEFAULT_ENT_COEF = 0.01
DEFAULT_VF_COEF = 0.5
DEFAULT_MAX_GRAD_NORM = 0.5
DEFAULT_HIDDEN = 256
DEFAULT_EVAL_GAMES = 30
ADAM_EPS = 1e-5
HIDDEN_GAIN = math.sqrt(2)
ACTOR_GAIN = 0.01
CRITIC_GAIN = 1.0


def parse_tom(text: str) -> int | str:
    """A Tom from the command line: a level 1-12 (``"5"``) or a code (``"B4"``)."""
    text = text.strip()
    return int(text) if text.isdigit() else text


def build_parser() -> argparse.ArgumentParser:
    """The recipe's command line (CleanRL's names for CleanRL's options)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--total-timesteps", type=int, default=DEFAULT_TOTAL_TIMESTEPS,
                   help="env steps over all envs (rounded up to whole rollouts)")
    p.add_argument("--num-envs", type=int, default=DEFAULT_NUM_ENVS, help="games stepped together")
    p.add_argument("--num-steps", type=int, default=DEFAULT_NUM_STEPS, help="rollout steps per env")
    p.add_argument("--seed", type=int, default=1, help="seeds python, numpy, torch and the games")
    p.add_argument("--toms", nargs="+", type=parse_tom, default=list(DEFAULT_TOMS),
                   help="the 1-3 Toms of every game: levels 1-12 or codes like B4")
    p.add_argument("--reward", choices=REWARD_KINDS, default=DEFAULT_REWARD,
                   help="the reward at a game's end (docs/tiny-york.md, Rewards)")
    p.add_argument("--vectorization-mode", choices=VECTORIZATION_MODES, default=VECTORIZATION_MODES[0],
                   help="gym.make_vec's mode: the compiled batch, or N Python envs")
    p.add_argument("--learning-rate", type=float, default=DEFAULT_LEARNING_RATE, help="Adam step size")
    p.add_argument("--gamma", type=float, default=DEFAULT_GAMMA, help="discount factor")
    p.add_argument("--gae-lambda", type=float, default=DEFAULT_GAE_LAMBDA, help="GAE lambda")
    p.add_argument("--num-minibatches", type=int, default=DEFAULT_NUM_MINIBATCHES, help="per epoch")
    p.add_argument("--update-epochs", type=int, default=DEFAULT_UPDATE_EPOCHS, help="epochs per rollout")
    p.add_argument("--clip-coef", type=float, default=DEFAULT_CLIP_COEF, help="PPO clip range")
    p.add_argument("--ent-coef", type=float, default=DEFAULT_ENT_COEF, help="entropy bonus weight")
    p.add_argument("--vf-coef", type=float, default=DEFAULT_VF_COEF, help="value loss weight")
    p.add_argument("--max-grad-norm", type=float, default=DEFAULT_MAX_GRAD_NORM, help="gradient clip")
    p.add_argument("--hidden", type=int, default=DEFAULT_HIDDEN, help="hidden layer width (two layers)")
    p.add_argument("--eval-games", type=int, default=DEFAULT_EVAL_GAMES,
                   help="games of the final evaluation against the same Toms")
    return p


def layer_init(layer: nn.Linear, std: float = HIDDEN_GAIN, bias_const: float = 0.0) -> nn.Linear:
    """CleanRL's orthogonal initialisation."""
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    """Separate actor and critic MLPs over the flat observation."""

    def __init__(self, obs_size: int, num_actions: int, hidden: int) -> None:
        super().__init__()
        self.critic = nn.Sequential(
            layer_init(nn.Linear(obs_size, hidden)), nn.Tanh(),
            layer_init(nn.Linear(hidden, hidden)), nn.Tanh(),
            layer_init(nn.Linear(hidden, 1), std=CRITIC_GAIN))
        self.actor = nn.Sequential(
            layer_init(nn.Linear(obs_size, hidden)), nn.Tanh(),
            layer_init(nn.Linear(hidden, hidden)), nn.Tanh(),
            layer_init(nn.Linear(hidden, num_actions), std=ACTOR_GAIN))

    def get_value(self, x: torch.Tensor) -> torch.Tensor:
        """V(x), shape [batch, 1]."""
        return self.critic(x)

    def get_action_and_value(self, x: torch.Tensor, mask: torch.Tensor,
                             action: torch.Tensor | None = None) -> tuple[torch.Tensor, ...]:
        """(action, log-prob, entropy, value) of the masked policy; samples when ``action`` is None."""
        logits = torch.where(mask, self.actor(x), torch.tensor(MASKED_LOGIT))
        probs = Categorical(logits=logits)
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action), probs.entropy(), self.critic(x)


class GreedyPolicyAgent:
    """The project's agent interface (``act(observation, action_mask)``) over the trained actor."""

    def __init__(self, agent: Agent, label: str) -> None:
        self.agent, self.label = agent, label

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The legal action with the highest logit."""
        with torch.no_grad():
            logits = self.agent.actor(torch.as_tensor(observation[None], dtype=torch.float32))[0]
        legal = torch.as_tensor(action_mask, dtype=torch.bool)
        return int(torch.where(legal, logits, torch.tensor(MASKED_LOGIT)).argmax())


def make_envs(args: argparse.Namespace) -> gym.vector.VectorEnv:
    """``num_envs`` games of TinyYork-v0 against ``toms`` in the chosen vectorization mode."""
    return gym.make_vec(ENV_ID, num_envs=args.num_envs, vectorization_mode=args.vectorization_mode,
                        toms=args.toms, reward=args.reward)


def check_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Exit with a usage error naming the first option out of range."""
    for name in ("total_timesteps", "num_envs", "num_steps", "num_minibatches", "update_epochs",
                 "hidden", "eval_games"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be a positive int, got {getattr(args, name)}")
    if (args.num_envs * args.num_steps) % args.num_minibatches:
        parser.error(f"--num-minibatches ({args.num_minibatches}) must divide --num-envs x --num-steps "
                     f"({args.num_envs * args.num_steps})")
    try:
        GameConfig(num_agents=1, toms=args.toms)
    except ValueError as error:
        parser.error(f"--toms: {error}")


def main(argv: list[str] | None = None) -> int:
    """Train with masked PPO, printing the episodic win rate and SPS, then evaluate."""
    parser = build_parser()
    args = parser.parse_args(argv)
    args.toms = tuple(args.toms)
    check_args(parser, args)
    batch_size = args.num_envs * args.num_steps
    minibatch_size = batch_size // args.num_minibatches
    num_iterations = math.ceil(args.total_timesteps / batch_size)

    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)  # a small MLP: more threads only contend with the env
    device = torch.device("cpu")

    envs = make_envs(args)
    obs_size = envs.single_observation_space.shape[0]
    num_actions = int(envs.single_action_space.n)
    agent = Agent(obs_size, num_actions, args.hidden).to(device)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=ADAM_EPS)

    shape = (args.num_steps, args.num_envs)
    obs = torch.zeros(shape + (obs_size,))
    masks = torch.zeros(shape + (num_actions,), dtype=torch.bool)
    actions = torch.zeros(shape, dtype=torch.long)
    logprobs = torch.zeros(shape)
    rewards = torch.zeros(shape)
    dones = torch.zeros(shape)
    values = torch.zeros(shape)
    valid = torch.zeros(shape)

    global_step, games = 0, 0
    wins, scores = deque(maxlen=WIN_WINDOW), deque(maxlen=WIN_WINDOW)
    start_time = time.time()
    next_obs_np, infos = envs.reset(seed=args.seed)
    next_obs = torch.as_tensor(next_obs_np)
    next_mask = torch.as_tensor(infos["action_mask"])
    next_autoreset = torch.zeros(args.num_envs, dtype=torch.bool)  # the previous step ended the game

    for iteration in range(1, num_iterations + 1):
        for step in range(args.num_steps):
            global_step += args.num_envs
            obs[step] = next_obs
            # An autoreset step's mask is all False and its action is ignored: any legal-looking
            # mask keeps the Categorical defined; the step is left out of the loss below.
            masks[step] = next_mask | next_autoreset[:, None]
            valid[step] = (~next_autoreset).float()
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs, masks[step])
            values[step] = value.flatten()
            actions[step] = action
            logprobs[step] = logprob

            next_obs_np, reward, terminations, truncations, infos = envs.step(action.numpy())
            done = np.logical_or(terminations, truncations)
            rewards[step] = torch.as_tensor(reward, dtype=torch.float32)
            dones[step] = torch.as_tensor(done, dtype=torch.float32)
            next_obs = torch.as_tensor(next_obs_np)
            next_mask = torch.as_tensor(infos["action_mask"])
            next_autoreset = torch.as_tensor(done)
            if "winner" in infos:
                for i in np.flatnonzero(infos["_winner"]):
                    games += 1
                    wins.append(float(infos["winner"][i] == LEARNING_SEAT))
                    scores.append(float(infos["final_scores"][i][LEARNING_SEAT]))

        # GAE over valid steps; a done step bootstraps nothing, an autoreset step carries nothing.
        with torch.no_grad():
            next_value = agent.get_value(next_obs).flatten()
            advantages = torch.zeros_like(rewards)
            lastgaelam = torch.zeros(args.num_envs)
            for t in reversed(range(args.num_steps)):
                following = next_value if t == args.num_steps - 1 else values[t + 1]
                nonterminal = 1.0 - dones[t]
                delta = rewards[t] + args.gamma * following * nonterminal - values[t]
                lastgaelam = (delta + args.gamma * args.gae_lambda * nonterminal * lastgaelam) * valid[t]
                advantages[t] = lastgaelam
            returns = advantages + values

        b_obs = obs.reshape(-1, obs_size)
        b_masks = masks.reshape(-1, num_actions)
        b_actions = actions.reshape(-1)
        b_logprobs = logprobs.reshape(-1)
        b_advantages = advantages.reshape(-1)
        b_returns = returns.reshape(-1)
        b_values = values.reshape(-1)
        b_valid = valid.reshape(-1)

        b_inds = np.arange(batch_size)
        for _epoch in range(args.update_epochs):
            np.random.shuffle(b_inds)
            for start in range(0, batch_size, minibatch_size):
                mb = b_inds[start:start + minibatch_size]
                mb_valid = b_valid[mb]
                count = mb_valid.sum().clamp(min=1.0)
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(
                    b_obs[mb], b_masks[mb], b_actions[mb])
                ratio = (newlogprob - b_logprobs[mb]).exp()
                mb_adv = b_advantages[mb]
                mean = (mb_adv * mb_valid).sum() / count
                std = (((mb_adv - mean) ** 2 * mb_valid).sum() / count).sqrt()
                mb_adv = (mb_adv - mean) / (std + ADAM_EPS)
                pg_loss = torch.max(-mb_adv * ratio,
                                    -mb_adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef))
                pg_loss = (pg_loss * mb_valid).sum() / count
                newvalue = newvalue.flatten()
                v_clipped = b_values[mb] + (newvalue - b_values[mb]).clamp(-args.clip_coef, args.clip_coef)
                v_loss = torch.max((newvalue - b_returns[mb]) ** 2, (v_clipped - b_returns[mb]) ** 2)
                v_loss = 0.5 * (v_loss * mb_valid).sum() / count
                entropy_loss = (entropy * mb_valid).sum() / count
                loss = pg_loss - args.ent_coef * entropy_loss + v_loss * args.vf_coef
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()

        sps = int(global_step / (time.time() - start_time))
        recent = f"win rate {np.mean(wins):.2f}, mean score {np.mean(scores):.1f}" if wins else "n/a"
        print(f"iteration {iteration}/{num_iterations} step {global_step}: games {games}, episodic "
              f"{recent} (last {len(wins)}), SPS {sps}", flush=True)

    envs.close()
    toms = " + ".join(f"Tom {t}" for t in args.toms)

    def factory(seed: int) -> GreedyPolicyAgent:
        return GreedyPolicyAgent(agent, "masked_ppo")

    factory.label = "masked_ppo"
    result = evaluate_vs_agents([factory], games=args.eval_games, seed=args.seed, progress=False,
                                toms=args.toms)
    cell = result.cells[0]
    print(f"final evaluation: masked_ppo won {cell.wins}/{cell.games} games against {toms} "
          f"(win rate {cell.win_rate:.2f}, 95% CI {cell.ci_low:.2f}-{cell.ci_high:.2f}; mean score "
          f"{cell.mean_score:.1f}, mean margin {cell.mean_margin:+.1f}); "
          f"trained {global_step} steps at {sps} SPS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
