"""``PPOAgent``: a trained MaskablePPO policy playing one seat, loaded without running code from the file.

It sees only the seat's observation and legal mask, like any ``act`` agent, and never the engine.
Deterministic play takes the most likely legal action; stochastic play samples the masked policy
with the agent's own seeded generator, so a seeded agent repeats its games. Models loaded from
disk are cached by path and file version: the evaluation harness makes a fresh agent for every
game without reading the file again.

**Policy files, the project's model format.** A policy file is a zip archive (``.zip``) of two
members, neither of which is ever unpickled:

- ``card.json``, read with ``json``: the model card. ``format`` ("tiny-york-policy"),
  ``format_version`` (1), ``game`` (the registry name of the game it plays, e.g.
  "construction_yard"; a card without one is Tiny York's, as every card was before there were
  other games), ``network`` (MaskablePPO's MlpPolicy, e.g. ``{"pi": [256, 256],
  "vf": [256, 256], "activation": "tanh"}``), ``observation_layout`` (``[part name, size]`` in
  vector order, as the encoder was when the policy was trained), ``observation_size``,
  ``num_actions``, ``weights_dtype`` ("float32" or "float16"), ``timesteps`` and provenance.
- ``policy.pt``, read with ``torch.load(weights_only=True)``: the policy's state dict (tensors
  only) under SB3's parameter names (``mlp_extractor.policy_net.0.weight``, ``action_net.bias``...).

Training (``training.train_ppo``, ``training.imitate``, ``training.selfplay``) writes one as
``OUT/policy.zip`` beside SB3's ``model.zip``; ``training.export`` writes a compact float16 copy,
as ``agents/models/ppo.zip`` (the shipped policy). The network is rebuilt in plain torch from the
card (no stable-baselines3 needed to play), the weights load into it strictly, and a file that
is anything else (a stable-baselines3 checkpoint, another zip, garbage, weights that would need
code to unpickle) is a ValueError saying what was expected.

**Stable-baselines3 checkpoints** (``model.zip``, ``checkpoints/*.zip``) are refused: their
``data`` member holds cloudpickled objects, and ``MaskablePPO.load`` runs whatever code those
name. ``unsafe_unpickle=True`` (``tiny-york ... --unsafe-unpickle``) loads one that way anyway,
for files you trust, assuming the current observation layout.

**Observation layout.** The card records the layout the policy was trained on. The agent builds
an index map by part name from the current encoder's parts (``Game.obs_slices``; Tiny York's is
``tiny_york_env.games.tiny_york.observation.OBS_SLICES``): each
trained part reads the first ``size`` entries of the current part of that name (new one-hot
entries are appended at the end of a part), parts the policy never saw are left out, and a
trained part that is gone or shrank is a clear error. So a policy keeps playing exactly what it
learned on while the encoder grows.
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Literal, TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from tiny_york_env.contract import Game
from tiny_york_env.core.compact import COMPACT_DTYPE
from tiny_york_env.registry import game_names, get_game

if TYPE_CHECKING:  # torch and stable-baselines3 are imported only when a model is loaded
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from stable_baselines3.common.base_class import BaseAlgorithm

ModelT = TypeVar("ModelT", bound="BaseAlgorithm")
Layout = list[list[Any]]  # [[part name, size], ...] in vector order, as a model card stores it
StateDict = dict[str, "torch.Tensor"]
Logits = Callable[["torch.Tensor"], "torch.Tensor"]
WeightsDtype = Literal["float32", "float16"]

POLICY_FORMAT = "tiny-york-policy"
POLICY_FORMAT_VERSION = 1
POLICY_SUFFIX = ".zip"
POLICY_FILE = "policy.zip"  # what training writes in its --out directory
CARD_MEMBER, WEIGHTS_MEMBER = "card.json", "policy.pt"
SB3_DATA_MEMBER, SB3_POLICY_MEMBER, SB3_OPTIMIZER_MEMBER = "data", "policy.pth", "policy.optimizer.pth"
MODELS_DIR = Path(__file__).resolve().parent / "models"  # the shipped policy files and their cards
DEFAULT_MODEL_PATH = MODELS_DIR / f"ppo{POLICY_SUFFIX}"
CHAMPION_MODEL_PATH = MODELS_DIR / f"champion{POLICY_SUFFIX}"  # the champion's network (docs/champion.md)
LOADED_MODEL_CACHE_SIZE = 4
MAX_CARD_BYTES = 1 << 20  # a card is a few kB; a larger member is not a card
MAX_WEIGHTS_BYTES = 1 << 30  # weights of a 256-256 MLP are ~4 MB in float32
ACTIVATIONS = ("tanh", "relu")
WEIGHT_DTYPES = ("float32", "float16")
NETWORK_KEYS = ("pi", "vf", "activation")
ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # the earliest date a zip entry can hold
MIN_SAFE_TORCH = (2, 6)  # torch.load(weights_only=True) is a sandbox from 2.6 on (CVE-2025-32434)
ERROR_EXCERPT_CHARS = 300  # of torch's refusal, which can quote a whole pickle stream
LISTED_MEMBERS = 8  # of a foreign zip, in its error
DEFAULT_GAME = "tiny_york"  # the game of a card without a "game" entry (written before there were others)
UNSAFE_HINT = ("only if you trust the file, load it by unpickling with unsafe_unpickle=True "
               "(tiny-york: --unsafe-unpickle; training.export: --unsafe-unpickle)")


# ---------------------------------------------------------------- the observation layout

def card_game(card: Mapping[str, Any]) -> Game:
    """The game a model card's policy plays (Tiny York for a card without a "game" entry)."""
    return get_game(card.get("game", DEFAULT_GAME))


