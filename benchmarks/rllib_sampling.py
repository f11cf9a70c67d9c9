"""Sampling throughput of RLlib's env runners: env steps a second one runner samples (the policy's
forward pass included), by env implementation and games a runner, beside SB3's rollout collection
on the compiled VecEnv with the same network, and the PPO learner's rate.

Each runner is built as ``training/rllib_train.py`` builds it (the masked module, 256-256 tanh,
the shipped policies' size) and sampled in this process (no Ray actor: what one core of a runner
does), after a warm-up sample: ``runner.sample(num_timesteps=N, explore=True)``. Two runners are
two such processes at once (their rates summed). Setups: one agent against Tom 5 (the compiled env
on RLlib's single-agent runner; the Python env on its multi-agent runner, as ``--env-impl python``
trains) and two agent seats in self-play (``VectorMultiAgentEnvRunner`` vs RLlib's multi-agent
runner over ``GameMultiAgentEnv`` copies). The compiled one-agent setup runs on
``CompiledSingleAgentEnvRunner``, as training does. SB3: ``MaskablePPO.collect_rollouts`` on
``GameVecEnv`` (one agent against Tom 5). The parts of a compiled one-agent runner's step, each
timed alone: the module's forward pass with the action draw, and the compiled env's step. The
learner: PPO updates of 4,000-step batches (4 epochs of minibatches of 500) on the CPU, env steps
learned a second.

    python benchmarks/rllib_sampling.py [--games 1 64 256 1024] [--steps 20000] [--out FILE.json]
"""

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

from result_file import write_table_result

SETUPS = {"1 agent vs Tom 5": {"game": "tiny_york", "num_agents": 1, "toms": [5]},
          "2 agents, self-play": {"game": "tiny_york", "num_agents": 2, "toms": []}}
IMPLS = ("compiled", "python")
HIDDEN = (256, 256)  # the shipped policies' network
LEARNER_BATCH, LEARNER_MINIBATCH, LEARNER_EPOCHS = 4000, 500, 4


def one_thread() -> None:
    """Torch on one thread (the envs step on one thread by default): one core's rate."""
    import torch
    torch.set_num_threads(1)


def runner_class(setup: str, impl: str):
    """The env runner class ``rllib_train`` uses for the setup and env implementation."""
    from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner
    from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner

    from tiny_york_env.training.rllib_train import build_algorithm_config
    config, _, _ = build_algorithm_config(SETUPS[setup], num_env_runners=0, envs_per_runner=1,
                                          env_impl=impl, hidden=HIDDEN)
    return config.env_runner_cls or (MultiAgentEnvRunner if config.is_multi_agent else SingleAgentEnvRunner)


def runner_rate(setup: str, impl: str, games: int, steps: int, barrier=None) -> float:
    """Env steps a second one runner samples (after a warm-up sample of its own; with ``barrier``,
    timed from when every runner of the measurement is warm)."""
    one_thread()
    from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner
    from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner

    from tiny_york_env.training.rllib_train import build_algorithm_config
    from tiny_york_env.training.rllib_vector import CompiledSingleAgentEnvRunner
    config, _, _ = build_algorithm_config(SETUPS[setup], num_env_runners=0, envs_per_runner=games,
                                          env_impl=impl, hidden=HIDDEN)
    default = MultiAgentEnvRunner if config.is_multi_agent else SingleAgentEnvRunner
    runner = (config.env_runner_cls or default)(config=config)
    # The warm-up: a compiled runner's first call of a size also sizes the arrays it keeps for its
    # steps, as a training run's first sample does (every later call is that size).
    warm_up = steps if runner_class(setup, impl) is CompiledSingleAgentEnvRunner else max(2 * games, 1000)
    runner.sample(num_timesteps=warm_up, explore=True)
    if barrier is not None:
        barrier.wait()
    start = time.perf_counter()
    episodes = runner.sample(num_timesteps=steps, explore=True)
    return sum(len(episode) for episode in episodes) / (time.perf_counter() - start)


