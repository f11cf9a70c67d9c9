"""RLlib throughput: env steps per second of ``training/rllib_train.py``'s PPO for 1..N env runners.

Per runner count: a local Ray with ``--num-cpus``, the algorithm built as ``rllib_train`` builds
it, ``--warmup`` iterations untimed, then ``--iterations`` timed. Reported: env steps sampled per
second over the timed iterations (sampling and learning together, as a run sees them), and the
split RLlib measures per iteration (mean seconds sampling and learning, from its timers).
Usage:
    python benchmarks/rllib_throughput.py [--runners 1 2] [--envs-per-runner 8]
        [--train-batch 4000] [--iterations 5] [--game tiny_york --agents 1 --toms 5]
        [--env-impl python]   (the published table: Python envs; compiled: rllib_vector's)
"""

import argparse
import os
import platform
import time

import ray

from tiny_york_env.training.rllib_train import build_algorithm_config


def timer(result, *names):
    """RLlib's mean seconds of the first timer found among ``names``, else NaN."""
    timers = result.get("timers", {})
    for name in names:
        if name in timers:
            return float(timers[name])
    return float("nan")


def measure(env_config, runners, envs_per_runner, train_batch, warmup, iterations, num_cpus, env_impl):
    """(env steps/s, mean sampling s, mean learning s) for ``runners`` env runners."""
    ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
    try:
        config, _, _ = build_algorithm_config(env_config, num_env_runners=runners,
                                              envs_per_runner=envs_per_runner, train_batch=train_batch,
                                              minibatch=min(train_batch, 500), epochs=4,
                                              env_impl=env_impl)
        algo = config.build_algo()
        for _ in range(warmup):
            algo.train()
        start_steps = None
        sample, learn = [], []
        start = time.perf_counter()
        for _ in range(iterations):
            result = algo.train()
            steps = result["env_runners"]["num_env_steps_sampled_lifetime"]
            start_steps = steps if start_steps is None else start_steps
            sample.append(timer(result, "env_runner_sampling_timer", "sample"))
            learn.append(timer(result, "learner_update_timer", "learn"))
        elapsed = time.perf_counter() - start
        total = result["env_runners"]["num_env_steps_sampled_lifetime"]
        per_iteration = total / (iterations + warmup)
        algo.stop()
        return per_iteration * iterations / elapsed, sum(sample) / len(sample), sum(learn) / len(learn)
    finally:
        ray.shutdown()


def main():
    """Measure each runner count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runners", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--envs-per-runner", type=int, default=8)
    parser.add_argument("--train-batch", type=int, default=4000)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=5)
    parser.add_argument("--num-cpus", type=int, default=os.cpu_count())
    parser.add_argument("--game", default="tiny_york")
    parser.add_argument("--agents", type=int, default=1)
    parser.add_argument("--toms", nargs="*", type=int, default=[5])
    parser.add_argument("--env-impl", choices=("python", "compiled"), default="python",
                        help="the runners' envs (rllib_train --env-impl)")
    args = parser.parse_args()
    env_config = {"game": args.game, "num_agents": args.agents, "toms": args.toms}
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, ray "
          f"{ray.__version__}; {env_config}; train batch {args.train_batch}, "
          f"{args.envs_per_runner} envs per runner, {args.env_impl} envs")
    print(f"{'runners':>7} {'env steps/s':>12} {'sampling s/it':>14} {'learning s/it':>14}")
    for runners in args.runners:
        rate, sample, learn = measure(env_config, runners, args.envs_per_runner, args.train_batch,
                                      args.warmup, args.iterations, args.num_cpus, args.env_impl)
        print(f"{runners:>7} {rate:>12,.0f} {sample:>14.2f} {learn:>14.2f}")


if __name__ == "__main__":
    main()
