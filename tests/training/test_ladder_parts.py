"""A ladder in resumable parts (``tiny-york eval --part-games``, training/ladder_parts.py)."""

import io
import json
import shutil

import pytest

from tiny_york_env.arena.ladder import evaluate_ladder
from tiny_york_env.arena.ladder_parts import part_folder, part_ranges, play_ladder_in_parts
from tiny_york_env.cli import main


def test_the_parts_cover_the_games_once():
    assert part_ranges(0, 10, 4) == [(0, 4), (4, 4), (8, 2)]
    assert part_ranges(100, 3, 5) == [(100, 3)]


def test_parts_join_into_the_ladder_of_one_run_and_a_stopped_run_resumes(tmp_path):
    """The joined parts give the cells of one run; a missing part is played again, a finished one
    kept (not played: its files are untouched)."""
    whole = evaluate_ladder("greedy", [1, 5], games=5, seed=2, progress=False)
    joined = play_ladder_in_parts("greedy", [1, 5], 5, 2, tmp_path, seed=2, progress=False)
    assert joined.outcomes() == whole.outcomes()
    assert [r.scores for r in joined.records] == [r.scores for r in whole.records]
    kept = part_folder(tmp_path, 0, 2) / "ladder.json"
    stamp = kept.stat().st_mtime_ns
    shutil.rmtree(part_folder(tmp_path, 2, 2))  # as if the run had stopped there
    reported = []
    again = play_ladder_in_parts("greedy", [1, 5], 5, 2, tmp_path, seed=2, progress=False,
                                 report=lambda folder, played: reported.append((folder.name, played)))
    assert reported == [("games-0-1", False), ("games-2-3", True), ("games-4-4", False)]
    assert kept.stat().st_mtime_ns == stamp and again.outcomes() == whole.outcomes()


def test_a_part_of_another_ladder_is_refused_before_anything_is_played(tmp_path):
    play_ladder_in_parts("greedy", [1], 2, 1, tmp_path, seed=2, progress=False)
    shutil.rmtree(part_folder(tmp_path, 1, 1))
    for agent, levels, seed, words in (("random", [1], 2, "agent 'greedy', not 'random'"),
                                       ("greedy", [1, 5], 2, r"levels \[1\], not \[1, 5\]"),
                                       ("greedy", [1], 3, "seed 2, not 3")):
        with pytest.raises(ValueError, match=f"part of another ladder: its {words}"):
            play_ladder_in_parts(agent, levels, 2, 1, tmp_path, seed=seed, progress=False)
        assert not part_folder(tmp_path, 1, 1).exists()  # nothing was played


def test_the_command_line(tmp_path, capsys):
    out = io.StringIO()
    argv = ["eval", "--agent", "greedy", "--levels", "3", "--games", "4", "--part-games", "2",
            "--seed", "1", "--no-progress", "--out", str(tmp_path)]
    assert main(argv, stdout=out) == 0
    assert out.getvalue().count("played ") == 2 and (tmp_path / "ladder.json").is_file()
    ladder = json.loads((tmp_path / "ladder.json").read_text())
    assert ladder["cells"][0]["games"] == 4 and len(ladder["settings"]["merged_from"]) == 2
    out = io.StringIO()
    assert main(argv, stdout=out) == 0 and out.getvalue().count("kept ") == 2
    for argv, words in ((["--vs", "greedy", "random"], "plays the ladder of one --agent"),
                        (["--agent", "greedy", "--tom", "5"], "--tom and --players are for --vs")):
        with pytest.raises(SystemExit):
            main(["eval", *argv, "--part-games", "2", "--out", str(tmp_path / "x")])
        assert words in capsys.readouterr().err
