"""``make demo``'s job: the quick ladder of the shipped agent and the baselines, and --game."""

import pytest

from tiny_york_env import demo


def test_demo_ladder_includes_the_shipped_agent_and_every_baseline(tmp_path, capsys):
    pytest.importorskip("sb3_contrib")
    assert demo.demo_agents() == ("ppo", *demo.DEMO_AGENTS)
    assert demo.main(["--games", "1", "--workers", "1", "--out", str(tmp_path)]) == 0
    table = capsys.readouterr().out
    for name in ("ppo", "random", "tomrules", "greedy", "search:16"):
        assert f"\n{name} " in table
    assert {p.name for p in tmp_path.iterdir()} == {"ladder.csv", "ladder.json", "ladder.png"}


def test_demo_leaves_out_the_shipped_agent_without_its_model(monkeypatch, tmp_path, capsys):
    import agents.ppo_agent
    monkeypatch.setattr(agents.ppo_agent, "DEFAULT_MODEL_PATH", tmp_path / "missing.zip")
    assert demo.demo_agents() == demo.DEMO_AGENTS
    assert "shipped PPO agent is left out" in capsys.readouterr().out


def test_demo_game_prints_a_finished_game(capsys):
    assert demo.main(["--game", "--agents", "2", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "decisions, seed 5" in out
