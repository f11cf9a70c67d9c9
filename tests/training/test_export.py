"""training/export.py: the compact policy file loads, plays like its source, can be trained on,
carries a model card; SB3 checkpoints only with --unsafe-unpickle; bad destinations are refused."""

import io
import json
import zipfile
from pathlib import Path

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


def test_a_float32_export_keeps_the_source_weights_exactly(run, tmp_path):
    """--weights-dtype float32 (how the champion's network is shipped): the same weights, so the
    file plays exactly like its source; an expert-iteration stage's generations.json is kept."""
    result, _, _ = run
    stage = tmp_path / "exit"
    stage.mkdir()
    (stage / "generations.json").write_text(json.dumps({"best": 1}))
    destination = tmp_path / "full.zip"
    assert main([str(result.policy_path), str(destination), "--weights-dtype", "float32",
                 "--stage", str(stage)]) == 0
    card = json.loads(destination.with_suffix(".json").read_text())
    assert card["weights_dtype"] == "float32" and card["stages"][0]["generations"] == {"best": 1}
    exported = load_policy(destination).network.state_dict()
    source = load_policy(result.policy_path).network.state_dict()
    assert exported.keys() == source.keys()
    assert all(torch.equal(exported[name], source[name]) for name in source)


def test_an_unknown_weights_dtype_is_refused(run, tmp_path, capsys):
    result, _, _ = run
    with pytest.raises(ValueError, match="weights_dtype must be one of"):
        export_model(result.policy_path, tmp_path / "x.zip", weights_dtype="int8")
    with pytest.raises(SystemExit):
        main([str(result.policy_path), str(tmp_path / "x.zip"), "--weights-dtype", "bfloat16"])
    assert "invalid choice" in capsys.readouterr().err and not (tmp_path / "x.zip").exists()


def test_a_source_below_the_working_directory_is_recorded_relative(run, tmp_path, monkeypatch):
    """A shipped card names its source as the export saw it from the repository, not with this
    machine's absolute prefix; a source elsewhere stays absolute (test_card_records_...)."""
    result, _, _ = run
    (tmp_path / "runs" / "exit").mkdir(parents=True)
    (tmp_path / "runs" / "exit" / "policy.zip").write_bytes(result.policy_path.read_bytes())
    monkeypatch.chdir(tmp_path)
    card = export_model("runs/exit", "shipped.zip", stages=["runs/exit"])
    assert card["source"] == str(Path("runs", "exit", "policy.zip"))
    assert card["stages"][0]["directory"] == str(Path("runs", "exit"))
    assert json.loads(Path("shipped.json").read_text())["source"] == card["source"]


def test_the_card_keeps_a_stages_periodic_evaluations(run, tmp_path):
    """A stage's eval.csv (train_ppo's periodic evaluations) is kept as its "evaluations", numbers as
    numbers: the training curve the docs draw."""
    from tiny_york_env.training.train_ppo import EVAL_COLUMNS
    result, _, _ = run
    stage = tmp_path / "stage"
    stage.mkdir()
    (stage / "summary.json").write_text(json.dumps({"timesteps": 2048}))
    rows = [[1024, "B4", "ppo", "Tom 5 (B4)", 5, 20, 3, 0.15, 0.05, 0.36, 80.5, -12.0, 0.03],
            [2048, "B4", "ppo", "Tom 5 (B4)", 5, 20, 5, 0.25, 0.11, 0.47, 84.0, -9.5, 0.03]]
    assert len(rows[0]) == len(EVAL_COLUMNS)
    lines = [",".join(EVAL_COLUMNS), *(",".join(map(str, row)) for row in rows)]
    (stage / "eval.csv").write_text("\n".join(lines) + "\n")
    card = export_model(result.policy_path, tmp_path / "out" / "ppo.zip", stages=[stage])
    evaluations = card["stages"][0]["evaluations"]
    assert [e["timesteps"] for e in evaluations] == [1024, 2048]
    assert evaluations[1]["win_rate"] == 0.25 and evaluations[1]["opponents"] == "Tom 5 (B4)"


def test_stages_from_keeps_the_ancestors_stages_first(run, tmp_path):
    """A policy fitted from a shipped one keeps that policy's stages (read from its card) before its
    own, even when the export replaces that very card."""
    result, exported, card = run
    target = tmp_path / "ppo.zip"
    target.write_bytes(exported.read_bytes())
    target.with_suffix(".json").write_text(json.dumps(card))
    again = export_model(result.policy_path, target, stages=[result.out_dir],
                         stages_from=target.with_suffix(".json"))
    assert [s["directory"] for s in again["stages"]] == [str(result.out_dir)] * 2
    assert again["stages"][0] == card["stages"][0]
    assert json.loads(target.with_suffix(".json").read_text())["stages"] == again["stages"]


@pytest.mark.parametrize("text, says", [("not json", "could not read"),
                                         ('{"stages": 3}', "no model card"),
                                         ('[1]', "no model card"),
                                         ('{"stages": [{"x": 1}]}', "no model card")])
def test_stages_from_refuses_what_is_no_model_card(run, tmp_path, text, says):
    result, _, _ = run
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    with pytest.raises(ValueError, match=says):
        export_model(result.policy_path, tmp_path / "x.zip", stages_from=bad)
    assert not (tmp_path / "x.zip").exists()
