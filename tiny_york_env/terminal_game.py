"""``tiny-york play``: a person plays any registered game at the terminal.

The game tells the person what happened: the others' moves in words as they are made, then
before each of the person's decisions the lines of the board that changed since the person last
saw it (the person's results among them); the whole board at the start, at the start of each
stage of play (the contract's ``phase``: Tiny York's round and phase, Construction Yard's
scorings, 5th Avenue's turns and auctions) and on ``b``. A decision with a single option is played
for the person and said in one line. ``q`` (or Ctrl-C) leaves the game and asks whether to save
it; ``play --resume FILE`` goes on with a saved game from its last decision.
"""

from __future__ import annotations

import difflib
import secrets
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np

from .agents.registry import agent_specs, offered_players
from .contract import Game
from .registry import get_game
from .saved_games import GameRecorder, SavedGame, read_saved_game, replay_states

PLAY_SEED_BOUND = 2 ** 31
QUIT_WORDS = ("q", "quit", "exit")
HELP_WORDS = ("?", "h", "help")
BOARD_WORDS = ("b", "board")
INTERRUPTED = "\nInterrupted (Ctrl-C): the game is abandoned."
FIRST_CHOICE = 1  # the legal actions are numbered from 1 for people
PERSON_NAME = "you"  # the person's seat in a saved game's players
PLAY_KEYS = ("Type the number of an option; b shows the whole board; ? explains it (? WORD: a word of "
             "it); q quits (you may save the game); Ctrl-C too.")
INDENT = "  "


def terminal_legend(game: Game) -> str:
    """The game's board legend and the keys of the terminal game."""
    return f"{game.legend}\n{PLAY_KEYS}" if game.legend else PLAY_KEYS


def ask_choice(count: int, stdin: IO[str], out: IO[str], legend: str = "",
               explain: Callable[[str], str | None] | None = None,
               show_board: Callable[[], None] | None = None) -> int | None:
    """The person's choice 1..count as an index from 0, or None to quit (q or end of input);
    ``?`` or ``help`` prints ``legend`` (what the board's notation means), ``? WORD`` what
    ``explain`` says of a word of it (Tiny York: ``? 23``, character 23), ``b`` calls
    ``show_board`` (the whole board and the options again), and asks again."""
    allowed = f"type a number from {FIRST_CHOICE} to {count} (b shows the board, ? explains it, q quits)"
    while True:
        print(f"Your choice ({FIRST_CHOICE}-{count}, b board, ? help, q quits): ", end="", file=out,
              flush=True)
        line = stdin.readline()
        if not line:
            print("\nInput ended: the game is abandoned.", file=out)
            return None
        text = line.strip()
        if text.lower() in QUIT_WORDS:
            print("You quit the game.", file=out)
            return None
        if text.lower() in HELP_WORDS:
            print(legend or "No legend for this game's board.", file=out)
            continue
        if text.lower() in BOARD_WORDS and show_board is not None:
            show_board()
            continue
        asked = text.split(maxsplit=1)
        if len(asked) == 2 and asked[0].lower() in HELP_WORDS:
            meaning = explain(asked[1]) if explain is not None else None
            print(meaning or f"Nothing called {asked[1]!r} to explain here; ? alone explains the board.",
                  file=out)
            continue
        if not text:
            print(f"Nothing typed: {allowed}.", file=out)
        elif not (text.isascii() and text.isdigit()):
            print(f"{text!r} is not a number: {allowed}.", file=out)
        elif not FIRST_CHOICE <= int(text) < FIRST_CHOICE + count:
            print(f"{text} is out of range: {allowed}.", file=out)
        else:
            return int(text) - FIRST_CHOICE


def _head(lines: Sequence[str], k: int) -> int | None:
    """The unindented line that line ``k`` belongs under (itself when unindented)."""
    return next((j for j in range(k, -1, -1) if not lines[j].startswith(" ")), None)


def changed_lines(before: Sequence[str], after: Sequence[str]) -> list[str]:
    """The lines of ``after`` that are new or changed since ``before``, each indented line with the
    unindented line it belongs under (a seat's hand under the seat), and the lines of ``before``
    no line took the place of, marked gone (under their own heading)."""
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    shown: list[str] = []
    heads_shown: set[str] = set()

    def with_head(lines: Sequence[str], k: int, line: str) -> None:
        head = _head(lines, k)
        if head is not None and head != k and lines[head] not in heads_shown:
            shown.append(lines[head])
            heads_shown.add(lines[head])
        shown.append(line)

    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag == "equal":
            continue
        for k in range(b0, b1):
            with_head(after, k, after[k])
            heads_shown.add(after[k])
        for k in range(a0 + (b1 - b0), a1):  # more lines before than after: the rest are gone
            with_head(before, k, f"{INDENT if before[k].startswith(' ') else ''}(gone) {before[k].strip()}")
    return shown


