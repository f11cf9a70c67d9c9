"""``make demo``'s job: the quick ladder of the shipped agent and the baselines, and --game."""

import re

import pytest
import sb3_contrib  # noqa: F401  (the shipped agent needs the train extra, installed by make test)

from tiny_york_env import demo
from tiny_york_env.games.tiny_york import score_breakdown, winner

BOROUGH_LINE = re.compile(r"^  (?P<name>[A-Z][A-Za-z ]*?)\s+[A-EX]\s+value\s+(?P<value>\d+) \(.*\)\s+"
                          r"(?P<counts>(?:[PT]\d:\d+ )+N:\d+)")
PRESS_BONUS_SPACE, PRESS_BONUS_POINTS = 5, 3  # rulebook final scoring: "at least space 5 ... 3 points"


def test_demo_ladder_includes_the_shipped_agent_and_every_baseline(tmp_path, capsys):
    assert demo.demo_agents() == ("ppo", *demo.DEMO_AGENTS)
    assert demo.main(["--games", "1", "--workers", "1", "--out", str(tmp_path)]) == 0
    table = capsys.readouterr().out
    for name in ("ppo", "random", "tomrules", "greedy", "search:16"):
        assert f"\n{name} " in table
    assert {p.name for p in tmp_path.iterdir()} == {"ladder.csv", "ladder.json", "ladder.png"}


def test_demo_leaves_out_the_shipped_agent_without_its_model(monkeypatch, tmp_path, capsys):
    import tiny_york_env.agents.ppo_agent
    monkeypatch.setattr(tiny_york_env.agents.ppo_agent, "DEFAULT_MODEL_PATH", tmp_path / "missing.zip")
    assert demo.demo_agents() == demo.DEMO_AGENTS
    assert "shipped PPO agent is left out" in capsys.readouterr().out


def _printed_game(out):
    """(boroughs {name: (value, {label: skyscrapers})}, press order of labels top first with
    their spaces, score table {line: {label: points}}, printed winner) from --game's output."""
    lines = out.splitlines()
    boroughs = {}
    for line in lines:
        match = BOROUGH_LINE.match(line)
        if match:
            counts = dict(part.split(":") for part in match["counts"].split())
            boroughs[match["name"]] = (int(match["value"]), {k: int(v) for k, v in counts.items()})
    press_line = next(line for line in lines if line.startswith("Press track (top of stack first): "))
    press = []
    for group in press_line.split(": ", 1)[1].split("  "):
        space, labels = group.split(": ")
        press += [(label, int(space)) for label in labels.split()]
    start = lines.index("Final scoring:")
    labels = lines[start + 1].split()
    table = {}
    for line in lines[start + 2:]:
        if line.startswith("Winner: "):
            return boroughs, press, table, line.split()[1]
        parts = line.split()
        table[" ".join(parts[:-len(labels)])] = dict(zip(labels, map(int, parts[-len(labels):]), strict=True))
    raise AssertionError("no Winner line")


@pytest.mark.parametrize("agents, seed", [(2, 5), (3, 2026), (4, 11)])
def test_demo_game_prints_the_finished_games_score_lines_and_winner(agents, seed, capsys):
    """--game prints the finished game: every score line as score_breakdown gives it, totals
    that add up, majority and press bonus lines that follow from the printed board by R20, and
    the printed winner has the highest total (ties to the one ahead on the press track)."""
    assert demo.main(["--game", "--agents", str(agents), "--seed", str(seed)]) == 0
    out = capsys.readouterr().out
    state, decisions = demo.play_random_game(agents, seed)
    assert f"{decisions} decisions, seed {seed}" in out
    boroughs, press, table, printed_winner = _printed_game(out)
    labels = [f"P{s}" for s in range(agents)]
    breakdown = score_breakdown(state)
    assert set(table) == set(breakdown[0])
    for name, row in table.items():
        assert row == {label: breakdown[s][name] for s, label in enumerate(labels)}, name
    for label in labels:
        assert table["total"][label] == sum(row[label] for name, row in table.items() if name != "total")
    assert len(boroughs) == 6 and len(press) == agents + 1
    rank_of = {label: k for k, (label, _) in enumerate(press)}
    for name, (value, counts) in boroughs.items():
        ranked = sorted(counts, key=lambda t: (-counts[t], rank_of[t]))
        want = dict.fromkeys(labels, 0)
        for token in ranked:
            if token != "N" and counts[token] > 0:
                want[token] = value
            value = -(-value // 2)
        assert table[name] == want, name
    spaces = dict(press)
    assert table["press bonus"] == {label: PRESS_BONUS_POINTS * (spaces[label] >= PRESS_BONUS_SPACE)
                                    for label in labels}
    best = max(table["total"].values())
    assert printed_winner == next(label for label, _ in press if table["total"].get(label) == best)
    assert printed_winner == f"P{winner(state)}"
