"""Golden playthroughs: whole seeded games written as readable text (OpenSpiel's playthrough files).

One module formats a game for both ``regenerate.py`` (which picks the actions with a seeded
numpy Generator and writes the file) and ``test_playthroughs.py`` (which replays the action ids
recorded in the file and compares the text it gets with the file, line for line). Any change in
the engine's behaviour, or in how it is shown, then appears as a diff of the file.

File layout (``FORMAT_VERSION``)::

    header        "key: value" lines up to the first blank line (format, config, seeds, chooser)
    per round     "=== round N ===" and render_text of the state at its first decision
    per decision  "--- #k seat 1: <pending decision>", a state line, a context line for some
                  decisions, "legal: <ids> (count)" and "action: <id> = <describe_action>";
                  with Toms, a "toms:" line after the action when it changed anything of a
                  Tom's (his turns run inside the agents' actions; Toms never decide),
                  derived from the records, then a "tom log:" line per event the engine
                  logged for the Toms (``tom_events_of``), so the two check each other
    end           "=== final state after N decisions ===", render_text, final scores, winner

In games with Toms the state line shows the agents' hand sizes and the Toms' supply sizes in
separate columns ("-" for the other kind of seat), and "-" for a Tom's board, which he has not.

Only the "action:" lines are read back; everything else is output to compare.
"""

import ast
import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tiny_york_env.games.tiny_york import (
    GameConfig,
    apply_action,
    current_player,
    describe_action,
    final_scores,
    is_terminal,
    legal_actions,
    new_game,
    pending_decision,
    render_text,
    score_breakdown,
    tom_events_of,
    winner,
)
from tiny_york_env.games.tiny_york.components import (
    BOROUGH_NAMES,
    CARD_NAMES,
    COLOUR_NAMES,
    NEUTRAL,
    NUM_BIDDING_ROUNDS,
    NUM_BOROUGHS,
    NUM_CARD_TYPES,
    NUM_VESSELS,
    PRESTIGE_TILE_COLOUR,
    PRESTIGE_TILE_VALUE,
    VESSEL_COLOUR,
    VESSEL_ENDS,
    VESSEL_KIND,
    VESSEL_KIND_NAMES,
)
from tiny_york_env.games.tiny_york.state import (
    DEC_BID,
    DEC_BUILD,
    DEC_ELEVATOR,
    DEC_PICK_PAIR,
    DEC_PRESTIGE_BOROUGH,
    DEC_PRESTIGE_TILE,
    DEC_PRESTIGE_VESSEL,
    DEC_START_STACK,
    EMPTY,
    LOC_OWNED,
    STACK_REVEALED,
    STAGE_BIDDING,
    STAGE_EVALUATE,
    STAGE_NAMES,
    STAGE_RETURN_CARDS,
)
from tiny_york_env.games.tiny_york.text import seat_label, tile_label

FORMAT_VERSION = 1
HERE = Path(__file__).resolve().parent
REGENERATE_COMMAND = "python tests/playthroughs/regenerate.py  (or: make playthroughs)"
CHOOSER = "numpy.random.default_rng(chooser seed); action = legal[rng.integers(len(legal))]"
# A runaway game (an engine bug) stops the recording here instead of looping forever.
MAX_DECISIONS = 5000
# A compact id list writes runs of at least this many consecutive ids as "a-b".
MIN_RUN = 3
ACTION_PREFIX = "action: "

# (agents, Toms, engine seed, chooser seed): one golden game per player count, a solo game
# against the rulebook's recommended Tom ("B4", level 5) and two agents with a level-12 Tom.
GAMES = ((2, (), 1, 1), (3, (), 2, 2), (4, (), 3, 3), (1, ("B4",), 4, 4), (2, (12,), 5, 5))


def game_config(num_agents, toms=()):
    """The GameConfig of a GAMES entry (Toms as levels or codes; codes are normalised)."""
    return GameConfig(num_agents=num_agents, toms=tuple(toms))


