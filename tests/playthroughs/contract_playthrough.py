"""Golden playthroughs of any registered game, through the game contract only.

A playthrough file pins a whole game: a header (game, config, seeds), then one line per decision
(seat, action id, its description) with the scores after every change, and the final breakdown.
The test replays the recorded action ids (not drawn again) and compares the text exactly, so a
change in the engine shows as a diff at the first decision it touches. Regenerate (only for an
intended change, then read the diff): ``python -m tests.playthroughs.contract_playthrough``.
"""

import difflib
import json
from pathlib import Path

import numpy as np

from tiny_york_env.registry import get_game

HERE = Path(__file__).resolve().parent / "games"
REGENERATE_COMMAND = "python -m tests.playthroughs.contract_playthrough"
# (game, config keywords, engine seed, chooser seed): Construction Yard for 2 (with Dirk), 3, 6,
# and 4 with two engine bots (their moves in "bot:" lines, from the engine's log); 5th Avenue
# for 2 (with Alea), 3 (one random bot) and 4.
GAMES = (
    ("construction_yard", {"num_players": 2}, 1, 101),
    ("construction_yard", {"num_players": 3}, 2, 102),
    ("construction_yard", {"num_players": 6}, 3, 103),
    ("construction_yard", {"num_players": 4, "bots": ["greedy", "random"]}, 4, 104),
    ("fifth_avenue", {"num_players": 2}, 1, 201),  # with Alea
    ("fifth_avenue", {"num_players": 3, "bots": ["random"]}, 2, 202),
    ("fifth_avenue", {"num_players": 4}, 3, 203),
)


def golden_path(name, config, seed):
    """The file of one golden game."""
    players = "_".join(f"{k}{'-'.join(v) if isinstance(v, list) else v}"
                       for k, v in sorted(config.items()))
    return HERE / f"{name}_{players}_seed{seed}.txt"


def scores_line(game, state):
    """The running totals: every scoring row of Construction Yard's ``score_lines`` (the last
    row Dirk's), 5th Avenue's ``score`` per seat."""
    rec = state.reshape(1)[0]
    if "score_lines" in rec.dtype.names:
        return " ".join(str(int(v)) for v in rec["score_lines"].sum(axis=1))
    return " ".join(str(int(v)) for v in rec["score"][:rec["num_players"]])


def automatic_moves(game, state):
    """The engine's log of its own players' moves, where the game keeps one."""
    return game.automatic_moves(state) if game.automatic_moves else []


def play(name, config, seed, chooser_seed, actions=None):
    """(text, actions) of the game; the actions are drawn by a seeded Generator unless given."""
    game = get_game(name)
    state = game.new_game(game.make_config(**config), seed)
    rng = np.random.default_rng(chooser_seed)
    lines = [f"# {game.title} playthrough", f"game: {name}", f"config: {json.dumps(config, sort_keys=True)}",
             f"seed: {seed}", f"chooser_seed: {chooser_seed}", ""]
    played, last_scores = [], scores_line(game, state)
    lines.append(f"scores: {last_scores}")
    lines += [f"  bot: seat {s}: {words}" for s, words in automatic_moves(game, state)]
    while not game.is_terminal(state):
        seat = game.current_player(state)
        legal = np.flatnonzero(game.legal_mask(state))
        action = int(rng.choice(legal)) if actions is None else actions[len(played)]
        game.apply_action(state, action)
        played.append(action)
        lines.append(f"seat {seat}: {action} {game.describe_action(action)}")
        lines += [f"  bot: seat {s}: {words}" for s, words in automatic_moves(game, state)]
        scores = scores_line(game, state)
        if scores != last_scores:
            lines.append(f"scores: {scores}")
            last_scores = scores
    lines += ["", "final:"] + [json.dumps(b, sort_keys=True) for b in game.score_breakdown(state)]
    lines.append(f"winners: {list(game.winners(state))}")
    lines += ["", game.render_text(state), ""]
    return "\n".join(lines), played


def recorded_actions(text):
    """The action ids of a playthrough file, in order."""
    return [int(line.split(": ", 1)[1].split()[0]) for line in text.splitlines() if line.startswith("seat ")]


def first_diff(expected, actual, name):
    """The first lines of a unified diff between the golden text and the replay."""
    diff = difflib.unified_diff(expected.splitlines(), actual.splitlines(), name, "replay", lineterm="")
    return "\n".join(list(diff)[:30])


def main():
    """Play and write every golden game; print what changed."""
    HERE.mkdir(exist_ok=True)
    for name, config, seed, chooser_seed in GAMES:
        text, played = play(name, config, seed, chooser_seed)
        path = golden_path(name, config, seed)
        old = path.read_text() if path.exists() else None
        path.write_text(text)
        status = "unchanged" if old == text else ("new" if old is None else "rewritten")
        print(f"{path.name}: {len(played)} decisions, {status}")


if __name__ == "__main__":
    main()
