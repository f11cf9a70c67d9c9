"""The champion's network shipped in agents/models/champion.zip: a policy file (nothing pickled)
for Tiny York, described by its card with the expert-iteration record it came from, its weights
full precision (the file the champion's published figures were measured with), the default network
of ``make_agent("champion")`` and, played alone, at least as strong as a trained policy should be."""

import json
import zipfile

import torch  # noqa: F401  (required: make test installs the train extra)

from tests.agents.shipped_models import MAX_MODEL_BYTES
from tiny_york_env.agents.policy_search import ChampionAgent, PolicySearchAgent  # noqa: E402
from tiny_york_env.agents.ppo_agent import (  # noqa: E402
    CARD_MEMBER,
    CHAMPION_MODEL_PATH,
    DEFAULT_MODEL_PATH,
    WEIGHTS_MEMBER,
    load_policy,
)
from tiny_york_env.agents.registry import make_agent  # noqa: E402
from tiny_york_env.arena.ladder import evaluate_vs_toms

CARD_PATH = CHAMPION_MODEL_PATH.with_suffix(".json")
GENERATION_GAMES = 1400  # the champion's searched games it was fitted to (docs/champion.md)
STRENGTH_GAMES = 200
MIN_WIN_RATE_VS_TOM_5 = 0.7  # the network alone, seed 7: measured 0.780 (the shipped ppo 0.755)


def test_the_file_is_a_small_policy_file_described_by_its_card():
    assert CHAMPION_MODEL_PATH.is_file() and CHAMPION_MODEL_PATH.stat().st_size < MAX_MODEL_BYTES
    with zipfile.ZipFile(CHAMPION_MODEL_PATH) as archive:
        assert sorted(archive.namelist()) == sorted([CARD_MEMBER, WEIGHTS_MEMBER])  # nothing pickled
        inner = json.loads(archive.read(CARD_MEMBER))
    card = json.loads(CARD_PATH.read_text())
    assert card["bytes"] == CHAMPION_MODEL_PATH.stat().st_size and card["model"] == CHAMPION_MODEL_PATH.name
    assert {k: card[k] for k in inner} == inner  # the card beside it holds the file's own card
    assert inner["game"] == "tiny_york" and inner["weights_dtype"] == "float32"
    assert inner["written_by"] == "training.expert_iteration"


def test_the_card_keeps_the_expert_iteration_record():
    record = json.loads(CARD_PATH.read_text())["stages"][0]["generations"]
    (generation,) = record["generations"]
    assert generation["games"] == GENERATION_GAMES == record["settings"]["games"]
    assert generation["trained_from"].endswith(DEFAULT_MODEL_PATH.name)  # from the shipped ppo
    assert record["settings"]["selfplay_every"] == 0 and min(record["settings"]["levels"]) == 7


def test_it_is_the_champions_network_and_not_the_ppo_agents():
    champion = make_agent("champion", seed=0)
    assert isinstance(champion, ChampionAgent)
    assert champion.network.source == str(CHAMPION_MODEL_PATH)
    assert PolicySearchAgent(simulations=8).network.source == str(DEFAULT_MODEL_PATH)  # psearch keeps ppo
    ours, ppo = (load_policy(path).network.state_dict() for path in (CHAMPION_MODEL_PATH, DEFAULT_MODEL_PATH))
    assert not torch.equal(ours["action_net.weight"], ppo["action_net.weight"].float())


def test_the_network_alone_beats_tom_5():
    cell = evaluate_vs_toms(f"ppo:{CHAMPION_MODEL_PATH}", levels=(5,), games=STRENGTH_GAMES, seed=7,
                            progress=False).cells[0]
    assert cell.win_rate >= MIN_WIN_RATE_VS_TOM_5, cell
