"""A Tom ladder played in parts (``--first-game``) and joined (``--merge``, ``training.ladder_merge``)
equals the ladder played in one run, and a part that is not a piece of that sequence, or a
malformed file, is refused with an error naming what is wrong."""

import io
import json
import math
import re
from dataclasses import asdict
from pathlib import Path

import pytest

from tiny_york_env import __version__
from tiny_york_env.arena.ladder import evaluate_vs_toms
from tiny_york_env.arena.ladder_merge import merge_ladder_files, merge_ladders, parse_ladder, read_ladder
from tiny_york_env.arena.result_files import write_results
from tiny_york_env.cli import main
from tiny_york_env.training import ladder_merge

AGENT = "greedy"  # deterministic given its seed, and fast
LEVELS = [3, 10]
SEED = 5
GAMES = 6
RECORDED_LADDER = Path(__file__).resolve().parents[2] / "docs" / "results" / "champion-ladder-seed1.json"


def played(records):
    """The records without their timings."""
    return [{k: v for k, v in asdict(r).items() if k != "seconds"} for r in records]


@pytest.fixture(scope="module")
def whole():
    return evaluate_vs_toms(AGENT, LEVELS, games=GAMES, seed=SEED, progress=False)


@pytest.fixture(scope="module")
def parts():
    first = evaluate_vs_toms(AGENT, LEVELS, games=4, seed=SEED, progress=False)
    # The second part lists the levels the other way round: cells are matched by level.
    second = evaluate_vs_toms(AGENT, LEVELS[::-1], games=2, seed=SEED, progress=False, first_game=4)
    return first, second


def ladder_file(tmp_path, results, name):
    return write_results(results, tmp_path / name)[1]


def test_parts_joined_equal_the_whole_run(whole, parts):
    merged = merge_ladders(parts)
    assert merged.outcomes() == whole.outcomes()
    assert played(merged.records) == played(whole.records)
    assert merged.settings["games"] == {"3": GAMES, "10": GAMES}
    assert [c.level for c in merged.cells] == LEVELS


def test_a_part_starts_at_its_first_game(whole, parts):
    second = parts[1]
    assert second.settings["first_game"] == 4
    assert sorted({r.index for r in second.records}) == [4, 5]
    seeds_of_whole = {(whole.cells[r.cell].level, r.index): r.game_seed for r in whole.records}
    assert all(seeds_of_whole[(second.cells[r.cell].level, r.index)] == r.game_seed for r in second.records)


def test_files_merge_through_the_command_and_a_merged_file_merges_again(tmp_path, whole, parts):
    paths = [ladder_file(tmp_path, part, f"part-{k}") for k, part in enumerate(parts)]
    out = io.StringIO()
    assert main(["eval", "--merge", *map(str, paths), "--out", str(tmp_path / "joined")], stdout=out) == 0
    assert "Tom 10 (A9)" in out.getvalue()
    joined = read_ladder(tmp_path / "joined" / "ladder.json")
    assert joined.outcomes() == whole.outcomes()
    # A joined file is itself a part: a third piece (games 6-7) extends it.
    extra = evaluate_vs_toms(AGENT, [10], games=2, seed=SEED, progress=False, first_game=GAMES)
    extra_path = ladder_file(tmp_path, extra, "extra")
    longer = merge_ladder_files([tmp_path / "joined" / "ladder.json", extra_path])
    assert [c.games for c in longer.cells] == [GAMES, GAMES + 2]
    # Where the games came from survives the second join: the first parts, then the new one, each
    # named by its file (no command played them), the day it was played and the package version.
    assert joined.settings["merged_from"] == [*map(named, paths, parts)]
    assert longer.settings["merged_from"] == [*map(named, paths, parts), named(extra_path, extra)]


def named(path, part):
    """How merged_from names a part played by evaluate_vs_toms and written to ``path``."""
    return f"{path} ({part.settings['played_on']}, tiny-york-env {__version__})"