def file_name(num_agents, toms, engine_seed):
    """The golden file's name: ``agents2_seed1.txt``, or with Toms (by code)
    ``agents1_toms_B4_seed4.txt``."""
    codes = game_config(num_agents, toms).toms
    return f"agents{num_agents}_{'toms_' + '_'.join(codes) + '_' if codes else ''}seed{engine_seed}.txt"


def golden_path(num_agents, toms, engine_seed):
    """The golden file's path next to this module."""
    return HERE / file_name(num_agents, toms, engine_seed)


@dataclass
class Playthrough:
    """A recorded game: its text, the actions taken and any problems met while replaying."""

    text: str
    actions: list = field(default_factory=list)
    problems: list = field(default_factory=list)


def _rec(state):
    return state.reshape(1)[0]


def compact_ids(ids):
    """Ascending ids as text, runs written ``a-b``: ``[12, 13, 15]`` -> ``'12 13 15'``."""
    ids = [int(i) for i in ids]
    parts, i = [], 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        if j - i + 1 >= MIN_RUN:
            parts.append(f"{ids[i]}-{ids[j]}")
        else:
            parts.extend(str(x) for x in ids[i:j + 1])
        i = j + 1
    return " ".join(parts)


def _cards(counts):
    parts = [f"{CARD_NAMES[t]} {int(counts[t])}" for t in range(NUM_CARD_TYPES) if counts[t] > 0]
    return ", ".join(parts) if parts else "-"


def _per_seat(values, n):
    return " ".join(str(int(v)) for v in values[:n])


def _press_order(rec):
    """Seats in press order (R2: higher space, then higher in the stack), neutral excluded."""
    n = int(rec["num_seats"])
    seats = sorted(range(n), key=lambda s: (-int(rec["press_space"][s]), -int(rec["press_height"][s])))
    return ">".join(seat_label(s) for s in seats)


def _column(rec, values, toms):
    """Per-seat values in seat order; "-" for the seats of the other kind (Toms or agents)."""
    n = int(rec["num_seats"])
    return " ".join(str(int(values[s])) if bool(rec["is_tom"][s]) == toms else "-" for s in range(n))


def state_line(rec):
    """One line of the public key numbers, seats in seat order."""
    n = int(rec["num_seats"])
    stage = int(rec["stage"])
    where = f"round {int(rec['round'])} {STAGE_NAMES[stage]}"
    if stage in (STAGE_BIDDING, STAGE_EVALUATE) and 0 <= int(rec["bid_round"]) < NUM_BIDDING_ROUNDS:
        where += f" {int(rec['bid_round']) + 1}/{NUM_BIDDING_ROUNDS} ({CARD_NAMES[int(rec['bid_round'])]})"
    sizes = rec["hand"][:n].sum(1)
    has_toms = bool(rec["is_tom"][:n].any())
    parts = [
        where,
        f"pts {_per_seat(rec['points'], n)}",
        f"$ {_per_seat(rec['dollars'], n)}",
        f"board {_column(rec, rec['board_skyscrapers'], False)}",
        f"press {_per_seat(rec['press_space'], n)} N{int(rec['press_space'][NEUTRAL])} "
        f"({_press_order(rec)})",
        f"hand {_column(rec, sizes, False)}",
    ]
    if has_toms:  # a Tom's hand row is his supply (its size is public, R25)
        parts.append(f"supply {_column(rec, sizes, True)}")
    if stage in (STAGE_BIDDING, STAGE_EVALUATE):
        parts.append(f"bid {_per_seat(rec['bid_value'], n)}")
    return "  " + " | ".join(parts)


def _skyline(rec, seat):
    return ", ".join(f"{BOROUGH_NAMES[b]} {int(rec['skyscrapers'][b, seat])}"
                     for b in range(NUM_BOROUGHS) if rec["skyscrapers"][b, seat] > 0) or "-"


def _prestige_tile(tile):
    return f"{COLOUR_NAMES[PRESTIGE_TILE_COLOUR[tile]]} {int(PRESTIGE_TILE_VALUE[tile])}"


def _vessel(v):
    a, b = VESSEL_ENDS[v]
    return f"{VESSEL_KIND_NAMES[VESSEL_KIND[v]]} {v} ({BOROUGH_NAMES[a]}-{BOROUGH_NAMES[b]})"


