"""``PolicySearchAgent`` (psearch) and ``ChampionAgent``: legal, reproducible, blind to hidden
parts, within its time budget, and stronger with policy playouts than with random ones."""

import dataclasses
import math
from pathlib import Path

import numpy as np
import pytest

from tiny_york_env.agents.base import choose_action
from tiny_york_env.agents.policy_search import (
    CHAMPION_MARGIN_WEIGHT,
    CHAMPION_SIMULATIONS,
    CHAMPION_SKIP_ABOVE,
    ChampionAgent,
    PolicyNetwork,
    PolicySearchAgent,
    halving_schedule,
    masked_argmax,
)
from tiny_york_env.agents.ppo_agent import DEFAULT_MODEL_PATH
from tiny_york_env.agents.registry import check_player, make_agent
from tiny_york_env.agents.seats import seat_decider
from tiny_york_env.agents.shipped import shipped_policy_path
from tiny_york_env.arena.match import evaluate_match
from tiny_york_env.core.jit import JIT_ENABLED
from tiny_york_env.games.tiny_york import (
    GameConfig,
    apply_action,
    current_player,
    determinize,
    is_terminal,
    legal_actions,
    legal_mask,
    new_game,
    winner,
)
from tiny_york_env.games.tiny_york.observation import encode
from tiny_york_env.registry import get_game

compiled_only = pytest.mark.skipif(not JIT_ENABLED, reason="hundreds of plain-Python playouts")
CHEAP = 4  # playouts a decision where only legality or reproducibility matters
STRENGTH_GAMES = 10
STRENGTH_LEVEL = 2  # Tom 2 (B3): the shipped policy wins most games, random play none
STRENGTH_BUDGET = 16
SIGNIFICANCE = 0.05
NOISY_BUDGET = 8  # playouts a decision: two or three a candidate in Construction Yard
NOISY_GAMES = 16
CHEAP_DECISIONS = 12  # decisions a legality check plays
TICK = 0.001  # s between two readings of the test's clock


@pytest.fixture(scope="module")
def network():
    return PolicyNetwork()


def open_position(config, seed, decisions, least=3):
    """A random game about ``decisions`` decisions in, at a decision of ``least`` or more legal
    actions."""
    state = new_game(config, seed=seed)
    rng = np.random.default_rng(seed)
    for n in range(10 ** 4):
        if n >= decisions and legal_actions(state).size >= least:
            return state
        apply_action(state, int(rng.choice(legal_actions(state))))
    raise AssertionError("no open position")


def fisher_greater_p(wins_a, wins_b, games):
    """One-sided Fisher exact test: the chance of at least ``wins_a`` of the ``wins_a + wins_b``
    wins falling to A when both sides of ``games`` games each are equally strong."""
    total = wins_a + wins_b
    return sum(math.comb(games, k) * math.comb(games, total - k)
               for k in range(wins_a, min(games, total) + 1)) / math.comb(2 * games, total)


def solo_win(agent, level, seed):
    """Whether ``agent`` wins one solo game against Tom ``level``."""
    state = new_game(GameConfig(num_agents=1, toms=(level,)), seed=seed)
    rng = np.random.default_rng(seed)
    while not is_terminal(state):
        action = choose_action(agent, state, rng)
        assert legal_mask(state)[action]
        apply_action(state, action)
    return winner(state) == 0


def test_the_fisher_test_itself():
    assert fisher_greater_p(5, 5, 10) > 0.5
    assert fisher_greater_p(10, 0, 10) == pytest.approx(1 / math.comb(20, 10))
    assert fisher_greater_p(7, 1, 10) < SIGNIFICANCE < fisher_greater_p(6, 2, 10)


def test_halving_schedule_halves_and_stays_in_budget():
    assert halving_schedule(8, 64) == [(8, 2), (4, 5), (2, 10)]
    assert halving_schedule(2, 10) == [(2, 5)]
    for k in (2, 3, 5, 16, 33):
        for budget in (1, 16, 100, 1024):
            rounds = halving_schedule(k, budget)
            assert rounds[0][0] == k and rounds[-1][0] in (1, 2)
            assert all(n >= 1 for _, n in rounds)
            if budget >= k * len(rounds):
                assert sum(c * n for c, n in rounds) <= budget


