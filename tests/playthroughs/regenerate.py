"""Rewrite the golden playthrough files: ``python tests/playthroughs/regenerate.py [--game NAME]``
(``make playthroughs``).

Each game in ``GAMES`` is played with actions drawn uniformly from the legal ones by a seeded
numpy Generator, then written as text by the same code the test replays with. Run it only
when a change of the engine's behaviour (or of the file format) is intended, and read the diff.

Without ``--game`` every golden file is rewritten: Tiny York's (``playthrough.py``, its own
detailed format) and the other games' (``contract_playthrough.py``, through the game contract,
in ``games/``). ``--game NAME`` rewrites only that game's files, so a change in one engine
leaves the other games' files untouched.
"""

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script: make the repository importable
    sys.path.insert(0, str(ROOT))

from tests.playthroughs import contract_playthrough  # noqa: E402
from tests.playthroughs.playthrough import GAMES, golden_path, play  # noqa: E402

TINY_YORK = "tiny_york"


def regenerate_tiny_york():
    """Play and write Tiny York's golden games; print what changed."""
    for num_agents, toms, engine_seed, chooser_seed in GAMES:
        game = play(num_agents, engine_seed, chooser_seed, toms=toms)
        if game.problems:
            raise SystemExit(f"agents {num_agents}, Toms {toms}, seed {engine_seed}: "
                             + "; ".join(game.problems))
        path = golden_path(num_agents, toms, engine_seed)
        old = path.read_text() if path.exists() else None
        path.write_text(game.text)
        status = "unchanged" if old == game.text else ("new" if old is None else "rewritten")
        print(f"{path.relative_to(ROOT)}: {len(game.actions)} decisions, "
              f"{len(game.text.encode())} bytes, {status}")


def regenerate_contract_games(name=None):
    """Play and write the golden games of the other games (all, or only ``name``'s)."""
    contract_playthrough.HERE.mkdir(exist_ok=True)
    for game, config, seed, chooser_seed in contract_playthrough.GAMES:
        if name is not None and game != name:
            continue
        text, played = contract_playthrough.play(game, config, seed, chooser_seed)
        path = contract_playthrough.golden_path(game, config, seed)
        old = path.read_text() if path.exists() else None
        path.write_text(text)
        status = "unchanged" if old == text else ("new" if old is None else "rewritten")
        print(f"{path.relative_to(ROOT)}: {len(played)} decisions, {len(text.encode())} bytes, {status}")


def game_names():
    """The games that have golden playthroughs."""
    return [TINY_YORK] + sorted({g[0] for g in contract_playthrough.GAMES})


def main(argv=None):
    """Rewrite every golden file, or only those of ``--game``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=game_names(), help="rewrite only this game's files")
    args = parser.parse_args(argv)
    if args.game in (None, TINY_YORK):
        regenerate_tiny_york()
    if args.game != TINY_YORK:
        regenerate_contract_games(args.game)


if __name__ == "__main__":
    main()