def current_layout(game: str | Game = DEFAULT_GAME) -> Layout:
    """The game's current encoder layout: ``[[part name, size], ...]`` in vector order."""
    return [[name, part.stop - part.start] for name, part in get_game(game).obs_slices.items()]


def observation_index(layout: Sequence[Sequence[Any]],
                      slices: Mapping[str, slice] | None = None) -> NDArray[np.int64]:
    """int64[sum of sizes]: where each entry of a vector in ``layout`` (``[[name, size], ...]``)
    is in the current observation (``slices``, default Tiny York's). A part keeps the first
    ``size`` entries of its namesake; ValueError if a part is missing or shrank."""
    slices = get_game().obs_slices if slices is None else slices
    pieces = []
    for name, size in layout:
        if name not in slices:
            raise ValueError(f"the model was trained on observation part {name!r} ({size} entries), "
                             f"which the current encoder no longer has: retrain it "
                             f"(python -m tiny_york_env.training.train_ppo)")
        part = slices[name]
        if part.stop - part.start < size:
            raise ValueError(f"observation part {name!r} has {part.stop - part.start} entries now, "
                             f"but the model was trained on {size}: retrain it")
        pieces.append(np.arange(part.start, part.start + size))
    return np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int64)


# ---------------------------------------------------------------- the model card

def _check_widths(widths, what, source):
    if not isinstance(widths, list) or any(isinstance(w, bool) or not isinstance(w, int) or w < 1
                                           for w in widths):
        raise ValueError(f"{source}: card entry network.{what} must be a list of layer widths, "
                         f"got {widths!r}")
    return widths


def check_layout(layout: object, source: str = "the model card") -> Layout:
    """``layout`` as a list of [name, size] pairs; ValueError unless it is one."""
    if not isinstance(layout, list) or not layout:
        raise ValueError(f"{source}: observation_layout must be a non-empty list of [name, size]")
    names = set()
    for entry in layout:
        if (not isinstance(entry, list) or len(entry) != 2 or not isinstance(entry[0], str)
                or isinstance(entry[1], bool) or not isinstance(entry[1], int) or entry[1] < 1):
            raise ValueError(f"{source}: observation_layout entries are [name, size], got {entry!r}")
        if entry[0] in names:
            raise ValueError(f"{source}: observation part {entry[0]!r} appears twice")
        names.add(entry[0])
    return layout


