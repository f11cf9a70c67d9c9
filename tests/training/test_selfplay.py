"""Self-play training: smoke runs for 2 and 3 players, seat rotation, the snapshot pool, the
learner's own-seat rewards, the learner env as one seat of the AEC env, save/load, options."""

import csv
import json

import numpy as np
import pytest
from sb3_contrib import MaskablePPO

from tiny_york_env.agents.ppo_agent import POLICY_FILE, PPOAgent
from tiny_york_env.envs.aec import raw_env
from tiny_york_env.envs.single import next_seed
from tiny_york_env.games.tiny_york import (
    GameConfig,
    apply_action,
    current_player,
    is_terminal,
    legal_mask,
    new_game,
)
from tiny_york_env.games.tiny_york.observation import encode
from tiny_york_env.training.selfplay import (
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
SEED = 31
MAX_OUTCOME_GAMES = 20  # games tried until the learner has both won and lost one


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


class RandomLegal(FirstLegal):
    """A uniformly random legal action from its own seeded generator."""

    label = "random-legal"

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def act(self, observation, action_mask):
        return int(self.rng.choice(np.flatnonzero(action_mask)))


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


def test_masks_and_steps_before_reset_say_to_reset_first():
    env = SelfPlayEnv(baseline_pool(LastLegal()), players=2, first_seat=0)
    with pytest.raises(ValueError, match=r"call reset\(\) before action_masks\(\)"):
        env.action_masks()
    with pytest.raises(ValueError, match=r"call reset\(\) before step\(\)"):
        env.step(0)
    env.reset(seed=1)
    assert env.action_masks().any()


def test_an_illegal_learner_action_raises_and_changes_nothing():
    env = SelfPlayEnv(baseline_pool(LastLegal()), players=2, first_seat=0)
    observation, info = env.reset(seed=5)
    assert env.aec.illegal_action == "raise"
    before = env.aec.unwrapped.game_state.copy()
    with pytest.raises(ValueError, match="illegal"):
        env.step(int(np.flatnonzero(~info["action_mask"])[0]))
    assert env.aec.unwrapped.game_state.tobytes() == before.tobytes()


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


def play_game(env, seed, options=None, learner=None):
    """One game of ``env`` with ``learner`` (FirstLegal by default) choosing the learner's actions:
    ([(observation, mask, action)] at the learner's turns, [reward] of every step, the last
    observation and info)."""
    learner = learner or FirstLegal()
    observation, info = env.reset(seed=seed, options=options)
    turns, rewards, terminated = [], [], False
    while not terminated:
        action = learner.act(observation, info["action_mask"])
        turns.append((observation, info["action_mask"], action))
        observation, reward, terminated, truncated, info = env.step(action)
        rewards.append(reward)
        assert not truncated
    return turns, rewards, observation, info


def bare_aec_game(seed, seat, learner_actions, opponent, players, toms=(), reward="win"):
    """The same game through a bare raw_env loop, the learner's actions replayed and ``opponent``
    in every other agent: (the learner's ``observe`` observations and masks at its turns, its final
    observation, every agent's reward as ``last()`` reports it at the end)."""
    aec = raw_env(num_agents=players, toms=toms, reward=reward)
    aec.reset(seed=seed)
    learner, actions = f"player_{seat}", iter(learner_actions)
    seen, final_rewards = [], {}
    for agent in aec.agent_iter():
        _, cumulative, terminated, truncated, _ = aec.last(observe=False)
        if terminated or truncated:
            final_rewards[agent] = cumulative
            if agent == learner:
                final_observation = aec.observe(learner)["observation"]
            aec.step(None)
            continue
        observation = aec.observe(agent)
        if agent == learner:
            seen.append((observation["observation"], observation["action_mask"].astype(bool)))
            aec.step(next(actions))
        else:
            aec.step(opponent.act(observation["observation"], observation["action_mask"].astype(bool)))
    assert next(actions, None) is None  # every learner action was replayed
    return seen, final_observation, final_rewards


def test_same_game_as_the_aec_env():
    """At its turns the learner sees exactly raw_env.observe(player_<seat>) of the same game
    (seed, learner actions, opponent), and its mask; also with a Tom in the game."""
    for players, toms, seat, seed in ((3, (), 1, 21), (2, (4,), 0, 22)):
        env = SelfPlayEnv(baseline_pool(LastLegal()), players=players, toms=toms, first_seat=seat)
        turns, _, last_observation, _ = play_game(env, seed)
        seen, final_observation, _ = bare_aec_game(seed, seat, [a for _, _, a in turns], LastLegal(),
                                                   players, toms)
        assert len(seen) == len(turns)
        for (aec_observation, aec_mask), (observation, mask, _) in zip(seen, turns, strict=True):
            assert observation.dtype == np.float32 and mask.dtype == np.bool_
            np.testing.assert_array_equal(observation, aec_observation)
            np.testing.assert_array_equal(mask, aec_mask)
        np.testing.assert_array_equal(last_observation, final_observation)


def test_reward_is_the_learners_own_aec_reward_not_the_opponents():
    """Under "win" in 2-player games the reward SB3 gets at the end is the AEC env's reward of the
    learner's agent (+1 or -1), never the opponent's (the opposite sign); 0 before the end."""
    outcomes = set()
    for seed in range(MAX_OUTCOME_GAMES):
        seat = seed % 2
        env = SelfPlayEnv(baseline_pool(RandomLegal(seed)), players=2, reward="win", first_seat=seat)
        turns, rewards, _, info = play_game(env, seed, learner=RandomLegal(seed + 1))
        _, _, aec_rewards = bare_aec_game(seed, seat, [a for _, _, a in turns], RandomLegal(seed),
                                          players=2)
        mine, theirs = aec_rewards[f"player_{seat}"], aec_rewards[f"player_{1 - seat}"]
        assert rewards[:-1] == [0.0] * (len(rewards) - 1)
        assert rewards[-1] == mine and rewards[-1] != theirs and {mine, theirs} == {WIN, LOSS_OF_TWO}
        assert (rewards[-1] == WIN) == (info["winner"] == seat)
        assert env.aec.agents == []  # every agent stepped None after the end, as the AEC loop does
        outcomes.add(rewards[-1])
        if outcomes == {WIN, LOSS_OF_TWO}:
            break
    assert outcomes == {WIN, LOSS_OF_TWO}  # a won and a lost game were both checked


def test_learning_seat_visits_every_seat_and_games_do_not_repeat():
    """Consecutive resets move the learner through every seat; seedless resets follow the seed
    chain (a new game each time); the same seed and options replay the same game."""
    for players in range(2, 5):
        first = players - 1
        env = SelfPlayEnv(baseline_pool(LastLegal()), players=players, first_seat=first)
        seats, seeds = [], []
        for game in range(players + 1):
            observation, info = env.reset(seed=SEED if game == 0 else None)
            assert info["opponents"][info["seat"]] is None and env.action_masks().any()
            assert np.array_equal(env.action_masks(), info["action_mask"])
            seats.append(info["seat"])
            seeds.append(env.game_seed)
        assert seats == [(first + k) % players for k in range(players + 1)]
        assert sorted(set(seats)) == list(range(players))
        assert seeds[1:] == [next_seed(s) for s in seeds[:-1]] and len(set(seeds)) == len(seeds)
    options = {"seat": 1}
    again = [play_game(SelfPlayEnv(baseline_pool(LastLegal()), players=3), SEED, options)
             for _ in range(2)]
    assert [a for _, _, a in again[0][0]] == [a for _, _, a in again[1][0]]
    np.testing.assert_array_equal(again[0][2], again[1][2])
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(options={"colour": 1})
    with pytest.raises(ValueError, match="seat must be"):
        env.reset(options={"seat": players})


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
    from_file = PPOAgent(out / POLICY_FILE)
    with pytest.raises(ValueError, match="stable-baselines3 checkpoint"):
        PPOAgent(out / MODEL_FILE)  # the SB3 checkpoint is not unpickled unless opted into
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
    ({"players": 5}, "num_agents must be 1-4"),
    ({"players": 1}, "players must be at least 2 agent seats"),
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


def test_gamma_and_network_default_to_train_ppo_and_can_be_set():
    """Self-play used SB3's 0.99 and 64-64; now train_ppo's defaults, and options."""
    from tiny_york_env.training.train_ppo import DEFAULT_GAMMA, DEFAULT_NET_ARCH
    config = SelfPlayConfig().check()
    assert (config.gamma, config.net_arch) == (DEFAULT_GAMMA, DEFAULT_NET_ARCH)
    options = parse_args(["--gamma", "0.97", "--net-arch", "32,16", "--init-from", "ppo"])
    assert (options["gamma"], options["net_arch"], options["init_from"]) == (0.97, (32, 16), "ppo")
    result = selfplay(players=2, num_envs=2, total_steps=64, n_steps=32, batch_size=32, n_epochs=1,
                      gamma=0.97, net_arch=(32, 16), eval_every=10_000, progress=False)
    assert result.model.gamma == 0.97
    widths = [layer.out_features for layer in result.model.policy.mlp_extractor.policy_net
              if hasattr(layer, "out_features")]
    assert widths == [32, 16]


@pytest.mark.parametrize(("options", "message"), [
    ({"gamma": 1.5}, "gamma must be a number in"),
    ({"net_arch": (0,)}, "net_arch widths must be a positive int"),
    ({"init_from": 3}, "init_from is a policy file"),
])
def test_bad_training_options_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        SelfPlayConfig(**options).check()


def test_self_play_starts_from_the_shipped_policy():
    """init_from="ppo": the first snapshot (the learner before any update) plays the shipped
    policy's logits."""
    from tiny_york_env.agents.ppo_agent import PPOAgent
    from tiny_york_env.games.tiny_york import new_game
    from tiny_york_env.games.tiny_york.observation import encode
    result = selfplay(players=2, num_envs=2, total_steps=64, n_steps=32, batch_size=32, n_epochs=1,
                      init_from="ppo", eval_every=10_000, progress=False)
    first = result.pool.snapshots[0]  # taken at step 0, before the first update
    assert first.step == 0
    observation = encode(new_game(GameConfig(num_agents=2), seed=1), 0)
    shipped = PPOAgent().action_logits(observation)
    assert np.allclose(first.agent.action_logits(observation), shipped, atol=1e-4)
