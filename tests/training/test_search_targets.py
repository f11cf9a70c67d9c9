"""The search's statistics and the improved policy targets (training/search_targets.py), and the
fit to them (training/imitate.py)."""

import math

import numpy as np
import pytest
import sb3_contrib  # noqa: F401  (required: make test installs the train extra)

from tiny_york_env.training.imitate import (
    DEFAULT_VALUE_WEIGHT,
    _batch_loss,
    collect_demonstrations,
    fit_policy,
)
from tiny_york_env.training.search_targets import (
    SearchStats,
    check_target_settings,
    improved_policy,
    pack_searches,
    policy_targets,
    unpack_searches,
)
from tiny_york_env.training.train_ppo import make_config, make_model, make_vec_env

pytestmark = pytest.mark.usefixtures("one_torch_thread")  # tests/training/conftest.py


def stats(prior, visits, means, step=0):
    return SearchStats(step, np.asarray(prior, np.float32), np.asarray(visits, np.int64),
                       np.asarray(means, np.float32))


def test_equal_means_leave_the_prior_as_it_is():
    prior = [0.5, 0.3, 0.2]
    target = improved_policy(stats(prior, [10, 10, 0], [0.4, 0.4, 0.0]), temperature=0.1)
    assert target == pytest.approx(prior, rel=1e-6)  # the unvisited action's q is the visited mean


def test_a_better_mean_gains_by_how_much_better_at_the_temperature():
    target = improved_policy(stats([0.5, 0.5], [32, 32], [0.6, 0.5]), temperature=0.1, shrink=0)
    assert target[0] / target[1] == pytest.approx(math.e, rel=1e-5)
    shrunk = improved_policy(stats([0.5, 0.5], [32, 32], [0.6, 0.5]), temperature=0.1, shrink=8)
    assert shrunk[0] / shrunk[1] == pytest.approx(math.exp(32 / 40), rel=1e-5)  # n / (n + n0) of it
    sharper = improved_policy(stats([0.5, 0.5], [32, 32], [0.6, 0.5]), temperature=0.01)
    assert sharper[0] > 0.99  # cold: the best mean alone


def test_a_mean_of_few_playouts_counts_less_than_the_same_mean_of_many():
    target = improved_policy(stats([0.4, 0.2, 0.4], [40, 2, 40], [0.8, 0.9, 0.2]), temperature=0.05)
    assert target[0] > target[1]  # 2 lucky playouts do not beat 40 good ones
    unshrunk = improved_policy(stats([0.4, 0.2, 0.4], [40, 2, 40], [0.8, 0.9, 0.2]), temperature=0.05,
                               shrink=0)
    assert unshrunk[1] > unshrunk[0]


def test_an_action_not_played_out_gets_the_prior_weighted_mean_of_the_others():
    prior, means = np.array([0.6, 0.2, 0.2]), np.array([0.8, 0.2, 0.0])
    target = improved_policy(stats(prior, [20, 20, 0], means), temperature=0.1, shrink=0)
    mixed = (0.6 * 0.8 + 0.2 * 0.2) / 0.8
    expected = prior * np.exp(np.array([0.8, 0.2, mixed]) / 0.1)
    assert target == pytest.approx(expected / expected.sum(), rel=1e-5)
    assert target.sum() == pytest.approx(1.0)


def test_policy_targets_are_one_hot_where_unsearched_and_spread_over_the_legal_actions():
    masks = np.zeros((2, 6), np.bool_)
    masks[0, [1, 3, 4]] = masks[1, [0, 5]] = True
    actions = np.array([3, 5])
    searched = stats([0.2, 0.5, 0.3], [8, 8, 0], [0.9, 0.1, 0.0])
    targets = policy_targets([searched, None], actions, masks, 0.1)
    assert targets.dtype == np.float32 and targets.shape == masks.shape
    assert targets[1].tolist() == [0, 0, 0, 0, 0, 1]
    assert (targets[0][~masks[0]] == 0).all() and targets[0].sum() == pytest.approx(1.0)
    assert targets[0, [1, 3, 4]] == pytest.approx(improved_policy(searched, 0.1), rel=1e-6)