@dataclass
class Narrator:
    """What the person sees of the board between decisions: the whole board at the start, when
    the game's stage of play changes and on request, else the lines that changed."""

    game: Game
    person: int
    out: IO[str]
    seen: list[str] | None = None  # the board's lines as the person last saw them
    phase: str | None = None

    def lines(self, state: np.ndarray) -> list[str]:
        """The board as the person may see it, as lines."""
        return self.game.render_text(state, self.person).splitlines()

    def show_board(self, state: np.ndarray) -> None:
        """The whole board."""
        self.seen = self.lines(state)
        print("\n" + "\n".join(self.seen), file=self.out)

    def before_decision(self, state: np.ndarray) -> None:
        """The whole board at a new stage of play (or for a game that names none), else what
        changed on it since the person last looked."""
        phase = self.game.phase(state) if self.game.phase is not None else None
        if self.seen is None or phase is None or phase != self.phase:
            if phase is not None:
                print(f"\n=== {phase} ===", file=self.out)
            self.phase = phase
            self.show_board(state)
            return
        now = self.lines(state)
        changed = changed_lines(self.seen, now)
        self.seen = now
        if changed:
            print("\nOn the board (b shows all of it):", file=self.out)
            for line in changed:
                print(INDENT + line.strip() if line.startswith(" ") else line, file=self.out)
        else:
            print("\nNothing changed on the board (b shows it).", file=self.out)


def print_automatic_moves(game: Game, state: np.ndarray, names: Sequence[str], out: IO[str]) -> None:
    """One line per move the engine made for a Tom or bot since the last action:
    'seat 2 Tom 5 (B4): bid 3 in the press round', 'seat 2 greedy bot: ...'."""
    if game.automatic_moves is None:
        return
    for seat, words in game.automatic_moves(state):
        print(f"{game.seat_name(seat)} {names[seat]}: {words}", file=out)


def print_final(game: Game, state: np.ndarray, names: Sequence[str], person: int, out: IO[str]) -> None:
    """The final board with the score breakdown, the totals and the winners."""
    print("\n" + game.render_text(state, person), file=out)
    scores = game.final_scores(state)
    print("Final scores: " + ", ".join(f"{game.seat_name(s)} {names[s]} {int(scores[s])}"
                                       for s in range(len(scores))), file=out)
    winners = game.winners(state)
    if winners == (person,):
        print("You win!", file=out)
    else:
        who = ", ".join(f"{game.seat_name(s)} {names[s]}" for s in winners)
        print(f"{'Winner' if len(winners) == 1 else 'Winners'}: {who}.", file=out)


@dataclass
class Table:
    """A game at the terminal: the game, the person's seat, every seat's name, the deciders of the
    other agent seats, the state and its record so far."""

    game: Game
    person: int
    names: list[str]
    policies: dict[int, Callable[[np.ndarray], int]]
    state: np.ndarray
    recorder: GameRecorder
    save_default: str | None = None  # a resumed game's file: offered on leaving, written at the end


def _policies(game: Game, config: Any, seed: int, opponents: dict[int, str],
              unsafe_unpickle: bool) -> dict[int, Callable[[np.ndarray], int]]:
    """The decider of each other agent seat, seeded from the game seed."""
    from .agents.seats import seat_decider
    agents = game.num_agents(config)
    agent_seeds = [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(seed).spawn(agents)]
    rng = np.random.default_rng(seed)
    seats = sorted(opponents)
    specs = dict(zip(seats, agent_specs([opponents[s] for s in seats], unsafe_unpickle), strict=True))
    return {seat: seat_decider(game, specs[seat], agent_seeds[seat], config, rng) for seat in seats}


def new_table(game_name: str, opponents: Sequence[str], automatic: Sequence[int | str],
              seed: int | None, person: int, unsafe_unpickle: bool = False) -> Table:
    """A new game with the person at agent seat ``person``, ``opponents`` in the other agent seats
    and the engine's ``automatic`` participants; ``seed`` None draws one."""
    game = get_game(game_name)
    config = game.seat_config(1 + len(opponents), tuple(automatic))
    agents = game.num_agents(config)
    if not 0 <= person < agents:
        raise ValueError(f"--seat {person} is not an agent seat: choose 0-{agents - 1}")
    others = [seat for seat in range(agents) if seat != person]
    names = [PERSON_NAME if seat == person else "" for seat in range(agents)]
    for seat, name in zip(others, opponents, strict=True):
        names[seat] = name
    names += [game.automatic_label(spec) for spec in automatic]
    seed = secrets.randbelow(PLAY_SEED_BOUND) if seed is None else seed
    policies = _policies(game, config, seed, dict(zip(others, opponents, strict=True)), unsafe_unpickle)
    return Table(game, person, names, policies, game.new_game(config, seed),
                 GameRecorder(game, config, seed, names))


