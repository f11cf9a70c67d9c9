"""RLlib (the ray extra): the multi-agent env adapter passes RLlib's pre-check, a tiny PPO run on a
local Ray trains, checkpoints and comes back as a project agent that plays only legal actions,
with the logits RLlib's own module computes; self-play for 3 seats and one module per seat run."""

import json

import numpy as np
import pytest

ray = pytest.importorskip("ray", reason="ray[rllib] is the ray extra that make test installs")
pytest.importorskip("msgpack_numpy", reason="msgpack-numpy is in the ray extra")

from tiny_york_env.agents.registry import make_agent  # noqa: E402
from tiny_york_env.agents.rllib_agent import read_module_state  # noqa: E402
from tiny_york_env.core.seeds import next_seed  # noqa: E402
from tiny_york_env.games.tiny_york import (  # noqa: E402
    GameConfig,
    apply_action,
    current_player,
    is_terminal,
    legal_mask,
    new_game,
)
from tiny_york_env.games.tiny_york.observation import encode  # noqa: E402
from tiny_york_env.training.rllib_env import MASK_KEY, OBS_KEY, GameMultiAgentEnv  # noqa: E402
from tiny_york_env.training.rllib_train import main as rllib_main  # noqa: E402

TINY = ["--iterations", "2", "--train-batch", "256", "--minibatch", "64", "--epochs", "1",
        "--envs-per-runner", "2", "--num-env-runners", "1", "--hidden", "32", "32"]


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.mark.parametrize("env_config", [
    {"game": "tiny_york", "num_agents": 2, "toms": [5]},
    {"game": "construction_yard", "num_players": 3, "bots": ["greedy"]}])
def test_rllibs_env_pre_check_passes(env_config):
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments
    env = GameMultiAgentEnv(env_config)
    check_multiagent_environments(env)  # not disabled: it steps an unmasked sample
    obs, _ = env.reset(seed=3)
    (agent, view), = obs.items()
    assert env.observation_spaces[agent].contains(view)


def test_the_env_plays_whole_games_with_final_rewards_for_every_seat():
    env = GameMultiAgentEnv({"game": "tiny_york", "num_agents": 3, "toms": [], "reward": "rank"})
    obs, _ = env.reset(seed=7)
    rng = np.random.default_rng(0)
    steps = 0
    while True:
        (agent, view), = obs.items()
        action = int(rng.choice(np.flatnonzero(view[MASK_KEY])))
        obs, rewards, terminated, truncated, _ = env.step({agent: action})
        steps += 1
        if terminated["__all__"]:
            break
        assert set(obs) == set(rewards) and rewards[next(iter(rewards))] == 0.0
    assert set(rewards) == set(env.possible_agents) == set(obs)
    assert sorted(rewards.values()) == [-1.0, 0.0, 1.0] and steps > 100
    env.reset()  # the next game of the seed chain, as the project's other envs
    assert env.game_seed == next_seed(7)


def test_an_illegal_action_ends_the_game_with_the_penalty():
    env = GameMultiAgentEnv({"game": "tiny_york", "num_agents": 2, "toms": [5]})
    obs, _ = env.reset(seed=1)
    (agent, view), = obs.items()
    illegal = int(np.flatnonzero(view[MASK_KEY] == 0)[0])
    _, rewards, terminated, _, infos = env.step({agent: illegal})
    assert terminated["__all__"] and rewards[agent] == -1.0 and infos[agent]["illegal_action"] == illegal
    assert sum(rewards.values()) == -1.0
    with pytest.raises(ValueError, match="bad setup for Tiny York"):
        GameMultiAgentEnv({"game": "tiny_york", "players": 2})