def check_card(card: object, source: str = "the model card") -> dict[str, Any]:
    """``card`` (a parsed card.json), checked to describe a policy this loader can build."""
    if not isinstance(card, dict) or card.get("format") != POLICY_FORMAT:
        raise ValueError(f"{source}: card.json is not a {POLICY_FORMAT!r} model card "
                         f"(its 'format' is {card.get('format') if isinstance(card, dict) else card!r})")
    if card.get("format_version") != POLICY_FORMAT_VERSION:
        raise ValueError(f"{source}: policy file format version {card.get('format_version')!r}; this "
                         f"loader reads version {POLICY_FORMAT_VERSION}")
    network = card.get("network")
    if not isinstance(network, dict) or set(network) != set(NETWORK_KEYS):
        raise ValueError(f"{source}: card entry 'network' must have exactly {list(NETWORK_KEYS)}, "
                         f"got {network!r}")
    _check_widths(network["pi"], "pi", source)
    _check_widths(network["vf"], "vf", source)
    if network["activation"] not in ACTIVATIONS:
        raise ValueError(f"{source}: activation {network['activation']!r} is not one of {ACTIVATIONS}")
    layout = check_layout(card.get("observation_layout"), source)
    size = sum(s for _, s in layout)
    if card.get("observation_size") != size:
        raise ValueError(f"{source}: observation_size {card.get('observation_size')!r} is not the "
                         f"layout's total {size}")
    game = card_game(card)
    if card.get("num_actions") != game.num_actions:
        raise ValueError(f"{source}: the model chooses among {card.get('num_actions')!r} actions, but "
                         f"{game.title}'s action codec has {game.num_actions}: retrain it "
                         "(python -m tiny_york_env.training.train_ppo)")
    if card.get("weights_dtype") not in WEIGHT_DTYPES:
        raise ValueError(f"{source}: weights_dtype must be one of {WEIGHT_DTYPES}, "
                         f"got {card.get('weights_dtype')!r}")
    return card


def policy_card(network: Mapping[str, Any], layout: Sequence[Sequence[Any]] | None = None,
                num_actions: int | None = None, weights_dtype: WeightsDtype = "float32",
                game: str | Game = DEFAULT_GAME, **extra: Any) -> dict[str, Any]:
    """A model card dict (checked) of a policy for ``game``: ``network`` as in the module doc,
    ``layout`` and ``num_actions`` (default the game's current ones), and ``extra`` entries
    (e.g. ``timesteps``, ``source``) after them."""
    game = get_game(game)
    layout = [list(entry) for entry in (current_layout(game) if layout is None else layout)]
    card = {"format": POLICY_FORMAT, "format_version": POLICY_FORMAT_VERSION, "game": game.name,
            "algorithm": "MaskablePPO", "network": dict(network), "observation_layout": layout,
            "observation_size": sum(size for _, size in layout),
            "num_actions": game.num_actions if num_actions is None else num_actions,
            "weights_dtype": weights_dtype, **extra}
    return check_card(card)


# ---------------------------------------------------------------- the network

def build_network(card: Mapping[str, Any]) -> torch.nn.ModuleDict:
    """The policy and value MLPs the card describes, as a torch ``ModuleDict`` whose state dict
    has SB3's MlpPolicy names (``mlp_extractor.policy_net.0.weight``...), in eval mode."""
    import torch
    network = card["network"]
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[network["activation"]]

    def mlp(widths):
        layers, width = [], card["observation_size"]
        for hidden in widths:
            layers += [torch.nn.Linear(width, hidden), activation()]
            width = hidden
        return torch.nn.Sequential(*layers), width

    policy_net, pi_width = mlp(network["pi"])
    value_net, vf_width = mlp(network["vf"])
    modules = torch.nn.ModuleDict({
        "mlp_extractor": torch.nn.ModuleDict({"policy_net": policy_net, "value_net": value_net}),
        "action_net": torch.nn.Linear(pi_width, card["num_actions"]),
        "value_net": torch.nn.Linear(vf_width, 1)})
    return modules.eval()


