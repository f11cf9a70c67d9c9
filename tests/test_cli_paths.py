"""Paths on the command line: ``ppo:PATH`` keeps the path's capitals (only the agent name is
case-insensitive), and no command writes through a symbolic link planted as its output folder or
as one of the files it writes."""

import io
import os

import pytest

from tiny_york_env.agents.registry import normalize_agent_name
from tiny_york_env.arena.output import open_output, output_dir
from tiny_york_env.cli import agent_name
from tiny_york_env.cli import main as cli_main

torch = pytest.importorskip("torch")

from tiny_york_env.agents.ppo_agent import build_network, policy_card, write_policy_file  # noqa: E402

QUICK_EVAL = ["--levels", "1", "--games", "1", "--no-progress"]


def run(argv):
    out = io.StringIO()
    status = cli_main(argv, stdout=out)
    return status, out.getvalue()


def write_tiny_policy(path):
    """A policy file of a random tiny network (no training needed to play it)."""
    torch.manual_seed(0)
    card = policy_card({"pi": [8], "vf": [8], "activation": "tanh"})
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as handle:
        write_policy_file(handle, card, build_network(card).state_dict())
    return path


def plant_link(link, target):
    """A symbolic link at ``link`` to ``target``; returns ``target``."""
    os.symlink(target, link)
    return target


# ---------------------------------------------------------------- the case of ppo:PATH

@pytest.mark.parametrize("typed, kept", [
    ("PPO:Runs/My Agent/Policy.zip", "ppo:Runs/My Agent/Policy.zip"),
    (" Greedy ", "greedy"),
    ("SEARCH:8", "search:8"),
    ("ppo", "ppo"),
])
def test_only_the_agent_name_is_case_insensitive(typed, kept):
    assert normalize_agent_name(typed) == kept
    assert agent_name(typed) == kept


def test_eval_finds_a_policy_file_at_a_capitalised_path(tmp_path):
    path = write_tiny_policy(tmp_path / "Models" / "MyAgent.zip")
    assert not (tmp_path / "models" / "myagent.zip").exists()
    status, text = run(["eval", "--agent", f"PPO:{path}", *QUICK_EVAL, "--out", str(tmp_path / "out")])
    assert status == 0 and f"ppo:{path}" in text


# ---------------------------------------------------------------- symbolic links in --out

def test_eval_refuses_a_linked_output_folder(tmp_path, capsys):
    real = tmp_path / "real"
    real.mkdir()
    plant_link(tmp_path / "out", real)
    with pytest.raises(SystemExit) as exit_info:
        run(["eval", "--agent", "random", *QUICK_EVAL, "--out", str(tmp_path / "out")])
    assert exit_info.value.code == 2
    assert "it is a symbolic link" in capsys.readouterr().err
    assert list(real.iterdir()) == []


@pytest.mark.parametrize("name", ["ladder.csv", "ladder.json", "ladder.png"])
def test_eval_refuses_a_linked_output_file_and_writes_nothing(tmp_path, capsys, name):
    out = tmp_path / "out"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    plant_link(out / name, victim)
    with pytest.raises(SystemExit):
        run(["eval", "--agent", "random", *QUICK_EVAL, "--out", str(out)])
    assert f"refusing to write '{out / name}'" in capsys.readouterr().err
    assert victim.read_text() == "keep me"
    assert sorted(p.name for p in out.iterdir()) == [name]  # refused before any file was written


