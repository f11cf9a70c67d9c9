"""Training for another game than Tiny York (``train_ppo --game``, ``selfplay --game``), the
policy files it writes (their card names the game) and PPOAgent playing them."""

import csv
import json
import zipfile

import numpy as np
import pytest
import sb3_contrib  # noqa: F401  (required: make test installs the train extra)

from tiny_york_env.agents.ppo_agent import PPOAgent, read_policy_file
from tiny_york_env.arena.match import evaluate_match
from tiny_york_env.registry import get_game
from tiny_york_env.training import selfplay as selfplay_module
from tiny_york_env.training.train_ppo import main as train_main
from tiny_york_env.training.train_ppo import make_config, train

GAME = "construction_yard"
SMOKE = {"num_envs": 8, "n_steps": 32, "batch_size": 64, "n_epochs": 1, "net_arch": (32,),
         "seed": 3, "progress": False}
SMOKE_STEPS = 1024


pytestmark = pytest.mark.usefixtures("one_torch_thread")  # tests/training/conftest.py


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """A smoke run for three-player Construction Yard against two greedy bots, one evaluation."""
    out = tmp_path_factory.mktemp("cy") / "run"
    return train(game=GAME, num_players=3, bots=("greedy", "greedy"), total_steps=SMOKE_STEPS,
                 out=out, eval_every=SMOKE_STEPS, eval_games=3, eval_opponents=("greedy", "random"),
                 **SMOKE)


