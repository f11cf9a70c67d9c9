"""Behaviour cloning (training/imitate.py) and starting PPO from its model (train_ppo init_from)."""

import json

import numpy as np
import pytest
import sb3_contrib  # noqa: F401  (required: make test installs the train extra)
import torch  # noqa: E402

from tiny_york_env.agents.base import choose_action  # noqa: E402
from tiny_york_env.agents.ppo_agent import PPOAgent  # noqa: E402
from tiny_york_env.games.tiny_york import NUM_ACTIONS, GameConfig, apply_action, is_terminal, new_game  # noqa: E402
from tiny_york_env.games.tiny_york.observation import OBS_SIZE  # noqa: E402
from tiny_york_env.training.imitate import (  # noqa: E402
    DEMOS_FILE,
    HISTORY_FILE,
    DemonstrationLog,
    Demonstrations,
    collect_demonstrations,
    fit_policy,
    imitate,
    main,
    split_by_game,
)
from tiny_york_env.training.train_ppo import make_config, make_model, make_vec_env, train  # noqa: E402

SMALL_NET = (32,)
GAMMA = 0.99


pytestmark = pytest.mark.usefixtures("one_torch_thread")  # tests/training/conftest.py


@pytest.fixture(scope="module")
def demos():
    """Four games of the greedy teacher against Tom 1 and Tom 5 in turn."""
    return collect_demonstrations("greedy", levels=(1, 5), games=4, seed=2, gamma=GAMMA, progress=False)


@pytest.fixture(scope="module")
def cloned(tmp_path_factory, demos):
    """A small clone of those demonstrations, written to disk."""
    out = tmp_path_factory.mktemp("bc") / "run"
    return imitate(out=out, demonstrations=demos, epochs=2, net_arch=SMALL_NET, gamma=GAMMA,
                   eval_games=0, progress=False)


def test_demonstrations_hold_legal_teacher_decisions_with_discounted_returns(demos):
    n = len(demos)
    assert demos.observations.shape == (n, OBS_SIZE) and demos.masks.shape == (n, NUM_ACTIONS)
    assert np.all(demos.masks[np.arange(n), demos.actions])
    assert sorted(set(demos.games.tolist())) == [0, 1, 2, 3]
    for game, reward in enumerate(demos.teacher_rewards):
        returns = demos.returns[demos.games == game]
        assert returns[-1] == pytest.approx(reward)
        assert returns[0] == pytest.approx(reward * GAMMA ** (len(returns) - 1), rel=1e-4)


def test_demonstrations_are_seeded_and_round_trip_through_a_file(demos, tmp_path):
    again = collect_demonstrations("greedy", levels=(1, 5), games=4, seed=2, gamma=GAMMA, progress=False)
    assert np.array_equal(again.actions, demos.actions)
    demos.save(tmp_path / "d.npz")
    loaded = Demonstrations.load(tmp_path / "d.npz")
    assert np.array_equal(loaded.observations, demos.observations)
    assert np.array_equal(loaded.masks, demos.masks)


def test_the_teacher_replays_its_recorded_game(demos):
    """The recorded actions, replayed from the same seed, finish the first game."""
    from tiny_york_env.arena.seeds import derive_seed
    from tiny_york_env.training.imitate import STREAM_GAME
    state = new_game(GameConfig(num_agents=1, toms=(1,)), seed=derive_seed(2, STREAM_GAME, 0))
    for action in demos.actions[demos.games == 0]:
        apply_action(state, int(action))
    assert is_terminal(state)


def test_a_log_absorbs_another_logs_finished_games():
    first, second = DemonstrationLog(GAMMA), DemonstrationLog(GAMMA)
    mask = np.ones(NUM_ACTIONS, dtype=np.bool_)
    first.decide(np.zeros(OBS_SIZE), mask, 1)
    first.end_game(0, 1.0)
    second.decide(np.ones(OBS_SIZE), mask, 2)
    second.decide(np.ones(OBS_SIZE), mask, 3)
    with pytest.raises(ValueError, match="both logs' games must have ended"):
        first.absorb(second)
    second.end_game(1, -1.0)
    first.absorb(second)
    demos = first.demonstrations(OBS_SIZE, NUM_ACTIONS)
    assert demos.actions.tolist() == [1, 2, 3] and demos.games.tolist() == [0, 1, 1]
    assert np.allclose(demos.returns, [1.0, -GAMMA, -1.0]) and demos.teacher_rewards.tolist() == [1.0]
    first.decide(np.zeros(OBS_SIZE), mask, 4)  # the next game starts after the absorbed ones
    first.end_game(2, 2.0)
    assert first.demonstrations(OBS_SIZE, NUM_ACTIONS).returns[-1] == 2.0


