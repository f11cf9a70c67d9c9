"""The trained policies shipped in agents/models for the contract's games (Construction Yard:
construction_yard-2p.zip with Dirk, construction_yard-3p.zip; 5th Avenue: fifth_avenue-2p.zip with
Alea, fifth_avenue-3p.zip): policy files for their game, described by their model cards, playing
only legal actions through the contract, far stronger than random play, and holding their own
against the greedy bots (the published figures come from 1,000-game matches)."""

import json
import zipfile

import pytest

from tests.agents.shipped_models import MAX_MODEL_BYTES
from tiny_york_env.agents.ppo_agent import CARD_MEMBER, WEIGHTS_MEMBER, PPOAgent
from tiny_york_env.agents.shipped import shipped_policy_path
from tiny_york_env.arena.match import evaluate_match
from tiny_york_env.registry import get_game

STRENGTH_GAMES = 60
MIN_WIN_RATE_VS_RANDOM = 0.9  # measured 0.965-1.000 for every shipped policy (docs/results)
# Against the greedy policy in every other seat, per (game, players). Construction Yard: above an
# equal share; measured over 1,000 games 0.669 (2 players) and 0.443 (3, an equal share 0.333),
# these 60 seeded games give 0.642 and 0.392. 5th Avenue: measured over 1,000 games 0.638 with
# 2 players (after two generations of expert iteration; 0.489 after one, the PPO policy before them
# 0.456), these 60 give 0.517; with 3 players near greedy's level, 0.328 over 1,000 and 0.383 over
# these 60, where the behaviour clone the training started from gave 0.10 (200 games): bounds a
# broken policy does not reach.
MIN_WIN_RATE_VS_GREEDY = {("construction_yard", 2): 0.55, ("construction_yard", 3): 0.35,
                          ("fifth_avenue", 2): 0.45, ("fifth_avenue", 3): 0.25}


def card_players(card: dict, game) -> int:
    """The number of players a shipped card's last training stage played: a training run's setup,
    or an expert-iteration run's solo games (one agent against the first rung of its levels)."""
    last = card["stages"][-1]
    if "config" in last:
        return last["config"]["setup"]["num_players"]
    settings = last["generations"]["settings"]
    assert settings["game"] == game.name
    return game.num_participants(game.seat_config(1, tuple(settings["levels"][:1])))


@pytest.fixture(params=sorted(MIN_WIN_RATE_VS_GREEDY), ids=lambda key: f"{key[0]}-{key[1]}p")
def shipped(request):
    """(game, players) of each shipped policy."""
    return get_game(request.param[0]), request.param[1]


def test_each_shipped_file_is_a_small_policy_file_for_the_game(shipped):
    game, players = shipped
    path = shipped_policy_path(game, players)
    assert path.is_file() and path.stat().st_size < MAX_MODEL_BYTES
    with zipfile.ZipFile(path) as archive:
        assert sorted(archive.namelist()) == sorted([CARD_MEMBER, WEIGHTS_MEMBER])  # nothing pickled
        inner = json.loads(archive.read(CARD_MEMBER))
    card = json.loads(path.with_suffix(".json").read_text())
    assert card["bytes"] == path.stat().st_size and inner["game"] == game.name
    assert {k: card[k] for k in inner} == inner
    assert card["observation_size"] == game.obs_size and card["num_actions"] == game.num_actions
    assert card_players(card, game) == players
    assert PPOAgent(path).game.name == game.name


def test_the_shipped_policy_beats_random_play(shipped):
    game, players = shipped
    results = evaluate_match(game.name, ["ppo"] + ["random"] * (players - 1), games=STRENGTH_GAMES,
                             seed=11, num_players=players, bots=())
    assert results["agents"][0]["win_rate"] >= MIN_WIN_RATE_VS_RANDOM


def test_the_shipped_policy_holds_its_own_against_greedy(shipped):
    game, players = shipped
    results = evaluate_match(game.name, ["ppo"] + ["greedy"] * (players - 1), games=STRENGTH_GAMES,
                             seed=12, num_players=players, bots=())
    assert results["agents"][0]["win_rate"] >= MIN_WIN_RATE_VS_GREEDY[game.name, players]


@pytest.mark.parametrize("game_name, title", [("construction_yard", "Construction Yard"),
                                              ("fifth_avenue", "5th Avenue")])
def test_no_policy_is_shipped_for_other_player_counts(game_name, title):
    with pytest.raises(ValueError, match=f"no trained policy is shipped for {title} with 4"):
        shipped_policy_path(get_game(game_name), 4)
