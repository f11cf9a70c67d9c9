"""The ``tiny-york`` command: eval, tournament and play, with scripted input."""

import argparse
import csv
import io
import json
import re

import gymnasium
import pytest

import tiny_york_env
from tiny_york_env import cli
from tiny_york_env.cli import build_parser, ladder_rungs, main, play_interactively
from tiny_york_env.core.labels import count_noun
from tiny_york_env.games.tiny_york import GameConfig, new_game, render_text
from tiny_york_env.registry import game_names, get_game

ENOUGH_CHOICES = "1\n" * 3000  # always the first legal action, more than any game needs


def run(argv, stdin_text=""):
    out = io.StringIO()
    status = main(argv, stdin=io.StringIO(stdin_text), stdout=out)
    return status, out.getvalue()


def test_eval_ladder_prints_a_table_and_writes_files(tmp_path):
    status, text = run(["eval", "--agent", "random", "--levels", "1,12", "--games", "2",
                        "--out", str(tmp_path), "--no-progress"])
    assert status == 0
    assert "Tom 12 (C5)" in text and "win rate [95% CI]" in text
    for name in ("ladder.csv", "ladder.json", "ladder.png"):
        assert (tmp_path / name).stat().st_size > 0
    with open(tmp_path / "ladder.csv") as handle:
        assert [row["level"] for row in csv.DictReader(handle)] == ["1", "12"]


def test_eval_vs_and_tournament_run(tmp_path):
    status, text = run(["eval", "--vs", "random", "random", "--tom", "B4", "--games", "2",
                        "--out", str(tmp_path), "--no-progress"])
    assert status == 0 and "random#2" in text and (tmp_path / "match.json").exists()
    status, text = run(["tournament", "--agents", "random", "random", "--games", "2",
                        "--out", str(tmp_path), "--no-progress"])
    assert status == 0 and "Row finished ahead of column" in text
    assert (tmp_path / "tournament_matrix.csv").exists()
    # Each file says how it was made: the command, the day it was played and the package version.
    for name, command in (("match.json", "eval --vs random random --tom B4"),
                          ("tournament.json", "tournament --agents random random")):
        settings = json.loads((tmp_path / name).read_text())["settings"]
        assert settings["command"] == f"tiny-york {command} --games 2 --out {tmp_path} --no-progress"
        assert settings["version"] == tiny_york_env.__version__
        assert re.fullmatch(r"\d{4}-\d\d-\d\d", settings["played_on"])


def test_play_survives_bad_input_and_reaches_the_final_scoring():
    status, text = run(["play", "--tom", "5", "--vs", "random", "--seed", "3"],
                       "abc\n9999\n\n" + ENOUGH_CHOICES)
    assert status == 0
    assert "'abc' is not a number: type a number from 1 to" in text
    assert "9999 is out of range: type a number from 1 to" in text
    assert "Nothing typed: type a number from 1 to" in text
    assert "Final scoring:" in text and "Final scores: seat 0 you" in text
    assert re.search(r"^(You win!|Winner: seat \d .+\.)$", text, re.MULTILINE)


def test_play_quits_on_q_and_ends_cleanly_at_end_of_input():
    status, text = run(["play", "--tom", "1", "--seed", "1"], "q\n")
    assert status == 0 and "You quit the game." in text and "Final scores" not in text
    status, text = run(["play", "--tom", "1", "--seed", "1", "--seat", "0"], "1\n")
    assert status == 0 and "Input ended: the game is abandoned." in text


@pytest.mark.parametrize("name", game_names())
def test_play_without_opponents_plays_those_of_the_gymnasium_env(name):
    """``play`` with no --vs, --tom or --bots plays the opponents gym.make(ID) gives the learning
    seat (Tiny York's Tom 5, the other games' greedy bot): the same game as naming them."""
    game = get_game(name)
    automatic = list(game.automatic_of(gymnasium.make(game.env_id).unwrapped.config))
    args = build_parser().parse_args(["play", "--game", name])
    assert automatic and cli.play_automatic(game, args) == automatic
    status, text = run(["play", "--game", name, "--seed", "1"], "q\n")
    named = io.StringIO()
    play_interactively(name, [], automatic, 1, 0, io.StringIO("q\n"), named)
    assert status == 0 and text == named.getvalue() and "You quit the game." in text
    assert all(game.automatic_label(spec) in text.splitlines()[0] for spec in automatic)


