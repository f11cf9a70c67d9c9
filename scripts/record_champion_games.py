"""Record the champion's golden games: each game of ``GAMES`` played by the evaluation harness and
saved whole (every decision of every seat), into tests/playthroughs/champion/, with a manifest of
how each was played. ``tests/agents/test_champion_replay.py`` plays them again through the same
harness and expects every decision and the final scores alike, so a change that alters the
champion's play (its search, network, budget or the engine) shows as a failing test; a deliberate
change is recorded again with ``python scripts/record_champion_games.py [GAME ...]`` (the games
named, all when none is; the others' entries are kept)."""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "playthroughs" / "champion"
# (game, the ladder's rung, seed, game number): a Tiny York game against Tom 12, and each other
# game's two-player game against its greedy bot.
GAMES = (("tiny_york", 12, 11, 0), ("construction_yard", "greedy", 11, 0),
         ("fifth_avenue", "greedy", 11, 0))


def record(game: str, rung, seed: int, index: int) -> dict:
    """Play one champion game through the harness, copy its saved game into OUT, return its entry."""
    from tiny_york_env.arena.ladder import evaluate_ladder
    from tiny_york_env.arena.play import GameSaving
    with tempfile.TemporaryDirectory() as folder:
        results = evaluate_ladder("champion", [rung], games=1, seed=seed, first_game=index, progress=False,
                                  saving=GameSaving(folder, "all"), game=game, warm=False)
        (saved,) = Path(folder).glob("*.jsonl")
        name = f"{game}-{rung}-seed{seed}-game{index}.jsonl"
        shutil.copyfile(saved, OUT / name)
    return {"file": name, "game": game, "rung": rung, "seed": seed, "first_game": index,
            "version": results.settings["version"], "machine": results.settings["machine"],
            "played_on": results.settings["played_on"]}


def main(argv: list[str] | None = None) -> int:
    """Record the games of GAMES (those of the games named on the command line, all when none is)
    and write the manifest, keeping the other games' entries."""
    sys.path.insert(0, str(ROOT))
    import torch
    torch.set_num_threads(1)
    only = set(sys.argv[1:] if argv is None else argv)
    OUT.mkdir(parents=True, exist_ok=True)
    manifest = OUT / "games.json"
    kept = json.loads(manifest.read_text(encoding="utf-8")) if manifest.is_file() else []
    entries = []
    for game in GAMES:
        old = next((e for e in kept if (e["game"], e["rung"], e["seed"], e["first_game"]) == game), None)
        entries.append(old if only and game[0] not in only and old is not None else record(*game))
    manifest.write_text(json.dumps(entries, indent=1) + "\n", encoding="utf-8")
    print(f"recorded {sum(e not in kept for e in entries)} games in {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
