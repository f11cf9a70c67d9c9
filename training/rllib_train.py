"""Train PPO with RLlib (new API stack) on any game of the project, on one machine or a Ray cluster.

    python -m tiny_york_env.training.rllib_train --game tiny_york --agents 2 --toms 5 \\
        --policies shared --num-env-runners 2 --iterations 50 --out runs/rllib-ty

The env is ``rllib_env.GameMultiAgentEnv``: every agent seat an RLlib agent, the engine's Toms or
bots inside, the legal mask in the observation dict. With ``--env-impl compiled`` (the default)
each runner steps its games in compiled code (``rllib_vector``): one agent seat on RLlib's
single-agent runners over the game's native vector env (module ``default_policy``), several on
``VectorMultiAgentEnvRunner``; ``--env-impl python`` steps one Python env a game.
``MaskedPPOTorchRLModule`` is RLlib's default PPO module with the mask applied to the logits
(illegal actions get a logit of about -3.4e38, so they are never sampled and carry no gradient).
``--policies shared`` trains one module for every agent seat (self-play), ``per-seat`` one module
per seat. Env runners (``--num-env-runners``, each stepping ``--envs-per-runner`` games) collect
in parallel; the learner trains on the driver. ``--address`` joins an existing cluster (``ray
start --head`` on one machine, ``ray start --address=HEAD:6379`` on the others; ``--address auto``
or the head's address); without it a local Ray starts with ``--num-cpus``.

Output in ``--out``: ``checkpoint/`` (RLlib's Algorithm checkpoint; its module states are
written as msgpack, not pickle, so an agent reads the weights without running code from the
file), ``rllib.json`` (game, setup, policies, network: what the project's ``rllib:PATH`` agent
needs), ``progress.csv`` (per iteration: episode return and length means, steps, time).
``make_agent("rllib:OUT")`` plays a seat with the trained module (``agents/rllib_agent.py``).
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import shutil
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tiny_york_env.envs.rewards import REWARD_KINDS
from tiny_york_env.registry import game_names, get_game
from tiny_york_env.training import defaults

CARD_NAME = "rllib.json"
CHECKPOINT_DIR = "checkpoint"
NEXT_SUFFIX, OLD_SUFFIX = ".next", ".old"  # a checkpoint being written, and the one it replaces
RESUME_NAME = "resume.json"  # in a checkpoint: the iteration it ends and the run's settings
PROGRESS_NAME = "progress.csv"
FREE_ON_RESUME = ("num_env_runners", "envs_per_runner")  # how it samples, not what it learns
CARD_FORMAT = "tiny-york-rllib"
SHARED_POLICY = "shared"
POLICY_MODES = ("shared", "per-seat")
SINGLE_AGENT_POLICY = "default_policy"  # RLlib's module id on its single-agent runners
ENV_IMPLS = ("compiled", "python")
COMPILED_VECTOR_ENV = "tiny_york_env-compiled-vector"  # the registered name of rllib_vector.masked_vector_env
DEFAULT_HIDDEN = defaults.NET_ARCH
PROGRESS_FIELDS = ("iteration", "env_steps", "episodes", "episode_return_mean", "episode_len_mean",
                   "seconds")


def masked_module_class():
    """RLlib's default PPO torch module, masking its logits with the observation's legal mask
    (imported lazily: ray and torch are optional)."""
    import torch
    from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
    from ray.rllib.core.columns import Columns
    from ray.rllib.utils.torch_utils import FLOAT_MIN

    from .rllib_env import MASK_KEY, OBS_KEY

    class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
        """PPO with the legal mask: the networks see ``observations``, the logits of actions the
        ``action_mask`` forbids are set to FLOAT_MIN."""

        def __init__(self, *, observation_space=None, **kwargs):
            self.masked_observation_space = observation_space
            super().__init__(observation_space=observation_space[OBS_KEY], **kwargs)

        def setup(self):
            super().setup()
            self.observation_space = self.masked_observation_space  # RLlib checks batches by it

        def _split(self, batch):
            obs = batch[Columns.OBS]
            if not isinstance(obs, dict):  # already split (compute_values after _forward_train)
                return batch.get(MASK_KEY), batch
            observations = obs[OBS_KEY]
            if not observations.is_floating_point():  # the compact observation: its bytes as floats
                observations = observations.float()
            return obs[MASK_KEY], {**batch, Columns.OBS: observations, MASK_KEY: obs[MASK_KEY]}

        @staticmethod
        def _mask(out, mask):
            out[Columns.ACTION_DIST_INPUTS] = out[Columns.ACTION_DIST_INPUTS].masked_fill(
                mask <= 0, FLOAT_MIN)
            return out

        def _forward_inference(self, batch, **kwargs):
            mask, batch = self._split(batch)
            return self._mask(super()._forward_inference(batch, **kwargs), mask)

        def _forward_exploration(self, batch, **kwargs):
            mask, batch = self._split(batch)
            return self._mask(super()._forward_exploration(batch, **kwargs), mask)

        def _forward_train(self, batch, **kwargs):
            mask, batch = self._split(batch)
            return self._mask(super()._forward_train(batch, **kwargs), mask)

        def compute_values(self, batch, embeddings=None):
            _, batch = self._split(batch)
            return super().compute_values(batch, embeddings)

    del torch  # imported for the module's tensors' sake only
    return MaskedPPOTorchRLModule


def policy_ids(mode: str, agents: Sequence[str]) -> list[str]:
    """One shared policy, or one per agent seat (named as the seat)."""
    return [SHARED_POLICY] if mode == "shared" else list(agents)


def env_config_of(args: argparse.Namespace) -> dict[str, Any]:
    """RLlib's env_config for the game and setup on the command line."""
    config: dict[str, Any] = {"game": args.game, "reward": args.reward}
    setup = dataclasses.asdict(get_game(args.game).seat_config(args.agents, tuple(args.automatic)))
    config.update({key: list(value) if isinstance(value, tuple) else value for key, value in setup.items()})
    return config