@pytest.mark.parametrize("config", [GameConfig(num_agents=1, toms=(12,)), GameConfig(num_agents=2, toms=(5,)),
                                    GameConfig(num_agents=3)], ids=["solo", "2agents-tom", "3agents"])
def test_only_legal_actions_to_the_end(config, network):
    state = new_game(config, seed=3)
    agents = [PolicySearchAgent(simulations=CHEAP, seed=k, network=network) for k in range(config.num_agents)]
    rng = np.random.default_rng(0)
    decisions = 0
    while not is_terminal(state):
        action = choose_action(agents[current_player(state)], state, rng)
        assert legal_mask(state)[action], f"illegal action {action}"
        apply_action(state, action)
        decisions += 1
    assert decisions > 50


def hidden_parts_differ(view_a, view_b):
    """Whether two views differ in more than the generator they carry."""
    a, b = view_a.copy(), view_b.copy()
    a["rng"], b["rng"] = 0, 0
    return a.tobytes() != b.tobytes()


@pytest.mark.parametrize("options", [{}, {"value_depth": 4}, {"playout": "random"}],
                         ids=["policy", "value", "random"])
def test_the_search_never_reads_hidden_parts(options, network):
    # Two views that differ only in what the seat cannot know (the Toms' and other seats' cards,
    # the stacks' order): the same agent seed gives the same search, playout for playout.
    for seed in range(3):
        state = open_position(GameConfig(num_agents=2, toms=(12,)), seed, 30 + 11 * seed)
        seat = current_player(state)
        view_a, view_b = determinize(state, seat, 1), determinize(state, seat, 2)
        assert hidden_parts_differ(view_a, view_b)
        a = PolicySearchAgent(simulations=16, seed=5, network=network, **options).search(view_a, seat)
        b = PolicySearchAgent(simulations=16, seed=5, network=network, **options).search(view_b, seat)
        assert a["action"] == b["action"] and a["playouts"] == b["playouts"] > 0
        for key in ("legal", "prior", "candidates", "visits", "means"):
            assert np.array_equal(a[key], b[key]), key


def test_the_same_seed_gives_the_same_search_and_the_view_is_unchanged(network):
    state = open_position(GameConfig(num_agents=1, toms=(7,)), 4, 25)
    view = determinize(state, 0, 0)
    before = view.tobytes()
    first = PolicySearchAgent(simulations=32, seed=9, network=network).search(view, 0)
    second = PolicySearchAgent(simulations=32, seed=9, network=network).search(view, 0)
    assert view.tobytes() == before
    assert first["action"] == second["action"] and np.array_equal(first["means"], second["means"])


def test_the_search_follows_its_schedule(network):
    state = open_position(GameConfig(num_agents=1, toms=(12,)), 6, 20)
    view = determinize(state, 0, 0)
    agent = PolicySearchAgent(simulations=64, seed=0, network=network)
    result = agent.search(view, 0)
    k = min(legal_actions(state).size, agent.candidates(64))
    assert result["candidates"].size == k
    expected = sum(c * n for c, n in halving_schedule(k, 64))
    assert result["playouts"] == expected == result["visits"].sum()
    assert result["action"] in result["candidates"]
    searched = result["visits"] > 0
    assert np.array_equal(np.sort(result["legal"][searched]), np.sort(result["candidates"]))
    # the candidates are the prior's most probable actions, and the played one is the most visited
    top = result["legal"][np.argsort(-result["prior"], kind="stable")[:k]]
    assert set(top) == set(result["candidates"])
    played = np.flatnonzero(result["legal"] == result["action"])[0]
    assert result["visits"][played] == result["visits"].max()


class TickingClock:
    """A stand-in for the clock: every reading is ``tick`` seconds after the last, however busy
    the machine is."""

    def __init__(self, tick=TICK):
        self.readings = []
        self.tick = tick

    def perf_counter(self):
        self.readings.append(len(self.readings) * self.tick)
        return self.readings[-1]