def test_validation_split_keeps_whole_games_apart(demos):
    train_index, valid_index = split_by_game(demos, seed=0)
    assert len(train_index) + len(valid_index) == len(demos)
    assert not set(demos.games[train_index]) & set(demos.games[valid_index])
    assert len(valid_index) > 0


def test_fitting_lowers_the_imitation_loss(demos):
    config = make_config(toms=(5,), net_arch=SMALL_NET, num_envs=1, n_steps=2, batch_size=2, seed=1)
    env = make_vec_env(config, config.stages[0], 0)
    history = fit_policy(make_model(config, env), demos, epochs=10, batch_size=128, progress=False)
    env.close()
    assert history[-1]["train_cross_entropy"] < 0.9 * history[0]["train_cross_entropy"]
    assert history[-1]["train_accuracy"] > history[0]["train_accuracy"]
    assert {"valid_cross_entropy", "valid_accuracy"} <= set(history[-1])


def test_each_head_is_kept_at_its_best_held_out_epoch(demos):
    """The policy layers end at the epoch of the lowest held-out cross-entropy and the value
    layers at that of the lowest held-out value loss, whatever the last epoch did."""
    from tiny_york_env.training.imitate import DEFAULT_VALUE_WEIGHT, _validation, kept_epochs
    config = make_config(toms=(5,), net_arch=SMALL_NET, num_envs=1, n_steps=2, batch_size=2, seed=1)
    env = make_vec_env(config, config.stages[0], 0)
    model = make_model(config, env)
    history = fit_policy(model, demos, epochs=8, batch_size=128, learning_rate=3e-3, progress=False)
    env.close()
    _, valid_index = split_by_game(demos, seed=0)
    final = _validation(model.policy, demos, valid_index, DEFAULT_VALUE_WEIGHT, 128)
    best_ce = min(row["valid_cross_entropy"] for row in history)
    best_value = min(row["valid_value_loss"] for row in history)
    assert final["valid_cross_entropy"] == pytest.approx(best_ce, rel=1e-5)
    assert final["valid_value_loss"] == pytest.approx(best_value, rel=1e-5)
    policy_epoch, value_epoch = kept_epochs(history)
    assert history[policy_epoch - 1]["valid_cross_entropy"] == best_ce
    assert history[value_epoch - 1]["valid_value_loss"] == best_value
    assert value_epoch < len(history)  # the value head overfits: its best epoch is not the last


def test_clone_is_a_playable_ppo_agent(cloned):
    assert cloned.model_path.name == "model.zip" and cloned.policy_path.name == "policy.zip"
    history = json.loads((cloned.model_path.parent / HISTORY_FILE).read_text())
    assert history["decisions"] == cloned.decisions and len(history["history"]) == 2
    agent = PPOAgent(cloned.policy_path)
    state = new_game(GameConfig(num_agents=1, toms=(5,)), seed=4)
    rng = np.random.default_rng(0)
    while not is_terminal(state):
        apply_action(state, choose_action(agent, state, rng))  # raises on an illegal action


@pytest.mark.parametrize("source", ["policy_path", "model_path"])
def test_ppo_starts_from_the_cloned_weights(cloned, tmp_path, source):
    """From the policy file or from the SB3 checkpoint (its tensors only): the same weights."""
    path = getattr(cloned, source)
    config = make_config(toms=(5,), net_arch=SMALL_NET, num_envs=2, n_steps=2, batch_size=4,
                         init_from=path)
    env = make_vec_env(config, config.stages[0], 0)
    started = make_model(config, env).policy.state_dict()
    env.close()
    for name, tensor in cloned.model.policy.state_dict().items():
        assert torch.equal(started[name], tensor), name
    result = train(toms=(5,), net_arch=SMALL_NET, num_envs=4, n_steps=16, batch_size=32,
                   n_epochs=1, total_steps=64, init_from=str(path),
                   out=tmp_path / "ppo", progress=False)
    assert json.loads((tmp_path / "ppo" / "config.json").read_text())["init_from"].endswith(path.name)
    assert result.model.num_timesteps >= 64


