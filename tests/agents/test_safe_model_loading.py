"""Loading models runs no code from them: policy files are read with json and
torch.load(weights_only=True); poisoned weights, stable-baselines3 checkpoints (whose pickled
``data`` would run code), foreign zips and garbage are clear ValueErrors and the poison never
runs. The observation index map feeds a policy exactly the layout it was trained on."""

import base64
import io
import json
import os
import pickle
import zipfile

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from tiny_york_env.agents.ppo_agent import (  # noqa: E402
    CARD_MEMBER,
    DEFAULT_MODEL_PATH,
    WEIGHTS_MEMBER,
    PPOAgent,
    adapt_to_current_layout,
    build_network,
    current_layout,
    load_policy,
    observation_index,
    policy_card,
    read_policy_file,
    write_policy_file,
)
from tiny_york_env.agents.registry import make_agent  # noqa: E402
from tiny_york_env.cli import main as cli_main  # noqa: E402
from tiny_york_env.games.tiny_york import NUM_ACTIONS, GameConfig, new_game  # noqa: E402
from tiny_york_env.games.tiny_york.observation import OBS_SIZE, OBS_SLICES, encode  # noqa: E402
from tiny_york_env.training.train_ppo import initial_tensors  # noqa: E402

TINY_NETWORK = {"pi": [8], "vf": [8], "activation": "tanh"}
EXPECTED = "expected a zip archive holding card.json and policy.pt"