def input_weight_names(card: Mapping[str, Any]) -> tuple[str, str]:
    """The state-dict names of the weights that read the observation (policy side, value side)."""
    network = card["network"]
    return ("mlp_extractor.policy_net.0.weight" if network["pi"] else "action_net.weight",
            "mlp_extractor.value_net.0.weight" if network["vf"] else "value_net.weight")


def load_into(network: torch.nn.Module, state: Mapping[str, torch.Tensor], source: str) -> torch.nn.Module:
    """Copy ``state`` into ``network`` (float32), every name and shape exactly; ValueError if not."""
    import torch
    state = {name: tensor.to(torch.float32) for name, tensor in state.items()}
    try:
        network.load_state_dict(state, strict=True)
    except RuntimeError as error:
        raise ValueError(f"{source}: the weights do not fit the network its card describes: "
                         f"{error}") from error
    return network


# ---------------------------------------------------------------- reading files

def _check_torch():
    import torch
    version = tuple(int(p) for p in torch.__version__.split("+")[0].split(".")[:len(MIN_SAFE_TORCH)])
    if version < MIN_SAFE_TORCH:
        raise ValueError(f"torch {torch.__version__} cannot load weights safely (weights_only is a "
                         f"sandbox from torch 2.6 on): install torch>=2.6")


def load_weights(data: bytes, source: str) -> StateDict:
    """A state dict (name -> tensor) from torch-saved bytes, never running code from them
    (``torch.load(weights_only=True)``); ValueError if they hold anything else."""
    import torch
    _check_torch()
    try:
        state = torch.load(io.BytesIO(data), map_location="cpu", weights_only=True)
    except Exception as error:  # torch raises UnpicklingError, RuntimeError, EOFError...
        raise ValueError(f"{source}: the weights are not a plain tensor file and were not loaded "
                         f"(torch.load(weights_only=True) refused them: "
                         f"{type(error).__name__}: {str(error)[:ERROR_EXCERPT_CHARS]})") from error
    if not isinstance(state, dict) or not all(isinstance(k, str) and isinstance(v, torch.Tensor)
                                              for k, v in state.items()):
        raise ValueError(f"{source}: the weights must be a dict of named tensors (a state dict)")
    return state


def _member(archive, name, limit, source):
    info = archive.getinfo(name)
    if info.file_size > limit:
        raise ValueError(f"{source}: member {name!r} is {info.file_size:,} bytes, over the "
                         f"{limit:,} a policy file allows")
    return archive.read(name)


def _open_zip(path):
    try:
        return zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as error:
        raise ValueError(f"{str(path)!r} is not a policy file: expected a zip archive holding "
                         f"{CARD_MEMBER} and {WEIGHTS_MEMBER} (written by training or "
                         f"python -m tiny_york_env.training.export): {error}") from error


def is_sb3_checkpoint(names: Collection[str]) -> bool:
    """True when zip member ``names`` are those of a stable-baselines3 ``model.save`` file."""
    return SB3_DATA_MEMBER in names and SB3_POLICY_MEMBER in names and CARD_MEMBER not in names


def file_kind(path: str | os.PathLike[str]) -> Literal["policy", "sb3"]:
    """``"policy"`` (a policy file) or ``"sb3"`` (a stable-baselines3 checkpoint); ValueError for
    anything else. Reads only the zip directory."""
    with _open_zip(path) as archive:
        names = set(archive.namelist())
    if CARD_MEMBER in names and WEIGHTS_MEMBER in names:
        return "policy"
    if is_sb3_checkpoint(names):
        return "sb3"
    raise ValueError(f"{str(path)!r} is not a policy file: expected a zip archive holding "
                     f"{CARD_MEMBER} and {WEIGHTS_MEMBER} (written by training or python -m "
                     f"tiny_york_env.training.export); it holds {sorted(names)[:LISTED_MEMBERS]}")