def test_init_from_another_network_shape_is_a_clear_error(cloned, tmp_path):
    with pytest.raises(ValueError, match="does not fit net_arch"):
        train(toms=(5,), net_arch=(16, 16), num_envs=2, n_steps=4, batch_size=4, total_steps=8,
              init_from=str(cloned.policy_path), out=tmp_path / "x", progress=False)
    with pytest.raises(ValueError, match="no PPO model file"):
        make_config(init_from=tmp_path / "missing.zip")


def test_command_line_clones_and_reports(tmp_path, demos, capsys):
    demos.save(tmp_path / DEMOS_FILE)
    status = main(["--demonstrations", str(tmp_path / DEMOS_FILE), "--epochs", "1", "--net-arch", "16",
                   "--eval-games", "1", "--eval-levels", "1", "--out", str(tmp_path / "cli"),
                   "--no-progress"])
    printed = capsys.readouterr().out
    assert status == 0 and f"{len(demos)} decisions" in printed and "Tom 1 (A6)" in printed
    assert (tmp_path / "cli" / "model.zip").is_file() and (tmp_path / "cli" / "policy.zip").is_file()
    assert f"policy: {tmp_path / 'cli' / 'policy.zip'}" in printed


@pytest.mark.parametrize("argv, message", [
    (["--teacher", "nobody"], "unknown agent 'nobody'"),
    (["--levels", "0"], "bad levels '0': give levels 1-12"),
    (["--games", "0"], "games must be"),
])
def test_command_line_bad_options(argv, message, tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(argv + ["--out", str(tmp_path / "bad"), "--no-progress"])
    assert message in capsys.readouterr().err


def test_a_foreign_or_damaged_demonstrations_file_is_refused(demos, tmp_path, capsys):
    """Demonstrations.load checks what it reads and names the file; imitate refuses before writing."""
    path = tmp_path / DEMOS_FILE
    demos.save(path)
    good = path.read_bytes()
    fields = {name: getattr(demos, name) for name in Demonstrations.__dataclass_fields__}
    illegal = demos.actions.copy()
    illegal[0] = int(np.flatnonzero(~demos.masks[0])[0])
    damages = [
        (lambda: path.write_bytes(good[: len(good) // 2]), "not a demonstrations file"),
        (lambda: path.write_bytes(b"plain text"), "not a demonstrations file"),
        (lambda: np.savez(path, **{**fields, "actions": illegal}), "legal under its mask"),
        (lambda: np.savez(path, **{**fields, "returns": demos.returns[:-1]}), "returns must be float32"),
        (lambda: np.savez(path, **{**fields, "returns": np.full_like(demos.returns, np.nan)}), "finite"),
        (lambda: np.savez(path, **{k: v for k, v in fields.items() if k != "games"}), "'games'"),
        (lambda: np.savez(path, **{**fields, "games": np.array([None], dtype=object)}), "pickle"),
    ]
    for damage, message in damages:
        path.write_bytes(good)
        damage()
        with pytest.raises(ValueError, match=message) as refused:
            Demonstrations.load(path)
        assert str(path) in str(refused.value)
    path.write_bytes(good)
    with pytest.raises(ValueError, match=rf"observations must be float32 \({len(demos)}, {OBS_SIZE + 1}\)"):
        Demonstrations.load(path, obs_size=OBS_SIZE + 1)
    assert Demonstrations.load(path, OBS_SIZE, NUM_ACTIONS).actions.tolist() == demos.actions.tolist()
    with pytest.raises(ValueError, match="actions must be a numpy array, got list"):
        Demonstrations(**{**fields, "actions": demos.actions.tolist()}).check()  # built by hand
    np.savez(path, **{**fields, "actions": illegal})
    with pytest.raises(SystemExit):
        main(["--demonstrations", str(path), "--out", str(tmp_path / "never"), "--no-progress"])
    assert "legal under its mask" in capsys.readouterr().err
    assert not (tmp_path / "never").exists()  # refused before anything is written
