"""The recipe of a game's shipped policies (``training/recipes/game_agents.py``): its commands come
from the game's record, are those that trained the shipped Construction Yard and 5th Avenue
policies, and serve a game that joins as a plug-in unchanged."""

from pathlib import Path

import pytest

from tests.plugin_game import plugin_game
from tiny_york_env.registry import get_game
from tiny_york_env.training.recipes import game_agents

PY = "python"
OUT = Path("runs/x")


def commands(name):
    """(training commands, match commands) of the recipe for ``name``, each as one string."""
    game = get_game(name)
    players = game_agents.recipe_players(game)
    training = [c for n in players for c in game_agents.training_commands(game, n, OUT, PY)]
    matches = [c for n in players for c in game_agents.match_commands(game, n, OUT, PY)]
    return [" ".join(c) for c in training], [" ".join(c) for c in matches]


# What training/train_construction_yard_agents.sh ran, the recipe of the shipped files (2026-11-25)
CONSTRUCTION_YARD_2P = [
    "python -m tiny_york_env.training.imitate --game construction_yard --players 2 --bots greedy "
    "--teacher greedy --games 4000 --epochs 10 --eval-games 200 --torch-threads 1 --seed 0 "
    "--no-progress --out runs/x/2p-bc",
    "python -m tiny_york_env.training.train_ppo --game construction_yard --players 2 --bots greedy "
    "--init-from runs/x/2p-bc/policy.zip --reward score --learning-rate 1e-4 --ent-coef 0.003 "
    "--total-steps 17989632 --eval-every 2000000 --eval-games 400 --checkpoint-every 2000000 --seed 2 "
    "--no-progress --out runs/x/2p-ppo",
    "python -m tiny_york_env.training.export runs/x/2p-ppo/policy.zip "
    "agents/models/construction_yard-2p.zip --stage runs/x/2p-bc --stage runs/x/2p-ppo",
]


def test_the_construction_yard_recipe_is_the_one_that_trained_its_shipped_policies():
    training, matches = commands("construction_yard")
    assert training[:3] == CONSTRUCTION_YARD_2P
    assert "--players 3 --bots greedy greedy" in training[3] and "--total-steps 23986176" in training[4]
    assert training[5].split()[4] == "agents/models/construction_yard-3p.zip"
    expected = [f"python -m tiny_york_env.cli eval --game construction_yard --vs ppo "
                f"{' '.join([opponent] * (n - 1))} --games 1000 --seed 0 --out runs/x/eval-{n}p-{opponent}"
                for n in (2, 3) for opponent in ("greedy", "random")]
    assert matches == expected


def test_the_fifth_avenue_recipe_has_its_own_numbers():
    training, _ = commands("fifth_avenue")
    assert "--games 3000 --epochs 8" in training[0]
    assert ("--total-steps 1966080 --eval-every 491520 --eval-games 200 --checkpoint-every 491520"
            in training[1])
    assert training[2].split()[4] == "agents/models/fifth_avenue-2p.zip"


def test_a_plugin_game_gets_the_recipe_from_its_own_record(capsys):
    """The tests' plug-in (registered by conftest as an outside game) names its recipe in its
    record alone."""
    game = get_game(plugin_game().name)
    assert game_agents.main([game.name, "--dry-run", "--python", PY, "--out", "runs/y"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith(f"python -m tiny_york_env.training.imitate --game {game.name} --players 2")
    assert f"agents/models/{game.name}-2p.zip" in printed[2]  # no shipped file: the name by convention
    assert len(printed) == 3 + 2  # one player count: its three stages and its two matches


def test_a_game_without_a_recipe_is_refused_naming_those_with_one(capsys):
    with pytest.raises(SystemExit):
        game_agents.main(["tiny_york", "--dry-run"])
    assert "Tiny York names no shipped recipe" in capsys.readouterr().err