class Plant:
    """Unpickling this creates the directory ``marker``: a stand-in for any code a file could run."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return os.mkdir, (self.marker,)


def poisoned_pickle(marker):
    """Plain pickle bytes that create ``marker`` when unpickled."""
    return pickle.dumps(Plant(marker), protocol=2)  # the protocol torch.load expects


def poisoned_torch_file(marker):
    """A torch.save file whose state dict creates ``marker`` when loaded without weights_only."""
    buffer = io.BytesIO()
    torch.save({"mlp_extractor.policy_net.0.weight": Plant(marker)}, buffer)
    return buffer.getvalue()


def write_zip(path, members):
    """A zip at ``path`` holding ``members`` (name -> bytes or str)."""
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def tiny_card(layout=None, **changes):
    """The card of a tiny policy network (8 hidden units) on ``layout`` (default the current one)."""
    return {**policy_card(TINY_NETWORK, layout), **changes}


def write_tiny_policy(path, layout=None, seed=0):
    """A policy file of a randomly initialised tiny network; returns (card, network)."""
    torch.manual_seed(seed)
    card = tiny_card(layout)
    network = build_network(card)
    with open(path, "wb") as handle:
        write_policy_file(handle, card, network.state_dict())
    return card, network


def poisoned_sb3_checkpoint(path, marker):
    """A zip laid out like stable-baselines3's model.save: its ``data`` JSON holds a cloudpickle
    payload (SB3's ":serialized:" entries) and its policy.pth a poisoned torch file."""
    data = {"policy_kwargs": {"net_arch": [8]},
            "observation_space": {":type:": "<class 'gymnasium.spaces.box.Box'>",
                                  ":serialized:": base64.b64encode(poisoned_pickle(marker)).decode()}}
    return write_zip(path, {"data": json.dumps(data), "policy.pth": poisoned_torch_file(marker),
                            "pytorch_variables.pth": poisoned_torch_file(marker),
                            "_stable_baselines3_version": "2.9.2"})


# ---------------------------------------------------------------- poison is never run

def test_the_payloads_really_run_code_when_unpickled(tmp_path):
    """The poison used below is real: plain unpickling creates the marker."""
    marker = tmp_path / "ran"
    pickle.loads(poisoned_pickle(marker))
    assert marker.is_dir()
    marker.rmdir()
    torch.load(io.BytesIO(poisoned_torch_file(marker)), weights_only=False)
    assert marker.is_dir()


@pytest.mark.parametrize("weights", ["pickle", "torch"])
def test_poisoned_weights_in_a_policy_file_are_refused_without_running(tmp_path, weights):
    marker = tmp_path / "ran"
    payload = poisoned_pickle(marker) if weights == "pickle" else poisoned_torch_file(marker)
    path = write_zip(tmp_path / "evil.zip", {CARD_MEMBER: json.dumps(tiny_card()), WEIGHTS_MEMBER: payload})
    with pytest.raises(ValueError, match=r"weights are not a plain tensor file.*weights_only=True"):
        PPOAgent(path)
    with pytest.raises(ValueError, match="weights_only=True"):
        make_agent(f"ppo:{path}")
    with pytest.raises(ValueError, match="weights_only=True"):
        initial_tensors(path)  # train_ppo --init-from
    assert not marker.exists()


def test_a_poisoned_sb3_checkpoint_is_refused_without_running(tmp_path, capsys):
    marker = tmp_path / "ran"
    path = poisoned_sb3_checkpoint(tmp_path / "model.zip", marker)
    with pytest.raises(ValueError, match="stable-baselines3 checkpoint: loading it would unpickle"):
        PPOAgent(path)
    with pytest.raises(ValueError, match="stable-baselines3 checkpoint.*unsafe_unpickle=True"):
        make_agent(f"ppo:{path}", seed=1)
    with pytest.raises(SystemExit) as exit_info:
        cli_main(["eval", "--agent", f"ppo:{path}", "--levels", "1", "--games", "1",
                  "--out", str(tmp_path / "out"), "--no-progress"], stdout=io.StringIO())
    assert exit_info.value.code == 2
    assert "--unsafe-unpickle" in capsys.readouterr().err
    with pytest.raises(ValueError, match="weights_only=True"):
        initial_tensors(path)  # train_ppo --init-from reads its tensors only, and refuses these
    assert not marker.exists()


def test_sb3s_own_loader_would_run_that_checkpoint(tmp_path):
    """What the refusal prevents: MaskablePPO.load unpickles ``data`` and the marker appears."""
    sb3_contrib = pytest.importorskip("sb3_contrib")
    marker = tmp_path / "ran"
    path = poisoned_sb3_checkpoint(tmp_path / "model.zip", marker)
    with pytest.raises(Exception):  # noqa: B017 - it fails after running the payload
        sb3_contrib.MaskablePPO.load(path)
    assert marker.is_dir()


def test_export_refuses_a_poisoned_checkpoint_without_running(tmp_path, capsys):
    from tiny_york_env.training.export import main as export_main
    marker = tmp_path / "ran"
    path = poisoned_sb3_checkpoint(tmp_path / "model.zip", marker)
    with pytest.raises(SystemExit):
        export_main([str(path), str(tmp_path / "out.zip")])
    assert "stable-baselines3 checkpoint" in capsys.readouterr().err
    assert not marker.exists() and not (tmp_path / "out.zip").exists()


# ---------------------------------------------------------------- foreign files

@pytest.mark.parametrize("content, message", [
    (b"\x00garbage, not a zip\xff" * 10, EXPECTED),
    ("ZIP:readme.txt", EXPECTED + r".*\['readme.txt'\]"),
    ("CARD:[1, 2]", "card.json is not a 'tiny-york-policy' model card"),
    ("CARD:{not json", "card.json is not JSON"),
])
def test_foreign_files_are_clear_errors(tmp_path, content, message):
    path = tmp_path / "foreign.zip"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content.startswith("ZIP:"):
        write_zip(path, {content[4:]: "hello"})
    else:
        write_zip(path, {CARD_MEMBER: content[5:], WEIGHTS_MEMBER: b"x"})
    with pytest.raises(ValueError, match=message):
        PPOAgent(path)


def test_weights_that_do_not_fit_the_card_are_refused(tmp_path):
    card = tiny_card()
    other = build_network({**card, "network": {**TINY_NETWORK, "pi": [4]}})
    with open(tmp_path / "p.zip", "wb") as handle:
        with zipfile.ZipFile(handle, "w") as archive:
            archive.writestr(CARD_MEMBER, json.dumps(card))
            buffer = io.BytesIO()
            torch.save(other.state_dict(), buffer)
            archive.writestr(WEIGHTS_MEMBER, buffer.getvalue())
    with pytest.raises(ValueError, match="do not fit the network its card describes"):
        PPOAgent(tmp_path / "p.zip")


@pytest.mark.parametrize("changes, message", [
    ({"num_actions": NUM_ACTIONS + 1},
     f"among {NUM_ACTIONS + 1} actions, but Tiny York's action codec has {NUM_ACTIONS}"),
    ({"format_version": 99}, "format version 99"),
    ({"observation_size": 3}, "observation_size 3 is not the layout's total"),
    ({"network": {"pi": [8], "vf": [8], "activation": "gelu"}}, "activation 'gelu'"),
])
def test_cards_this_loader_cannot_build_are_refused(tmp_path, changes, message):
    card = tiny_card(**changes)
    network = build_network(tiny_card())
    buffer = io.BytesIO()
    torch.save(network.state_dict(), buffer)
    write_zip(tmp_path / "p.zip", {CARD_MEMBER: json.dumps(card), WEIGHTS_MEMBER: buffer.getvalue()})
    with pytest.raises(ValueError, match=message):
        PPOAgent(tmp_path / "p.zip")


# ---------------------------------------------------------------- the observation layout

def test_index_map_of_a_synthetic_layout():
    slices = {"a": slice(0, 3), "new": slice(3, 5), "b": slice(5, 9)}
    assert observation_index([["a", 2], ["b", 4]], slices).tolist() == [0, 1, 5, 6, 7, 8]
    assert observation_index([["b", 1], ["a", 3]], slices).tolist() == [5, 0, 1, 2]
    with pytest.raises(ValueError, match="'gone' .* which the current encoder no longer has"):
        observation_index([["a", 2], ["gone", 1]], slices)
    with pytest.raises(ValueError, match="'b' has 4 entries now, but the model was trained on 5"):
        observation_index([["b", 5]], slices)


def test_index_map_of_the_shipped_layout_reads_each_part_from_its_namesake():
    layout = load_policy(DEFAULT_MODEL_PATH).card["observation_layout"]
    index = observation_index(layout)
    assert len(index) == sum(size for _, size in layout) and len(set(index.tolist())) == len(index)
    offset = 0
    for name, size in layout:
        start = OBS_SLICES[name].start
        assert index[offset:offset + size].tolist() == list(range(start, start + size)), name
        offset += size
    trained = {name for name, _ in layout}
    unseen = [i for name, part in OBS_SLICES.items() if name not in trained
              for i in range(part.start, part.stop)]
    assert not set(unseen) & set(index.tolist())


def older_layout():
    """The current layout less one part, with another part one entry shorter (as an encoder
    before a part was added and a one-hot grew)."""
    layout = [entry for entry in current_layout() if entry[0] != "seat_bid"]
    return [[name, size - 1] if name == "stage" else [name, size] for name, size in layout]


def test_a_policy_sees_only_the_layout_it_was_trained_on(tmp_path):
    layout = older_layout()
    card, network = write_tiny_policy(tmp_path / "old.zip", layout)
    agent = PPOAgent(tmp_path / "old.zip")
    index = observation_index(layout)
    np.testing.assert_array_equal(agent.index, index)
    observation = encode(new_game(GameConfig(num_agents=2, toms=(5,)), seed=3), 0)
    with torch.no_grad():
        direct = network["action_net"](network["mlp_extractor"]["policy_net"](
            torch.as_tensor(observation[index]).reshape(1, -1)))[0].numpy()
    np.testing.assert_array_equal(agent.action_logits(observation), direct)
    unseen = observation.copy()
    unseen[OBS_SLICES["seat_bid"]] = 0.7  # a part it never saw
    unseen[OBS_SLICES["stage"].stop - 1] = 1.0  # the appended one-hot entry
    np.testing.assert_array_equal(agent.action_logits(unseen), direct)
    seen = observation.copy()
    seen[OBS_SLICES["seat_points"].start] += 0.5
    assert not np.array_equal(agent.action_logits(seen), direct)


def test_a_policy_on_the_current_layout_needs_no_index(tmp_path):
    write_tiny_policy(tmp_path / "now.zip")
    assert PPOAgent(tmp_path / "now.zip").index is None


def test_widened_weights_compute_what_the_old_network_did(tmp_path):
    """train_ppo --init-from of a policy trained on an older layout: zero columns for new entries."""
    layout = older_layout()
    _, network = write_tiny_policy(tmp_path / "old.zip", layout)
    card, state = read_policy_file(tmp_path / "old.zip")
    widened = build_network(policy_card(TINY_NETWORK))
    widened.load_state_dict(adapt_to_current_layout(card, state))
    observation = torch.as_tensor(encode(new_game(GameConfig(num_agents=1, toms=(5,)), seed=2), 0))
    with torch.no_grad():
        old = network["mlp_extractor"]["value_net"](observation[observation_index(layout)].reshape(1, -1))
        new = widened["mlp_extractor"]["value_net"](observation.reshape(1, -1))
    torch.testing.assert_close(new, old)


def test_a_layout_the_encoder_cannot_serve_is_refused(tmp_path):
    grown = [[name, size + 1] if name == "round" else [name, size] for name, size in current_layout()]
    write_tiny_policy(tmp_path / "future.zip", grown)
    with pytest.raises(ValueError, match="'round' has .* entries now, but the model was trained on"):
        PPOAgent(tmp_path / "future.zip")
    renamed = [["a_part_that_went_away", 2], *current_layout()]
    write_tiny_policy(tmp_path / "renamed.zip", renamed)
    with pytest.raises(ValueError, match="'a_part_that_went_away' .* no longer has"):
        PPOAgent(tmp_path / "renamed.zip")


def test_the_observation_must_have_the_current_size(tmp_path):
    write_tiny_policy(tmp_path / "now.zip")
    agent = PPOAgent(tmp_path / "now.zip")
    with pytest.raises(ValueError, match=f"observation must be float32\\[{OBS_SIZE}\\]"):
        agent.act(np.zeros(OBS_SIZE - 1, dtype=np.float32), np.ones(NUM_ACTIONS, dtype=bool))


# ---------------------------------------------------------------- opting in to unpickling

def test_a_real_sb3_checkpoint_plays_only_with_the_opt_in(tmp_path, capsys):
    sb3_contrib = pytest.importorskip("sb3_contrib")
    import gymnasium

    class Spaces(gymnasium.Env):
        observation_space = gymnasium.spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32)
        action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)

    model = sb3_contrib.MaskablePPO("MlpPolicy", Spaces(), n_steps=8, batch_size=8,
                                    policy_kwargs={"net_arch": [8]})
    model.save(tmp_path / "Model.zip")
    spec = f"ppo:{tmp_path / 'Model.zip'}"
    with pytest.raises(ValueError, match="stable-baselines3 checkpoint"):
        make_agent(spec)
    in_memory = PPOAgent(model)
    opted_in = PPOAgent(tmp_path / "Model.zip", unsafe_unpickle=True)
    observation = encode(new_game(GameConfig(num_agents=1, toms=(5,)), seed=1), 0)
    np.testing.assert_array_equal(opted_in.action_logits(observation), in_memory.action_logits(observation))
    argv = ["eval", "--agent", spec, "--levels", "1", "--games", "1", "--out", str(tmp_path / "o"),
            "--no-progress"]
    with pytest.raises(SystemExit):
        cli_main(argv, stdout=io.StringIO())
    assert "stable-baselines3 checkpoint" in capsys.readouterr().err
    out = io.StringIO()
    assert cli_main(argv + ["--unsafe-unpickle"], stdout=out) == 0
    assert spec in out.getvalue()
    match = ["eval", "--vs", spec, "random", "--games", "2", "--out", str(tmp_path / "m"), "--no-progress"]
    with pytest.raises(SystemExit):  # a match keeps the opt-in too, or refuses without it
        cli_main(match, stdout=io.StringIO())
    assert "stable-baselines3 checkpoint" in capsys.readouterr().err
    assert cli_main(match + ["--unsafe-unpickle"], stdout=io.StringIO()) == 0


def test_help_says_what_the_opt_in_does(capsys):
    with pytest.raises(SystemExit):
        cli_main(["eval", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--unsafe-unpickle" in text and "runs code from the file" in text
