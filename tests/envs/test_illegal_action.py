"""The ``illegal_action`` option of the AEC and Gymnasium envs: "raise" changes nothing, "terminate"
ends the game as PettingZoo's TerminateIllegalWrapper does, anything outside the action space is
always a ValueError, and a masked policy never sees a difference."""

import warnings

import gymnasium
import numpy as np
import pytest
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import TerminateIllegalWrapper

from tiny_york_env import ENV_ID
from tiny_york_env.envs.aec import env, raw_env
from tiny_york_env.envs.rewards import DEFAULT_ILLEGAL_REWARD, ILLEGAL_ACTION_MODES
from tiny_york_env.envs.single import TinyYorkEnv
from tiny_york_env.games.tiny_york import NUM_ACTIONS, is_terminal, legal_mask

OUT_OF_SPACE_WORDS = r"action must be an int in 0\.\.263|outside the action space"
OUT_OF_SPACE = [NUM_ACTIONS, -1, 2.0, np.float32(1), True, np.bool_(False), "3", None, np.array([1.0]),
                np.array([1, 2])]
AEC_SETUPS = [{"num_agents": 2}, {"num_agents": 3}, {"num_agents": 1, "toms": (5,)}]


def _legal(mask, rng):
    return int(rng.choice(np.flatnonzero(mask)))


def _illegal(mask):
    return int(np.flatnonzero(~np.asarray(mask, dtype=bool))[0])


def _advance(aec, steps, rng):
    """``steps`` random legal moves in a fresh game of ``aec`` (seeded by ``rng``)."""
    aec.reset(seed=int(rng.integers(1000)))
    for _ in range(steps):
        aec.step(_legal(aec.observe(aec.agent_selection)["action_mask"], rng))


# --- options ------------------------------------------------------------------------------------
def test_defaults_follow_each_api():
    """raw_env raises (PettingZoo's classic raw envs); env() and TinyYork-v0 terminate."""
    assert ILLEGAL_ACTION_MODES == ("raise", "terminate") and DEFAULT_ILLEGAL_REWARD == -1.0
    assert raw_env().illegal_action == "raise"
    assert env().unwrapped.illegal_action == "terminate"
    assert TinyYorkEnv().illegal_action == "terminate"
    made = gymnasium.make(ENV_ID, illegal_action="raise", illegal_reward=-2.5).unwrapped
    assert (made.illegal_action, made.illegal_reward) == ("raise", -2.5)
    assert gymnasium.make(ENV_ID).unwrapped.illegal_action == "terminate"
    assert env(illegal_action="raise", illegal_reward=-4).unwrapped.illegal_reward == -4.0


@pytest.mark.parametrize("make", [raw_env, env, TinyYorkEnv, lambda **kw: gymnasium.make(ENV_ID, **kw)],
                         ids=["raw_env", "env", "TinyYorkEnv", "gym.make"])
def test_bad_options_name_what_is_allowed(make):
    for mode in ("random", "Raise", None, 1):
        with pytest.raises(ValueError, match=r"illegal_action must be one of \('raise', 'terminate'\)"):
            make(illegal_action=mode)
    for reward in (float("nan"), float("inf"), "1", True, None):
        with pytest.raises(ValueError, match="illegal_reward must be a finite number"):
            make(illegal_reward=reward)


# --- AEC ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("make", [raw_env, lambda **kw: env(illegal_action="raise", **kw)],
                         ids=["raw_env default", "env(illegal_action='raise')"])
def test_aec_raise_changes_nothing(make):
    e = make(num_agents=3)
    _advance(e, 5, np.random.default_rng(0))
    state = e.unwrapped.game_state
    before, agent = state.tobytes(), e.agent_selection
    for action in (_illegal(legal_mask(state)), np.int16(_illegal(legal_mask(state)))):
        with pytest.raises(ValueError, match=r"illegal action \d+ .* legal actions:"):
            e.step(action)
        assert state.tobytes() == before and e.agent_selection == agent
        assert not any(e.terminations.values()) and not any(e.truncations.values())