def resumed_table(saved: SavedGame, path: str, opponents: Sequence[str], person: int | None,
                  unsafe_unpickle: bool = False) -> Table:
    """The saved game ``saved`` (read from ``path``) after its last decision, the person at the
    seat saved as "you" (or ``person``), the other agent seats played by the names saved for them
    (or by ``opponents``, in seat order); ValueError when it ended or a seat cannot be played."""
    if saved.result is not None:
        raise ValueError(f"{path}: the game ended; nothing to resume (tiny-york replay {path} shows it)")
    game = get_game(saved.game)
    config = game.make_config(**saved.config)
    agents = game.num_agents(config)
    if person is None:
        mine = [seat for seat in range(agents) if saved.players[seat] == PERSON_NAME]
        if len(mine) != 1:
            raise ValueError(f"{path}: no single seat is saved as {PERSON_NAME!r} (players: "
                             f"{', '.join(saved.players[:agents])}); say which is yours with --seat")
        person = mine[0]
    if not 0 <= person < agents:
        raise ValueError(f"--seat {person} is not an agent seat of {path}: choose 0-{agents - 1}")
    others = [seat for seat in range(agents) if seat != person]
    if opponents and len(opponents) != len(others):
        raise ValueError(f"--vs names {len(opponents)} agents, but {path} has {len(others)} other agent "
                         f"seats ({', '.join(map(str, others))})")
    if opponents:
        played = dict(zip(others, opponents, strict=True))
    else:  # a file says who played, never what runs: only the players offered by name
        offered = offered_players(game)
        unknown = [f"seat {s} ({saved.players[s]!r})" for s in others if saved.players[s] not in offered]
        if unknown:
            raise ValueError(f"{path}: {', '.join(unknown)} not a player resumed by name (those are "
                             f"{', '.join(offered)}); name the other seats' agents with --vs")
        played = {s: saved.players[s] for s in others}
    # the other seats' random choices go on from a stream of their own: the seed and the decisions so far
    policies = _policies(game, config, saved.seed + len(saved.decisions), played, unsafe_unpickle)
    (state,) = deque(replay_states(saved), maxlen=1)
    names = list(saved.players)
    names[person] = PERSON_NAME
    for seat, name in played.items():
        names[seat] = name
    recorder = GameRecorder(game, config, saved.seed, names)
    recorder.saved.decisions = list(saved.decisions)
    return Table(game, person, names, policies, state, recorder, save_default=path)


def who_plays(table: Table) -> str:
    """'you are seat 0; seat 1 greedy, seat 2 Tom 5 (B4)': the opening line's seats."""
    game = table.game
    return (f"you are {game.seat_name(table.person)}; "
            + ", ".join(f"{game.seat_name(s)} {n}" for s, n in enumerate(table.names) if s != table.person))


def play_interactively(game_name: str, opponents: Sequence[str], automatic: Sequence[int | str],
                       seed: int | None, person: int, stdin: IO[str], out: IO[str],
                       unsafe_unpickle: bool = False, save: str | None = None) -> np.ndarray | None:
    """A person at agent seat ``person`` of any registered game against the policies or agents
    ``opponents`` (``agents.seats.seat_decider``) and the engine's ``automatic`` participants
    (Toms, bots); reads choices from ``stdin``, writes to ``out``. Returns the final state, or
    None when the person quit. ``unsafe_unpickle`` lets a ``ppo:PATH`` opponent be an SB3
    checkpoint (runs code from it)."""
    table = new_table(game_name, opponents, automatic, seed, person, unsafe_unpickle)
    game = table.game
    print(f"{game.title}, seed {table.recorder.saved.seed}: {who_plays(table)}", file=out)
    print_automatic_moves(game, table.state, table.names, out)  # engine players that moved first
    return play_table(table, stdin, out, save)


def resume_interactively(path: str, opponents: Sequence[str], person: int | None, stdin: IO[str],
                         out: IO[str], unsafe_unpickle: bool = False,
                         save: str | None = None) -> np.ndarray | None:
    """``play --resume FILE``: the saved game at ``path`` goes on from its last decision (see
    ``resumed_table``); as ``play_interactively`` from there, and written back to ``path`` at its
    end (to ``save`` where given)."""
    table = resumed_table(read_saved_game(path), path, opponents, person, unsafe_unpickle)
    game, saved = table.game, table.recorder.saved
    print(f"{game.title}, seed {saved.seed}, resumed from {path} after {len(saved.decisions)} "
          f"decisions: {who_plays(table)}", file=out)
    return play_table(table, stdin, out, save)