def sb3_refusal(path: str | os.PathLike[str]) -> ValueError:
    """The ValueError for a stable-baselines3 checkpoint given where a policy file is expected."""
    beside = Path(path).with_name(POLICY_FILE)
    hint = f"play {str(beside)!r}, written beside it by training; " if beside.is_file() else ""
    return ValueError(f"{str(path)!r} is a stable-baselines3 checkpoint: loading it would unpickle "
                      f"(run code from) its 'data' member, so it was not loaded. {hint}play a policy "
                      "file (OUT/policy.zip from training, or "
                      f"python -m tiny_york_env.training.export's output), "
                      f"or, {UNSAFE_HINT}")


def read_policy_file(path: str | os.PathLike[str]) -> tuple[dict[str, Any], StateDict]:
    """(card, state dict) of the policy file at ``path``, nothing unpickled; ValueError (saying what
    was expected) for a stable-baselines3 checkpoint, another zip or anything else."""
    source = repr(str(path))
    if file_kind(path) == "sb3":
        raise sb3_refusal(path)
    with _open_zip(path) as archive:
        card_bytes = _member(archive, CARD_MEMBER, MAX_CARD_BYTES, source)
        weights = _member(archive, WEIGHTS_MEMBER, MAX_WEIGHTS_BYTES, source)
    try:
        card = json.loads(card_bytes)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"{source}: {CARD_MEMBER} is not JSON: {error}") from error
    card = check_card(card, source)
    return card, load_weights(weights, source)


def read_sb3_tensors(path: str | os.PathLike[str]) -> dict[str, Any]:
    """``{"policy": state dict, "policy.optimizer": state dict or None}`` of a stable-baselines3
    checkpoint, read with ``torch.load(weights_only=True)``: its pickled ``data`` is never read."""
    source = repr(str(path))
    with _open_zip(path) as archive:
        names = set(archive.namelist())
        if not is_sb3_checkpoint(names):
            raise ValueError(f"{source} is not a stable-baselines3 checkpoint (no {SB3_DATA_MEMBER} "
                             f"and {SB3_POLICY_MEMBER} members)")
        policy = load_weights(_member(archive, SB3_POLICY_MEMBER, MAX_WEIGHTS_BYTES, source), source)
        optimizer = None
        if SB3_OPTIMIZER_MEMBER in names:
            import torch
            data = _member(archive, SB3_OPTIMIZER_MEMBER, MAX_WEIGHTS_BYTES, source)
            try:
                optimizer = torch.load(io.BytesIO(data), map_location="cpu", weights_only=True)
            except Exception as error:
                raise ValueError(f"{source}: the optimizer state is not a plain tensor file: "
                                 f"{type(error).__name__}: {str(error)[:ERROR_EXCERPT_CHARS]}") from error
    return {"policy": policy, "policy.optimizer": optimizer}


def adapt_to_current_layout(card: Mapping[str, Any], state: Mapping[str, torch.Tensor]) -> StateDict:
    """``state`` with its observation-reading weights widened to the current layout: columns of
    parts the policy never saw (and new one-hot entries) are zero, so it computes what it did."""
    import torch
    game = card_game(card)
    layout = card["observation_layout"]
    if layout == current_layout(game):
        return dict(state)
    index = torch.as_tensor(observation_index(layout, game.obs_slices))
    adapted = dict(state)
    for name in input_weight_names(card):
        old = state[name]
        wide = torch.zeros((old.shape[0], game.obs_size), dtype=old.dtype)
        wide[:, index] = old
        adapted[name] = wide
    return adapted


# ---------------------------------------------------------------- writing files