@pytest.mark.parametrize("mode", ILLEGAL_ACTION_MODES)
def test_aec_actions_outside_the_space_are_value_errors_in_every_mode(mode):
    e = raw_env(illegal_action=mode)
    _advance(e, 3, np.random.default_rng(1))
    before, agent = e.game_state.tobytes(), e.agent_selection
    for action in OUT_OF_SPACE:
        with pytest.raises(ValueError, match=OUT_OF_SPACE_WORDS):
            e.step(action)
        assert e.game_state.tobytes() == before and e.agent_selection == agent
        assert not any(e.terminations.values())
    legal = _legal(e.observe(agent)["action_mask"], np.random.default_rng(1))
    e.step(np.array([legal]))  # SB3's one-element arrays are actions too
    assert e.game_state.tobytes() != before


def _play_out_dead_steps(e):
    """Each agent steps None once; returns the agents in the order they stepped."""
    order = []
    while e.agents:
        order.append(e.agent_selection)
        e.step(None)
    return order


@pytest.mark.parametrize("setup", AEC_SETUPS, ids=str)
def test_aec_terminate_is_pettingzoos_terminate_illegal_wrapper(setup):
    """Built-in "terminate" gives exactly what TerminateIllegalWrapper around the raising env
    gives: rewards, cumulative rewards, terminations, truncations and the dead-step order; plus
    the offender's ``info["illegal_action"]``, all-zero masks and the engine record unchanged."""
    ours = env(**setup)
    theirs = TerminateIllegalWrapper(raw_env(**setup), illegal_reward=DEFAULT_ILLEGAL_REWARD)
    for e in (ours, theirs):
        _advance(e, 7, np.random.default_rng(2))
    assert ours.unwrapped.game_state.tobytes() == theirs.unwrapped.game_state.tobytes()
    offender = ours.agent_selection
    before = ours.unwrapped.game_state.tobytes()
    action = _illegal(ours.observe(offender)["action_mask"])
    theirs.observe(theirs.agent_selection)  # the wrapper reads the mask from the last observation
    EnvLogger.flush()
    ours.step(action)
    message = " ".join(map(str, EnvLogger.mqueue))
    assert f"Illegal move made by {offender}: action {action}" in message
    EnvLogger.flush()
    theirs.step(action)
    EnvLogger.flush()
    for field in ("rewards", "_cumulative_rewards", "terminations", "truncations"):
        assert getattr(ours, field) == getattr(theirs, field), field
    assert ours.rewards[offender] == DEFAULT_ILLEGAL_REWARD
    assert all(r == 0 for a, r in ours.rewards.items() if a != offender)
    assert ours.agent_selection == theirs.agent_selection
    assert ours.infos[offender]["illegal_action"] == action
    assert all("illegal_action" not in ours.infos[a] for a in ours.agents if a != offender)
    assert ours.unwrapped.game_state.tobytes() == before and not is_terminal(ours.unwrapped.game_state)
    for agent in ours.agents:
        assert not ours.observe(agent)["action_mask"].any()
    assert ours.last()[2] and ours.last()[3]
    with pytest.raises(ValueError, match="only valid action is None"):
        ours.step(0)
    assert _play_out_dead_steps(ours) == _play_out_dead_steps(theirs)
    ours.reset(seed=3)  # a new game is played normally
    assert ours.observe(ours.agent_selection)["action_mask"].any() and not any(ours.terminations.values())


def test_aec_terminate_uses_the_given_penalty():
    e = raw_env(num_agents=2, illegal_action="terminate", illegal_reward=-3)
    _advance(e, 2, np.random.default_rng(4))
    offender, other = e.agent_selection, next(a for a in e.agents if a != e.agent_selection)
    e.step(_illegal(e.observe(offender)["action_mask"]))
    EnvLogger.flush()
    assert e._cumulative_rewards == {offender: -3.0, other: 0.0}


def _aec_trace(aec, seed):
    """Every (agent, observation, mask, reward, terminated, truncated, info) of a random legal game."""
    rng = np.random.default_rng(seed)
    aec.reset(seed=seed)
    trace = []
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, info = aec.last()
        trace.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward,
                      terminated, truncated, dict(info)))
        aec.step(None if terminated or truncated else _legal(obs["action_mask"], rng))
    return trace


@pytest.mark.parametrize("setup", AEC_SETUPS, ids=str)
def test_a_masked_policy_sees_no_difference_in_the_aec_env(setup):
    for seed in (5, 6):
        assert (_aec_trace(raw_env(illegal_action="raise", **setup), seed)
                == _aec_trace(env(illegal_action="terminate", **setup), seed))


