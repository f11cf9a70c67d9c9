"""A compact policy file for shipping: ``python -m tiny_york_env.training.export SRC DST``.

SRC is a policy file (``agents.ppo_agent``'s format: ``card.json`` + ``policy.pt`` in a zip), such
as the ``policy.zip`` that ``training.train_ppo``, ``training.imitate`` and ``training.selfplay``
write in their ``--out`` directory (the directory itself may be given), or an RLlib run folder of
``training.rllib_train`` (``--policy`` names which module; its weights are read from the
checkpoint's msgpack module state, as the ``rllib:PATH`` agent reads them). DST, a ``.zip``, is the
same policy with float16 weights (about half the size; loading casts them back to float32;
``--weights-dtype float32`` keeps full precision, so the file plays exactly like its source) and
only what playing and further training need: the card (network, observation layout, number of
actions, training steps) and the policy and value weights. Rounding to float16 can change a
near-tie between two actions, so evaluate the exported file, not its source. ``DST.json`` beside
it is the model card for people: the card, DST's size and SHA-256, the source (relative to the
working directory when below it), and with ``--stage DIR`` (repeatable, in training order) each
stage's ``config.json``, ``summary.json``, ``imitation.json`` and ``generations.json`` (an
expert-iteration run's record), and its periodic evaluations (``eval.csv`` of ``train_ppo``, as
``evaluations``: the training curve the docs plot). ``--stages-from CARD`` puts the stages of the
model card of the policy SRC was trained from first (e.g. an expert-iteration generation fitted
from a shipped policy keeps that policy's behaviour cloning and PPO stages before its own), so a
card tells the whole history even where those runs' folders are gone.

Nothing is unpickled: the source is read with ``json`` and ``torch.load(weights_only=True)``. A
stable-baselines3 checkpoint (``model.zip``) as SRC is refused unless ``--unsafe-unpickle`` is
given: then ``MaskablePPO.load`` reads it, which runs code named in its ``data`` member (trusted
files only), and the current observation layout is recorded for it.
"""

import argparse
import csv
import hashlib
import json
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from tiny_york_env.agents.ppo_agent import (
    POLICY_SUFFIX,
    WEIGHT_DTYPES,
    file_kind,
    load_policy,
    load_sb3_unsafe,
    policy_from_model,
    read_policy_file,
    resolve_model_path,
    sb3_refusal,
    write_policy_file,
)
from tiny_york_env.agents.rllib_agent import is_rllib_run, rllib_policy
from tiny_york_env.arena.output import open_output, refuse_symlink, write_output_text
from tiny_york_env.cli_types import DefaultsHelpFormatter

STAGE_FILES = ("config.json", "summary.json", "imitation.json", "generations.json")  # kept of a stage
EVALUATIONS_FILE = "eval.csv"  # train_ppo's periodic evaluations: kept as the stage's "evaluations"
CARD_SUFFIX = ".json"
EXPORT_DTYPE = "float16"
HASH_CHUNK_BYTES = 1 << 20


def write_policy(path, card, state):
    """Write a policy file at ``path`` (a symbolic link there is refused); returns ``path``."""
    with open_output(path, "wb") as handle:
        write_policy_file(handle, card, state)
    return Path(path)


def save_policy(model, path: str | Path, weights_dtype: str = "float32", **extra) -> dict:
    """Write the policy file of an in-memory MaskablePPO ``model`` (trained on the current
    encoder) at ``path``; ``extra`` card entries (e.g. ``written_by``). Returns the card."""
    card, state = policy_from_model(model, weights_dtype, **extra)
    write_policy(path, card, state)
    return card


def compact_state(state, weights_dtype=EXPORT_DTYPE):
    """``state`` with floating-point tensors as ``weights_dtype`` (float16 unless told)."""
    import torch
    dtype = getattr(torch, weights_dtype)
    return {name: tensor.to(dtype) if tensor.is_floating_point() else tensor
            for name, tensor in state.items()}


def file_sha256(path):
    """The hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(HASH_CHUNK_BYTES), b""):
            digest.update(chunk)
    return digest.hexdigest()


def recorded_path(path: Path) -> str:
    """``path`` as a card records it: relative to the working directory when it lies below it (no
    machine's absolute prefix in a shipped card), else absolute."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def read_stage(directory):
    """The card entry of one training stage: its directory and the JSON files it holds."""
    directory = Path(directory)
    if not directory.is_dir():
        raise ValueError(f"no training stage directory {str(directory)!r}: give the --out "
                         f"directory of python -m tiny_york_env.training.imitate or training.train_ppo")
    entry = {"directory": str(directory)}
    for name in STAGE_FILES:
        if (directory / name).is_file():
            entry[Path(name).stem] = json.loads((directory / name).read_text())
    if (directory / EVALUATIONS_FILE).is_file():
        entry["evaluations"] = read_evaluations(directory / EVALUATIONS_FILE)
    return entry


def read_evaluations(path):
    """The rows of a ``train_ppo`` run's ``eval.csv``, numbers as numbers."""
    def value(text):
        for kind in (int, float):
            try:
                return kind(text)
            except ValueError:
                pass
        return text
    with open(path, newline="", encoding="utf-8") as handle:
        return [{key: value(text) for key, text in row.items()} for row in csv.DictReader(handle)]


def read_source(source, unsafe_unpickle=False, policy=None):
    """(card, state dict) of the policy at ``source``: a policy file, an RLlib run folder (its
    ``policy``, read without unpickling), or with ``unsafe_unpickle`` a stable-baselines3
    checkpoint (unpickled, its layout taken to be the current one)."""
    if is_rllib_run(source):
        card, state, _ = rllib_policy(source, policy)
        return card, state
    if policy is not None:
        raise ValueError(f"policy names a module of an RLlib run folder; {str(source)!r} is not one")
    if file_kind(source) == "policy":
        return read_policy_file(source)
    if not unsafe_unpickle:
        raise sb3_refusal(source)
    return policy_from_model(load_sb3_unsafe(source))


def source_size(source: Path) -> int:
    """Bytes of a policy file, or of all files of a run folder."""
    if source.is_dir():
        return sum(path.stat().st_size for path in source.rglob("*") if path.is_file())
    return source.stat().st_size


def read_card_stages(card_path: str | Path) -> list[dict]:
    """The ``stages`` of a model card (``agents/models/NAME.json``), checked to be a list of stage
    entries (objects naming their directory)."""
    path = Path(card_path)
    try:
        card = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"stages_from must be a model card (the .json beside a shipped policy), "
                         f"could not read {str(path)!r}: {error}") from None
    stages = card.get("stages") if isinstance(card, dict) else None
    if not isinstance(stages, list) or not all(isinstance(stage, dict) and isinstance(
            stage.get("directory"), str) for stage in stages):
        raise ValueError(f"{str(path)!r} is no model card: it needs a list 'stages' of objects "
                         f"each naming its 'directory'")
    return stages