def build_algorithm_config(env_config: dict[str, Any], *, policies: str = "shared",
                           num_env_runners: int = 1, envs_per_runner: int = 8,
                           train_batch: int = 4000, minibatch: int = 500, epochs: int = 4,
                           lr: float = 3e-4, gamma: float = 0.995, hidden: Sequence[int] = DEFAULT_HIDDEN,
                           seed: int | None = 0, env_impl: str = "compiled"):
    """The PPOConfig: the masked module for each policy, the agents mapped to them, the runners.

    ``env_impl="compiled"``: each runner steps its ``envs_per_runner`` games in compiled code
    (``rllib_vector``): one agent seat on RLlib's single-agent runners over the game's native
    vector env, several on ``VectorMultiAgentEnvRunner``. ``"python"``: RLlib's own copies of
    ``GameMultiAgentEnv``, one Python env a game."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from .rllib_env import GameMultiAgentEnv

    if env_impl not in ENV_IMPLS:
        raise ValueError(f"env_impl must be one of {ENV_IMPLS}, got {env_impl!r}")
    probe = GameMultiAgentEnv(env_config)
    if env_impl == "compiled":
        from .rllib_vector import compile_kernels
        compile_kernels(env_config)
    module = masked_module_class()
    model_config = {"fcnet_hiddens": list(hidden), "fcnet_activation": "tanh", "vf_share_layers": False}
    training = dict(train_batch_size_per_learner=train_batch, minibatch_size=minibatch,
                    num_epochs=epochs, lr=lr, gamma=gamma)
    if env_impl == "compiled" and len(probe.possible_agents) == 1:
        from ray.tune.registry import register_env

        from .rllib_vector import CompiledSingleAgentEnvRunner, masked_vector_env
        register_env(COMPILED_VECTOR_ENV, masked_vector_env)  # RLlib takes a creator by its name
        config = (
            PPOConfig()
            .environment(COMPILED_VECTOR_ENV, env_config=env_config)
            .env_runners(num_env_runners=num_env_runners, num_envs_per_env_runner=envs_per_runner,
                         gym_env_vectorize_mode="vector_entry_point",
                         env_runner_cls=CompiledSingleAgentEnvRunner)
            .rl_module(rl_module_spec=RLModuleSpec(module_class=module, model_config=model_config))
            .training(**training)
            .debugging(seed=seed)
        )
        return config, [SINGLE_AGENT_POLICY], model_config
    ids = policy_ids(policies, probe.possible_agents)
    shared = policies == "shared"
    runners = dict(num_env_runners=num_env_runners, num_envs_per_env_runner=envs_per_runner)
    if env_impl == "compiled":
        from .rllib_vector import VectorMultiAgentEnvRunner
        runners["env_runner_cls"] = VectorMultiAgentEnvRunner
    config = (
        PPOConfig()
        .environment(GameMultiAgentEnv, env_config=env_config)
        .env_runners(**runners)
        .multi_agent(policies=set(ids),
                     policy_mapping_fn=(lambda agent_id, episode, **kw: SHARED_POLICY) if shared
                     else (lambda agent_id, episode, **kw: agent_id))
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            pid: RLModuleSpec(module_class=module, model_config=model_config) for pid in ids}))
        .training(**training)
        .debugging(seed=seed)
    )
    return config, ids, model_config


def write_card(out: Path, env_config: dict[str, Any], ids: Sequence[str], model_config: dict[str, Any],
               agents: Sequence[str], policies: str, steps: int) -> dict[str, Any]:
    """``rllib.json``: what the ``rllib:PATH`` agent needs to rebuild and map the modules."""
    game = get_game(env_config["game"])
    card = {"format": CARD_FORMAT, "format_version": 1, "game": game.name,
            "env_config": env_config, "policies": policies, "policy_ids": list(ids),
            "agent_policy": {agent: ids[0] if len(ids) == 1 else agent for agent in agents},
            "model_config": model_config, "observation_size": game.obs_size,
            "num_actions": game.num_actions, "env_steps": steps, "checkpoint": CHECKPOINT_DIR,
            "module_state": "msgpack"}
    (out / CARD_NAME).write_text(json.dumps(card, indent=2) + "\n")
    return card


def _metric(result: dict[str, Any], *path: str, default: float = float("nan")) -> float:
    value: Any = result
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return default
        value = value[key]
    return float(value)


def save_checkpoint(algo, out: Path, iteration: int, settings: dict[str, Any]) -> None:
    """The algorithm's checkpoint as ``out/checkpoint``, replaced whole: written beside it first,
    with ``resume.json`` (the iteration it ends and the run's settings), then renamed over it, so
    a run killed at any moment leaves a complete checkpoint."""
    final, fresh, old = (out / CHECKPOINT_DIR, out / (CHECKPOINT_DIR + NEXT_SUFFIX),
                         out / (CHECKPOINT_DIR + OLD_SUFFIX))
    shutil.rmtree(fresh, ignore_errors=True)
    algo.save_to_path(str(fresh.resolve()), use_msgpack=True)
    (fresh / RESUME_NAME).write_text(json.dumps({"iteration": iteration, "settings": settings},
                                                indent=1) + "\n")
    shutil.rmtree(old, ignore_errors=True)
    if final.exists():
        final.rename(old)
    fresh.rename(final)
    shutil.rmtree(old, ignore_errors=True)


def checkpoint_iteration(folder: Path) -> int | None:
    """The iteration a complete checkpoint folder ends (its ``resume.json``, written last), None
    for a folder that is not one (or is being replaced now)."""
    try:
        return int(json.loads((folder / RESUME_NAME).read_text())["iteration"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def latest_checkpoint(out: Path) -> Path | None:
    """The newest complete checkpoint of a run folder: ``checkpoint``, or one a kill during its
    replacement left as ``checkpoint.next`` (complete once it holds ``resume.json``) or
    ``checkpoint.old``; None when there is none."""
    found = [(iteration, folder) for folder in (out / (CHECKPOINT_DIR + NEXT_SUFFIX), out / CHECKPOINT_DIR,
                                                out / (CHECKPOINT_DIR + OLD_SUFFIX))
             if (iteration := checkpoint_iteration(folder)) is not None]
    return max(found, key=lambda pair: pair[0])[1] if found else None


def run_settings(env_config: dict[str, Any], algo_options: dict[str, Any]) -> dict[str, Any]:
    """What a resumed run must share with the run it resumes (JSON values)."""
    return json.loads(json.dumps({"env_config": env_config, **algo_options}))


class RunFolderError(ValueError):
    """A run folder that cannot be resumed, or that a fresh run would overwrite."""


def resume_point(out: Path, settings: dict[str, Any]) -> tuple[Path, int]:
    """(checkpoint, the iteration it ends) to resume ``out`` from; RunFolderError when there is none
    or it was trained with other settings."""
    checkpoint = latest_checkpoint(out)
    if checkpoint is None:
        raise RunFolderError(f"{str(out)!r} has no checkpoint to resume (checkpoints are written "
                             "every --checkpoint-every iterations and at the end)")
    saved = json.loads((checkpoint / RESUME_NAME).read_text())
    differ = sorted(key for key in set(saved["settings"]) | set(settings)
                    if key not in FREE_ON_RESUME and saved["settings"].get(key) != settings.get(key))
    if differ:
        raise RunFolderError(f"{str(out)!r} was trained with other settings ({', '.join(differ)}): "
                             "resume it with the same command, or train into another --out")
    return checkpoint, int(saved["iteration"])


def write_progress(path: Path, rows: list[list[str]]) -> None:
    """``progress.csv`` with its header and ``rows``, replaced whole (written beside, renamed)."""
    fresh = path.with_name(path.name + NEXT_SUFFIX)
    with fresh.open("w", newline="") as handle:
        csv.writer(handle).writerows([PROGRESS_FIELDS, *rows])
    fresh.replace(path)


def progress_rows(path: Path, up_to: int) -> list[list[str]]:
    """The rows of ``progress.csv`` up to iteration ``up_to`` (those the checkpoint includes)."""
    if not path.is_file():
        return []
    with path.open(newline="") as handle:
        rows = list(csv.reader(handle))[1:]
    return [row for row in rows if row and int(row[0]) <= up_to]


def train(env_config: dict[str, Any], out: Path, *, iterations: int, address: str | None = None,
          num_cpus: int | None = None, checkpoint_every: int = 0, resume: bool = False, log=print,
          **algo_options) -> dict[str, Any]:
    """Train for ``iterations``; write the checkpoint, the card and progress.csv into ``out``.
    ``resume``: go on from ``out``'s latest checkpoint (a run stopped or killed part way) up to
    ``iterations``; without it a folder that holds a run is refused."""
    import ray

    settings = run_settings(env_config, algo_options)
    start_at, done_rows = 1, []
    if resume:
        checkpoint, finished = resume_point(out, settings)
        start_at, done_rows = finished + 1, progress_rows(out / PROGRESS_NAME, finished)
    elif latest_checkpoint(out) is not None:
        raise RunFolderError(f"{str(out)!r} already holds a run: --resume goes on from its "
                             "checkpoint, or train into another --out")
    out.mkdir(parents=True, exist_ok=True)
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(address=address, num_cpus=None if address else num_cpus,
                 include_dashboard=False, log_to_driver=False)
    try:
        config, ids, model_config = build_algorithm_config(env_config, **algo_options)
        algo = config.build_algo()
        if resume:
            algo.restore_from_path(str(checkpoint.resolve()))
            log(f"resumed {out} after iteration {start_at - 1}")
        steps = int(done_rows[-1][1]) if done_rows else 0
        earlier_seconds = float(done_rows[-1][-1]) if done_rows else 0.0
        start = time.perf_counter()
        write_progress(out / PROGRESS_NAME, done_rows)
        with (out / PROGRESS_NAME).open("a", newline="") as handle:
            writer = csv.writer(handle)
            for iteration in range(start_at, iterations + 1):
                result = algo.train()
                steps = int(_metric(result, "env_runners", "num_env_steps_sampled_lifetime", default=0))
                episodes = int(_metric(result, "env_runners", "num_episodes_lifetime", default=0))
                row = (iteration, steps, episodes,
                       _metric(result, "env_runners", "episode_return_mean"),
                       _metric(result, "env_runners", "episode_len_mean"),
                       round(earlier_seconds + time.perf_counter() - start, 1))
                writer.writerow(row)
                handle.flush()
                log(f"iteration {iteration}: {steps:,} env steps, return mean {row[3]:.3f}, "
                    f"{row[5]:.0f} s")
                if checkpoint_every and iteration % checkpoint_every == 0 and iteration < iterations:
                    save_checkpoint(algo, out, iteration, settings)
        save_checkpoint(algo, out, max(iterations, start_at - 1), settings)
        from .rllib_env import GameMultiAgentEnv
        agents = GameMultiAgentEnv(env_config).possible_agents
        card = write_card(out, env_config, ids, model_config, agents, algo_options.get("policies", "shared"),
                          steps)
        algo.stop()
        return card
    finally:
        if started_here:
            ray.shutdown()


def build_parser() -> argparse.ArgumentParser:
    """The command line (module doc)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--game", choices=game_names(), default="tiny_york")
    parser.add_argument("--agents", type=int, default=1, help="agent seats (RLlib agents)")
    parser.add_argument("--automatic", "--toms", "--bots", nargs="*", default=["5"], dest="automatic",
                        help="the engine's players: Tiny York's Tom levels/codes, another game's bots")
    parser.add_argument("--policies", choices=POLICY_MODES, default="shared",
                        help="one module for every seat (self-play) or one per seat")
    parser.add_argument("--reward", choices=REWARD_KINDS, default="win")
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--num-env-runners", type=int, default=1)
    parser.add_argument("--envs-per-runner", type=int, default=8, help="games each runner steps")
    parser.add_argument("--env-impl", choices=ENV_IMPLS, default="compiled",
                        help="compiled: a runner steps its games in one compiled call (one agent "
                        "seat: RLlib's single-agent runners); python: one GameMultiAgentEnv a game")
    parser.add_argument("--train-batch", type=int, default=4000, help="env steps per learner update")
    parser.add_argument("--minibatch", type=int, default=500)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--gamma", type=float, default=0.995)
    parser.add_argument("--hidden", type=int, nargs="+", default=list(DEFAULT_HIDDEN))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--address", help="an existing Ray cluster ('auto' or HEAD:6379); default: "
                        "start a local one")
    parser.add_argument("--num-cpus", type=int, help="CPUs of the local Ray (default: all)")
    parser.add_argument("--checkpoint-every", type=int, default=0, help="also checkpoint every N iterations")
    parser.add_argument("--resume", action="store_true",
                        help="go on from --out's latest checkpoint (a stopped or killed run) up to "
                             "--iterations, with the same settings; RLlib's own loader reads it, "
                             "so resume only runs you trust (your own)")
    parser.add_argument("--out", required=True, help="output folder")
    return parser


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Parse, train, print where the agent is."""
    args = build_parser().parse_args(argv)
    automatic = [int(a) if str(a).isdigit() else a for a in args.automatic]
    args.automatic = automatic
    env_config = env_config_of(args)
    try:
        card = train(env_config, Path(args.out), iterations=args.iterations, address=args.address,
                     num_cpus=args.num_cpus, checkpoint_every=args.checkpoint_every, resume=args.resume,
                     policies=args.policies, num_env_runners=args.num_env_runners,
                     envs_per_runner=args.envs_per_runner, train_batch=args.train_batch,
                     minibatch=args.minibatch, epochs=args.epochs, lr=args.lr, gamma=args.gamma,
                     hidden=args.hidden, seed=args.seed, env_impl=args.env_impl)
    except RunFolderError as error:  # a run folder that cannot be resumed or reused
        build_parser().error(str(error))
    print(f"trained {card['env_steps']:,} env steps; play it: make_agent('rllib:{args.out}') or "
          f"tiny-york eval --agent rllib:{args.out}")
    return card


if __name__ == "__main__":
    main()