def context_line(rec):
    """What the seat to move chooses from, for the decisions where the state line says too little."""
    d = int(rec["decision"])
    seat = int(rec["actor"])
    if d == DEC_START_STACK:
        stacks = [f"{k}: {tile_label(a)} {tile_label(b)}"
                  for k, (a, b) in enumerate(rec["start_stacks"])
                  if rec["start_stack_status"][k] == STACK_REVEALED]
        return "  stacks " + "; ".join(stacks)
    if d == DEC_PICK_PAIR:
        pairs = [f"{p}: {CARD_NAMES[a] if a != EMPTY else '-'}+{CARD_NAMES[b] if b != EMPTY else '-'}"
                 for p, (a, b) in enumerate(rec["pairs"][: int(rec["num_pairs"])])
                 if a != EMPTY or b != EMPTY]
        return f"  pairs {'; '.join(pairs)} | hand {_cards(rec['hand'][seat])}"
    if d == DEC_BID:
        line = (f"  hand {_cards(rec['hand'][seat])} | reserve {_cards(rec['reserve'][seat])}"
                f" | played {_cards(rec['played'][seat])} | exchanges left {int(rec['exchanges_left'])}")
        # the Toms' cards in play: their bids, or the card drawn before the round (solo rules)
        for tom in range(int(rec["num_seats"])):
            if rec["is_tom"][tom] and (rec["bid_done"][tom] or rec["played"][tom].any()):
                what = f"bid {int(rec['bid_value'][tom])}" if rec["bid_done"][tom] else "drawn, played"
                line += f" | {seat_label(tom)} {what}: {_cards(rec['played'][tom])}"
        return line
    if d == DEC_ELEVATOR:
        value = int(rec["bid_value"][seat])
        bonus = 1 if int(rec["bonus_winner"]) == seat else 0
        rows = []
        for row in range(min(value + bonus, rec["elevator_display"].shape[0])):
            tiles = [tile_label(t) if t != EMPTY else "-" for t in rec["elevator_display"][row]]
            rows.append(f"row {row + 1}: {' '.join(tiles)}")
        return f"  value {value}{' + bonus 1' if bonus else ''} | " + " | ".join(rows)
    if d in (DEC_PRESTIGE_TILE, DEC_PRESTIGE_VESSEL, DEC_PRESTIGE_BOROUGH):
        role = "bonus winner" if int(rec["bonus_winner"]) == seat else "runner-up"
        if d == DEC_PRESTIGE_TILE:
            # Numbered from 0, as describe_action numbers them.
            what = "revealed " + ("; ".join(f"{k}: {_prestige_tile(t)}"
                                            for k, t in enumerate(rec["prestige_revealed"])
                                            if t != EMPTY) or "-")
        else:
            what = f"tile {_prestige_tile(rec['prestige_revealed'][int(rec['chosen_slot'])])}"
            if d == DEC_PRESTIGE_BOROUGH:
                what += f", {_vessel(int(rec['chosen_vessel']))}"
        return f"  {role} | {what} | skyscrapers {_skyline(rec, seat)}"
    if d == DEC_BUILD:
        return (f"  {int(rec['build_left'])} more to build in {BOROUGH_NAMES[int(rec['build_borough'])]}"
                f" | skyscrapers {_skyline(rec, seat)}")
    return None


def _owned(rec, seat):
    return {int(t) for t in range(len(rec["tile_loc"]))
            if rec["tile_loc"][t] == LOC_OWNED and rec["tile_owner"][t] == seat}