def export_model(source: str | Path, destination: str | Path, stages: Iterable[str | Path] = (),
                 unsafe_unpickle: bool = False, weights_dtype: str = EXPORT_DTYPE,
                 stages_from: str | Path | None = None, policy: str | None = None) -> dict:
    """Write the policy file of ``source`` with ``weights_dtype`` weights (float16 unless told) to
    ``destination`` (``.zip``), checked to load with the current encoder, and its model card
    ``destination.json`` (the stages of the card ``stages_from`` first, then those of ``stages``);
    returns the card (dict). An RLlib run folder as ``source`` exports its ``policy`` (the first
    unless named)."""
    if weights_dtype not in WEIGHT_DTYPES:
        raise ValueError(f"weights_dtype must be one of {WEIGHT_DTYPES}, got {weights_dtype!r}")
    source = Path(source).resolve() if is_rllib_run(source) else resolve_model_path(source)
    destination = Path(destination)
    if destination.suffix != POLICY_SUFFIX:
        raise ValueError(f"the exported model must be a {POLICY_SUFFIX} file, got {str(destination)!r}")
    if destination.resolve() == source:
        raise ValueError("export to another file than the source: the source keeps the full weights")
    card_path = destination.with_suffix(CARD_SUFFIX)
    refuse_symlink(destination)
    refuse_symlink(card_path)
    earlier = [] if stages_from is None else read_card_stages(stages_from)
    stage_entries = earlier + [read_stage(stage) for stage in stages]
    card, state = read_source(source, unsafe_unpickle, policy)
    card = {**card, "weights_dtype": weights_dtype, "source": recorded_path(source)}
    destination.parent.mkdir(parents=True, exist_ok=True)
    write_policy(destination, card, compact_state(state, weights_dtype))
    load_policy(destination)  # the exported file loads and fits the current encoder and codec
    full_card = {"model": destination.name, "bytes": destination.stat().st_size,
                 "sha256": file_sha256(destination), **card,
                 "source_bytes": source_size(source), "stages": stage_entries}
    write_output_text(card_path, json.dumps(full_card, indent=1) + "\n")
    return full_card


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of ``python -m tiny_york_env.training.export``."""
    p = argparse.ArgumentParser(prog="python -m tiny_york_env.training.export",
                                description=__doc__.split("\n")[0], formatter_class=DefaultsHelpFormatter)
    p.add_argument("source", help="a policy file (OUT/policy.zip of a training run, or that run's "
                   "directory), or an RLlib run folder (training/rllib_train.py's --out); a "
                   "stable-baselines3 model.zip only with --unsafe-unpickle")
    p.add_argument("--policy", help="with an RLlib run folder: which of its policies (default: the "
                   "first, e.g. 'shared' or 'seat_1')")
    p.add_argument("destination", help="the compact .zip to write, e.g. agents/models/ppo.zip "
                   "(its model card goes beside it as .json)")
    p.add_argument("--stage", action="append", default=[], metavar="DIR",
                   help="a training stage's --out directory, in order; repeat (kept in the card)")
    p.add_argument("--stages-from", metavar="CARD",
                   help="the model card of the policy SOURCE was trained from (it may be the card "
                        "this export replaces): its stages come first in the new card")
    p.add_argument("--weights-dtype", choices=WEIGHT_DTYPES, default=EXPORT_DTYPE,
                   help="the weights' type: float16 halves the file and can change near-ties between "
                        "actions; float32 plays exactly like the source")
    p.add_argument("--unsafe-unpickle", action="store_true",
                   help="accept a stable-baselines3 checkpoint as the source: reading it UNPICKLES "
                        "its data member, which runs code from the file; only for files you trust. "
                        "Without it such a file is refused")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        card = export_model(args.source, args.destination, args.stage, args.unsafe_unpickle,
                            args.weights_dtype, args.stages_from, args.policy)
    except ValueError as error:
        parser.error(str(error))
    print(f"{args.destination}: {card['bytes']:,} bytes (source {card['source_bytes']:,}), "
          f"{card.get('timesteps', 0):,} training steps, sha256 {card['sha256'][:12]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