def part_rates(games: int, steps: int) -> tuple[float, float]:
    """Env steps a second of the two parts of a compiled one-agent runner's step alone, at B =
    ``games``: the module's forward pass with the action draw, and the compiled env's step (with
    legal actions drawn in numpy); what is left of a step is the runner's copies and episodes."""
    one_thread()
    import numpy as np
    import torch

    from tiny_york_env.training.rllib_train import build_algorithm_config
    from tiny_york_env.training.rllib_vector import MASK_KEY, draw_actions
    config, _, _ = build_algorithm_config(SETUPS["1 agent vs Tom 5"], num_env_runners=0,
                                          envs_per_runner=games, env_impl="compiled", hidden=HIDDEN)
    runner = config.env_runner_cls(config=config)
    env = runner.env
    observations, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    batch = {"obs": {key: torch.from_numpy(value) for key, value in observations.items()}}
    calls = max(steps // games, 3)
    with torch.no_grad():
        draw_actions(runner.module.forward_exploration(batch)["action_dist_inputs"], True)  # warm-up
        start = time.perf_counter()
        for _ in range(calls):
            draw_actions(runner.module.forward_exploration(batch)["action_dist_inputs"], True)
        forward = calls * games / (time.perf_counter() - start)
    uniform = rng.random((calls, games, observations[MASK_KEY].shape[1]))
    start = time.perf_counter()
    for k in range(calls):  # the legal action with the largest uniform draw: a random legal one
        observations = env.step((uniform[k] * observations[MASK_KEY]).argmax(axis=1))[0]
    stepping = calls * games / (time.perf_counter() - start)
    return forward, stepping


def runners_rate(setup: str, impl: str, games: int, steps: int, runners: int) -> float:
    """The summed rate of ``runners`` runners sampling at once, each in its own process (their
    timed samples start together)."""
    context = get_context("spawn")
    with context.Manager() as manager, ProcessPoolExecutor(runners, mp_context=context) as pool:
        barrier = manager.Barrier(runners)
        return sum(pool.map(runner_rate, *zip(*[(setup, impl, games, steps, barrier)] * runners,
                                               strict=True)))


def sb3_rate(games: int, steps: int) -> float:
    """Env steps a second of MaskablePPO's rollout collection on the compiled VecEnv."""
    one_thread()
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import CallbackList

    from tiny_york_env.envs.vector import GameVecEnv
    from tiny_york_env.registry import get_game
    game = get_game("tiny_york")
    env = GameVecEnv(games, game=game, config=game.seat_config(1, (5,)), num_threads=1)
    n_steps = max(steps // games, 2)
    model = MaskablePPO("MlpPolicy", env, n_steps=n_steps, batch_size=min(64, n_steps * games),
                        policy_kwargs={"net_arch": list(HIDDEN)}, device="cpu", seed=0)
    model._setup_learn(n_steps * games * 2)
    callback = CallbackList([])
    callback.init_callback(model)
    model.collect_rollouts(env, callback, model.rollout_buffer, n_rollout_steps=n_steps)  # warm-up
    start = time.perf_counter()
    model.collect_rollouts(env, callback, model.rollout_buffer, n_rollout_steps=n_steps)
    return n_steps * games / (time.perf_counter() - start)


def learner_rate(iterations: int = 3) -> float:
    """Env steps a second the PPO learner trains on (CPU), from RLlib's own learner timer."""
    import ray

    from tiny_york_env.training.rllib_train import build_algorithm_config
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        config, _, _ = build_algorithm_config(SETUPS["1 agent vs Tom 5"], num_env_runners=0,
                                              envs_per_runner=64, train_batch=LEARNER_BATCH,
                                              minibatch=LEARNER_MINIBATCH, epochs=LEARNER_EPOCHS,
                                              hidden=HIDDEN)
        algo = config.build_algo()
        algo.train()  # warm-up
        seconds = []
        for _ in range(iterations):
            seconds.append(float(algo.train()["timers"]["learner_update_timer"]))
        algo.stop()
        return LEARNER_BATCH / (sum(seconds) / len(seconds))
    finally:
        ray.shutdown()


def main() -> None:
    """Measure every cell; print the table and write it with ``--out``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1, 64, 256, 1024],
                        help="games a runner (B)")
    parser.add_argument("--steps", type=int, default=20000, help="env steps timed per cell")
    parser.add_argument("--runners", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--out", help="write the table as a result file (docs/results)")
    args = parser.parse_args()
    columns = ["setup", "env", "games a runner", "runners", "sampled env steps/s"]
    rows = []

    def add(row):
        rows.append(row)
        print(" | ".join(str(cell) for cell in row), flush=True)

    print(" | ".join(columns))
    for setup in SETUPS:
        for impl in IMPLS:
            for games in args.games:
                for runners in args.runners:
                    steps = max(args.steps, 4 * games)
                    rate = runners_rate(setup, impl, games, steps, runners)
                    add([setup, f"{runner_class(setup, impl).__name__}, {impl} envs", games, runners,
                         f"{rate:,.0f}"])
    with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:  # a fresh process, as above
        for games in args.games:
            forward, stepping = pool.submit(part_rates, games, max(args.steps, 4 * games)).result()
            add(["1 agent vs Tom 5, a part alone", "the module's forward pass and action draw", games, 1,
                 f"{forward:,.0f}"])
            add(["1 agent vs Tom 5, a part alone", "the compiled env's step (MaskInObservation)", games, 1,
                 f"{stepping:,.0f}"])
    for games in args.games:
        add(["1 agent vs Tom 5", "SB3 MaskablePPO rollouts, compiled VecEnv", games, 1,
             f"{sb3_rate(games, max(args.steps, 4 * games)):,.0f}"])
    learned = learner_rate()
    add(["PPO learner (CPU)", f"{LEARNER_BATCH:,}-step batches, {LEARNER_EPOCHS} epochs of "
         f"{LEARNER_MINIBATCH}", "-", "-", f"{learned:,.0f} learned"])
    from tiny_york_env.registry import get_game
    game = get_game(SETUPS["1 agent vs Tom 5"]["game"])
    widths = (game.obs_size, *HIDDEN, game.num_actions)
    flops = sum(2 * a * b for a, b in zip(widths, widths[1:], strict=False))  # a multiply-add: 2
    if args.out:
        write_table_result(Path(args.out), columns, rows,
                           note=f"network {HIDDEN[0]}-{HIDDEN[1]} tanh; each runner one process on one "
                                "thread, sampling in process (no Ray actor); two runners: two such "
                                "processes at once, rates summed; 'a part alone': that part of a "
                                "compiled one-agent runner's step timed by itself (the rest of a "
                                "step is the runner's copies of each step and its episodes); the "
                                f"forward pass is {flops / 1e6:.2f} million floating-point operations a "
                                f"step (layers {'-'.join(map(str, widths))}), so one core's arithmetic "
                                "rate bounds what one runner samples")


if __name__ == "__main__":
    main()