def tom_line(before, after):
    """What the engine did for the Toms inside one agent's action, from the two states: their
    supply size (cards drawn, played or discarded), characters taken, prestige tiles placed with
    their vessels, skyscrapers built, press, dollars and points, then a bid still on the table.
    A bid that was evaluated inside the action shows only through what it brought. None if
    nothing changed."""
    parts = []
    same_round = (int(after["round"]) == int(before["round"])
                  and int(after["bid_round"]) == int(before["bid_round"]))
    for tom in range(int(before["num_seats"])):
        if not before["is_tom"][tom]:
            continue
        got = []
        size_b, size_a = int(before["hand"][tom].sum()), int(after["hand"][tom].sum())
        if size_a != size_b:
            got.append(f"supply {size_b}->{size_a}")
        for tile in sorted(_owned(after, tom) - _owned(before, tom)):
            got.append(f"takes {tile_label(tile)}")
        for v in range(NUM_VESSELS):
            if after["vessel_owner"][v] == tom and before["vessel_owner"][v] != tom:
                tiles = [t for t in range(len(after["prestige_loc"]))
                         if before["prestige_loc"][t] < 0 <= after["prestige_loc"][t]
                         and PRESTIGE_TILE_COLOUR[t] == VESSEL_COLOUR[v]
                         and after["prestige_loc"][t] in VESSEL_ENDS[v]]
                where = "; ".join(f"{_prestige_tile(t)} on {BOROUGH_NAMES[int(after['prestige_loc'][t])]}"
                                  for t in tiles)
                got.append(f"prestige {where} with {_vessel(v)}")
        for b in range(NUM_BOROUGHS):
            d = int(after["skyscrapers"][b, tom]) - int(before["skyscrapers"][b, tom])
            if d:
                got.append(f"{d:+d} skyscraper{'s' if abs(d) > 1 else ''} in {BOROUGH_NAMES[b]} "
                           f"(now {int(after['skyscrapers'][b, tom])})")
        for key, name in (("press_space", "press"), ("dollars", "$"), ("points", "pts")):
            b, a = int(before[key][tom]), int(after[key][tom])
            if a != b:
                got.append(f"{name} {b}->{a}")
        # last: a bid he made after the rest (it may be in the next bidding round)
        bidding = int(after["stage"]) in (STAGE_BIDDING, STAGE_EVALUATE, STAGE_RETURN_CARDS)
        if bidding and after["bid_done"][tom] and not (same_round and before["bid_done"][tom]):
            got.append(f"bids {int(after['bid_value'][tom])} in {CARD_NAMES[int(after['bid_round'])]}"
                       f" ({_cards(after['played'][tom])})")
        if got:
            parts.append(f"{seat_label(tom)} " + ", ".join(got))
    return "  toms: " + " | ".join(parts) if parts else None


def _header(config, engine_seed, chooser_seed):
    return [
        "# Tiny York golden playthrough: a whole seeded game, one block per agent decision.",
        f"# Regenerate after an intended change: {REGENERATE_COMMAND}",
        f"format: {FORMAT_VERSION}",
        f"config: GameConfig(num_agents={config.num_agents}, toms={config.toms!r})",
        f"engine seed: {engine_seed}",
        f"chooser seed: {chooser_seed}",
        f"chooser: {CHOOSER}",
        "",
    ]


def _final_lines(state, decisions):
    lines = [f"=== final state after {decisions} decisions ===", render_text(state), ""]
    scores = final_scores(state)
    lines.append("final scores: " + " ".join(f"{seat_label(s)} {int(v)}" for s, v in enumerate(scores)))
    totals = [b["total"] for b in score_breakdown(state)]
    if totals != [int(v) for v in scores]:
        lines.append(f"!! score_breakdown totals {totals} differ from final_scores")
    lines.append(f"winner: {seat_label(winner(state))}")
    return lines


