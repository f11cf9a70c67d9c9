"""Compact a trained MaskablePPO ``model.zip`` for shipping: ``python -m training.export SRC DST``.

``model.save`` also writes what only a running training needs: Adam's moment estimates (twice
the size of the weights) and the last rollout's observations (2 MB at 256 envs). The export
keeps everything ``MaskablePPO.load`` and ``PPOAgent`` need (hyperparameters, spaces, the policy
and value networks), stores the weights as float16 and the optimizer as a fresh Adam state: about
a seventh of the size. Loading casts the weights back to float32 (``load_state_dict`` copies into
the float32 parameters), so an exported file loads and plays like any other; training can go on
from it (``train_ppo --init-from``), with Adam's moments starting afresh. Rounding to float16 can
change a near-tie between two actions, so evaluate the exported file, not its source.

With ``--stage DIR`` (repeatable, in training order) the export also writes ``DST`` with the
suffix ``.json``: a model card holding each stage's ``config.json`` and ``summary.json``, the
source file and the exported file's size and SHA-256.
"""

import argparse
import hashlib
import json
import sys
from pathlib import Path

from agents.ppo_agent import MODEL_SUFFIX, load_model, resolve_model_path

# Attributes of a trained model that only a training in progress uses (the last rollout's
# observations and episode starts, the recent episodes' statistics).
TRAINING_ONLY_ATTRIBUTES = ("_last_obs", "_last_original_obs", "_last_episode_starts",
                            "ep_info_buffer", "ep_success_buffer")
STAGE_FILES = ("config.json", "summary.json", "imitation.json")  # what a card keeps of a stage
CARD_SUFFIX = ".json"
HASH_CHUNK_BYTES = 1 << 20


def compact_parameters(model):
    """The model's state dicts as ``model.save`` stores them, with float16 policy weights and a
    fresh optimizer state (its hyperparameters, no moment estimates)."""
    import torch
    policy = model.policy
    weights = {name: tensor.detach().to(torch.float16) if tensor.is_floating_point() else tensor
               for name, tensor in policy.state_dict().items()}
    fresh = policy.optimizer_class(policy.parameters(), lr=policy.optimizer.param_groups[0]["lr"],
                                   **policy.optimizer_kwargs)
    return {"policy": weights, "policy.optimizer": fresh.state_dict()}


def save_compact(model, path):
    """Save ``model`` to ``path`` as ``model.save`` does, less what only training needs (module doc)."""
    parameters = compact_parameters(model)
    # model.save stores what get_parameters returns; the stand-in itself is not saved
    model.get_parameters = lambda: parameters
    try:
        model.save(path, exclude=(*TRAINING_ONLY_ATTRIBUTES, "get_parameters"))
    finally:
        del model.get_parameters


def file_sha256(path):
    """The hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(HASH_CHUNK_BYTES), b""):
            digest.update(chunk)
    return digest.hexdigest()


def read_stage(directory):
    """The card entry of one training stage: its directory and the JSON files it holds."""
    directory = Path(directory)
    if not directory.is_dir():
        raise ValueError(f"no training stage directory {str(directory)!r}: give the --out "
                         f"directory of python -m training.imitate or training.train_ppo")
    entry = {"directory": str(directory)}
    for name in STAGE_FILES:
        if (directory / name).is_file():
            entry[Path(name).stem] = json.loads((directory / name).read_text())
    return entry


def export_model(source, destination, stages=()):
    """Write the compact copy of ``source`` to ``destination`` (``.zip``), checked to load with
    the same spaces; with ``stages``, also the model card next to it. Returns the card (a dict)."""
    source = resolve_model_path(source)
    destination = Path(destination)
    if destination.suffix != MODEL_SUFFIX:
        raise ValueError(f"the exported model must be a {MODEL_SUFFIX} file, got {str(destination)!r}")
    if destination.resolve() == source:
        raise ValueError("export to another file than the source: the source keeps the full state")
    stage_entries = [read_stage(stage) for stage in stages]
    model = load_model(source)
    destination.parent.mkdir(parents=True, exist_ok=True)
    save_compact(model, destination)
    load_model(destination)  # the exported file must load and fit the current spaces
    card = {"model": destination.name, "bytes": destination.stat().st_size,
            "sha256": file_sha256(destination), "source": str(source),
            "source_bytes": source.stat().st_size, "timesteps": int(model.num_timesteps),
            "stages": stage_entries}
    if stage_entries:
        destination.with_suffix(CARD_SUFFIX).write_text(json.dumps(card, indent=1) + "\n")
    return card


def build_parser():
    """The argparse parser of ``python -m training.export``."""
    p = argparse.ArgumentParser(prog="python -m training.export", description=__doc__.split("\n")[0])
    p.add_argument("source", help="a model.zip written by training.train_ppo or training.imitate")
    p.add_argument("destination", help="the compact .zip to write, e.g. agents/models/ppo.zip")
    p.add_argument("--stage", action="append", default=[], metavar="DIR",
                   help="a training stage's --out directory, in order; repeat (writes the card)")
    return p


def main(argv=None):
    """Command-line entry point; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        card = export_model(args.source, args.destination, args.stage)
    except ValueError as error:
        parser.error(str(error))
    print(f"{args.destination}: {card['bytes']:,} bytes (source {card['source_bytes']:,}), "
          f"{card['timesteps']:,} training steps, sha256 {card['sha256'][:12]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
