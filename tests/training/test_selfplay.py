"""Self-play training: smoke runs for 2 and 3 players, seat rotation, the snapshot pool, the
learner's own-seat rewards, equivalence with the AEC env, save/load, options."""

import csv
import json

import numpy as np
import pytest
from sb3_contrib import MaskablePPO

from agents.ppo_agent import PPOAgent
from tiny_york_env import env as aec_env
from tiny_york_env.game import GameConfig, apply_action, current_player, is_terminal, legal_mask, new_game
from tiny_york_env.observation import encode
from training.selfplay import (
    CONFIG_FILE,
    LOG_COLUMNS,
    LOG_FILE,
    MODEL_FILE,
    OLDEST_SNAPSHOT,
    SNAPSHOT_DIR,
    OpponentPool,
    PolicyAgent,
    SelfPlayConfig,
    SelfPlayEnv,
    freeze_policy,
    parse_args,
    selfplay,
)

FAST = {"n_steps": 64, "n_epochs": 2, "batch_size": 128, "progress": False}
WIN, LOSS_OF_TWO = 1.0, -1.0


class FirstLegal:
    """Deterministic: always the lowest legal action."""

    label = "first"

    def act(self, observation, action_mask):
        return int(np.flatnonzero(action_mask)[0])


class LastLegal(FirstLegal):
    """Deterministic: always the highest legal action."""

    label = "last"

    def act(self, observation, action_mask):
        return int(np.flatnonzero(action_mask)[-1])


class Planner(FirstLegal):
    """A planning agent: records the (view, seat) calls it gets; ``act`` must never be used."""

    def __init__(self):
        self.calls = []

    def act(self, observation, action_mask):
        raise AssertionError("a planning agent must be called through act_state")

    def act_state(self, view, seat):
        self.calls.append(seat)
        return int(np.flatnonzero(legal_mask(view))[0])


def baseline_pool(*agents):
    """A pool of fixed agents only (no snapshot, so never 'the latest')."""
    return OpponentPool(pool_size=1, latest_prob=0.0, baselines=[(a.label, a) for a in agents])


def expected_win_reward(record):
    """The "win" reward of the record's learner seat, from the scores and winner alone."""
    participants = len(record.scores)
    return WIN if record.winner == record.seat else -1.0 / (participants - 1)


@pytest.fixture(scope="module")
def two_player_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("selfplay2")
    result = selfplay(out=out, players=2, num_envs=4, total_steps=2048, seed=3, snapshot_every=512,
                      pool_size=2, eval_every=1024, eval_games=4,
                      eval_opponents=("random", OLDEST_SNAPSHOT), **FAST)
    return out, result


def test_two_player_smoke_run_writes_everything(two_player_run):
    out, result = two_player_run
    assert result.steps >= 2048 and result.steps_per_second > 0
    assert (out / MODEL_FILE).is_file()
    assert json.loads((out / CONFIG_FILE).read_text())["players"] == 2
    with open(out / LOG_FILE) as handle:
        rows = list(csv.DictReader(handle))
    assert tuple(rows[0]) == LOG_COLUMNS
    assert {r["kind"] for r in rows} == {"train", "eval"}
    evals = [r for r in rows if r["kind"] == "eval"]
    assert {r["opponent"] for r in evals} >= {"random"}
    assert all(0.0 <= float(r["win_rate"]) <= 1.0 and int(r["games"]) == 4 for r in evals)
    assert sorted({int(r["step"]) for r in rows}) == [1024, result.steps]


def test_learner_sits_in_every_seat_across_envs(two_player_run):
    _, result = two_player_run
    assert {e.seat for e in result.episodes} == {0, 1}
    for episode in result.episodes:
        assert episode.opponents[episode.seat] is None  # the learner's own seat
        assert all(label is not None for s, label in enumerate(episode.opponents) if s != episode.seat)