# The torch path reads the clock every step of a batch; the compiled path between batches only
# (a batch is one compiled call), so its clock is made to tick a tenth of the limit a reading.
@pytest.mark.parametrize("forward, tick", [("torch", TICK), ("compiled", 0.05)])
def test_the_time_budget_is_kept(network, forward, tick):
    """The search stops at its first reading of the clock past the limit (one more reading times
    it), keeping the playouts finished by then."""
    state = open_position(GameConfig(num_agents=1, toms=(12,)), 2, 5)
    view = determinize(state, 0, 0)
    limit = 0.5
    plan = 4096  # far more playouts than fit in the limit, over 7 candidates
    for seed in range(3):
        agent = PolicySearchAgent(simulations=plan, seed=seed, time_limit=limit, network=network,
                                  widening=0.1, clock=TickingClock(tick).perf_counter,
                                  forward=forward)
        result = agent.search(view, 0)
        assert limit < result["seconds"] <= limit + 2 * tick + 1e-9, result["seconds"]
        assert 0 < result["playouts"] < plan
        assert result["action"] in legal_actions(state)


def test_against_the_clock_only_the_first_round_starts_small(network):
    """With a limit it never reaches the search plays its first round in batches of 1, 2, 4...
    redrawn views (a result for every candidate early) and each later round in one batch, as with
    no limit; the views and playouts are the same, so (but for float rounding) is the search."""
    state = open_position(GameConfig(num_agents=1, toms=(12,)), 6, 20)
    view = determinize(state, 0, 0)
    searches = {}
    for limit in (None, 1e6):
        agent = PolicySearchAgent(simulations=64, seed=3, network=network, time_limit=limit)
        batches, chunk = [], agent._chunk

        def recording_chunk(view, seat, actions, views, deadline, chunk=chunk, batches=batches):
            batches.append((actions.size, views))
            return chunk(view, seat, actions, views, deadline)
        agent._chunk = recording_chunk
        searches[limit] = (agent.search(view, 0), batches)
    (free, free_batches), (timed, timed_batches) = searches[None], searches[1e6]
    k = free["candidates"].size
    schedule = halving_schedule(k, 64)
    assert len(schedule) > 1 and free_batches == [(c, n) for c, n in schedule]  # one batch a round
    first_round = [views for candidates, views in timed_batches if candidates == k]
    doubling = [min(2 ** i, schedule[0][1] - 2 ** i + 1) for i in range(len(first_round))]
    assert first_round == doubling and sum(first_round) == schedule[0][1]
    assert timed_batches[len(first_round):] == free_batches[1:]
    assert timed["action"] == free["action"] and np.array_equal(timed["visits"], free["visits"])
    assert np.allclose(timed["means"], free["means"])


def test_the_sparse_network_computes_what_the_dense_one_does(network):
    import torch

    from tiny_york_env.agents.ppo_agent import file_actor, file_critic
    rng = np.random.default_rng(4)
    observations, masks = [], []
    for seed in range(2):
        state = new_game(GameConfig(num_agents=2, toms=(10,)), seed=seed)
        while not is_terminal(state):
            observations.append(encode(state, current_player(state)))
            masks.append(legal_mask(state))
            apply_action(state, int(rng.choice(legal_actions(state))))
    observations, masks = np.array(observations, dtype=np.float32), np.array(masks)
    observations[0] = 0.0  # a row with nothing set
    with torch.no_grad():
        x = torch.from_numpy(observations)
        dense_logits = file_actor(network.network)(x).numpy()
        dense_values = file_critic(network.network)(x)[:, 0].numpy()
    logits, values = network.evaluate(observations, with_value=True)
    assert np.allclose(logits, dense_logits, atol=1e-4) and np.allclose(values, dense_values, atol=1e-4)
    masked, _ = network.evaluate(observations[:64], masks=masks[:64])
    some_row = masks[:64].any(axis=0)
    assert np.isneginf(masked[:, ~some_row]).all()
    assert np.allclose(masked[:, some_row], dense_logits[:64, some_row], atol=1e-4)
    assert (masked_argmax(masked, masks[:64]) == masked_argmax(dense_logits[:64], masks[:64])).all()
    assert np.allclose(network.values(observations), dense_values, atol=1e-4)  # the value head alone
    for bad in (observations[0], observations[:, :-1], observations[None]):
        with pytest.raises(ValueError, match=r"shape \(N, "):
            network.evaluate(bad)
        with pytest.raises(ValueError, match="obs\\[None\\]"):
            network.values(bad)