def test_statistics_that_do_not_fit_their_decisions_are_refused():
    masks = np.zeros((2, 6), np.bool_)
    masks[0, [1, 3, 4]] = masks[1, [0, 5]] = True
    actions = np.array([3, 5])
    with pytest.raises(ValueError, match="one search statistics entry .* 1 for 2 decisions"):
        policy_targets([None], actions, masks, 0.1)
    with pytest.raises(ValueError, match="decision 1: its search statistics cover 3 actions, its mask 2"):
        policy_targets([None, stats([0.2, 0.5, 0.3], [8, 8, 0], [0.9, 0.1, 0.0])], actions, masks, 0.1)


@pytest.mark.parametrize("target, temperature, words", [
    ("visits", 0.1, "policy_target must be one of"), ("improved", 0.0, "positive number"),
    ("improved", 1e-310, "at least"),
    ("improved", float("nan"), "positive number"), ("improved", True, "positive number")])
def test_bad_target_settings_say_what_is_allowed(target, temperature, words):
    with pytest.raises(ValueError, match=words):
        check_target_settings(target, temperature)


def test_searches_pack_into_a_records_arrays_and_back():
    searches = [stats([0.25, 0.75], [4, 4], [0.5, 0.25], step=1),
                stats([0.5, 0.25, 0.25], [6, 2, 0], [0.125, 1.0, 0.0], step=4)]
    arrays = pack_searches(searches)
    back = unpack_searches(arrays, legal_counts=[1, 2, 1, 5, 3])
    assert [s.step for s in back] == [1, 4]
    for mine, theirs in zip(back, searches, strict=True):
        for field in ("prior", "visits", "means"):
            assert np.array_equal(getattr(mine, field), getattr(theirs, field))
    with pytest.raises(ValueError, match=r"search_prior must be float32 \(6,\)"):
        unpack_searches(arrays, legal_counts=[1, 2, 1, 5, 4])  # another game's decisions
    with pytest.raises(ValueError, match="increasing indices of the game's 3 actions"):
        unpack_searches(arrays, legal_counts=[1, 2, 1])


@pytest.fixture(scope="module")
def demos():
    return collect_demonstrations("greedy", levels=(5,), games=3, seed=4, progress=False)


def small_model():
    config = make_config(toms=(5,), net_arch=(32,), num_envs=1, n_steps=2, batch_size=2, seed=1)
    env = make_vec_env(config, config.stages[0], 0)
    return make_model(config, env), env


def test_the_loss_against_the_actions_is_the_two_pass_one(demos):
    """One pass of each side gives what evaluate_actions (both sides) gives."""
    import torch
    model, env = small_model()
    policy, index = model.policy, np.arange(64)
    with torch.no_grad():
        total, cross_entropy, value_loss, _ = _batch_loss(policy, demos, index, DEFAULT_VALUE_WEIGHT)
        obs = torch.as_tensor(demos.observations[index])
        values, log_prob, _ = policy.evaluate_actions(obs, torch.as_tensor(demos.actions[index]),
                                                      action_masks=demos.masks[index])
        returns = torch.as_tensor(demos.returns[index])
    env.close()
    assert cross_entropy.item() == pytest.approx(-log_prob.mean().item(), rel=1e-5)
    assert value_loss.item() == pytest.approx(torch.nn.functional.mse_loss(values.flatten(), returns).item(),
                                              rel=1e-5)


def test_fitting_to_soft_targets_moves_the_policy_toward_them(demos):
    """Targets that split each decision between the action and the lowest legal one: the fit's
    cross-entropy against them falls, and the policy gives the lowest legal action much more than
    the same fit to the actions alone does."""
    import torch
    rows = np.arange(len(demos))
    lowest = demos.masks.argmax(axis=1)
    targets = np.zeros(demos.masks.shape, np.float32)
    targets[rows, demos.actions] += 0.5
    targets[rows, lowest] += 0.5
    split = rows[demos.actions != lowest]
    lowest_share = {}
    for name, given in (("soft", targets), ("hard", None)):
        model, env = small_model()
        history = fit_policy(model, demos, epochs=12, batch_size=64, learning_rate=3e-3, progress=False,
                             targets=given)
        env.close()
        with torch.no_grad():
            probs = model.policy.get_distribution(torch.as_tensor(demos.observations),
                                                  action_masks=demos.masks).distribution.probs.numpy()
        lowest_share[name] = probs[split, lowest[split]].mean()
        assert history[-1]["train_cross_entropy"] < 0.8 * history[0]["train_cross_entropy"], name
    assert lowest_share["soft"] > lowest_share["hard"] + 0.1, lowest_share