def show_options(game: Game, state: np.ndarray, legal: np.ndarray, out: IO[str]) -> None:
    """The person's decision and its numbered options (with the game's note on each, if any)."""
    print(f"\nYou ({game.pending_decision(state)}):", file=out)
    for k, action in enumerate(legal):
        print(f"  {k + FIRST_CHOICE:>3}. {game.option_text(int(action), state)}", file=out)
        note = game.option_note(int(action), state) if game.option_note is not None else ""
        if note:
            print(f"       {note}", file=out)


def play_table(table: Table, stdin: IO[str], out: IO[str], save: str | None = None) -> np.ndarray | None:
    """Play ``table`` to its end (the final state) or until the person leaves (None, after the
    offer to save)."""
    game, state, person, names = table.game, table.state, table.person, table.names
    narrator = Narrator(game, person, out)
    try:
        while not game.is_terminal(state):
            seat = game.current_player(state)
            legal = np.flatnonzero(game.legal_mask(state))
            if seat != person:
                action = int(table.policies[seat](state))
                print(f"{game.seat_name(seat)} {names[seat]}: {game.option_text(action, state)}", file=out)
            elif len(legal) == 1:
                action = int(legal[0])
                print(f"You ({game.pending_decision(state)}): {game.option_text(action, state)} "
                      "(the only option)", file=out)
            else:
                narrator.before_decision(state)
                show_options(game, state, legal, out)

                def board(state=state, legal=legal):
                    narrator.show_board(state)
                    show_options(game, state, legal, out)
                choice = ask_choice(len(legal), stdin, out, terminal_legend(game), game.explain, board)
                if choice is None:
                    offer_save(table, save, stdin, out)
                    return None
                action = int(legal[choice])
                print(f"You: {game.option_text(action, state)}", file=out)
            game.apply_action(state, action)
            table.recorder.record(seat, action)
            print_automatic_moves(game, state, names, out)
    except KeyboardInterrupt:
        print(INTERRUPTED, file=out)
        offer_save(table, save, stdin, out)
        return None
    print_final(game, state, names, person, out)
    table.recorder.finish(state)
    save_game(table.recorder, save or table.save_default, out)  # a resumed game: back to its file
    return state


def save_game(recorder: GameRecorder, path: str | None, out: IO[str]) -> None:
    """Write the recorded game to ``path`` when one was given (``play --save``)."""
    if path is None:
        return
    recorder.write(path)
    print(f"Saved the game to {path} (tiny-york replay {path}; tiny-york play --resume {path}).", file=out)


YES_ANSWERS = ("y", "yes")
NO_ANSWERS = ("", "n", "no")  # Enter declines


def default_save_name(recorder: GameRecorder) -> str:
    """A file name for a game left early that names no existing file: ``tiny_york-seed11.jsonl``,
    then ``tiny_york-seed11-2.jsonl`` and on."""
    stem = f"{recorder.saved.game}-seed{recorder.saved.seed}"
    name, copy = f"{stem}.jsonl", 1
    while Path(name).exists():
        copy += 1
        name = f"{stem}-{copy}.jsonl"
    return name


def ask_line(prompt: str, stdin: IO[str], out: IO[str]) -> str | None:
    """One answer, stripped; None at the end of input or on Ctrl-C."""
    print(prompt, end="", file=out, flush=True)
    try:
        line = stdin.readline()
    except KeyboardInterrupt:
        return None
    return line.strip() if line else None


def ask_save_path(recorder: GameRecorder, stdin: IO[str], out: IO[str],
                  default: str | None = None) -> str | None:
    """Ask whether to save a game left early (y/n, Enter: no), then a file name with a default
    (``default``, e.g. the file a game was resumed from, else a new name)."""
    while True:
        answer = ask_line("Save the game so far? [y/N]: ", stdin, out)
        if answer is None or answer.lower() in NO_ANSWERS:
            return None
        if answer.lower() in YES_ANSWERS:
            break
        print(f"Answer y or n, not {answer!r}.", file=out)
    default = default or default_save_name(recorder)
    name = ask_line(f"File name (Enter: {default}): ", stdin, out)
    return None if name is None else (name or default)


def offer_save(table: Table, path: str | None, stdin: IO[str], out: IO[str]) -> None:
    """A game left early: saved to ``path`` (``--save``), else the person is asked."""
    recorder = table.recorder
    if path is None and recorder.saved.decisions:
        path = ask_save_path(recorder, stdin, out, table.save_default)
        if path is None:
            print("Not saved.", file=out)
    try:
        save_game(recorder, path, out)
    except (OSError, ValueError) as error:
        print(f"Could not save the game to {path}: {error}", file=out)