def write_policy_file(handle: IO[bytes], card: Mapping[str, Any], state: Mapping[str, torch.Tensor]) -> None:
    """Write a policy file (module doc) to the binary file object ``handle``: ``card`` (checked)
    and ``state`` (checked to load into the network the card describes)."""
    import torch
    check_card(card)
    load_into(build_network(card), state, "the policy to write")
    buffer = io.BytesIO()
    torch.save({name: tensor.detach().cpu().contiguous() for name, tensor in state.items()}, buffer)
    with zipfile.ZipFile(handle, "w") as archive:
        for name, data in ((CARD_MEMBER, (json.dumps(card, indent=1) + "\n").encode()),
                           (WEIGHTS_MEMBER, buffer.getvalue())):
            # a fixed date: the same policy gives the same bytes (and SHA-256)
            archive.writestr(zipfile.ZipInfo(name, ZIP_DATE), data, zipfile.ZIP_DEFLATED)


def sb3_network(policy: MaskableActorCriticPolicy) -> dict[str, Any]:
    """The card's ``network`` entry of an SB3 MaskablePPO MlpPolicy; ValueError for another kind."""
    import torch
    activation = {torch.nn.Tanh: "tanh", torch.nn.ReLU: "relu"}.get(policy.activation_fn)
    if activation is None:
        raise ValueError(f"activation {policy.activation_fn!r} cannot be stored in a policy file "
                         f"(allowed: {ACTIVATIONS})")
    if type(policy.features_extractor).__name__ != "FlattenExtractor":
        raise ValueError("only MlpPolicy (a flat observation) can be stored in a policy file")

    def widths(sequential):
        return [layer.out_features for layer in sequential if isinstance(layer, torch.nn.Linear)]

    return {"pi": widths(policy.mlp_extractor.policy_net),
            "vf": widths(policy.mlp_extractor.value_net), "activation": activation}


def policy_from_model(model: MaskablePPO, weights_dtype: WeightsDtype = "float32",
                      game: str | Game | None = None, **extra: Any) -> tuple[dict[str, Any], StateDict]:
    """(card, state dict) of an in-memory MaskablePPO ``model`` trained on the current encoder
    of ``game`` (default: the game whose observation and action spaces the model has)."""
    import torch
    game = game_of_model(model) if game is None else get_game(game)
    check_model_spaces(model, game=game)
    dtype = getattr(torch, weights_dtype)
    state = {name: tensor.detach().cpu().to(dtype) for name, tensor in model.policy.state_dict().items()}
    extra.setdefault("timesteps", int(model.num_timesteps))
    return policy_card(sb3_network(model.policy), weights_dtype=weights_dtype, game=game,
                       **extra), state


# ---------------------------------------------------------------- loading

def game_of_model(model: BaseAlgorithm) -> Game:
    """The registered game whose observation size and action count ``model``'s spaces have
    (Tiny York when none or several do: ``check_model_spaces`` then says what differs)."""
    shape = getattr(model.observation_space, "shape", None)
    actions = getattr(model.action_space, "n", None)
    fits = [name for name in game_names()
            if (get_game(name).obs_size,) == shape and get_game(name).num_actions == actions]
    return get_game(fits[0]) if len(fits) == 1 else get_game()


def check_model_spaces(model: ModelT, source: str = "the model",
                       game: str | Game = DEFAULT_GAME) -> ModelT:
    """ValueError unless ``model`` observes float[obs_size] and acts in Discrete(num_actions) of
    ``game``, i.e. it was trained on this version of that game's encoder and action codec."""
    game = get_game(game)
    if np.dtype(getattr(model.observation_space, "dtype", np.float32)) == COMPACT_DTYPE:
        raise ValueError(f"{source} was trained on compact (uint8) observations, and the project's "
                         "agents play on float32 ones: train with obs_dtype='float32' (the default)")
    shape = getattr(model.observation_space, "shape", None)
    if shape != (game.obs_size,):
        raise ValueError(f"{source} observes shape {shape}, but {game.title}'s observation encoder "
                         f"gives ({game.obs_size},): it was trained on another game or encoder "
                         f"version; retrain it with python -m tiny_york_env.training.train_ppo")
    actions = getattr(model.action_space, "n", None)
    if actions != game.num_actions:
        raise ValueError(f"{source} chooses among {actions} actions, but {game.title}'s action codec "
                         f"has {game.num_actions}: retrain it with python -m "
                         f"tiny_york_env.training.train_ppo")
    return model