def test_play_refuses_a_game_whose_env_names_no_opponent(monkeypatch, capsys):
    monkeypatch.setattr(cli, "default_automatic", lambda game: ())
    with pytest.raises(SystemExit) as exit_info:
        run(["play", "--game", "construction_yard"])
    assert exit_info.value.code == 2
    assert "play needs at least one opponent: --bots and/or --vs NAME" in capsys.readouterr().err


def test_counts_agree_with_their_nouns():
    assert [count_noun(n, "decision") for n in (0, 1, 2)] == ["0 decisions", "1 decision", "2 decisions"]
    assert count_noun(1, "money card") == "1 money card" and count_noun(3, "city", "cities") == "3 cities"


def test_replay_names_seats_and_counts_one_decision_in_the_singular(tmp_path):
    path = tmp_path / "one.jsonl"
    status, text = run(["play", "--tom", "5", "--seed", "11", "--save", str(path)], "1\nq\n")
    assert status == 0 and "you are seat 0; seat 1 Tom 5 (B4)" in text
    status, text = run(["replay", str(path), "--check"])
    assert "; 1 decision, every one legal; not finished" in text
    status, text = run(["replay", str(path)], "n\nq\n")
    assert "[1/1] you (seat 0): " in text


def test_play_hides_other_hands_and_tom_supplies():
    state = new_game(GameConfig(num_agents=2, toms=(5,)), seed=2)
    for seat in (0, 1):
        state["hand"][seat][0] = 3  # known cards in both hands
    shown = render_text(state, viewer=0)
    hands = [line for line in shown.splitlines() if line.startswith("    hand:")]
    assert "hidden" not in hands[0] and hands[1].startswith("    hand: 3 cards  |  reserve (")
    assert hands[1].count("hidden") == 1
    supply = [line for line in shown.splitlines() if line.startswith("    supply:")]
    assert supply and "(" not in supply[0]