def test_snapshots_enter_the_pool_and_the_oldest_leave(two_player_run):
    out, result = two_player_run
    pool = result.pool
    # the initial policy, then one per 512 steps (rollouts are 4 envs x 64 steps = 256 steps)
    assert [entry.step for entry in pool.dropped + pool.snapshots] == [0, 512, 1024, 1536]
    assert len(pool.snapshots) == 2  # pool_size
    files = sorted(p.stem for p in (out / SNAPSHOT_DIR).iterdir())
    assert files == [entry.label for entry in pool.snapshots]  # dropped snapshots' files deleted
    dealt = {label for e in result.episodes for label in e.opponents if label}
    assert len(dealt) >= 2  # later snapshots were dealt as opponents, not only the first


def test_rewards_sb3_received_are_the_learner_seats_own(two_player_run):
    _, result = two_player_run
    assert result.episodes
    for episode in result.episodes:
        assert episode.reward == pytest.approx(expected_win_reward(episode))
    assert {e.reward for e in result.episodes} == {WIN, LOSS_OF_TWO}  # both outcomes were seen


def test_three_players_with_a_baseline_and_a_tom(tmp_path):
    result = selfplay(out=tmp_path, players=3, toms=(3,), num_envs=3, total_steps=1536, seed=5,
                      snapshot_every=512, pool_size=3, baselines=("random",), eval_every=10_000,
                      eval_games=3, **FAST)
    assert {e.seat for e in result.episodes} == {0, 1, 2}
    assert all(len(e.scores) == 4 for e in result.episodes)  # 3 agents + the Tom
    for episode in result.episodes:
        assert episode.reward == pytest.approx(expected_win_reward(episode))
    dealt = {label for e in result.episodes for label in e.opponents if label}
    assert "random" in dealt and any(label.startswith("snapshot_") for label in dealt)
    assert [r["kind"] for r in result.log] == ["train", "eval"]  # only the final log


def test_env_reward_is_own_seat_in_every_seat():
    for seat in range(3):
        env = SelfPlayEnv(baseline_pool(LastLegal()), players=3, reward="score", first_seat=seat)
        observation, info = env.reset(seed=11)
        assert info["seat"] == seat
        terminated = False
        while not terminated:
            observation, reward, terminated, _, info = env.step(FirstLegal().act(observation,
                                                                                 info["action_mask"]))
        scores = info["final_scores"]
        best_other = max(s for k, s in enumerate(scores) if k != seat)
        assert reward == pytest.approx((scores[seat] - best_other) / 50.0)


def test_seats_rotate_and_planning_opponents_get_views():
    planner = Planner()
    env = SelfPlayEnv(baseline_pool(planner), players=2, first_seat=1)
    seats = []
    for game in range(4):
        planner.calls.clear()
        observation, info = env.reset(seed=game)
        seats.append(info["seat"])
        for _ in range(5):
            observation, _, _, _, info = env.step(FirstLegal().act(observation, info["action_mask"]))
        assert planner.calls and set(planner.calls) == {1 - info["seat"]}  # only the other seat
    assert seats == [1, 0, 1, 0]


def test_same_game_as_the_aec_env():
    """The learner's observations, masks and reward equal the AEC env's for the same game."""
    seat, players, seed = 1, 3, 21
    env = SelfPlayEnv(baseline_pool(LastLegal()), players=players, first_seat=seat)
    observation, info = env.reset(seed=seed)
    single = [(observation, info["action_mask"])]
    terminated = False
    while not terminated:
        observation, reward, terminated, _, info = env.step(FirstLegal().act(*single[-1]))
        if not terminated:
            single.append((observation, info["action_mask"]))
    aec = aec_env(num_agents=players, reward="win")
    aec.reset(seed=seed)
    learner, mine = f"player_{seat}", []
    for agent in aec.agent_iter():
        obs, aec_reward, done, truncated, _ = aec.last()
        if done or truncated:
            if agent == learner:
                final_reward = aec_reward
            aec.step(None)
            continue
        player = FirstLegal() if agent == learner else LastLegal()
        if agent == learner:
            mine.append((obs["observation"], obs["action_mask"].astype(bool)))
        aec.step(player.act(obs["observation"], obs["action_mask"]))
    assert len(mine) == len(single)
    for (a_obs, a_mask), (s_obs, s_mask) in zip(mine, single, strict=True):
        np.testing.assert_array_equal(a_obs, s_obs)
        np.testing.assert_array_equal(a_mask, s_mask)
    assert final_reward == pytest.approx(reward)


