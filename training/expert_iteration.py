"""Expert iteration for Tiny York: the search teaches the network it searches with.

    python -m tiny_york_env.training.expert_iteration --generations 3 --games 200 --simulations 64 \\
        --levels 1,4,7,10,12 --selfplay-every 5 --out runs/exit

Each generation, starting from the shipped policy (or ``--start PATH``):

1. **Games**: ``PolicySearchAgent`` with the current network (``--simulations`` playouts a decision)
   plays ``--games`` solo games against the Toms of ``--levels`` in turn; every
   ``--selfplay-every``-th game is instead a two-agent game of the search against itself. Every
   decision of a searching seat is recorded: its observation, legal mask, the action the search
   chose (the policy target: the search's improvement on the prior), and the discounted final
   margin reward of that seat (the value target, as ``training.imitate``).
2. **Fit**: the current network goes on learning from these decisions (``imitate.fit_policy``:
   masked cross-entropy and value MSE, each part kept at its best held-out epoch).
3. **Ladder**: the new network, played without search (deterministic), against ``--eval-levels``
   (``--eval-games`` each); the generation's row goes to ``generations.json`` with its teacher's
   win rate and its fit, and the best generation so far (mean ladder win rate) is named there.

Writes ``gen-K/policy.zip`` (a policy file: ``psearch`` takes it as ``network=``, ``ppo:PATH``
plays it alone), ``gen-K/decisions.npz`` and ``generations.json`` under ``--out``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from tiny_york_env.agents.ppo_agent import DEFAULT_MODEL_PATH, POLICY_FILE
from tiny_york_env.envs.rewards import final_rewards
from tiny_york_env.game import (
    GameConfig,
    apply_action,
    current_player,
    determinize,
    is_terminal,
    legal_mask,
    new_game,
    winner,
)
from tiny_york_env.game.actions import NUM_ACTIONS
from tiny_york_env.observation import OBS_SIZE, encode
from tiny_york_env.options import check_int
from tiny_york_env.training.evaluate import (
    check_seed,
    derive_seed,
    open_output,
    output_dir,
    positive_int,
    refuse_symlink,
    write_output_text,
)
from tiny_york_env.training.export import save_policy
from tiny_york_env.training.imitate import (
    DEFAULT_BATCH_SIZE,
    DEFAULT_LEARNING_RATE,
    DEFAULT_REWARD,
    DEFAULT_VALUE_WEIGHT,
    DemonstrationLog,
    fit_policy,
    kept_epochs,
)
from tiny_york_env.training.train_ppo import (
    DEFAULT_GAMMA,
    DEFAULT_NET_ARCH,
    check_levels,
    evaluate_policy_on_ladder,
    make_config,
    make_model,
    make_vec_env,
    parse_int_list,
)

RESULTS_FILE, DECISIONS_FILE = "generations.json", "decisions.npz"
STREAM_GAME, STREAM_SEARCH, STREAM_VIEW, STREAM_FIT, STREAM_EVAL = 31, 32, 33, 34, 35
SELFPLAY_AGENTS = 2  # a self-play game: the search in two seats, no Tom
DEFAULT_GENERATIONS = 1
DEFAULT_GAMES = 200
DEFAULT_SIMULATIONS = 64
DEFAULT_LEVELS = (1, 4, 7, 10, 12)
DEFAULT_SELFPLAY_EVERY = 5
DEFAULT_EPOCHS = 4
DEFAULT_EVAL_LEVELS = (5, 10, 12)
DEFAULT_EVAL_GAMES = 200


@dataclass(frozen=True)
class ExpertIterationSettings:
    """What one run does (module doc); checked on construction."""

    out: str
    generations: int = DEFAULT_GENERATIONS
    games: int = DEFAULT_GAMES
    simulations: int = DEFAULT_SIMULATIONS
    levels: tuple[int, ...] = DEFAULT_LEVELS
    selfplay_every: int = DEFAULT_SELFPLAY_EVERY  # 0: no self-play games
    epochs: int = DEFAULT_EPOCHS
    eval_levels: tuple[int, ...] = DEFAULT_EVAL_LEVELS
    eval_games: int = DEFAULT_EVAL_GAMES
    start: str | None = None  # the first generation's network; None: the shipped policy
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("generations", "games", "simulations", "epochs", "eval_games"):
            object.__setattr__(self, name, positive_int(getattr(self, name), name))  # numpy ints as int
        object.__setattr__(self, "selfplay_every", check_int("selfplay_every", self.selfplay_every, 0,
                                                             "0: no self-play"))
        check_seed(self.seed)
        if self.start is not None and not Path(self.start).is_file():
            raise ValueError(f"start must be a policy file (e.g. runs/exit/gen-1/policy.zip), "
                             f"got {self.start!r}")
        object.__setattr__(self, "levels", tuple(check_levels(self.levels, "levels")))
        object.__setattr__(self, "eval_levels", tuple(check_levels(self.eval_levels, "eval_levels")))


def game_config(settings: ExpertIterationSettings, index: int) -> GameConfig:
    """Game ``index``'s setup: a self-play game every ``selfplay_every``-th, else solo against the
    next Tom of ``levels`` (counting solo games only, so every level comes in turn)."""
    every = settings.selfplay_every
    if every and (index + 1) % every == 0:
        return GameConfig(num_agents=SELFPLAY_AGENTS)
    solo_index = index - index // every if every else index
    return GameConfig(num_agents=1, toms=(settings.levels[solo_index % len(settings.levels)],))


def play_search_games(settings: ExpertIterationSettings, network_path: str | Path, generation: int,
                      progress: bool = True):
    """(Demonstrations of every searching decision, the search's win rate against the Toms)."""
    from tqdm.auto import tqdm

    from tiny_york_env.agents.policy_search import PolicyNetwork, PolicySearchAgent
    network = PolicyNetwork(network_path)
    logs = DemonstrationLog(DEFAULT_GAMMA)
    wins = solo = 0
    for index in tqdm(range(settings.games), desc=f"generation {generation} games", unit="game",
                      disable=not progress):
        config = game_config(settings, index)
        state = new_game(config, seed=derive_seed(settings.seed, STREAM_GAME, generation, index))
        agent = PolicySearchAgent(simulations=settings.simulations, network=network,
                                  seed=derive_seed(settings.seed, STREAM_SEARCH, generation, index))
        rng = np.random.default_rng(derive_seed(settings.seed, STREAM_VIEW, generation, index))
        seats: list[DemonstrationLog] = [DemonstrationLog(DEFAULT_GAMMA) for _ in range(config.num_agents)]
        while not is_terminal(state):
            seat = current_player(state)
            observation, mask = encode(state, seat), legal_mask(state)
            action = agent.act_state(determinize(state, seat, rng), seat)
            seats[seat].decide(observation, mask, action)
            apply_action(state, action)
        rewards = final_rewards(state, DEFAULT_REWARD)
        for seat, log in enumerate(seats):
            log.end_game(index, float(rewards[seat]))
            logs.absorb(log)
        logs.teacher_rewards.append(float(rewards[0]))
        if config.toms:
            solo += 1
            wins += int(winner(state) == 0)
    return logs.demonstrations(OBS_SIZE, NUM_ACTIONS), (wins / solo if solo else None)


def fit_generation(settings: ExpertIterationSettings, network_path: str | Path, demos, generation: int,
                   policy_path: Path, progress: bool = True):
    """The network of ``network_path`` fitted to ``demos``, saved at ``policy_path``; (model, history)."""
    config = make_config(net_arch=tuple(DEFAULT_NET_ARCH), gamma=DEFAULT_GAMMA, reward=DEFAULT_REWARD,
                         seed=settings.seed, out=str(policy_path.parent), num_envs=1, batch_size=2,
                         n_steps=2, toms=(settings.levels[0],), init_from=str(network_path))
    env = make_vec_env(config, config.stages[0], 0)
    model = make_model(config, env)
    history = fit_policy(model, demos, settings.epochs, DEFAULT_BATCH_SIZE, DEFAULT_LEARNING_RATE,
                         DEFAULT_VALUE_WEIGHT, derive_seed(settings.seed, STREAM_FIT, generation), progress)
    env.close()
    save_policy(model, policy_path, game="tiny_york", written_by="training.expert_iteration")
    return model, history


def ladder_row(evaluation) -> dict[str, dict[str, float]]:
    """Each Tom level's games, wins, win rate and 95% interval."""
    return {str(cell.level): {"games": cell.games, "wins": cell.wins, "win_rate": cell.win_rate,
                              "ci_low": cell.ci_low, "ci_high": cell.ci_high} for cell in evaluation.cells}


def run(settings: ExpertIterationSettings, progress: bool = True) -> dict:
    """Run every generation (module doc); the results dict also written to ``generations.json``."""
    out = Path(settings.out)
    refuse_symlink(out)
    output_dir(out)
    results_path = out / RESULTS_FILE
    refuse_symlink(results_path)
    network_path = Path(settings.start) if settings.start else DEFAULT_MODEL_PATH
    results = {"settings": asdict(settings), "start": str(network_path), "generations": [], "best": None}
    for generation in range(1, settings.generations + 1):
        started = time.perf_counter()
        gen_dir = out / f"gen-{generation}"
        output_dir(gen_dir)
        demos, teacher_win_rate = play_search_games(settings, network_path, generation, progress)
        with open_output(gen_dir / DECISIONS_FILE, "wb") as handle:
            demos.save(handle)
        policy_path = gen_dir / POLICY_FILE
        model, history = fit_generation(settings, network_path, demos, generation, policy_path, progress)
        evaluation = evaluate_policy_on_ladder(model, settings.eval_levels, settings.eval_games,
                                               derive_seed(settings.seed, STREAM_EVAL, generation),
                                               label=f"gen-{generation}")
        ladder = ladder_row(evaluation)
        row = {"generation": generation, "network": str(policy_path), "trained_from": str(network_path),
               "games": settings.games, "decisions": len(demos), "search_win_rate_vs_toms": teacher_win_rate,
               "kept_epochs": dict(zip(("policy", "value"), kept_epochs(history), strict=True)),
               "history": history, "ladder": ladder,
               "mean_ladder_win_rate": float(np.mean([c["win_rate"] for c in ladder.values()])),
               "seconds": round(time.perf_counter() - started, 1)}
        results["generations"].append(row)
        best = max(results["generations"], key=lambda r: r["mean_ladder_win_rate"])
        results["best"] = {"generation": best["generation"], "network": best["network"],
                           "mean_ladder_win_rate": best["mean_ladder_win_rate"]}
        write_output_text(results_path, json.dumps(results, indent=1) + "\n")
        network_path = policy_path
    return results


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of ``python -m tiny_york_env.training.expert_iteration``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, help="the run's folder")
    parser.add_argument("--generations", type=int, default=DEFAULT_GENERATIONS)
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="search games a generation")
    parser.add_argument("--simulations", type=int, default=DEFAULT_SIMULATIONS, help="playouts a decision")
    parser.add_argument("--levels", type=parse_int_list, default=DEFAULT_LEVELS, help="Tom levels, in turn")
    parser.add_argument("--selfplay-every", type=int, default=DEFAULT_SELFPLAY_EVERY,
                        help="every N-th game is self-play (0: none)")
    parser.add_argument("--epochs", type=int, default=DEFAULT_EPOCHS)
    parser.add_argument("--eval-levels", type=parse_int_list, default=DEFAULT_EVAL_LEVELS)
    parser.add_argument("--eval-games", type=int, default=DEFAULT_EVAL_GAMES)
    parser.add_argument("--start", default=None, help="the first network (a policy file); default: shipped")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--torch-threads", type=int, default=1)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    import torch
    args = build_parser().parse_args(argv)
    torch.set_num_threads(positive_int(args.torch_threads, "torch_threads"))
    settings = ExpertIterationSettings(
        out=args.out, generations=args.generations, games=args.games, simulations=args.simulations,
        levels=tuple(args.levels), selfplay_every=args.selfplay_every, epochs=args.epochs,
        eval_levels=tuple(args.eval_levels), eval_games=args.eval_games, start=args.start, seed=args.seed)
    results = run(settings)
    print(json.dumps(results["best"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
