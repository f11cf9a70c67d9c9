"""``RLlibAgent``: a module trained by ``training/rllib_train.py`` playing one seat, loaded without
running code from the run's files.

``make_agent("rllib:OUT")`` reads ``OUT/rllib.json`` (the run's card: game, network, policies)
and the module's weights from ``OUT/checkpoint/learner_group/learner/rl_module/<policy>/
module_state.msgpack``. Those are decoded with a restricted msgpack reader that accepts only
plain numeric arrays (msgpack-numpy would unpickle an object array); RLlib's ``*.pkl`` files in
the checkpoint (class and constructor arguments) are never read. RLlib's default PPO network with
separate actor and critic MLPs is exactly SB3's MlpPolicy with ``pi``/``vf`` layers, so the
weights are renamed to the project's policy-file names and played by ``PPOAgent``'s code:
deterministic play takes the most likely legal action.

A run with one module per seat (``--policies per-seat``) plays ``policy="seat_0"`` unless told
otherwise; a shared run plays its one module from any seat.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import numpy as np

from tiny_york_env.agents.ppo_agent import PPOAgent, build_network, file_actor, load_into, policy_card
from tiny_york_env.registry import get_game

CARD_NAME = "rllib.json"
CARD_FORMAT = "tiny-york-rllib"
CHECKPOINT_DIR = "checkpoint"
MODULE_DIR = ("learner_group", "learner", "rl_module")
POLICY_ID = re.compile(r"[A-Za-z0-9_]{1,40}")
MAX_LAYERS, MAX_WIDTH = 8, 4096
MODULE_STATE = "module_state.msgpack"
MAX_STATE_BYTES = 512 * 1024 * 1024
NUMERIC_KINDS = "biuf"  # bool, int, uint, float arrays only
# RLlib's parameter names -> the project's (SB3 MlpPolicy) names.
RENAMES = (("encoder.actor_encoder.net.mlp.", "mlp_extractor.policy_net."),
           ("encoder.critic_encoder.net.mlp.", "mlp_extractor.value_net."),
           ("pi.net.mlp.0.", "action_net."), ("vf.net.mlp.0.", "value_net."))
IGNORED = ("pi.log_std_clip_param_const", "vf.log_std_clip_param_const")


def _decode(obj: dict) -> Any:
    """msgpack-numpy's array encoding, numeric arrays only; anything else is refused."""
    if b"nd" not in obj:
        return obj
    kind, dtype = obj.get(b"kind", b""), obj.get(b"type")
    if kind not in (b"", "") or not isinstance(dtype, str):
        raise ValueError("the module state holds a non-numeric array (it would need unpickling)")
    try:
        dtype = np.dtype(dtype)
        if dtype.kind not in NUMERIC_KINDS:
            raise ValueError(f"the module state holds an array of dtype {dtype}, not a numeric one")
        data = np.frombuffer(obj[b"data"], dtype=dtype)
        if obj[b"nd"] is True:
            return data.reshape(tuple(obj[b"shape"])).copy()
        return data[0]
    except (KeyError, IndexError, TypeError) as error:
        raise ValueError(f"the module state holds a malformed array ({error!r})") from None


def read_module_state(path: str | os.PathLike[str]) -> dict[str, np.ndarray]:
    """The flat name -> array weights of an RLlib module state file (msgpack), safely."""
    try:
        from msgpack import exceptions
        try:  # the implementations themselves: msgpack_numpy.patch() (ray calls it) rebinds
            from msgpack._cmsgpack import unpackb  # msgpack.unpackb to one that unpickles
        except ImportError:
            from msgpack.fallback import unpackb
    except ImportError as error:
        raise ValueError("reading an RLlib checkpoint needs msgpack (the ray extra)") from error
    path = Path(path)
    if not path.is_file() or path.stat().st_size > MAX_STATE_BYTES:
        raise ValueError(f"{str(path)!r} is not an RLlib module state file (module_state.msgpack "
                         "of a run written with use_msgpack; see training/rllib_train.py)")
    try:
        state = unpackb(path.read_bytes(), object_hook=_decode, strict_map_key=False)
    except (ValueError, TypeError, exceptions.ExtraData, exceptions.FormatError,
            exceptions.StackError) as error:
        raise ValueError(f"{str(path)!r}: not a readable module state: {error}") from error
    flat: dict[str, np.ndarray] = {}

    def walk(node, prefix):
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, f"{prefix}{key}.")
        elif isinstance(node, np.ndarray):
            flat[prefix[:-1]] = node
    walk(state, "")
    return flat


