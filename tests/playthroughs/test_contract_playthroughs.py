"""Golden playthroughs of the other games through the game contract (contract_playthrough.py)."""

import pytest

from tests.playthroughs.contract_playthrough import (
    GAMES,
    HERE,
    REGENERATE_COMMAND,
    first_diff,
    golden_path,
    play,
    recorded_actions,
)


@pytest.mark.parametrize("name, config, seed, chooser_seed", GAMES,
                         ids=[golden_path(*g[:3]).stem for g in GAMES])
def test_playthrough_replays_exactly(name, config, seed, chooser_seed):
    path = golden_path(name, config, seed)
    assert path.exists(), f"{path.name} is missing; create it with: {REGENERATE_COMMAND}"
    expected = path.read_text()
    actual, _ = play(name, config, seed, chooser_seed, actions=recorded_actions(expected))
    if actual != expected:
        diff = first_diff(expected, actual, path.name)
        pytest.fail(f"{path.name} no longer matches the engine:\n{diff}\nIf the change is intended, "
                    f"run: {REGENERATE_COMMAND} and review the diff.", pytrace=False)


def test_no_stray_files():
    assert sorted(p.name for p in HERE.glob("*.txt")) == sorted(golden_path(*g[:3]).name for g in GAMES)