@pytest.mark.parametrize("env_impl, policy", [("compiled", "default_policy"), ("python", "shared")])
def test_a_tiny_run_trains_checkpoints_and_plays_as_a_project_agent(tmp_path, local_ray, env_impl,
                                                                     policy):
    """One agent seat against Tom 5: on RLlib's single-agent runners over the compiled vector env
    (module "default_policy"), or on its multi-agent runners over Python envs."""
    out = tmp_path / "run"
    card = rllib_main([*TINY, "--agents", "1", "--toms", "5", "--env-impl", env_impl, "--out", str(out)])
    assert card["env_steps"] >= 512 and card["policy_ids"] == [policy]
    assert card["agent_policy"] == {"seat_0": policy}
    assert json.loads((out / "rllib.json").read_text())["game"] == "tiny_york"
    rows = (out / "progress.csv").read_text().splitlines()
    assert len(rows) == 3 and rows[0].startswith("iteration,env_steps")

    agent = make_agent(f"rllib:{out}")
    state = new_game(GameConfig(num_agents=1, toms=(5,)), seed=4)
    moves = 0
    while not is_terminal(state):
        mask = legal_mask(state)
        action = agent.act(encode(state, current_player(state)), mask)
        assert mask[action]
        apply_action(state, action)
        moves += 1
    assert moves > 50

    # the same logits as RLlib's own module restored from the checkpoint (our own file: RLlib's
    # loader unpickles its class information, which the project agent never does)
    import torch
    from ray.rllib.core.rl_module.rl_module import RLModule
    module = RLModule.from_checkpoint(out.joinpath("checkpoint", "learner_group", "learner", "rl_module",
                                                   policy))
    state = new_game(GameConfig(num_agents=1, toms=(5,)), seed=9)
    observation, mask = encode(state, 0), legal_mask(state)
    batch = {"obs": {OBS_KEY: torch.from_numpy(observation[None]),
                     MASK_KEY: torch.from_numpy(mask[None].astype(np.float32))}}
    theirs = module.forward_inference(batch)["action_dist_inputs"][0].detach().numpy()
    ours = agent.action_logits(observation)
    assert np.allclose(theirs[mask], ours[mask], atol=1e-5)
    assert (theirs[~mask] < -1e30).all()  # the mask is applied inside RLlib's module


def test_self_play_for_three_seats_and_a_module_per_seat_run(tmp_path, local_ray):
    shared = rllib_main([*TINY, "--iterations", "1", "--agents", "3", "--toms", "--out",
                         str(tmp_path / "selfplay")])
    assert shared["agent_policy"] == {f"seat_{i}": "shared" for i in range(3)}
    per_seat = rllib_main([*TINY, "--iterations", "1", "--game", "construction_yard", "--agents", "2",
                           "--bots", "greedy", "--policies", "per-seat", "--out", str(tmp_path / "cy")])
    assert per_seat["policy_ids"] == ["seat_0", "seat_1"]
    agent = make_agent(f"rllib:{tmp_path / 'cy'}", policy="seat_1")
    assert agent.game.name == "construction_yard"


def test_the_module_reader_refuses_what_would_need_unpickling(tmp_path):
    import msgpack
    import msgpack_numpy
    msgpack_numpy.patch()  # as ray does: the module's unpackb would then unpickle object arrays
    path = tmp_path / "module_state.msgpack"
    path.write_bytes(msgpack.packb({"w": {b"nd": True, b"type": "|O", b"kind": b"O", b"shape": [1],
                                          b"data": b"cos\nsystem\n"}}))
    with pytest.raises(ValueError, match="non-numeric array"):
        read_module_state(path)
    path.write_bytes(b"\xc1 not msgpack")
    with pytest.raises(ValueError, match="not a readable module state"):
        read_module_state(path)
    with pytest.raises(ValueError, match="not a training/rllib_train.py run folder"):
        make_agent(f"rllib:{tmp_path}")


def test_evaluation_on_ray_equals_local_evaluation_cell_for_cell(local_ray):
    from tiny_york_env.arena.ladder import evaluate_vs_toms
    from tiny_york_env.arena.match import evaluate_vs_agents
    from tiny_york_env.arena.tournament import run_tournament
    local = evaluate_vs_toms("greedy", levels=[1, 5, 12], games=6, seed=3, workers=2, progress=False)
    on_ray = evaluate_vs_toms("greedy", levels=[1, 5, 12], games=6, seed=3, progress=False,
                              ray_address="local")
    assert on_ray.outcomes() == local.outcomes()

    def played(results):  # every game as played, without its timing
        return [(r.cell, r.index, r.game_seed, r.seating, r.scores, r.winner, r.decisions)
                for r in results.records]
    assert played(on_ray) == played(local) and len(played(local)) == 18
    match = dict(agents=["random", "greedy"], games=4, seed=1, toms=[5], progress=False)
    on_ray_match = evaluate_vs_agents(**match, ray_address="local")
    assert on_ray_match.outcomes() == evaluate_vs_agents(**match).outcomes()
    tour = dict(games=4, seed=2, progress=False)
    assert (run_tournament(["random", "greedy", "tomrules"], ray_address="local", **tour).standings
            == run_tournament(["random", "greedy", "tomrules"], **tour).standings)