def resolve_model_path(path: str | os.PathLike[str]) -> Path:
    """The existing model file for ``path``: the file, ``path`` + ``.zip``, or ``path/policy.zip``
    for a training run's directory; ValueError if there is none."""
    path = Path(path).expanduser()
    candidates = [path / POLICY_FILE] if path.is_dir() else [path]
    if path.suffix != POLICY_SUFFIX and not path.is_dir():
        candidates.append(path.with_name(path.name + POLICY_SUFFIX))
    for candidate in candidates:
        if candidate.is_file():
            return candidate.resolve()
    raise ValueError(f"no PPO model file at {str(path)!r}: give a policy file, the {POLICY_FILE} "
                     f"that training writes in its --out directory (or that directory), e.g. "
                     f"'ppo:runs/x/{POLICY_FILE}', or python -m tiny_york_env.training.export's output")


@dataclass(frozen=True)
class LoadedPolicy:
    """A policy file's card, its network (float32, eval mode) and the observation index map
    (None when the trained layout is the current one)."""

    card: dict[str, Any]
    network: torch.nn.Module
    index: np.ndarray | None


@lru_cache(maxsize=LOADED_MODEL_CACHE_SIZE)
def _load_cached(path, mtime_ns, size, device):
    card, state = read_policy_file(path)
    game = card_game(card)
    index = None if card["observation_layout"] == current_layout(game) else observation_index(
        card["observation_layout"], game.obs_slices)
    network = load_into(build_network(card), state, repr(path)).to(device)
    for parameter in network.parameters():
        parameter.requires_grad_(False)
    return LoadedPolicy(card, network, index)


def load_policy(path: str | os.PathLike[str], device: str | torch.device = "cpu") -> LoadedPolicy:
    """The LoadedPolicy of the policy file at ``path`` (cached per file version); ValueError for a
    missing, foreign or incompatible file."""
    path = resolve_model_path(path)
    stat = path.stat()
    return _load_cached(str(path), stat.st_mtime_ns, stat.st_size, str(device))


def load_sb3_unsafe(path: str | os.PathLike[str], device: str | torch.device = "cpu") -> MaskablePPO:
    """A MaskablePPO model from a stable-baselines3 checkpoint by UNPICKLING it (runs code from
    the file: trusted files only), checked against the current spaces of the game they fit."""
    from sb3_contrib import MaskablePPO
    path = resolve_model_path(path)
    try:
        model = MaskablePPO.load(path, device=device)
    except (ValueError, KeyError, OSError, RuntimeError) as error:
        raise ValueError(f"{str(path)!r} is not a loadable MaskablePPO model: {error}") from error
    return check_model_spaces(model, f"the model {str(path)!r}", game_of_model(model))


def sb3_actor(policy: MaskableActorCriticPolicy) -> Logits:
    """``logits(observations)`` of a live SB3 policy (its weights as they are at each call)."""
    def logits(observations):
        features = policy.extract_features(observations, policy.pi_features_extractor)
        if isinstance(features, tuple):
            features = features[0]
        return policy.action_net(policy.mlp_extractor.forward_actor(features))
    return logits


def file_actor(network: torch.nn.Module) -> Logits:
    """``logits(observations)`` of a network built by ``build_network``."""
    def logits(observations):
        return network["action_net"](network["mlp_extractor"]["policy_net"](observations))
    return logits


def file_critic(network: torch.nn.Module) -> Logits:
    """``values(observations)`` (shape [N, 1]) of a network built by ``build_network``."""
    def values(observations):
        return network["value_net"](network["mlp_extractor"]["value_net"](observations))
    return values