def test_the_command_plays_a_part_with_first_game_and_records_how(tmp_path, parts):
    out = io.StringIO()
    argv = ["eval", "--agent", AGENT, "--levels", "10,3", "--games", "2", "--first-game", "4",
            "--seed", str(SEED), "--out", str(tmp_path), "--no-progress"]
    assert main(argv, stdout=out) == 0
    part = read_ladder(tmp_path / "ladder.json")
    assert part.outcomes() == merge_ladders([parts[1]]).outcomes()
    settings = json.loads((tmp_path / "ladder.json").read_text())["settings"]
    command = "tiny-york eval --agent greedy --levels 10,3 --games 2 --first-game 4 --seed 5 --out " \
              f"{tmp_path} --no-progress"
    assert settings["command"] == command and settings["version"] == __version__
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", settings["played_on"])
    # Joined, the part is named by that command, its day and the version: it can be played again.
    when = f"({settings['played_on']}, tiny-york-env {__version__})"
    assert part.settings["merged_from"] == [f"{command} {when}"]


def test_a_part_without_provenance_is_named_by_its_file(parts):
    """A ladder file written before runs recorded how they were played is named by its file alone."""
    data = file_data(parts[1])
    for key in ladder_merge.PROVENANCE_KEYS:
        data["settings"].pop(key, None)
    assert parse_ladder(data, "old-part.json").settings["merged_from"] == ["old-part.json"]


def test_overlapping_parts_are_refused(parts):
    with pytest.raises(ValueError, match=r"game 4 against Tom 3 \(\w+\) is in two parts"):
        merge_ladders([parts[1], parts[1]])


def test_parts_of_another_seed_or_agent_are_refused(parts):
    other_seed = evaluate_vs_toms(AGENT, [3], games=1, seed=SEED + 1, progress=False, first_game=10)
    with pytest.raises(ValueError, match="one agent and one seed"):
        merge_ladders([parts[0], other_seed])
    other_agent = evaluate_vs_toms("random", [3], games=1, seed=SEED, progress=False, first_game=10)
    with pytest.raises(ValueError, match="one agent and one seed"):
        merge_ladders([parts[0], other_agent])


def test_parts_with_another_time_limit_are_refused():
    """'psearch:1@0.5' is another agent than 'psearch:1' (no limit): its label says so, and
    parts of the two never join as one agent's games; a limit equal to the default names none."""
    timed = evaluate_vs_toms("Psearch:1@0.50", [3], games=1, seed=SEED, progress=False)
    assert timed.settings["agent"] == "psearch:1@0.5"
    untimed = evaluate_vs_toms("psearch:1@none", [3], games=1, seed=SEED, progress=False, first_game=1)
    assert untimed.settings["agent"] == "psearch:1"
    with pytest.raises(ValueError, match=r"agents \['psearch:1', 'psearch:1@0.5'\]"):
        merge_ladders([timed, untimed])


def file_data(part):
    return json.loads(json.dumps(part.to_dict()))


@pytest.mark.parametrize("tamper, message", [
    (lambda d: d["games"][0].update(game_seed=d["games"][0]["game_seed"] + 1), "not the seed of game 0"),
    (lambda d: d["games"][0].update(cell=2), r"cell must index the file's levels \(0-1\)"),
    (lambda d: d["games"][0].update(winner=2), "winner must be a seat 0-1"),
    (lambda d: d["games"][0].update(winner=True), "winner must be an int"),
    (lambda d: d["games"][0].update(scores=[1, 2, 3]), "scores must be a list of 2 ints"),
    (lambda d: d["games"][0].update(scores=[1, "2"]), "scores must be an int"),
    (lambda d: d["games"][0].update(seating=[1]), "seating must be"),
    (lambda d: d["games"][0].update(seconds=math.nan), "seconds must be a non-negative number"),
    (lambda d: d["games"][0].update(index=-1), "index must be an int >= 0"),
    (lambda d: d["games"][0].pop("decisions"), "must be an object with the fields"),
    (lambda d: d["games"].append([1, 2]), "must be an object with the fields"),
    (lambda d: d.update(games={}), "games must be the list"),
    (lambda d: d["settings"].update(levels=[3, 13]), "settings.levels"),
    (lambda d: d["settings"].update(levels=5), "settings.levels"),
    (lambda d: d["settings"].update(levels=[3, 3]), "each at most once"),
    (lambda d: d["settings"].update(seed=-1), "settings.seed must be an int >= 0"),
    (lambda d: d["settings"].update(agent=None), "settings.agent"),
    (lambda d: d["settings"].update(runs=[]), "several --agent runs"),
    (lambda d: d["settings"].update(merged_from="part.json"), "merged_from must be the non-empty list"),
    (lambda d: d["settings"].update(merged_from=[]), "merged_from must be the non-empty list"),
    (lambda d: d["settings"].update(merged_from=[1]), "merged_from must be the non-empty list"),
    (lambda d: d["settings"].update(command=7), "settings.command must be a non-empty string"),
    (lambda d: d["settings"].update(played_on=" "), "settings.played_on must be a non-empty string"),
    (lambda d: d.update(kind="match"), "not a ladder results file"),
])
def test_a_malformed_part_is_refused_with_what_is_wrong(parts, tamper, message):
    data = file_data(parts[0])
    tamper(data)
    with pytest.raises(ValueError, match=message):
        parse_ladder(data, "part.json")


