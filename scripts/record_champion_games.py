"""Record the champion's golden games: each game of ``GAMES`` played by the evaluation harness and
saved whole (every decision of every seat), into tests/playthroughs/champion/, with a manifest of
how each was played. ``tests/agents/test_champion_replay.py`` plays them again through the same
harness and expects every decision and the final scores alike, so a change that alters the
champion's play (its search, network, budget or the engine) shows as a failing test; a deliberate
change is recorded again with ``python scripts/record_champion_games.py``."""

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
    from tiny_york_env.training.evaluate import GameSaving, evaluate_ladder
    with tempfile.TemporaryDirectory() as folder:
        results = evaluate_ladder("champion", [rung], games=1, seed=seed, first_game=index, progress=False,
                                  saving=GameSaving(folder, "all"), game=game, warm=False)
        (saved,) = Path(folder).glob("*.jsonl")
        name = f"{game}-{rung}-seed{seed}-game{index}.jsonl"
        shutil.copyfile(saved, OUT / name)
    return {"file": name, "game": game, "rung": rung, "seed": seed, "first_game": index,
            "version": results.settings["version"], "machine": results.settings["machine"],
            "played_on": results.settings["played_on"]}


def main() -> int:
    """Record every game of GAMES and write the manifest."""
    sys.path.insert(0, str(ROOT))
    import torch
    torch.set_num_threads(1)
    OUT.mkdir(parents=True, exist_ok=True)
    entries = [record(*game) for game in GAMES]
    (OUT / "games.json").write_text(json.dumps(entries, indent=1) + "\n", encoding="utf-8")
    print(f"recorded {len(entries)} games in {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