# what each path calls to advance its playouts: a step of the batch, or the whole batch
ADVANCE = {"torch": "rollout_apply", "compiled": "network_playouts"}


@pytest.mark.parametrize("forward, tick", [("torch", TICK), ("compiled", 0.05)])
def test_no_engine_step_starts_after_the_deadline(network, forward, tick):
    """Neither a step of a batch (torch) nor a batch (compiled) starts once the deadline is read."""
    state = open_position(GameConfig(num_agents=1, toms=(12,)), 2, 5)
    view = determinize(state, 0, 0)
    clock = TickingClock(tick)
    agent = PolicySearchAgent(simulations=4096, seed=0, time_limit=1.0, network=network, widening=0.1,
                              clock=clock.perf_counter, forward=forward)
    kernels, stepped_at = agent._kernels, []

    class RecordingKernels:
        def __getattr__(self, name):
            kernel = getattr(kernels, name)
            if name != ADVANCE[forward]:
                return kernel

            def recorded(*arguments):
                stepped_at.append(clock.readings[-1])
                return kernel(*arguments)
            return recorded

    agent._kernels = RecordingKernels()
    result = agent.search(view, 0)
    deadline = clock.readings[0] + 1.0
    assert stepped_at and max(stepped_at) <= deadline < clock.readings[-1]
    assert 0 < result["playouts"] < 4096


def test_a_budget_too_short_for_one_batch_plays_the_prior(network):
    state = open_position(GameConfig(num_agents=1, toms=(12,)), 2, 5)
    view = determinize(state, 0, 0)
    result = PolicySearchAgent(simulations=64, seed=0, time_limit=1e-9, network=network).search(view, 0)
    assert result["playouts"] == 0
    assert result["action"] == result["legal"][np.argmax(result["prior"])]


@pytest.mark.parametrize("options", [dict(playout="random"), dict(playout="random", prior=False),
                                     dict(prior=False), dict(value_depth=3), dict(value_depth=0)])
def test_every_ingredient_plays_legal_actions(options, network):
    state = open_position(GameConfig(num_agents=1, toms=(9,)), 8, 40)
    view = determinize(state, 0, 0)
    result = PolicySearchAgent(simulations=24, seed=1, network=network, **options).search(view, 0)
    assert result["action"] in legal_actions(state)
    assert result["playouts"] > 0
    assert np.isfinite(result["means"]).all()


@compiled_only
def test_policy_playouts_beat_random_playouts_at_the_same_budget(network):
    # The same prior and budget from the same seeds against Tom 2: the policy's playouts judge
    # the candidates by how a strong player finishes the game, random playouts by how a random
    # one does. A one-sided Fisher exact test at 5% over 10 games each.
    policy = PolicySearchAgent(simulations=STRENGTH_BUDGET, seed=0, network=network)
    blind = PolicySearchAgent(simulations=STRENGTH_BUDGET, seed=0, playout="random", network=network)
    policy_wins = sum(solo_win(policy, STRENGTH_LEVEL, 100 + g) for g in range(STRENGTH_GAMES))
    blind_wins = sum(solo_win(blind, STRENGTH_LEVEL, 100 + g) for g in range(STRENGTH_GAMES))
    assert fisher_greater_p(policy_wins, blind_wins, STRENGTH_GAMES) < SIGNIFICANCE, (policy_wins, blind_wins)


def test_a_sure_prior_skips_the_search(network):
    state = open_position(GameConfig(num_agents=1, toms=(12,)), 2, 5)
    view = determinize(state, 0, 0)
    always = PolicySearchAgent(simulations=64, seed=0, network=network, skip_above=1e-9).search(view, 0)
    assert always["playouts"] == 0 and always["candidates"].size == 1
    assert always["action"] == always["legal"][np.argmax(always["prior"])]
    never = PolicySearchAgent(simulations=64, seed=0, network=network, skip_above=1.0)
    result = never.search(view, 0)
    assert result["prior"].max() < 1.0 and result["playouts"] > 0