@pytest.mark.parametrize("argv, message", [
    (["eval", "--agent", "nobody"],
     "unknown agent 'nobody'; known agents: champion, greedy, gsearch, "),
    (["eval", "--agent", "random", "--levels", "0-3"], "bad levels '0-3'"),
    (["eval", "--agent", "random", "--games", "0"], "expected a positive whole number"),
    (["eval"], "one of the arguments --agent --vs --merge is required"),
    (["play", "--tom", "13"], "Tom level 13 is out of range"),
    (["play", "--tom", "1", "--seat", "3"], "--seat 3 is not an agent seat: choose 0-0"),
    (["eval", "--vs", "random", "random", "random", "--games", "4"], "multiple of the number"),
])
def test_bad_options_give_clear_errors(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        run(argv + ["--no-progress"] if argv[0] == "eval" and "--games" in argv else argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_ladder_rungs_are_levels_with_ranges_or_bot_names():
    tiny_york, construction_yard = get_game("tiny_york"), get_game("construction_yard")
    assert ladder_rungs(tiny_york, "1-3,5,2") == [1, 2, 3, 5]
    assert ladder_rungs(tiny_york, "12") == [12]
    assert ladder_rungs(tiny_york, None) is None  # all of them
    assert ladder_rungs(construction_yard, "Random, greedy") == ["random", "greedy"]
    for game, text in ((tiny_york, "0-3"), (tiny_york, "3-1"), (tiny_york, "greedy"),
                       (construction_yard, "1"), (construction_yard, "greedy,greedy")):
        with pytest.raises(ValueError, match="levels|rungs"):
            ladder_rungs(game, text)


def test_version_prints_the_package_version(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out == f"tiny-york {tiny_york_env.__version__}\n"


# ---------------------------------------------------------------- --help shows each default once

def every_parser():
    """(name, parser) of every command line the project has: tiny-york and its subcommands, the
    demo and the training scripts."""
    from tiny_york_env import demo
    from tiny_york_env.training import export, imitate, selfplay, train_ppo
    top = build_parser()
    parsers = [("tiny-york", top)]
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction):
            parsers += [(f"tiny-york {name}", sub) for name, sub in action.choices.items()]
    return parsers + [(module.__name__, module.build_parser())
                      for module in (demo, train_ppo, imitate, selfplay, export)]


def help_blocks(parser):
    """The help of each option as printed by ``--help``: {first line: the whole text}."""
    blocks, current = {}, None
    for line in parser.format_help().splitlines():
        if re.match(r"^  \S", line):
            current = line.strip()
            blocks[current] = line
        elif current is not None and line.startswith("   "):
            blocks[current] += " " + line.strip()
        else:
            current = None
    return blocks


def has_default(action):
    """True when the option has a value it takes when not given (not a flag, not 'none')."""
    default = action.default
    return not (action.nargs == 0 or default is None or default == argparse.SUPPRESS
                or (isinstance(default, (list, tuple)) and not default))


@pytest.mark.parametrize("name, parser", every_parser(), ids=[name for name, _ in every_parser()])
def test_help_shows_each_default_once(name, parser):
    blocks = help_blocks(parser)
    checked = 0
    for action in parser._actions:
        if action.help == argparse.SUPPRESS or isinstance(action, argparse._SubParsersAction):
            continue
        first = action.option_strings[0] if action.option_strings else (action.metavar or action.dest)
        text = [b for head, b in blocks.items() if re.match(rf"{re.escape(first)}(,| |$)", head)]
        assert len(text) == 1, f"{name}: no help line for {first}"
        mentions = len(re.findall(r"\bdefault\b", text[0], re.IGNORECASE))
        assert mentions <= 1, f"{name} {first}: the default is shown {mentions} times: {text[0]!r}"
        if has_default(action):
            assert mentions == 1, f"{name} {first}: its default {action.default!r} is not shown"
            checked += 1
    # play's options default to None (its game: the resumed file's, else tiny_york, said in its help)
    assert checked or name in ("tiny-york", "tiny-york play", "tiny-york replay",
                               "tiny_york_env.training.export")


def test_the_whole_board_opens_each_phase_and_the_changes_come_between():
    """The whole board at the start of each of Tiny York's phases and on ``b``, else the lines of
    it that changed, before every decision the person is asked; decisions of one option are
    played for the person in one line."""
    status, text = run(["play", "--tom", "5", "--seed", "11"], ENOUGH_CHOICES)
    assert status == 0
    asked = text.count("Your choice (")
    boards = text.count("Statue of Liberty:")  # a line of every whole board, the final one included
    phases = re.findall(r"^=== (.+) ===$", text, re.MULTILINE)
    assert phases[:3] == ["setup", "round 1/5, phase I", "round 1/5, phase II"]
    assert "round 5/5, phase II" in phases and len(phases) == len(set(phases))
    changes = text.count("On the board (b shows all of it):") + text.count("Nothing changed on the board")
    assert asked > 50 and changes > asked // 2 and changes + len(phases) == asked
    assert boards < asked // 2  # not the whole board at every decision any more
    assert re.search(r"^You \(.+\): .+ \(the only option\)$", text, re.MULTILINE)
    status, shown = run(["play", "--tom", "5", "--seed", "11"], "1\nb\nq\n")
    assert shown.count("Statue of Liberty:") == 3  # the setup's, phase I's and the one asked for
    assert shown.count("You (take a pair of cards):") == 2  # the options again under the board


def test_help_explains_the_board_and_asks_again():
    status, text = run(["play", "--tom", "5", "--seed", "11"], "?\nhelp\nq\n")
    assert status == 0 and text.count("How to read the board") == 2
    assert "#12(v1,II)" in text and text.count("Your choice (") == 3
    assert "b shows the whole board" in text
    status, text = run(["play", "--game", "construction_yard", "--vs", "greedy", "--seed", "2"], "?\nq\n")
    assert "construction yard: slot 1-4" in text and "You quit the game." in text


def test_a_question_mark_and_a_character_number_explain_that_character():
    """``? 23`` prints character 23's ability and asks again; an unknown word says so; options that
    name characters carry a note of what they do."""
    from tiny_york_env.games.tiny_york.character_texts import explain_character

    status, text = run(["play", "--tom", "5", "--seed", "11"], "? 23\n? taxi\n? \u00b2\n\u00b2\nq\n")
    assert status == 0 and explain_character(23) in text
    assert "Nothing called 'taxi' to explain here" in text and text.count("Your choice (") == 5
    assert "'\u00b2' is not a number" in text  # a superscript digit is no choice (and no crash)
    notes = [line for line in text.splitlines() if re.match(r"^ {7}#\d+: ", line)]
    assert notes and all(line.count("#") == 2 for line in notes)  # each start stack: two characters
    status, text = run(["play", "--game", "construction_yard", "--vs", "greedy", "--seed", "2"],
                       "? 23\nq\n")
    assert "Nothing called '23' to explain here" in text


class InterruptingInput(io.StringIO):
    """Standard input whose person presses Ctrl-C after ``lines`` lines."""

    def __init__(self, text, lines):
        super().__init__(text)
        self.left = lines

    def readline(self, *args):
        if self.left == 0:
            self.left = -1
            raise KeyboardInterrupt
        self.left -= 1
        return super().readline(*args)


@pytest.mark.parametrize("argv", [["--tom", "5", "--seed", "11"],
                                  ["--game", "construction_yard", "--vs", "greedy", "--seed", "2"]])
def test_ctrl_c_ends_cleanly_and_offers_to_save(argv, tmp_path):
    from tiny_york_env.saved_games import read_saved_game
    path = tmp_path / "kept.jsonl"
    out = io.StringIO()
    status = main(["play", *argv], stdin=InterruptingInput("1\n1\n1\n" + f"y\n{path}\n", 3), stdout=out)
    text = out.getvalue()
    assert status == 0 and "Interrupted (Ctrl-C): the game is abandoned." in text
    assert "Save the game so far?" in text and f"Saved the game to {path}" in text
    assert len(read_saved_game(path).decisions) >= 3


@pytest.mark.parametrize("answer", ["", "n", "No"])
def test_quitting_without_save_declines_on_no_or_an_empty_answer(answer, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, text = run(["play", "--tom", "5", "--seed", "11"], f"1\n1\nq\n{answer}\n")
    assert "Save the game so far? [y/N]" in text and "Not saved." in text
    assert list(tmp_path.iterdir()) == []  # no file called "n"


def test_quitting_with_yes_saves_under_the_default_name_or_the_one_given(tmp_path, monkeypatch):
    from tiny_york_env.saved_games import read_saved_game
    monkeypatch.chdir(tmp_path)
    status, text = run(["play", "--tom", "5", "--seed", "11"], "1\n1\nq\nmaybe\ny\n\n")
    assert "Answer y or n, not 'maybe'." in text  # asked again
    assert "File name (Enter: tiny_york-seed11.jsonl)" in text
    assert len(read_saved_game(tmp_path / "tiny_york-seed11.jsonl").decisions) == 2
    status, text = run(["play", "--tom", "5", "--seed", "11"], "1\nq\nyes\n\n")
    assert "File name (Enter: tiny_york-seed11-2.jsonl)" in text  # the first file is kept
    assert len(read_saved_game(tmp_path / "tiny_york-seed11-2.jsonl").decisions) == 1
    status, text = run(["play", "--tom", "5", "--seed", "11"], "1\nq\nY\nmine.jsonl\n")
    assert (tmp_path / "mine.jsonl").exists() and "Saved the game to mine.jsonl" in text


def test_options_name_what_they_refer_to():
    status, text = run(["play", "--tom", "5", "--seed", "11"], ENOUGH_CHOICES)
    assert re.search(r"\d+\. choose start-character stack 0 \(#\d+\(v\d,I+\*?\) \+ #\d+", text)
    assert re.search(r"\d+\. take card pair 0 \(\w+ \+ \w+\)", text)
    assert re.search(r"\d+\. bid one card of this round's type \(this round's type: \w+\)", text)


def test_eval_help_names_every_agent_and_every_contract_policy():
    from tiny_york_env.agents.registry import player_table
    evaluation = next(p for name, p in every_parser() if name == "tiny-york eval")
    text = " ".join(evaluation.format_help().split())
    for name in player_table():  # every game's players and each game's own
        assert re.search(rf"\b{name}\b", text), f"--agent's help leaves out {name}"
