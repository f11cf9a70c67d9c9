"""training/export.py: the compact shipped file loads, plays like its source, can be trained on,
and carries a model card; bad destinations are refused."""

import json
import zipfile

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from agents.ppo_agent import PPOAgent, load_model  # noqa: E402
from tiny_york_env.envs.vector import TinyYorkVecEnv  # noqa: E402
from training.export import TRAINING_ONLY_ATTRIBUTES, export_model, main  # noqa: E402
from training.train_ppo import train  # noqa: E402

SMOKE = {"num_envs": 8, "n_steps": 32, "batch_size": 64, "n_epochs": 1, "net_arch": (64,),
         "seed": 4, "progress": False, "toms": (5,), "torch_threads": 1}
SMOKE_STEPS = 512
PROBABILITY_TOLERANCE = 5e-3  # float16 weights: about 3 significant digits


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A smoke training run and its export with a card."""
    base = tmp_path_factory.mktemp("export")
    result = train(total_steps=SMOKE_STEPS, out=base / "run", **SMOKE)
    exported = base / "shipped" / "ppo.zip"
    card = export_model(result.model_path, exported, stages=[result.out_dir])
    return result, exported, card


def observations(num_envs=16, steps=25, seed=2):
    """Observations and masks of games after ``steps`` random legal moves."""
    env = TinyYorkVecEnv(num_envs, toms=(5,), seed=seed)
    obs = env.reset()
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        obs, *_ = env.step(np.array([rng.choice(np.flatnonzero(m)) for m in env.action_masks()]))
    return obs, env.action_masks()


def test_export_is_much_smaller_and_drops_training_state(run):
    result, exported, _ = run
    assert exported.stat().st_size < result.model_path.stat().st_size / 2
    with zipfile.ZipFile(exported) as archive:
        data = json.loads(archive.read("data"))
    assert not set(TRAINING_ONLY_ATTRIBUTES) & set(data)
    assert "get_parameters" not in data


def test_exported_policy_gives_the_same_probabilities(run):
    result, exported, _ = run
    source, compact = PPOAgent(result.model_path), PPOAgent(exported)
    obs, masks = observations()
    for o, m in zip(obs, masks, strict=True):
        np.testing.assert_allclose(compact.action_probabilities(o, m),
                                   source.action_probabilities(o, m), atol=PROBABILITY_TOLERANCE)
        assert m[compact.act(o, m)]
    weights = load_model(exported).policy.state_dict()
    import torch
    assert all(t.dtype == torch.float32 for t in weights.values() if t.is_floating_point())


def test_training_goes_on_from_the_export(run, tmp_path):
    _, exported, _ = run
    again = train(total_steps=SMOKE_STEPS, out=tmp_path / "more", init_from=exported, **SMOKE)
    assert again.model.num_timesteps == SMOKE_STEPS


def test_card_records_stages_size_and_hash(run):
    result, exported, card = run
    written = json.loads(exported.with_suffix(".json").read_text())
    assert written == card
    assert written["bytes"] == exported.stat().st_size
    assert written["timesteps"] == SMOKE_STEPS
    assert written["stages"][0]["config"]["total_steps"] == SMOKE_STEPS
    assert written["stages"][0]["summary"]["timesteps"] == SMOKE_STEPS


@pytest.mark.parametrize("destination, message", [("ppo.pt", "must be a .zip"),
                                                   ("SOURCE", "another file than the source")])
def test_bad_destinations_are_refused(run, tmp_path, destination, message):
    result, _, _ = run
    target = result.model_path if destination == "SOURCE" else tmp_path / destination
    with pytest.raises(ValueError, match=message):
        export_model(result.model_path, target)


def test_command_line_reports_a_missing_stage(run, tmp_path, capsys):
    result, _, _ = run
    with pytest.raises(SystemExit):
        main([str(result.model_path), str(tmp_path / "x.zip"), "--stage", str(tmp_path / "nope")])
    assert "no training stage directory" in capsys.readouterr().err
