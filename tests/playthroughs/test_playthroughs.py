"""Golden playthroughs: replay each recorded game from its file and compare the text exactly.

The action ids are read from the file (not drawn again), so a change in the engine shows as a
diff at the first decision it touches. Regenerate the files only for an intended change.
"""

import pytest

from tests.playthroughs.playthrough import (
    GAMES,
    HERE,
    REGENERATE_COMMAND,
    file_name,
    first_diff,
    game_config,
    golden_path,
    parse_game,
    replay_file,
)


@pytest.mark.parametrize("num_agents, toms, engine_seed, chooser_seed", GAMES,
                         ids=[file_name(a, t, s) for a, t, s, _ in GAMES])
def test_playthrough_replays_exactly(num_agents, toms, engine_seed, chooser_seed):
    path = golden_path(num_agents, toms, engine_seed)
    assert path.exists(), f"{path.name} is missing; create it with: {REGENERATE_COMMAND}"
    expected, game = replay_file(path)
    codes = game_config(num_agents, toms).toms
    assert parse_game(expected)[:4] == (num_agents, codes, engine_seed, chooser_seed), (
        f"{path.name}: its header's config and seeds differ from GAMES; run: {REGENERATE_COMMAND}")
    problems = "".join(f"\n  {p}" for p in game.problems)
    if game.problems or game.text != expected:
        pytest.fail(f"{path.name} no longer matches the engine."
                    + (f"\nReplaying its recorded actions failed:{problems}" if problems else "")
                    + f"\nFirst differences:\n{first_diff(expected, game.text, path.name)}\n"
                    f"If the change is intended, run: {REGENERATE_COMMAND} and review the diff.",
                    pytrace=False)


def test_no_stray_playthrough_files():
    expected = {file_name(a, t, s) for a, t, s, _ in GAMES}
    found = {p.name for p in HERE.glob("*.txt")}
    assert found == expected, (f"golden files {sorted(found - expected)} are not in GAMES and "
                               f"{sorted(expected - found)} are missing; run: {REGENERATE_COMMAND}")
