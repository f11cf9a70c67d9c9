"""TorchRL over the envs, unpatched: ``GymWrapper`` over the native vector env (``DISABLED``
autoreset, TorchRL's preferred mode; the masks read from the infos) and ``PettingZooWrapper(use_mask=True)``
over the AEC env play random legal rollouts of every game (torchrl is the ``torchrl`` extra)."""

import gymnasium as gym
import pytest
from gymnasium.vector import AutoresetMode

from tiny_york_env.envs.aec import make_aec
from tiny_york_env.registry import game_names, get_game

torch = pytest.importorskip("torch", reason="TorchRL needs torch (the train extra)")
torchrl = pytest.importorskip("torchrl", reason="torchrl is the optional extra: pip install -e '.[torchrl]'")
from tensordict import TensorDict  # noqa: E402  (torchrl installs it)
from torchrl.data import Binary, Composite  # noqa: E402
from torchrl.envs import GymWrapper, PettingZooWrapper, TransformedEnv  # noqa: E402
from torchrl.envs.libs.gym import default_info_dict_reader  # noqa: E402
from torchrl.envs.transforms import ActionMask  # noqa: E402

GAMES = game_names()
NUM_ENVS = 4
STEPS = 300


def torchrl_vector_env(env_id, num_envs, mode):
    """TorchRL's env over the native vector env, its action spec masked by each step's legal
    actions (as the TorchRL section of the Gymnasium page shows)."""
    vec = gym.make_vec(env_id, num_envs=num_envs, autoreset_mode=mode, illegal_action="raise")
    env = GymWrapper(vec, categorical_action_encoding=True)
    mask_spec = Binary(n=vec.single_action_space.n, shape=(num_envs, vec.single_action_space.n),
                       dtype=torch.bool)
    env.set_info_dict_reader(default_info_dict_reader(
        ["action_mask"], spec=Composite(action_mask=mask_spec, shape=(num_envs,))))
    return TransformedEnv(env, ActionMask())


@pytest.mark.parametrize("name", GAMES)
def test_gym_wrapper_plays_random_legal_rollouts(name):
    env = torchrl_vector_env(get_game(name).env_id, NUM_ENVS, AutoresetMode.DISABLED)
    env.set_seed(5)
    torch.manual_seed(5)
    rollout = env.rollout(STEPS, break_when_any_done=False)  # the env raises on an illegal action
    assert rollout.batch_size == (NUM_ENVS, STEPS)
    chosen = rollout["action_mask"].gather(-1, rollout["action"].unsqueeze(-1))
    assert chosen.all()
    assert rollout["next", "done"].sum() >= NUM_ENVS  # games ended and went on
    assert (rollout["next", "reward"][rollout["next", "done"]] != 0).any()


def test_gym_wrapper_refuses_next_step_autoreset_as_torchrl_says():
    """TorchRL's own check: the default (next-step) mode is refused with its message."""
    with pytest.raises(RuntimeError, match="SAME_STEP or DISABLED"):
        GymWrapper(gym.make_vec("TinyYork-v0", num_envs=2))


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_wrapper_with_masks_plays_random_legal_rollouts(name):
    env = PettingZooWrapper(env=make_aec(name), use_mask=True, categorical_actions=True)
    env.set_seed(3)
    torch.manual_seed(3)
    rollout = env.rollout(STEPS, break_when_any_done=False)
    acted = 0
    for group in env.group_map:
        played: TensorDict = rollout[group]
        legal = played["action_mask"].gather(-1, played["action"].unsqueeze(-1)).squeeze(-1)
        assert legal[played["mask"]].all()  # every seat that acted chose a legal action
        acted += int(played["mask"].sum())
    assert acted >= STEPS
