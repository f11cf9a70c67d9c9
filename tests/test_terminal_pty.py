"""``tiny-york play`` through a real pseudo-terminal (pexpect): what a person at a terminal sees
and types, including a real Ctrl-C (SIGINT), not a simulated one."""

import signal
import sys

import pytest

pexpect = pytest.importorskip("pexpect", reason="pexpect is in the dev extra that make test installs")

PROMPT = r"Your choice \(1-(\d+), b board, \? help, q quits\): "
TIMEOUT = 120  # seconds for one expected line; the first start may compile the engine


def _default_sigint():
    """A test run started in the background (``make test &``) ignores SIGINT, and a child
    inherits that; a person's terminal delivers it, so the player starts with the default."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(*args):
    """``tiny-york play ARGS`` in a pseudo-terminal of its own."""
    return pexpect.spawn(sys.executable, ["-m", "tiny_york_env.cli", "play", *args], encoding="utf-8",
                         timeout=TIMEOUT, dimensions=(50, 200), preexec_fn=_default_sigint)


def test_a_whole_game_against_tom_5_at_a_terminal():
    child = spawn("--tom", "5", "--seed", "11")
    child.expect(PROMPT)
    child.sendline("banana")
    child.expect("'banana' is not a number")
    child.expect(PROMPT)
    child.sendline("?")
    child.expect("How to read the board")
    decisions = 0
    tom_moves = []
    while True:
        index = child.expect([PROMPT, r"Final scores: seat 0 you \d+, seat 1 Tom 5 \(B4\) \d+"])
        tom_moves += [line for line in child.before.splitlines() if "seat 1 Tom 5 (B4): " in line]
        if index == 1:
            break
        if decisions:  # the board, or what changed on it, before every decision (not after "?")
            assert "Statue of Liberty:" in child.before or "On the board (b shows" in child.before \
                or "Nothing changed on the board" in child.before
            assert "You (" in child.before
        child.sendline("1")
        decisions += 1
    child.expect(pexpect.EOF)
    child.close()
    assert decisions > 50 and child.exitstatus == 0
    # Tom's moves in words, as the engine logged them (R4, R6, R21-R23)
    for words in ("took start stack", "took the pair", "in the press round", "from the elevator",
                  "built"):
        assert any(words in line for line in tom_moves), words


def test_ctrl_c_at_a_terminal_ends_cleanly_and_offers_to_save(tmp_path):
    path = tmp_path / "kept.jsonl"
    child = spawn("--tom", "5", "--seed", "11")
    for _ in range(3):
        child.expect(PROMPT)
        child.sendline("1")
    child.expect(PROMPT)
    child.sendintr()  # a real SIGINT from the terminal
    child.expect(r"Interrupted \(Ctrl-C\): the game is abandoned\.")
    child.expect(r"Save the game so far\? \[y/N\]: ")
    child.sendline("y")
    child.expect(r"File name \(Enter: tiny_york-seed11(-\d+)?\.jsonl\): ")
    child.sendline(str(path))
    child.expect("Saved the game to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "Traceback" not in child.before
    assert path.read_text().count("\n") == 4  # the header and three decisions


def test_q_at_a_terminal_quits_and_declines_to_save():
    child = spawn("--game", "construction_yard", "--vs", "greedy", "--seed", "2")
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect("You quit the game.")
    child.expect("Save the game so far")
    child.sendline("")
    child.expect("Not saved.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