def test_widening_sets_the_number_of_candidates(network):
    narrow = PolicySearchAgent(simulations=64, network=network, widening=0.25)
    wide = PolicySearchAgent(simulations=64, network=network, widening=4.0)
    assert narrow.candidates(64) == 2 and wide.candidates(64) == 32
    assert PolicySearchAgent(network=network).candidates(1024) == 32


def test_bad_options_and_calls_are_refused(network):
    with pytest.raises(ValueError, match="simulations"):
        PolicySearchAgent(simulations=0, network=network)
    with pytest.raises(ValueError, match="playout"):
        PolicySearchAgent(playout="smart", network=network)
    with pytest.raises(ValueError, match="greedy heuristic"):
        PolicySearchAgent(playout="greedy", network=network)  # Tiny York has none compiled
    with pytest.raises(ValueError, match="value_depth"):
        PolicySearchAgent(playout="random", value_depth=4, network=network)
    with pytest.raises(ValueError, match="time_limit"):
        PolicySearchAgent(time_limit=0, network=network)
    with pytest.raises(ValueError, match="widening"):
        PolicySearchAgent(widening=float("nan"), network=network)
    with pytest.raises(ValueError, match="margin_weight"):
        PolicySearchAgent(margin_weight=-1, network=network)
    with pytest.raises(ValueError, match="skip_above"):
        PolicySearchAgent(skip_above=1.5, network=network)
    with pytest.raises(ValueError, match="needs prior=True"):
        PolicySearchAgent(skip_above=0.9, prior=False, network=network)
    with pytest.raises(ValueError, match="policy file"):
        PolicySearchAgent("construction_yard")  # its shipped network depends on the players
    with pytest.raises(ValueError, match="plays Tiny York"):
        PolicySearchAgent("fifth_avenue", network=network)
    agent = PolicySearchAgent(simulations=CHEAP, network=network)
    state = new_game(GameConfig(num_agents=2), seed=1)
    with pytest.raises(ValueError, match="engine's view"):
        agent.act(np.zeros(3, np.float32), np.ones(3, bool))
    with pytest.raises(ValueError, match="not to move"):
        agent.act_state(determinize(state, 1, 0), 1)
    with pytest.raises(ValueError, match="not to move"):
        agent.search(determinize(state, 1, 0), 1)
    with pytest.raises(ValueError, match="single"):
        agent.act_state(np.zeros(2), 0)


def test_registry_names():
    agent = make_agent("psearch:12", seed=1)
    assert isinstance(agent, PolicySearchAgent) and agent.simulations == 12
    champion = make_agent("champion", seed=1)
    assert isinstance(champion, ChampionAgent)
    assert champion.simulations == CHAMPION_SIMULATIONS and champion.time_limit is None  # counts, no clock
    assert champion.skip_above == CHAMPION_SKIP_ABOVE and champion.margin_weight == CHAMPION_MARGIN_WEIGHT


def test_a_time_limit_in_the_name_sets_the_agents_limit():
    """'champion@S' / 'psearch[:N]@S' set ``time_limit`` (seconds a decision, or none), nothing else."""
    assert make_agent("champion@0.25", seed=1).time_limit == 0.25
    assert make_agent("champion@none", seed=1).time_limit is None
    assert make_agent("champion", seed=1).time_limit is None
    assert make_agent("champion@1", seed=1).time_limit == 1.0
    timed = make_agent("psearch:12@2", seed=1)
    assert (timed.simulations, timed.time_limit) == (12, 2.0)
    assert make_agent("psearch", seed=1).time_limit is None


def test_champion_with_another_policy_file(tmp_path):
    """'champion:PATH' is the champion's search on the policy file PATH (an expert-iteration
    generation): the same settings, that network; a file of another game or none is refused."""
    copy = tmp_path / "Gen-1" / "policy.zip"
    copy.parent.mkdir()
    copy.write_bytes(Path(DEFAULT_MODEL_PATH).read_bytes())
    champion = make_agent(f"Champion:{copy}", seed=1)
    assert isinstance(champion, ChampionAgent) and champion.network.source == str(copy)  # path as typed
    assert (champion.simulations, champion.skip_above, champion.margin_weight) == (
        CHAMPION_SIMULATIONS, CHAMPION_SKIP_ABOVE, CHAMPION_MARGIN_WEIGHT)
    with pytest.raises(ValueError, match="empty path"):
        make_agent("champion:")
    other = shipped_policy_path(get_game("construction_yard"), 2)
    with pytest.raises(ValueError, match="not Tiny York"):
        make_agent(f"champion:{other}", game="tiny_york")
    assert make_agent(f"champion:{other}", seed=1).game.name == "construction_yard"  # the file's game
    with pytest.raises(ValueError, match="no PPO model file"):  # refused before any game is played
        make_agent(f"champion:{tmp_path / 'missing.zip'}")


