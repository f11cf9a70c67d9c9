"""training/export.py: the compact policy file loads, plays like its source, can be trained on,
carries a model card; SB3 checkpoints only with --unsafe-unpickle; bad destinations are refused."""

import io
import json
import zipfile

import numpy as np
import pytest
import sb3_contrib  # noqa: F401  (required: make test installs the train extra)
import torch  # noqa: E402

from tiny_york_env.agents.ppo_agent import CARD_MEMBER, WEIGHTS_MEMBER, PPOAgent, current_layout, load_policy  # noqa: E402
from tiny_york_env.envs.vector import TinyYorkVecEnv  # noqa: E402
from tiny_york_env.training.export import export_model, main  # noqa: E402
from tiny_york_env.training.train_ppo import train  # noqa: E402

SMOKE = {"num_envs": 8, "n_steps": 32, "batch_size": 64, "n_epochs": 1, "net_arch": (64,),
         "seed": 4, "progress": False, "toms": (5,), "torch_threads": 1}
SMOKE_STEPS = 512
PROBABILITY_TOLERANCE = 5e-3  # float16 weights: about 3 significant digits
FLOAT16_SHARE = 0.6  # float16 weights and a deflated zip: well under 60% of the float32 file


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A smoke training run and the export of its policy file with a card."""
    base = tmp_path_factory.mktemp("export")
    result = train(total_steps=SMOKE_STEPS, out=base / "run", **SMOKE)
    exported = base / "shipped" / "ppo.zip"
    card = export_model(result.policy_path, exported, stages=[result.out_dir])
    return result, exported, card


def observations(num_envs=16, steps=25, seed=2):
    """Observations and masks of games after ``steps`` random legal moves."""
    env = TinyYorkVecEnv(num_envs, toms=(5,), seed=seed)
    obs = env.reset()
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        obs, *_ = env.step(np.array([rng.choice(np.flatnonzero(m)) for m in env.action_masks()]))
    return obs, env.action_masks()


def assert_same_probabilities(first, second):
    obs, masks = observations()
    for o, m in zip(obs, masks, strict=True):
        np.testing.assert_allclose(first.action_probabilities(o, m), second.action_probabilities(o, m),
                                   atol=PROBABILITY_TOLERANCE)
        assert m[first.act(o, m)]


def test_export_is_a_small_float16_policy_file(run):
    result, exported, _ = run
    assert exported.stat().st_size < FLOAT16_SHARE * result.policy_path.stat().st_size
    with zipfile.ZipFile(exported) as archive:
        assert sorted(archive.namelist()) == sorted([CARD_MEMBER, WEIGHTS_MEMBER])
        card = json.loads(archive.read(CARD_MEMBER))
        weights = torch.load(io.BytesIO(archive.read(WEIGHTS_MEMBER)), weights_only=True)
    assert card["weights_dtype"] == "float16" and card["network"]["pi"] == [64]
    assert all(t.dtype == torch.float16 for t in weights.values())


def test_exported_policy_gives_the_same_probabilities(run):
    result, exported, _ = run
    assert_same_probabilities(PPOAgent(exported), PPOAgent(result.policy_path))
    network = load_policy(exported).network
    assert all(t.dtype == torch.float32 for t in network.state_dict().values())


def test_training_goes_on_from_the_export(run, tmp_path):
    _, exported, _ = run
    again = train(total_steps=SMOKE_STEPS, out=tmp_path / "more", init_from=exported, **SMOKE)
    assert again.model.num_timesteps == SMOKE_STEPS


def test_card_records_layout_stages_size_and_hash(run):
    result, exported, card = run
    written = json.loads(exported.with_suffix(".json").read_text())
    assert written == card
    assert written["bytes"] == exported.stat().st_size
    assert written["timesteps"] == SMOKE_STEPS
    assert written["observation_layout"] == current_layout()
    assert written["source"] == str(result.policy_path.resolve())
    assert written["stages"][0]["config"]["total_steps"] == SMOKE_STEPS
    assert written["stages"][0]["summary"]["timesteps"] == SMOKE_STEPS


def test_a_run_directory_exports_its_policy_file(run, tmp_path):
    result, exported, _ = run
    card = export_model(result.out_dir, tmp_path / "from_dir.zip")
    assert card["source"] == str(result.policy_path.resolve())
    assert (tmp_path / "from_dir.zip").read_bytes() == exported.read_bytes()  # same bytes, same hash


def test_an_sb3_checkpoint_needs_the_opt_in(run, tmp_path, capsys):
    result, _, _ = run
    with pytest.raises(ValueError, match="stable-baselines3 checkpoint.*--unsafe-unpickle"):
        export_model(result.model_path, tmp_path / "x.zip")
    assert not (tmp_path / "x.zip").exists()
    with pytest.raises(SystemExit):
        main([str(result.model_path), str(tmp_path / "x.zip")])
    assert "would unpickle" in capsys.readouterr().err
    assert main([str(result.model_path), str(tmp_path / "x.zip"), "--unsafe-unpickle"]) == 0
    assert_same_probabilities(PPOAgent(tmp_path / "x.zip"), PPOAgent(result.policy_path))


def test_help_says_what_the_opt_in_does(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--unsafe-unpickle" in text and "runs code from the file" in text


@pytest.mark.parametrize("destination, message", [("ppo.pt", "must be a .zip"),
                                                   ("SOURCE", "another file than the source")])
def test_bad_destinations_are_refused(run, tmp_path, destination, message):
    result, _, _ = run
    target = result.policy_path if destination == "SOURCE" else tmp_path / destination
    with pytest.raises(ValueError, match=message):
        export_model(result.policy_path, target)


def test_command_line_reports_a_missing_stage(run, tmp_path, capsys):
    result, _, _ = run
    with pytest.raises(SystemExit):
        main([str(result.policy_path), str(tmp_path / "x.zip"), "--stage", str(tmp_path / "nope")])
    assert "no training stage directory" in capsys.readouterr().err