def test_the_run_trains_on_the_game_and_records_it(trained):
    config = json.loads(trained.config_path.read_text())
    assert config["game"] == GAME and config["stages"] == [["greedy", "greedy"]]
    card, _ = read_policy_file(trained.policy_path)
    game = get_game(GAME)
    assert card["game"] == GAME and card["num_actions"] == game.num_actions
    assert card["observation_size"] == game.obs_size
    with open(trained.eval_csv, newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert {row["opponents"] for row in rows} == {"greedy", "random"}
    assert {row["training_against"] for row in rows} == {"greedy greedy"}
    assert all(not row["level"] for row in rows)  # matches: no rung


def test_the_policy_file_plays_legal_moves_through_the_contract(trained):
    agent = PPOAgent(trained.policy_path)
    assert agent.game.name == GAME
    results = evaluate_match(GAME, [f"ppo:{trained.policy_path}", "random", "greedy"], games=3,
                             seed=1, num_players=3, bots=())
    assert sum(row["wins"] for row in results["agents"]) == pytest.approx(3)


def test_a_policy_for_one_game_is_refused_for_another(trained):
    with pytest.raises(ValueError, match="plays Construction Yard"):
        PPOAgent(trained.policy_path, game="tiny_york")
    with pytest.raises(ValueError, match="cannot start from .* it plays Construction Yard, not Tiny York"):
        make_config(init_from=str(trained.policy_path))
    agent = PPOAgent(trained.policy_path)
    with pytest.raises(ValueError, match=r"float32\[231\]"):
        agent.act(np.zeros(10, np.float32), np.ones(get_game(GAME).num_actions, bool))


def test_a_run_starts_from_a_policy_of_its_game(trained, tmp_path):
    result = train(game=GAME, num_players=3, bots=("greedy", "greedy"), total_steps=256,
                   init_from=str(trained.policy_path), out=tmp_path / "next", **SMOKE)
    assert read_policy_file(result.policy_path)[0]["game"] == GAME


def test_a_card_naming_an_unknown_game_is_refused(trained, tmp_path):
    forged = tmp_path / "forged.zip"
    with zipfile.ZipFile(trained.policy_path) as source, zipfile.ZipFile(forged, "w") as target:
        card = json.loads(source.read("card.json"))
        card["game"] = "chess"
        target.writestr("card.json", json.dumps(card))
        target.writestr("policy.pt", source.read("policy.pt"))
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        PPOAgent(forged)


@pytest.mark.parametrize("options, message", [
    ({"game": GAME, "toms": (5,)}, "toms do not apply to Construction Yard"),
    ({"game": GAME, "curriculum": (1, 3)}, "rungs of Construction Yard are its bots"),
    ({"num_players": 3}, r"num_players \(--players\) 3: the learning seat and toms \['B4'\] are 2"),
    ({"game": GAME, "num_players": 3, "bots": ()}, r"one learning seat and bots \[\] are no setup"),
    ({"game": GAME, "num_players": 9}, "num_players"),
    ({"game": GAME, "eval_opponents": ("tom",)}, "eval_opponents must be agents of Construction Yard"),
    ({"game": "chess"}, "unknown game"),
])
def test_bad_game_options_are_refused_before_training(options, message):
    with pytest.raises(ValueError, match=message):
        make_config(**options)


def test_the_command_line_takes_the_game(tmp_path, capsys):
    assert train_main(["--game", GAME, "--players", "2", "--bots", "random", "--total-steps", "256",
                       "--num-envs", "4", "--n-steps", "64", "--batch-size", "64", "--net-arch",
                       "16", "--out", str(tmp_path / "cli"), "--no-progress"]) == 0
    assert "policy:" in capsys.readouterr().out
    assert json.loads((tmp_path / "cli" / "config.json").read_text())["stages"] == [["random"]]
    with pytest.raises(SystemExit):
        train_main(["--game", GAME, "--tom", "5", "--out", str(tmp_path / "bad")])


def test_selfplay_runs_for_construction_yard_with_baselines(tmp_path):
    result = selfplay_module.selfplay(
        out=tmp_path / "sp", progress=False, game=GAME, players=2, baselines=("greedy",),
        eval_opponents=("random", "oldest-snapshot"), total_steps=512, eval_every=512,
        eval_games=4, num_envs=2, n_steps=128, batch_size=64, n_epochs=1, snapshot_every=256)
    assert result.steps >= 512 and result.episodes
    for episode in result.episodes:  # two agent seats; Dirk's score is not a seat's
        assert len(episode.scores) == 2 and episode.winner in (0, 1)
    labels = {row["opponent"] for row in result.log if row["kind"] == "eval"}
    assert "random" in labels and any(label.startswith("snapshot_") for label in labels)
    assert read_policy_file(tmp_path / "sp" / "policy.zip")[0]["game"] == GAME


@pytest.mark.parametrize("options, message", [
    ({"toms": (5,)}, "toms do not apply to Construction Yard"),
    ({"baselines": ("tomrules",)}, "unknown agent 'tomrules'"),
    ({"players": 2, "bots": ("greedy",) * 5}, "num_players"),
])
def test_selfplay_refuses_bad_options_for_another_game(options, message):
    with pytest.raises(ValueError, match=message):
        selfplay_module.SelfPlayConfig(game=GAME, **options).check()


def test_selfplay_refuses_bots_for_tiny_york():
    with pytest.raises(ValueError, match="bots do not apply to Tiny York"):
        selfplay_module.SelfPlayConfig(bots=("greedy",)).check()


def test_imitation_clones_the_greedy_policy_of_another_game(tmp_path):
    from tiny_york_env.training.imitate import imitate
    result = imitate(game=GAME, num_players=2, bots=("greedy",), teacher="greedy", games=12, epochs=2,
                     batch_size=256, net_arch=(32,), eval_games=2, out=tmp_path / "bc", progress=False)
    assert result.decisions > 12 * 20 and result.history[-1]["train_accuracy"] > 0
    assert set(result.evaluation) == {"greedy", "random"}
    card, _ = read_policy_file(result.policy_path)
    assert card["game"] == GAME
    saved = json.loads((tmp_path / "bc" / "config.json").read_text())
    assert saved["game"] == GAME and saved["stages"] == [["greedy"]]
    with pytest.raises(ValueError, match="unknown agent 'tomrules'"):
        imitate(game=GAME, num_players=2, bots=("greedy",), teacher="tomrules", games=1,
                eval_games=0, out=tmp_path / "bad", progress=False)
