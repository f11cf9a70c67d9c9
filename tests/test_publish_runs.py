"""What the docs publish, read from the games' records (``scripts/publish_runs.py``): the commands are
those the published result files were made with, and a game that joins as a plug-in has its own
figures played with no shared file edited."""

import importlib.util
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load_publish_runs():
    """``scripts/publish_runs.py`` as a module."""
    spec = importlib.util.spec_from_file_location("publish_runs", ROOT / "scripts" / "publish_runs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def printed(capsys, *argv):
    """The commands a dry run prints, each as its words (the interpreter's path left out)."""
    assert load_publish_runs().main([*argv, "--dry-run"]) == 0
    return [shlex.split(line)[1:] for line in capsys.readouterr().out.splitlines()]


# The matches scripts/publish_game_matches.sh played for each game that ships a policy per setup
# (name, games, the agents and bots), and 5th Avenue's search matches
STANDARD = [("ppo-2p-greedy", 1000, "--vs ppo greedy"), ("ppo-2p-random", 1000, "--vs ppo random"),
            ("ppo-3p-greedy", 999, "--vs ppo greedy greedy"),
            ("ppo-3p-random", 999, "--vs ppo random random"), ("greedy-random", 400, "--vs greedy random"),
            ("greedy-greedy-bot", 300, "--vs greedy --bots greedy"),
            ("random-greedy-bot", 300, "--vs random --bots greedy"),
            ("greedy-3p-random", 300, "--vs greedy random random"),
            ("greedy-2-greedy-bots", 300, "--vs greedy --bots greedy greedy")]
FIFTH_AVENUE_SEARCH = [("search64-greedy", 40, "--vs search:64 greedy"),
                       ("gsearch8-search8", 30, "--vs gsearch:8 search:8 --seed 1"),
                       ("psearch64-ppo", 20, "--vs psearch:64 ppo --seed 1")]


def test_the_standard_matches_are_the_published_ones(capsys):
    commands = printed(capsys, "matches", "--games", "construction_yard", "fifth_avenue")
    plays = [c for c in commands if c[0] == "eval"]
    expected = [(game, name, games, args) for game in ("construction_yard", "fifth_avenue")
                for name, games, args in STANDARD + (FIFTH_AVENUE_SEARCH if game == "fifth_avenue" else [])]
    assert len(plays) == len(expected)
    for words, (game, name, games, args) in zip(plays, expected, strict=True):
        assert words[:5] == ["eval", "--games", str(games), "--workers", "2"]
        assert words[5:12] == ["--game", game, "--seed", "0", "--no-progress", "--out",
                               f"results/matches/{game}-{name}"]
        assert words[12:] == args.split()
    published = [c[2] for c in commands if c[0] == "scripts/publish_result.py"]
    assert published[0] == "docs/results/construction-yard-ppo-2p-greedy.json"
    assert all((ROOT / path).is_file() for path in published)  # every one a published file today


def test_the_champions_runs_and_the_comparisons_are_each_games(capsys):
    champion = printed(capsys, "champion")
    ladders = [c for c in champion if c[:3] == ["eval", "--agent", "champion"]]
    assert [c[c.index("--out") + 1] for c in ladders] == [
        "results/champion/tiny-york-tom10-tom12", "results/champion/tiny-york-tom1-6",
        "results/champion/tiny-york-tom7-11", "results/champion/construction-yard-2p",
        "results/champion/fifth-avenue-2p"]
    assert all(c[c.index("--seed") + 1] == "3" for c in ladders)
    published = [c[2] for c in champion if c[0] == "scripts/publish_result.py"]
    assert all((ROOT / path).is_file() for path in published) and len(published) == 9
    tests = [c for c in printed(capsys, "comparisons") if c[0] == "compare"]
    tiny_york, others = ["ppo", "ppo:agents/models/champion.zip"], ["ppo", "champion"]
    assert [c[1:3] for c in tests] == [tiny_york, tiny_york, others, others]


def test_a_plugin_game_publishes_what_its_record_names(capsys):
    commands = printed(capsys, "matches", "--games", "sealed_bids")
    assert [c for c in commands if c[0] == "eval"] == [
        ["eval", "--games", "20", "--workers", "2", "--game", "sealed_bids", "--seed", "0",
         "--no-progress", "--out", "results/matches/sealed_bids-lowbid-greedy", "--vs", "lowbid", "greedy"]]
    assert commands[-1][2] == "docs/results/sealed-bids-lowbid-greedy.json"
