"""``PPOAgent``: a trained MaskablePPO policy (``training/train_ppo.py``) playing one seat.

It sees only the seat's observation and legal mask, like any ``act`` agent, and never the engine.
Deterministic play takes the most likely legal action (``MaskablePPO.predict``); stochastic play
samples the masked policy with the agent's own seeded generator, so a seeded agent repeats its
games. Models loaded from disk are cached by path and file version: the evaluation harness makes
a fresh agent for every game without reading the file again.
"""

from functools import lru_cache
from pathlib import Path

import numpy as np

from tiny_york_env.game import NUM_ACTIONS
from tiny_york_env.observation import OBS_SIZE

MODEL_SUFFIX = ".zip"  # what MaskablePPO.save writes and load accepts
DEFAULT_MODEL_PATH = Path(__file__).resolve().parent / "models" / f"ppo{MODEL_SUFFIX}"
LOADED_MODEL_CACHE_SIZE = 4


def check_model_spaces(model, source="the model"):
    """ValueError unless ``model`` observes float[OBS_SIZE] and acts in Discrete(NUM_ACTIONS),
    i.e. it was trained on this version of the observation encoder and action codec."""
    shape = getattr(model.observation_space, "shape", None)
    if shape != (OBS_SIZE,):
        raise ValueError(f"{source} observes shape {shape}, but the current observation encoder "
                         f"gives ({OBS_SIZE},): it was trained on another encoder version; "
                         f"retrain it with python -m training.train_ppo")
    actions = getattr(model.action_space, "n", None)
    if actions != NUM_ACTIONS:
        raise ValueError(f"{source} chooses among {actions} actions, but the action codec has "
                         f"{NUM_ACTIONS}: retrain it with python -m training.train_ppo")
    return model


def resolve_model_path(path):
    """The existing model file for ``path`` (``.zip`` may be left off); ValueError if none."""
    path = Path(path).expanduser()
    candidates = [path] if path.suffix == MODEL_SUFFIX else [path, path.with_name(path.name + MODEL_SUFFIX)]
    for candidate in candidates:
        if candidate.is_file():
            return candidate.resolve()
    raise ValueError(f"no PPO model file at {str(path)!r}: give the model.zip written by "
                     f"python -m training.train_ppo (its --out directory), e.g. 'ppo:runs/x/model.zip'")


@lru_cache(maxsize=LOADED_MODEL_CACHE_SIZE)
def _load_cached(path, mtime_ns, size, device):
    from sb3_contrib import MaskablePPO
    return MaskablePPO.load(path, device=device)


def load_model(path, device="cpu"):
    """A MaskablePPO model from ``path`` (cached per file version), checked against OBS_SIZE."""
    path = resolve_model_path(path)
    stat = path.stat()
    try:
        model = _load_cached(str(path), stat.st_mtime_ns, stat.st_size, device)
    except (ValueError, KeyError, OSError, RuntimeError) as error:
        raise ValueError(f"{str(path)!r} is not a loadable MaskablePPO model: {error}") from error
    return check_model_spaces(model, f"the model {str(path)!r}")


class PPOAgent:
    """Plays a MaskablePPO policy: from a saved file (path) or an in-memory model."""

    def __init__(self, path_or_model=None, deterministic=True, device="cpu", seed=None):
        if path_or_model is None:
            path_or_model = DEFAULT_MODEL_PATH
        if isinstance(path_or_model, (str, Path)):
            self.model = load_model(path_or_model, device)
            self.source = str(path_or_model)
        elif callable(getattr(path_or_model, "predict", None)) and hasattr(path_or_model, "policy"):
            self.model = check_model_spaces(path_or_model)
            self.source = "in-memory model"
        else:
            raise ValueError(f"PPOAgent needs a model file path or a MaskablePPO model, "
                             f"got {path_or_model!r}")
        self.deterministic = bool(deterministic)
        self.rng = np.random.default_rng(seed)

    @classmethod
    def load(cls, path, **options):
        """A PPOAgent playing the model saved at ``path``; ``options`` as for the constructor."""
        return cls(Path(path), **options)

    def act(self, observation, action_mask):
        """The policy's legal action for one seat's observation and bool[NUM_ACTIONS] mask."""
        mask = np.asarray(action_mask, dtype=np.bool_)
        if mask.shape != (NUM_ACTIONS,) or not mask.any():
            raise ValueError(f"action_mask must be bool[{NUM_ACTIONS}] with a legal action; got "
                             f"shape {mask.shape} with {int(mask.sum())} legal")
        observation = np.asarray(observation, dtype=np.float32)
        if self.deterministic:
            action, _ = self.model.predict(observation, action_masks=mask, deterministic=True)
            return int(action)
        return int(self.rng.choice(NUM_ACTIONS, p=self.action_probabilities(observation, mask)))

    def action_probabilities(self, observation, action_mask):
        """float64[NUM_ACTIONS]: the masked policy's probability of each action (zero if illegal)."""
        import torch
        policy = self.model.policy
        obs_tensor, _ = policy.obs_to_tensor(np.asarray(observation, dtype=np.float32))
        mask = np.asarray(action_mask, dtype=np.bool_)
        with torch.no_grad():
            distribution = policy.get_distribution(obs_tensor, action_masks=mask[None])
        probs = distribution.distribution.probs[0].cpu().numpy().astype(np.float64) * mask
        return probs / probs.sum()