@pytest.mark.parametrize("game_name", ["construction_yard", "fifth_avenue"])
def test_the_contract_games_play_psearch(game_name):
    game = get_game(game_name)
    config = game.make_config()
    policy = seat_decider(game, "psearch:4", 0, config, np.random.default_rng(0))
    state = game.new_game(config, 2)
    for _ in range(20):
        if game.is_terminal(state):
            break
        action = policy(state)
        assert game.legal_mask(state)[action]
        game.apply_action(state, action)
    agent = PolicySearchAgent(game, simulations=8, seed=0, playout="greedy",
                              network=shipped_policy_path(game, game.num_participants(config)))
    seat = game.current_player(state)
    if seat >= 0:
        result = agent.search(game.determinize(state, seat, 0), seat)
        assert game.legal_mask(state)[result["action"]]


@pytest.mark.parametrize("game_name", ["construction_yard", "fifth_avenue"])
def test_the_contract_games_play_the_champion(game_name, network):
    game = get_game(game_name)
    config = game.make_config()
    assert check_player(game, "champion", config) == "champion"
    policy = seat_decider(game, "champion", 0, config, np.random.default_rng(0))
    champion = policy.agent
    assert isinstance(champion, ChampionAgent) and champion.game is game
    assert champion.network.source == str(shipped_policy_path(game, game.num_participants(config)))
    assert (champion.simulations, champion.skip_above, champion.margin_weight, champion.time_limit) == (
        CHAMPION_SIMULATIONS, CHAMPION_SKIP_ABOVE, CHAMPION_MARGIN_WEIGHT, None)
    state = game.new_game(config, 3)
    for _ in range(CHEAP_DECISIONS):
        if game.is_terminal(state):
            break
        action = policy(state)
        assert game.legal_mask(state)[action]
        game.apply_action(state, action)
    with pytest.raises(ValueError, match="give the policy file"):
        ChampionAgent(game=game_name)  # Tiny York's network is the default, no other game's
    with pytest.raises(ValueError, match="plays Tiny York"):
        ChampionAgent(game=game_name, network=network)
    with pytest.raises(ValueError, match="first argument is the seed"):
        ChampionAgent(game_name)


@pytest.mark.parametrize("name, simulations, time_limit", [
    ("champion@0.5", CHAMPION_SIMULATIONS, 0.5),
    ("champion@none", CHAMPION_SIMULATIONS, None),
    ("psearch:8@2", 8, 2.0),
])
def test_the_contract_games_take_a_time_limit_in_the_name(name, simulations, time_limit):
    game = get_game("construction_yard")
    config = game.make_config()
    assert check_player(game, name, config) == name
    agent = seat_decider(game, name, 0, config, np.random.default_rng(0)).agent
    assert (agent.simulations, agent.time_limit) == (simulations, time_limit)
    for bad, message in (("greedy@2", "takes no time limit .* only psearch, champion do"),
                         ("champion@0", "bad time limit")):
        with pytest.raises(ValueError, match=message):
            check_player(game, bad)


def test_champion_and_search_names_are_checked():
    game = get_game("construction_yard")
    for name in ("champion:64", "champion:runs/exit/gen-1/policy.zip"):
        with pytest.raises(ValueError, match="champion:PATH plays the file .* is no file"):
            check_player(game, name)
    shipped = shipped_policy_path(game, 2)
    assert check_player(game, f"champion:{shipped}") == f"champion:{shipped}"  # any game's champion:PATH
    with pytest.raises(ValueError, match="positive int"):
        check_player(game, "psearch:0")
    for name in ("champion", "psearch:8", "ppo"):  # no policy is shipped for four players
        with pytest.raises(ValueError, match="no trained policy is shipped"):
            check_player(game, name, game.make_config(num_players=4))