class PPOAgent:
    """Plays a MaskablePPO policy: from a policy file (path), or an in-memory model.

    ``game`` is the game it plays: a policy file's card names it (``game``, if given, must agree);
    for an in-memory model it defaults to the game whose spaces the model has."""

    def __init__(self, path_or_model: str | Path | MaskablePPO | None = None, deterministic: bool = True,
                 device: str | torch.device = "cpu", seed: int | None = None,
                 unsafe_unpickle: bool = False, game: str | Game | None = None) -> None:
        if path_or_model is None:
            path_or_model = DEFAULT_MODEL_PATH
        self.index, self.card, self.model = None, None, None
        self._device: str | torch.device
        if isinstance(path_or_model, (str, Path)):
            self.source = str(path_or_model)
            if unsafe_unpickle and file_kind(resolve_model_path(path_or_model)) == "sb3":
                self.model = load_sb3_unsafe(path_or_model, device)
                self._logits, self._device = sb3_actor(self.model.policy), self.model.device
            else:
                loaded = load_policy(path_or_model, device)
                self.card, self.index = loaded.card, loaded.index
                self._logits, self._device = file_actor(loaded.network), device
        elif callable(getattr(path_or_model, "predict", None)) and hasattr(path_or_model, "policy"):
            self.model = check_model_spaces(path_or_model, game=game_of_model(path_or_model)
                                            if game is None else game)
            self.source = "in-memory model"
            self._logits, self._device = sb3_actor(self.model.policy), self.model.device
        else:
            raise ValueError(f"PPOAgent needs a model file path or a MaskablePPO model, "
                             f"got {path_or_model!r}")
        self.game = card_game(self.card) if self.card is not None else game_of_model(self.model)
        if game is not None and get_game(game).name != self.game.name:
            raise ValueError(f"{self.source} plays {self.game.title} ({self.game.name!r}), "
                             f"not {get_game(game).title} ({get_game(game).name!r})")
        self.deterministic = bool(deterministic)
        self.rng = np.random.default_rng(seed)

    @classmethod
    def load(cls, path: str | os.PathLike[str], **options: Any) -> PPOAgent:
        """A PPOAgent playing the model saved at ``path``; ``options`` as for the constructor."""
        return cls(Path(path), **options)

    def action_logits(self, observation: ArrayLike) -> NDArray[np.float32]:
        """float32[num_actions]: the policy's unmasked action logits for one current observation."""
        import torch
        observation = np.asarray(observation, dtype=np.float32)
        if observation.shape != (self.game.obs_size,):
            raise ValueError(f"observation must be float32[{self.game.obs_size}] ({self.game.title}), "
                             f"got shape {observation.shape}")
        if self.index is not None:
            observation = observation[self.index]
        with torch.no_grad():
            tensor = torch.as_tensor(observation, device=self._device).reshape(1, -1)
            return self._logits(tensor)[0].cpu().numpy()

    def act(self, observation: ArrayLike, action_mask: ArrayLike) -> int:
        """The policy's legal action for one seat's observation and bool[num_actions] mask."""
        mask = _check_mask(action_mask, self.game.num_actions)
        if self.deterministic:
            legal = np.flatnonzero(mask)
            return int(legal[np.argmax(self.action_logits(observation)[legal])])  # first of ties
        return int(self.rng.choice(self.game.num_actions,
                                   p=self.action_probabilities(observation, mask)))

    def action_probabilities(self, observation: ArrayLike, action_mask: ArrayLike) -> NDArray[np.float64]:
        """float64[num_actions]: the masked policy's probability of each action (zero if illegal)."""
        mask = _check_mask(action_mask, self.game.num_actions)
        logits = self.action_logits(observation).astype(np.float64)
        weights = np.where(mask, np.exp(logits - logits[mask].max()), 0.0)
        return weights / weights.sum()


def _check_mask(action_mask, num_actions):
    mask = np.asarray(action_mask, dtype=np.bool_)
    if mask.shape != (num_actions,) or not mask.any():
        raise ValueError(f"action_mask must be bool[{num_actions}] with a legal action; got "
                         f"shape {mask.shape} with {int(mask.sum())} legal")
    return mask