def test_a_comparison_and_a_ladder_in_parts_on_ray_equal_local_ones(local_ray, tmp_path):
    """tiny-york compare and eval --part-games send their games to Ray with --ray: the same games,
    the same decision and the same joined ladder."""
    from tiny_york_env.arena.compare import compare_agents
    from tiny_york_env.arena.ladder_parts import play_ladder_in_parts
    test = dict(automatic=[1], delta1=0.1, max_pairs=30, batch=10, seed=3)
    on_ray, local = compare_agents("random", "greedy", ray_address="local", **test), compare_agents(
        "random", "greedy", **test)
    assert on_ray.differences() == local.differences() and on_ray.state == local.state
    ladder = dict(rungs=[1, 5], games=4, part_games=2, seed=2, progress=False)
    assert (play_ladder_in_parts("greedy", out=tmp_path / "ray", ray_address="local", **ladder).outcomes()
            == play_ladder_in_parts("greedy", out=tmp_path / "local", **ladder).outcomes())


def test_a_run_card_cannot_point_outside_its_folder_or_ask_for_a_huge_network(tmp_path):
    base = {"format": "tiny-york-rllib", "game": "tiny_york", "policy_ids": ["shared"],
            "model_config": {"fcnet_hiddens": [32], "fcnet_activation": "tanh"}}
    for change, words in (({"policy_ids": ["../../etc"]}, "policy_ids must be names"),
                          ({"model_config": {"fcnet_hiddens": [10**9], "fcnet_activation": "tanh"}},
                           "fcnet_hiddens must be"),
                          ({"model_config": {"fcnet_hiddens": [32], "fcnet_activation": "os.system"}},
                           "fcnet_activation must be")):
        (tmp_path / "rllib.json").write_text(json.dumps({**base, **change}))
        with pytest.raises(ValueError, match=words):
            make_agent(f"rllib:{tmp_path}")


def checkpointed_iteration(out) -> int:
    """The iteration the run's latest complete checkpoint ends (0 before the first, or while the
    running driver replaces the one found)."""
    from tiny_york_env.training.rllib_train import checkpoint_iteration, latest_checkpoint
    checkpoint = latest_checkpoint(out)
    return (checkpoint_iteration(checkpoint) or 0) if checkpoint else 0


def test_a_killed_run_resumes_from_its_checkpoint_and_exports_a_safe_policy_file(tmp_path):
    """The driver is killed (SIGKILL) once two checkpoints are written; ``--resume`` goes on from
    the latest one to the end, keeping the progress rows it covers; the module is exported as a
    policy file that the project's ppo agent plays with the same logits as the run's own agent."""
    import subprocess
    import sys
    import time

    out = tmp_path / "run"
    command = [sys.executable, "-m", "tiny_york_env.training.rllib_train", *TINY, "--iterations", "12",
               "--checkpoint-every", "1", "--num-cpus", "2", "--out", str(out)]
    driver = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 600
        while checkpointed_iteration(out) < 2 and driver.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert driver.poll() is None, "the run ended before it could be killed"
        driver.kill()
    finally:
        driver.wait(timeout=60)
    killed_at = checkpointed_iteration(out)
    assert 2 <= killed_at < 12 and not (out / "rllib.json").exists()  # stopped part way
    with pytest.raises(SystemExit):  # the folder holds a run: a fresh start into it is refused
        rllib_main([*TINY, "--iterations", "12", "--out", str(out)])
    with pytest.raises(SystemExit):  # and a resume must learn what the run learned
        rllib_main([*TINY, "--iterations", "12", "--lr", "0.1", "--resume", "--out", str(out)])

    card = rllib_main([*TINY, "--iterations", str(killed_at + 2), "--resume", "--out", str(out)])
    rows = [line.split(",") for line in (out / "progress.csv").read_text().splitlines()[1:]]
    assert [int(row[0]) for row in rows] == list(range(1, killed_at + 3))
    steps = [int(row[1]) for row in rows]
    assert steps == sorted(steps) and steps[killed_at] > steps[killed_at - 1]  # the counters go on
    assert card["env_steps"] == steps[-1]

    from tiny_york_env.agents.ppo_agent import PPOAgent
    from tiny_york_env.training.export import main as export_main
    exported = tmp_path / "rllib-policy.zip"
    assert export_main([str(out), str(exported), "--weights-dtype", "float32"]) == 0
    policy, run = PPOAgent(exported), make_agent(f"rllib:{out}")
    state = new_game(GameConfig(num_agents=1, toms=(5,)), seed=3)
    observation = encode(state, 0)
    assert np.allclose(policy.action_logits(observation), run.action_logits(observation), atol=1e-6)
    assert json.loads(exported.with_suffix(".json").read_text())["source"].endswith("run")