def search_wins_against_its_policy(game, agent, games, seed):
    """Wins of ``agent`` (seat rotated) against the shipped two-player policy in ``game``."""
    rng = np.random.default_rng(seed)

    def policy(state):
        seat = game.current_player(state)
        return agent.act_state(game.determinize(state, seat, rng), seat)
    return evaluate_match(game.name, [policy, "ppo"], games, seed=seed)["agents"][0]["wins"]


@compiled_only
def test_skipping_sure_choices_keeps_a_noisy_search_level_with_its_policy():
    # Construction Yard's shipped policy is at least 90% sure of most decisions; a search of a few
    # playouts a candidate on redrawn decks overturns those choices by noise and loses to the
    # policy alone (docs/champion.md). The champion's rule, the policy's choice where it
    # is that sure, must win clearly more of the same deals (one-sided Fisher test at 5%; measured
    # 2026-11-26: 10 of 16 against 2.5, p = 0.015). PolicySearchAgent with the champion's skip
    # stands for the champion: 8 playouts keep the test at about 35 s.
    game = get_game("construction_yard")
    network = PolicyNetwork(shipped_policy_path(game, 2), game)
    every = PolicySearchAgent(game, simulations=NOISY_BUDGET, seed=0, network=network)
    sure = PolicySearchAgent(game, simulations=NOISY_BUDGET, seed=0, network=network,
                             skip_above=CHAMPION_SKIP_ABOVE)
    every_wins = search_wins_against_its_policy(game, every, NOISY_GAMES, seed=5)
    sure_wins = search_wins_against_its_policy(game, sure, NOISY_GAMES, seed=5)
    assert every_wins < NOISY_GAMES / 2, every_wins  # weaker than the policy it searches
    assert fisher_greater_p(int(sure_wins), int(math.ceil(every_wins)), NOISY_GAMES) < SIGNIFICANCE, \
        (sure_wins, every_wins)


@pytest.mark.parametrize("game_name", ["construction_yard", "fifth_avenue"])
def test_an_opponent_model_plays_the_other_seats_of_the_playouts(game_name):
    """With ``opponents="greedy"`` the other agent seat of every playout plays the contract's greedy
    heuristic, and only that seat does; the search stays reproducible."""
    game = get_game(game_name)
    config = game.seat_config(2, ())
    state = game.new_game(config, 4)
    seat = game.current_player(state)
    network = shipped_policy_path(game, 2)
    agent = PolicySearchAgent(game_name, simulations=CHEAP * 4, seed=2, network=network, opponents="greedy")
    movers = []
    greedy = agent._opponent_policy

    def watched(view):
        movers.append(game.current_player(view))
        return greedy(view)
    agent._opponent_policy = watched
    chosen = agent.search(game.determinize(state, seat, 0), seat)
    assert movers and set(movers) == {1 - seat}  # the other seat, in every playout's turns of it
    again = PolicySearchAgent(game_name, simulations=CHEAP * 4, seed=2, network=network, opponents="greedy")
    assert again.search(game.determinize(state, seat, 0), seat)["action"] == chosen["action"]
    assert game.legal_mask(state)[chosen["action"]]


def test_bad_opponent_models_are_refused(network):
    network_2p = shipped_policy_path(get_game("construction_yard"), 2)
    with pytest.raises(ValueError, match=r"opponents must be None \(the network\) or one of "
                                         r"\('greedy', 'random'\)"):
        PolicySearchAgent("construction_yard", network=network_2p, opponents="ppo")
    with pytest.raises(ValueError, match="needs playout='policy'"):
        PolicySearchAgent("construction_yard", network=network_2p, playout="random", opponents="greedy")
    # Tiny York's record names its greedy heuristic too (games/tiny_york/greedy.py's greedy_action)
    assert PolicySearchAgent(network=network, opponents="greedy").opponents == "greedy"
    record = get_game("tiny_york")
    with pytest.raises(ValueError, match="no greedy heuristic"):
        PolicySearchAgent(dataclasses.replace(record, greedy_action=None), network=network,
                          opponents="greedy")
    assert PolicySearchAgent(network=network, opponents="random").opponents == "random"