def play(num_agents, engine_seed, chooser_seed, actions=None, toms=()):
    """Play (``actions`` None: choose with the seeded Generator) or replay a game; its text.

    A replayed action that is not legal where it is recorded is listed in ``problems`` and ends
    the replay, so the text then differs from the file from that point on.
    """
    config = game_config(num_agents, toms)
    state = new_game(config, seed=engine_seed)
    rng = np.random.default_rng(chooser_seed) if actions is None else None
    body, taken, problems = [], [], []
    last_round = None
    while not is_terminal(state):
        k = len(taken)
        if actions is not None and k >= len(actions):
            problems.append(f"the recorded actions ran out after {k} decisions; the game is not over")
            body.append(f"!! recorded actions ran out; the game is not over ({pending_decision(state)})")
            break
        if k >= MAX_DECISIONS:
            problems.append(f"no end after {MAX_DECISIONS} decisions")
            body.append(f"!! stopped after {MAX_DECISIONS} decisions")
            break
        rec = _rec(state)
        if int(rec["round"]) != last_round:
            last_round = int(rec["round"])
            body += [f"=== round {last_round} ===", render_text(state), ""]
        legal = legal_actions(state)
        seat = current_player(state)
        if rec["is_tom"][seat]:
            problems.append(f"decision #{k + 1}: a Tom ({seat_label(seat)}) is the seat to move")
        action = int(legal[rng.integers(len(legal))]) if actions is None else int(actions[k])
        body.append(f"--- #{k + 1} {seat_label(seat)}: {pending_decision(state)}")
        body.append(state_line(rec))
        ctx = context_line(rec)
        if ctx is not None:
            body.append(ctx)
        body.append(f"legal: {compact_ids(legal)} ({len(legal)})")
        if action not in set(int(a) for a in legal):
            problems.append(f"decision #{k + 1} ({seat_label(seat)}, {pending_decision(state)}): "
                            f"recorded action {action} is not legal; legal: {compact_ids(legal)}")
            body.append(f"!! recorded action {action} is not legal here")
            break
        body.append(f"{ACTION_PREFIX}{action} = {describe_action(action, state)}")
        before = rec.copy()
        apply_action(state, action)
        taken.append(action)
        if config.toms:
            line = tom_line(before, _rec(state))
            if line is not None:
                body.append(line)
            body += [f"tom log: {seat_label(seat)} {words}" for seat, words in tom_events_of(state)]
    if is_terminal(state):
        if actions is not None and len(taken) < len(actions):
            problems.append(f"the game ended after {len(taken)} decisions but {len(actions)} "
                            "are recorded")
        body += _final_lines(state, len(taken))
    lines = _header(config, engine_seed, chooser_seed) + body
    return Playthrough(text="\n".join(lines) + "\n", actions=taken, problems=problems)


def parse_header(text):
    """The ``key: value`` lines before the first blank line, as a dict of strings."""
    header = {}
    for line in text.splitlines():
        if not line:
            break
        if line.startswith("#"):
            continue
        key, sep, value = line.partition(": ")
        if sep:
            header[key] = value
    return header


def parse_actions(text):
    """The action ids of the ``action:`` lines, in order."""
    return [int(line[len(ACTION_PREFIX):].split()[0])
            for line in text.splitlines() if line.startswith(ACTION_PREFIX)]


CONFIG_LINE = re.compile(r"GameConfig\(num_agents=(\d+), toms=(\(.*\))\)")


def parse_game(text):
    """(num_agents, Toms' codes, engine seed, chooser seed, actions) from a playthrough file."""
    header = parse_header(text)
    if header.get("format") != str(FORMAT_VERSION):
        raise ValueError(f"playthrough format {header.get('format')!r}, expected {FORMAT_VERSION}")
    match = CONFIG_LINE.fullmatch(header.get("config", ""))
    if match is None:
        raise ValueError(f"unreadable config line {header.get('config')!r}")
    num_agents, toms = int(match.group(1)), ast.literal_eval(match.group(2))
    return (num_agents, tuple(toms), int(header["engine seed"]), int(header["chooser seed"]),
            parse_actions(text))


def replay_file(path):
    """Replay a golden file from its own header and action ids."""
    text = Path(path).read_text()
    num_agents, toms, engine_seed, chooser_seed, actions = parse_game(text)
    return text, play(num_agents, engine_seed, chooser_seed, actions, toms=toms)


def first_diff(expected, actual, name="playthrough", max_lines=60):
    """A unified diff (difflib) of the first differing lines, at most ``max_lines`` long."""
    diff = list(difflib.unified_diff(expected.splitlines(), actual.splitlines(),
                                     fromfile=f"{name} (golden file)", tofile=f"{name} (replayed)",
                                     lineterm="", n=3))
    if len(diff) > max_lines:
        diff = diff[:max_lines] + [f"... ({len(diff) - max_lines} more diff lines)"]
    return "\n".join(diff)