def test_a_dangling_link_is_refused_and_its_target_not_created(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    target = plant_link(out / "match.json", tmp_path / "created_elsewhere.json")
    with pytest.raises(SystemExit):
        run(["eval", "--vs", "random", "random", "--games", "2", "--no-progress", "--out", str(out)])
    assert "symbolic link" in capsys.readouterr().err
    assert not target.exists()


def test_tournament_refuses_linked_outputs(tmp_path, capsys):
    real = tmp_path / "real"
    real.mkdir()
    plant_link(tmp_path / "out", real)
    argv = ["tournament", "--agents", "random", "random", "--games", "2", "--no-progress"]
    with pytest.raises(SystemExit):
        run([*argv, "--out", str(tmp_path / "out")])
    assert "symbolic link" in capsys.readouterr().err and list(real.iterdir()) == []
    out = tmp_path / "plain"
    out.mkdir()
    victim = tmp_path / "victim.csv"
    victim.write_text("keep me")
    plant_link(out / "tournament_matrix.csv", victim)
    with pytest.raises(SystemExit):
        run([*argv, "--out", str(out)])
    assert victim.read_text() == "keep me" and not (out / "tournament.csv").exists()


def test_open_output_never_follows_a_link(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("keep me")
    plant_link(tmp_path / "link", victim)
    for mode in ("w", "a", "wb"):
        with pytest.raises(ValueError, match="it is a symbolic link"):
            open_output(tmp_path / "link", mode)
    assert victim.read_text() == "keep me"
    with open_output(tmp_path / "plain.txt") as handle:
        handle.write("ok")
    assert (tmp_path / "plain.txt").read_text() == "ok"
    with pytest.raises(ValueError, match="symbolic link"):
        output_dir(tmp_path / "link")


# ---------------------------------------------------------------- training scripts

def linked_out(tmp_path):
    """An --out that is a link to an empty real folder: (link, real folder)."""
    real = tmp_path / "real"
    real.mkdir()
    plant_link(tmp_path / "out", real)
    return tmp_path / "out", real


def test_train_ppo_refuses_a_linked_out_before_training(tmp_path, capsys):
    pytest.importorskip("sb3_contrib")
    from tiny_york_env.training.train_ppo import main
    link, real = linked_out(tmp_path)
    with pytest.raises(SystemExit):
        main(["--out", str(link), "--num-envs", "2", "--n-steps", "2", "--batch-size", "4",
              "--total-steps", "4", "--no-progress"])
    assert "symbolic link" in capsys.readouterr().err and list(real.iterdir()) == []
    plain = tmp_path / "plain"
    plain.mkdir()
    victim = tmp_path / "victim"
    victim.write_text("keep me")
    plant_link(plain / "policy.zip", victim)
    with pytest.raises(SystemExit):
        main(["--out", str(plain), "--num-envs", "2", "--n-steps", "2", "--batch-size", "4",
              "--total-steps", "4", "--no-progress"])
    assert "refusing to write" in capsys.readouterr().err and victim.read_text() == "keep me"


def test_imitate_refuses_a_linked_out(tmp_path, capsys):
    pytest.importorskip("sb3_contrib")
    from tiny_york_env.training.imitate import main
    link, real = linked_out(tmp_path)
    with pytest.raises(SystemExit):
        main(["--games", "1", "--eval-games", "0", "--out", str(link), "--no-progress"])
    assert "symbolic link" in capsys.readouterr().err and list(real.iterdir()) == []


def test_selfplay_refuses_a_linked_out(tmp_path, capsys):
    pytest.importorskip("sb3_contrib")
    from tiny_york_env.training.selfplay import main
    link, real = linked_out(tmp_path)
    with pytest.raises(SystemExit):
        main(["--total-steps", "8", "--out", str(link), "--no-progress"])
    assert "symbolic link" in capsys.readouterr().err and list(real.iterdir()) == []


def test_export_refuses_a_linked_destination(tmp_path, capsys):
    from tiny_york_env.training.export import main
    source = write_tiny_policy(tmp_path / "policy.zip")
    victim = tmp_path / "victim"
    victim.write_text("keep me")
    plant_link(tmp_path / "shipped.zip", victim)
    with pytest.raises(SystemExit):
        main([str(source), str(tmp_path / "shipped.zip")])
    assert "symbolic link" in capsys.readouterr().err and victim.read_text() == "keep me"
    plant_link(tmp_path / "other.json", victim)  # the card beside the destination
    with pytest.raises(SystemExit):
        main([str(source), str(tmp_path / "other.zip")])
    assert victim.read_text() == "keep me" and not (tmp_path / "other.zip").exists()
    assert main([str(source), str(tmp_path / "fine.zip")]) == 0