def test_unreadable_files_are_refused(tmp_path, parts, monkeypatch):
    with pytest.raises(ValueError, match="no such results file"):
        read_ladder(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text('{"kind": "ladder", "games": [')
    with pytest.raises(ValueError, match="not a JSON results file"):
        read_ladder(broken)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ValueError, match="not a JSON results file"):
        read_ladder(deep)
    good = ladder_file(tmp_path, parts[0], "good")
    monkeypatch.setattr(ladder_merge, "MAX_RESULTS_BYTES", 100)
    with pytest.raises(ValueError, match="more than a ladder file's 100"):
        read_ladder(good)


def test_the_command_explains_bad_merges_and_first_game_misuse(tmp_path, parts, capsys):
    path = ladder_file(tmp_path, parts[1], "part")
    with pytest.raises(SystemExit):
        main(["eval", "--merge", str(path), str(path), "--out", str(tmp_path / "joined")])
    assert "is in two parts" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["eval", "--vs", "random", "random", "--first-game", "2", "--out", str(tmp_path)])
    assert "--first-game is for the ladder" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["eval", "--merge", str(path), "--game", "fifth_avenue", "--out", str(tmp_path)])
    assert "--merge joins ladder files (of the game they name) and plays no game" in capsys.readouterr().err
    assert not (tmp_path / "joined").exists()


def test_first_game_must_be_a_non_negative_int():
    with pytest.raises(ValueError, match="first_game"):
        evaluate_vs_toms(AGENT, [3], games=1, first_game=-1, progress=False)


def test_the_champions_recorded_ladder_reads_and_gives_the_readme_figures():
    """docs/results/champion-ladder-seed1.json holds the games of the published rows of the champion's
    ladder at Toms 1-9 (1,000 games a level: the expected cells) and Tom 11 (1,000),
    so later parts (--first-game) can be joined to it."""
    recorded = read_ladder(RECORDED_LADDER)
    cells = {c.level: (c.games, c.wins) for c in recorded.cells}
    assert cells == {1: (1000, 976), 2: (1000, 997), 3: (1000, 993), 4: (1000, 890), 5: (1000, 969),
                     6: (1000, 955), 7: (1000, 708), 8: (1000, 884), 9: (1000, 804), 11: (1000, 670)}
    # played when the champion stopped each decision at 1 s: labelled so, never joined to today's champion
    assert recorded.settings["agent"] == "champion@1" and recorded.settings["seed"] == 1


def test_the_champions_ladder_parts_table_matches_its_recorded_games():
    """docs/champion.md's Ladder parts table: each row's games, wins and time are the recorded
    games', and the rows cover every recorded game once."""
    text = (RECORDED_LADDER.parents[1] / "champion.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| Tom (\d+) \| (\d+)-(\d+) \| (\d+) \| ([\d.]+)", text, flags=re.MULTILINE)
    recorded = json.loads(RECORDED_LADDER.read_text(encoding="utf-8"))
    level_of_cell = [cell["level"] for cell in recorded["cells"]]
    covered: dict[int, int] = {}
    for level, first, last, won, seconds in rows:
        games = [game for game in recorded["games"] if level_of_cell[game["cell"]] == int(level)
                 and int(first) <= game["index"] <= int(last)]
        assert len(games) == int(last) - int(first) + 1, (level, first)
        assert sum(game["winner"] == 0 for game in games) == int(won), (level, first)  # 0: the agent
        assert sum(game["seconds"] for game in games) / len(games) == pytest.approx(float(seconds), abs=0.05)
        covered[int(level)] = covered.get(int(level), 0) + len(games)
    assert covered == {cell["level"]: cell["games"] for cell in recorded["cells"]}