def _positions(count, players=2, seed=0):
    """(observation, mask) of the seat to move in random-play positions of a few games."""
    rng, out = np.random.default_rng(seed), []
    state = new_game(GameConfig(num_agents=players), seed=seed)
    while len(out) < count:
        if is_terminal(state):
            state = new_game(GameConfig(num_agents=players), seed=seed + len(out))
        mask = legal_mask(state)
        out.append((encode(state, current_player(state)), mask))
        apply_action(state, int(rng.choice(np.flatnonzero(mask))))
    return out


def test_save_load_gives_the_same_actions(two_player_run):
    out, result = two_player_run
    loaded = MaskablePPO.load(out / MODEL_FILE, device="cpu")
    from_file = PPOAgent(out / MODEL_FILE)
    fast = PolicyAgent(freeze_policy(result.model.policy))
    for observation, mask in _positions(60):
        live, _ = result.model.predict(observation, action_masks=mask, deterministic=True)
        again, _ = loaded.predict(observation, action_masks=mask, deterministic=True)
        assert int(live) == int(again) == from_file.act(observation, mask) == fast.act(observation, mask)
        assert mask[int(live)]


def test_snapshot_files_act_like_the_pool_entries(two_player_run):
    _, result = two_player_run
    latest = result.pool.latest
    greedy_entry = PolicyAgent(latest.agent.policy, deterministic=True)
    from_file = PPOAgent(latest.path)
    for observation, mask in _positions(30, seed=4):
        assert greedy_entry.act(observation, mask) == from_file.act(observation, mask)


def test_sampling_opponent_stays_legal_and_is_seeded(two_player_run):
    _, result = two_player_run
    policy = result.pool.latest.agent.policy
    positions = _positions(40, seed=7)
    first = [PolicyAgent(policy, False, seed=9).act(o, m) for o, m in positions]
    again = [PolicyAgent(policy, False, seed=9).act(o, m) for o, m in positions]
    assert first == again
    assert all(m[a] for a, (_, m) in zip(first, positions, strict=True))


def test_pool_keeps_the_newest_and_samples_as_told():
    pool = OpponentPool(pool_size=2, latest_prob=1.0, baselines=[("first", FirstLegal())])
    with pytest.raises(ValueError, match="no snapshot"):
        pool.sample(np.random.default_rng(0))
    for step in (0, 10, 20):
        pool.add_snapshot(f"s{step}", FirstLegal(), step)
    assert [e.step for e in pool.snapshots] == [10, 20] and [e.step for e in pool.dropped] == [0]
    rng = np.random.default_rng(0)
    assert {pool.sample(rng).label for _ in range(50)} == {"s20"}
    pool.latest_prob = 0.0
    counts = {}
    for _ in range(600):
        label = pool.sample(rng).label
        counts[label] = counts.get(label, 0) + 1
    assert set(counts) == {"s10", "s20", "first"} and min(counts.values()) > 150


@pytest.mark.parametrize(("options", "message"), [
    ({"players": 5}, "players must be 2-4"),
    ({"players": 1}, "players must be 2-4"),
    ({"players": 3, "toms": (1, 2)}, "participants"),
    ({"latest_prob": 1.5}, "latest_prob must be a probability"),
    ({"baselines": ("nobody",)}, "unknown agent"),
    ({"eval_opponents": ("nobody",)}, "unknown agent"),
    ({"reward": "points"}, "reward must be one of"),
    ({"pool_size": 0}, "pool_size must be a positive int"),
    ({"seed": -1}, "seed must be a non-negative int"),
])
def test_bad_options_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        SelfPlayConfig(**options).check()


def test_command_line_options():
    options = parse_args(["--players", "3", "--tom", "5", "--baselines", "random,greedy",
                          "--total-steps", "100", "--out", "runs/x", "--no-progress"])
    assert options["players"] == 3 and options["toms"] == (5,)
    assert options["baselines"] == ("random", "greedy") and options["total_steps"] == 100
    assert options["out"] == "runs/x" and options["progress"] is False
    config = SelfPlayConfig(**{k: v for k, v in options.items() if k not in ("out", "progress")}).check()
    assert config.toms == GameConfig(num_agents=3, toms=(5,)).toms
