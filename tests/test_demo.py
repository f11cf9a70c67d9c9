"""``make demo``'s job: the tour of the three games with its HTML report, and --game."""

import json
import re

import pytest
import sb3_contrib  # noqa: F401  (the shipped agents need the train extra, installed by make test)

import tiny_york_env
from tiny_york_env import demo
from tiny_york_env.games.tiny_york import score_breakdown, winner
from tiny_york_env.games.tiny_york.labels import NEUTRAL_NAME, seat_label
from tiny_york_env.registry import game_names, get_game

BOROUGH_LINE = re.compile(r"^  (?P<name>[A-Z][A-Za-z ]*?)\s+[A-EX]\s+value\s+(?P<value>\d+) \(.*\)\s+"
                          r"(?P<counts>(?:seat \d: \d+, )+neutral: \d+)")
SEAT_LABEL = re.compile(r"seat \d")
PRESS_BONUS_SPACE, PRESS_BONUS_POINTS = 5, 3  # rulebook final scoring: "at least space 5 ... 3 points"
GAMES = ("tiny_york", "construction_yard", "fifth_avenue")


def test_the_tour_visits_every_game_with_its_agents_and_the_champion():
    assert demo.TOUR == GAMES and set(GAMES) <= set(game_names())
    for name in GAMES:
        agents, champion = demo.tour_legs(name)
        assert set(agents.agents) >= {"ppo", "random", "greedy", "search:16"}
        assert agents.rungs is None and agents.games == demo.GAMES_A_RUNG
        assert champion.agents == ("champion",) and champion.games == (2 if name == "tiny_york" else 4)
        rungs = get_game(name).automatic_choices
        assert set(champion.rungs or rungs) <= set(rungs)
        quick = demo.tour_legs(name, quick=True, champion=demo.QUICK_CHAMPION)
        assert [leg.games for leg in quick] == [1, 1] and len(quick[1].rungs) == 1
    assert demo.tour_legs("tiny_york")[0].agents == ("ppo", "random", "tomrules", "greedy", "search:16")
    assert demo.tour_legs("tiny_york")[1].rungs == (1, 6, 12)
    assert demo.tour_legs("construction_yard")[0].agents == ("ppo", "random", "greedy", "search:16")


def test_quick_tour_writes_each_games_results_and_one_report(tmp_path, capsys):
    assert demo.main(["--quick", "--workers", "1", "--no-progress", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    report = tmp_path / "index.html"
    assert out.rstrip().splitlines()[-1] == f"open {report}"
    html = report.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert f"tiny-york-env {tiny_york_env.__version__}" in html
    assert "python -m tiny_york_env.demo --quick" in html
    assert html.count('src="data:image/png;base64,') == len(GAMES)  # every plot embedded
    for name in GAMES:
        title = get_game(name).title
        assert f"== {title} ({name})" in out and f"<h2>{title} " in html
        assert {p.name for p in (tmp_path / name).iterdir()} == {"ladder.csv", "ladder.json", "ladder.png"}
        assert f'href="{name}/ladder.png"' in html and f'href="{name}/ladder.csv"' in html
        runs = json.loads((tmp_path / name / "ladder.json").read_text())["settings"]["runs"]
        played = [run["agent"] for run in runs]
        assert played == [*demo.tour_legs(name)[0].agents, demo.QUICK_CHAMPION]
        assert all(run["games"] == 1 and run["seed"] == demo.DEMO_SEED for run in runs)
        assert all(run["command"].startswith(f"tiny-york eval --game {name} --agent ") for run in runs)
        for agent in played:
            assert f"<td>{agent}</td>" in html
    assert "tiny-york eval --game tiny_york --agent champion@0.02 --levels 1 --games 1" in html


def test_the_shipped_agents_are_left_out_without_the_train_extra(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(demo, "train_extra_installed", lambda: False)
    kept, notes = demo.playable_agents("fifth_avenue", ("ppo", "random", "champion@0.5"))
    assert kept == ("random",) and len(notes) == 2 and all("train extra" in n for n in notes)
    assert demo.main(["--quick", "--only", "construction_yard", "--workers", "1", "--no-progress",
                      "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "ppo is left out of Construction Yard" in out and "champion@0.02 is left out" in out
    html = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "ppo is left out of Construction Yard" in html and "<h2>Tiny York" not in html
    assert not (tmp_path / "tiny_york").exists()


def test_another_game_tours_the_agents_it_has(tmp_path, capsys):
    """A registered game beyond the three (the tests' plug-in Sealed Bids, which ships no trained
    policy) is toured with --only: its agents that the harness plays, the others left out."""
    assert demo.main(["--quick", "--only", "sealed_bids", "--workers", "1", "--no-progress",
                      "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "ppo is left out of Sealed Bids" in out and "champion@0.02 is left out of Sealed Bids" in out
    runs = json.loads((tmp_path / "sealed_bids" / "ladder.json").read_text())["settings"]["runs"]
    assert [run["agent"] for run in runs] == ["random", "greedy", "lowbid", "search:16"]  # its own ones too
    assert "<h2>Sealed Bids " in (tmp_path / "index.html").read_text(encoding="utf-8")


def test_the_shipped_agents_are_left_out_without_their_files(monkeypatch, tmp_path, capsys):
    import tiny_york_env.agents.ppo_agent
    import tiny_york_env.agents.shipped
    for module in (tiny_york_env.agents.shipped, tiny_york_env.agents.ppo_agent):
        monkeypatch.setattr(module, "MODELS_DIR", tmp_path)
    for name in GAMES:
        kept, notes = demo.playable_agents(name, ("ppo", "greedy", "champion"))
        assert kept == ("greedy",) and all(str(tmp_path) in note for note in notes), notes


def _printed_game(out):
    """(boroughs {name: (value, {label: skyscrapers})}, press order of labels top first with
    their spaces, score table {line: {label: points}}, printed winner) from --game's output."""
    lines = out.splitlines()
    boroughs = {}
    for line in lines:
        match = BOROUGH_LINE.match(line)
        if match:
            counts = dict(part.split(": ") for part in match["counts"].split(", "))
            boroughs[match["name"]] = (int(match["value"]), {k: int(v) for k, v in counts.items()})
    press_line = next(line for line in lines if line.startswith("Press track (top of stack first): "))
    press = []
    for group in press_line.split(": ", 1)[1].split("; "):
        space, labels = group.split(": ")
        press += [(label, int(space)) for label in labels.split(", ")]
    start = lines.index("Final scoring:")
    labels = SEAT_LABEL.findall(lines[start + 1])
    table = {}
    for line in lines[start + 2:]:
        if line.startswith("Winner: "):
            return boroughs, press, table, line.split(": ", 1)[1]
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
    labels = [seat_label(s) for s in range(agents)]
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
            if token != NEUTRAL_NAME and counts[token] > 0:
                want[token] = value
            value = -(-value // 2)
        assert table[name] == want, name
    spaces = dict(press)
    assert table["press bonus"] == {label: PRESS_BONUS_POINTS * (spaces[label] >= PRESS_BONUS_SPACE)
                                    for label in labels}
    best = max(table["total"].values())
    assert printed_winner == next(label for label, _ in press if table["total"].get(label) == best)
    assert printed_winner == seat_label(winner(state))