def project_weights(flat: dict[str, np.ndarray], source: str) -> dict[str, Any]:
    """RLlib's weights under the project's policy-file names (torch tensors)."""
    import torch
    out = {}
    for name, array in flat.items():
        if name in IGNORED:
            continue
        for old, new in RENAMES:
            if name.startswith(old):
                out[new + name[len(old):]] = torch.from_numpy(np.array(array, np.float32))
                break
        else:
            raise ValueError(f"{source}: weight {name!r} is not part of RLlib's default PPO network "
                             "with separate actor and critic (vf_share_layers=False)")
    return out


def read_run_card(path: str | os.PathLike[str]) -> dict[str, Any]:
    """A run's ``rllib.json``, checked."""
    card_path = Path(path) / CARD_NAME
    try:
        card = json.loads(card_path.read_text())
    except (OSError, ValueError) as error:
        raise ValueError(f"{str(path)!r} is not a training/rllib_train.py run folder (no readable "
                         f"{CARD_NAME}: {error})") from error
    if not isinstance(card, dict) or card.get("format") != CARD_FORMAT:
        raise ValueError(f"{card_path}: not a {CARD_FORMAT!r} card")
    ids = card.get("policy_ids")
    if not isinstance(ids, list) or not ids or not all(isinstance(i, str) and POLICY_ID.fullmatch(i)
                                                        for i in ids):
        raise ValueError(f"{card_path}: policy_ids must be names like 'shared' or 'seat_0'")
    hidden = card.get("model_config", {}).get("fcnet_hiddens")
    if (not isinstance(hidden, list) or not 1 <= len(hidden) <= MAX_LAYERS
            or not all(isinstance(w, int) and 1 <= w <= MAX_WIDTH for w in hidden)):
        raise ValueError(f"{card_path}: fcnet_hiddens must be 1-{MAX_LAYERS} widths of 1-{MAX_WIDTH}")
    if card.get("model_config", {}).get("fcnet_activation") not in ("tanh", "relu"):
        raise ValueError(f"{card_path}: fcnet_activation must be 'tanh' or 'relu'")
    if card.get("env_config", {}).get("obs_dtype", "float32") != "float32":
        raise ValueError(f"{card_path}: the run learned on compact (uint8) observations, and the "
                         "project's agents play on float32 ones: train with obs_dtype 'float32'")
    return card


def is_rllib_run(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a run folder of ``training/rllib_train.py`` (it holds ``rllib.json``)."""
    return Path(path).is_dir() and (Path(path) / CARD_NAME).is_file()


def rllib_policy(path: str | os.PathLike[str], policy: str | None = None) -> tuple[dict, dict, str]:
    """(policy-file card, weights under the project's names, the policy's name) of one policy of
    an RLlib run folder (its first unless ``policy`` names one), read without unpickling."""
    card = read_run_card(path)
    ids = card["policy_ids"]
    policy = policy or ids[0]
    if policy not in ids:
        raise ValueError(f"{str(path)!r} has policies {ids}, not {policy!r}")
    game = get_game(card["game"])
    model = card["model_config"]
    hidden = [int(width) for width in model["fcnet_hiddens"]]
    policy_file_card = policy_card({"pi": hidden, "vf": hidden, "activation": model["fcnet_activation"]},
                                   game=game, source=f"RLlib run {path}", policy=policy)
    state_file = Path(path, CHECKPOINT_DIR, *MODULE_DIR, policy, MODULE_STATE)  # never the card's path
    weights = project_weights(read_module_state(state_file), f"{str(path)!r} policy {policy!r}")
    return policy_file_card, weights, policy


class RLlibAgent(PPOAgent):
    """Plays one policy of an RLlib run (module doc)."""

    def __init__(self, path: str | os.PathLike[str], policy: str | None = None,
                 deterministic: bool = True, seed: int | None = None, device: str = "cpu") -> None:
        self.card, weights, policy = rllib_policy(path, policy)
        game = get_game(self.card["game"])
        source = f"{str(path)!r} policy {policy!r}"
        network = load_into(build_network(self.card), weights, source).to(device)
        for parameter in network.parameters():
            parameter.requires_grad_(False)
        self.index, self.model, self.source, self.game = None, None, source, game
        self._logits, self._device = file_actor(network), device
        self.deterministic = bool(deterministic)
        self.rng = np.random.default_rng(seed)
