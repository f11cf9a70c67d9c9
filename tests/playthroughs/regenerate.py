"""Rewrite the golden playthrough files: ``python tests/playthroughs/regenerate.py`` (``make playthroughs``).

Each game in ``GAMES`` is played with actions drawn uniformly from the legal ones by a seeded
numpy Generator, then written as text by the same code the test replays with. Run it only
when a change of the engine's behaviour (or of the file format) is intended, and read the diff.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script: make the repository importable
    sys.path.insert(0, str(ROOT))

from tests.playthroughs.playthrough import GAMES, golden_path, play  # noqa: E402


def main():
    """Play and write every golden game; print what changed."""
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


if __name__ == "__main__":
    main()