# --- Gymnasium single env -------------------------------------------------------------------------
def test_single_terminate_ends_the_episode_and_keeps_the_game():
    e = TinyYorkEnv(toms=(5,), illegal_reward=-2.0)
    e.reset(seed=7)
    e.step(_legal(e.action_masks(), np.random.default_rng(7)))
    obs_before, state_before = e._observe(), e.state.tobytes()
    action = _illegal(e.action_masks())
    with pytest.warns(UserWarning, match=rf"illegal action {action} \(.*\) for the learning seat 0"):
        obs, reward, terminated, truncated, info = e.step(np.int64(action))
    assert (reward, terminated, truncated) == (-2.0, True, False) and type(reward) is float
    np.testing.assert_array_equal(obs, obs_before)
    assert info["illegal_action"] == action and not info["action_mask"].any()
    assert not e.action_masks().any() and e.state.tobytes() == state_before
    for again in (0, action):
        with pytest.raises(ValueError, match=r"ended on the illegal action .*call reset\(\)"):
            e.step(again)
    _, info = e.reset(seed=8)
    assert info["action_mask"].any() and "illegal_action" not in info
    e.step(_legal(e.action_masks(), np.random.default_rng(8)))


def test_single_raise_changes_nothing():
    e = TinyYorkEnv(illegal_action="raise")
    e.reset(seed=9)
    before, mask = e.state.tobytes(), e.action_masks()
    with pytest.raises(ValueError, match=r"illegal action \d+ .* legal actions:"):
        e.step(_illegal(mask))
    assert e.state.tobytes() == before and np.array_equal(e.action_masks(), mask)


@pytest.mark.parametrize("mode", ILLEGAL_ACTION_MODES)
def test_single_actions_outside_the_space_are_value_errors_in_every_mode(mode):
    e = TinyYorkEnv(illegal_action=mode)
    e.reset(seed=10)
    before = e.state.tobytes()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "terminate" warning either: these are not actions
        for action in OUT_OF_SPACE:
            with pytest.raises(ValueError, match=OUT_OF_SPACE_WORDS):
                e.step(action)
            assert e.state.tobytes() == before and e.action_masks().any()


@pytest.mark.parametrize("mode", ILLEGAL_ACTION_MODES)
def test_an_opponents_illegal_action_raises_in_every_mode(mode):
    """A bot that picks an illegal action is a bug in the bot, not the learner's doing."""
    class Stubborn:
        def act(self, observation, action_mask):
            return _illegal(action_mask)

    e = TinyYorkEnv(toms=(), opponents=(Stubborn(),), seat=1, illegal_action=mode)
    with pytest.raises(ValueError, match="opponent in seat 0 chose an illegal action"):
        e.reset(seed=0)


def _single_trace(e, seed):
    rng = np.random.default_rng(seed)
    obs, info = e.reset(seed=seed)
    trace, terminated = [(obs.tobytes(), info["action_mask"].tobytes())], False
    while not terminated:
        obs, reward, terminated, truncated, info = e.step(_legal(e.action_masks(), rng))
        trace.append((obs.tobytes(), reward, terminated, truncated, info["action_mask"].tobytes(),
                      sorted(info)))
    return trace


def test_a_masked_policy_sees_no_difference_in_the_single_env():
    for toms in ((5,), (1, "C4")):
        for seed in (11, 12):
            assert (_single_trace(TinyYorkEnv(toms=toms, illegal_action="raise"), seed)
                    == _single_trace(TinyYorkEnv(toms=toms, illegal_action="terminate"), seed))


@pytest.mark.filterwarnings("ignore:illegal action:UserWarning")  # an unmasked policy's, by design
def test_plain_unmasked_ppo_trains_on_the_registered_env():
    """SB3's plain PPO (no masks) runs on gym.make("TinyYork-v0"): its illegal actions end
    episodes with the penalty instead of crashing the run."""
    import torch
    from stable_baselines3 import PPO
    from stable_baselines3.common.monitor import Monitor

    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny network: extra threads only wait on each other
    try:
        env = Monitor(gymnasium.make(ENV_ID))
        model = PPO("MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=1, seed=0,
                    policy_kwargs={"net_arch": [16]}, device="cpu")
        model.learn(total_timesteps=256)
    finally:
        torch.set_num_threads(threads)
    assert model.num_timesteps >= 256
    assert env.get_episode_rewards() and DEFAULT_ILLEGAL_REWARD in env.get_episode_rewards()
