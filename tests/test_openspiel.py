"""The OpenSpiel bridge (tiny_york_env.openspiel): pyspiel's own checks, the engine behind it, no
leaks through the information state, and an OpenSpiel bot playing a whole game against Tom; then
the same bridge for every registered game through the contract, and a game registered at run
time joining with one call."""

import dataclasses
import pickle

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.observation import make_observation

import tiny_york_env.openspiel as tos
from tiny_york_env import registry
from tiny_york_env.envs.rewards import REWARD_KINDS, final_rewards
from tiny_york_env.games.tiny_york import (
    GameConfig,
    describe_action,
    final_scores,
    legal_mask,
    new_game,
    render_text,
)
from tiny_york_env.games.tiny_york.observation import OBS_SIZE, encode
from tiny_york_env.registry import game_names, get_game

DEAL = 1234
SEARCH_SIMULATIONS = 4  # IS-MCTS budget per move: enough to exercise the search, fast enough to test
UCT_C = 2.0
MOVES_BEFORE_CHECK = 30
ISMCTS_MOVES = 5  # IS-MCTS moves in every game: the search and its resampler, not a whole game


def load(players=2, toms="", reward="win"):
    return pyspiel.load_game(tos.GAME_SHORT_NAME, {"players": players, "toms": toms, "reward": reward})


def dealt(game, deal=DEAL, moves=0, seed=0):
    """A state after ``deal`` and up to ``moves`` uniformly random moves, stopping at the last
    decision of a shorter game (the state is never terminal)."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    state.apply_action(deal)
    for _ in range(moves):
        action = int(rng.choice(state.legal_actions()))
        if state.child(action).is_terminal():
            break
        state.apply_action(action)
    return state


def play_out(state, seed=0):
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        assert not state.is_chance_node(), "the deal is the only chance node"
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_import_registers_the_game():
    assert tos.GAME_SHORT_NAME in pyspiel.registered_names()
    game = pyspiel.load_game("python_tiny_york", {"players": 2, "toms": "5", "reward": "win"})
    assert game.num_players() == 2
    assert game.num_distinct_actions() == 264
    assert game.max_chance_outcomes() == tos.NUM_DEALS
    assert game.max_game_length() == tos.MAX_GAME_LENGTH
    assert game.information_state_tensor_shape() == [OBS_SIZE]
    assert game.observation_tensor_shape() == [OBS_SIZE]
    game_type = game.get_type()
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game_type.utility == pyspiel.GameType.Utility.GENERAL_SUM  # a Tom shares the rewards


@pytest.mark.parametrize("players, toms, reward, utility, low, high", [
    (2, "", "win", pyspiel.GameType.Utility.ZERO_SUM, -1.0, 1.0),
    (3, "", "win", pyspiel.GameType.Utility.ZERO_SUM, -0.5, 1.0),
    (1, "1,12", "win", pyspiel.GameType.Utility.GENERAL_SUM, -0.5, 1.0),
    (4, "", "rank", pyspiel.GameType.Utility.ZERO_SUM, -1.0, 1.0),
    (2, "", "score", pyspiel.GameType.Utility.GENERAL_SUM, -4.0, 4.0),
])
def test_utility_follows_the_reward(players, toms, reward, utility, low, high):
    game = load(players, toms, reward)
    assert game.get_type().utility == utility
    assert (game.min_utility(), game.max_utility()) == (low, high)


def test_toms_parameter_is_canonical_so_the_game_string_loads_again():
    game = load(1, "5, 3,B4")
    assert game.get_parameters()["toms"] == "B4+C2+B4"
    assert str(pyspiel.load_game(str(game))) == str(game)
    assert tos.parse_toms("B4+A6") == ("B4", "A6")
    assert load(1, "B4+A6").spec.config == GameConfig(1, ("B4", "A6"))


@pytest.mark.parametrize("params, words", [
    ({"players": 0}, "players is the number of agent seats"),
    ({"players": 1}, "2-4 participants"),
    ({"players": 4, "toms": "1"}, "2-4 participants"),
    ({"players": 2, "toms": "13"}, "Tom level 13"),
    ({"players": 2, "toms": "1,,2"}, "empty entry"),
    ({"players": 2, "reward": "points"}, "reward must be one of"),
])
def test_bad_parameters_are_refused(params, words):
    with pytest.raises(ValueError, match=words):
        pyspiel.load_game(tos.GAME_SHORT_NAME, params)


@pytest.mark.parametrize("players, toms, sims", [(1, "1,6,12", 2), (2, "B4", 2), (4, "", 1)])
def test_pyspiel_random_simulation(players, toms, sims):
    """OpenSpiel's own API test: clones, serialization, masks, tensors, returns within bounds and
    game length within max_game_length, over whole random games."""
    pyspiel.random_sim_test(load(players, toms), num_sims=sims, serialize=True, verbose=False)


def test_the_deal_is_the_only_chance_node_and_is_the_engine_seed():
    game = load(2, "3")
    state = game.new_initial_state()
    assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(tos.NUM_DEALS))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, DEAL) == f"deal {DEAL}"
    state.apply_action(DEAL)
    assert state.record.tobytes() == new_game(GameConfig(2, (3,)), seed=DEAL).tobytes()
    with pytest.raises(ValueError, match="the deal is a seed"):
        game.new_initial_state().apply_action(tos.NUM_DEALS)
    play_out(state)  # asserts no further chance node


def test_legal_actions_are_the_engine_mask_and_illegal_actions_raise():
    state = dealt(load(2, "B4"))
    rng = np.random.default_rng(1)
    while not state.is_terminal():
        mask = legal_mask(state.record)
        assert state.legal_actions() == np.flatnonzero(mask).tolist()
        assert state.legal_actions_mask() == mask.astype(int).tolist()
        other = 1 - state.current_player()
        assert state.legal_actions(other) == []
        illegal = np.flatnonzero(~mask)
        if illegal.size:
            before, history = state.record.tobytes(), state.history()
            with pytest.raises(ValueError, match="illegal action"):
                state.apply_action(int(illegal[0]))
            assert state.record.tobytes() == before and state.history() == history
        action = int(rng.choice(np.flatnonzero(mask)))
        assert state.action_to_string(action) == describe_action(action, state.record)
        state.apply_action(action)
    assert state.legal_actions() == []


@pytest.mark.parametrize("players, toms, reward", [(2, "", "win"), (1, "2,7", "rank"), (3, "", "score")])
def test_returns_are_the_final_rewards(players, toms, reward):
    game = load(players, toms, reward)
    state = dealt(game, moves=3)
    assert state.returns() == [0.0] * players
    play_out(state, seed=players)
    expected = final_rewards(state.record, reward)[:players]
    assert state.returns() == pytest.approx(expected.tolist())
    assert all(game.min_utility() <= r <= game.max_utility() for r in state.returns())
    if game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM:
        assert sum(state.returns()) == pytest.approx(0.0)


def test_tensors_and_strings_are_the_encoder_and_the_seat_view():
    game = load(3, "")
    state = game.new_initial_state()
    assert state.information_state_tensor(0) == [0.0] * OBS_SIZE  # before the deal
    state = dealt(game, moves=MOVES_BEFORE_CHECK)
    for player in range(3):
        expected = encode(state.record, player)
        np.testing.assert_array_equal(state.information_state_tensor(player), expected)
        np.testing.assert_array_equal(state.observation_tensor(player), expected)
        text = state.information_state_string(player)
        assert text.startswith(render_text(state.record, viewer=player))
        assert text == state.observation_string(player)
        assert ("Legal actions:" in text) == (player == state.current_player())
    observation = make_observation(game)
    observation.set_from(state, 1)
    np.testing.assert_array_equal(observation.tensor, encode(state.record, 1))
    assert observation.dict["round"].size > 0  # the encoder's named parts
    with pytest.raises(ValueError, match="only a player's own view"):
        make_observation(game, pyspiel.IIGObservationType(
            public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))


def _swap_hand_card_with_draw_pile(record, seat):
    """Give ``seat`` a different card: one of its hand cards for a draw-pile card of another type."""
    hand = record["hand"][seat]
    pile = record["draw_pile"][: int(record["draw_count"])]
    for give in np.flatnonzero(hand):
        takes = np.flatnonzero(pile != give)
        if takes.size:
            position = takes[0]
            take = int(pile[position])
            record["hand"][seat, give] -= 1
            record["hand"][seat, take] += 1
            record["draw_pile"][position] = give
            return
    raise AssertionError("no card to swap")


def test_another_seats_hand_does_not_leak_into_the_information_state():
    state = dealt(load(2, "4"), moves=MOVES_BEFORE_CHECK)
    assert state.record["hand"][1].sum() > 0
    changed = state.clone()
    _swap_hand_card_with_draw_pile(changed.record, seat=1)
    assert changed.record["hand"][1].tolist() != state.record["hand"][1].tolist()
    assert changed.record["hand"][1].sum() == state.record["hand"][1].sum()
    assert changed.information_state_tensor(0) == state.information_state_tensor(0)
    assert changed.information_state_string(0) == state.information_state_string(0)
    assert changed.observation_tensor(0) == state.observation_tensor(0)
    # ... while the owner sees its own hand: the check above could fail
    assert changed.information_state_tensor(1) != state.information_state_tensor(1)


def test_resample_from_infostate_keeps_what_the_player_knows():
    state = dealt(load(2, "6"), moves=MOVES_BEFORE_CHECK)
    player = state.current_player()
    other = 1 - player
    before = state.record.tobytes()
    sampler = pyspiel.UniformProbabilitySampler(0, 0.0, 1.0)
    samples = [state.resample_from_infostate(player, sampler) for _ in range(5)]
    assert state.record.tobytes() == before
    for sample in samples:
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.information_state_tensor(player) == state.information_state_tensor(player)
        assert sample.legal_actions() == state.legal_actions()
        assert sample.record["hand"][player].tolist() == state.record["hand"][player].tolist()
    hidden = {(s.record["hand"][other].tobytes(), s.record["draw_pile"].tobytes()) for s in samples}
    assert len(hidden) > 1, "the hidden cards are redrawn"
    play_out(samples[0])  # a resampled state plays on to the end


def test_serialize_and_pickle_round_trip():
    game = load(2, "B4")
    state = dealt(game, moves=MOVES_BEFORE_CHECK)
    data = pyspiel.serialize_game_and_state(game, state)
    restored_game, restored = pyspiel.deserialize_game_and_state(data)
    assert str(restored_game) == str(game)
    assert restored.history() == state.history()
    assert restored.record.tobytes() == state.record.tobytes()
    unpickled = pickle.loads(pickle.dumps(state))
    assert unpickled.record.tobytes() == state.record.tobytes()
    assert str(play_out(restored, seed=3)) == str(play_out(state, seed=3))


def test_ismcts_bot_plays_a_whole_game_against_tom():
    """OpenSpiel's IS-MCTS (random rollouts, small budget) as seat 0 against Tom level 5."""
    game = load(1, "5")
    random_state = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=UCT_C, max_simulations=SEARCH_SIMULATIONS,
                           random_state=random_state)
    sampler = pyspiel.UniformProbabilitySampler(0, 0.0, 1.0)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    state = game.new_initial_state()
    state.apply_action(DEAL)
    moves = 0
    while not state.is_terminal():
        assert state.current_player() == 0  # Tom never appears: the engine plays him
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves > 0
    assert len(final_scores(state.record)) == 2  # the agent and Tom were scored
    assert state.returns() == pytest.approx(final_rewards(state.record, "win")[:1].tolist())
    assert state.returns()[0] in (game.min_utility(), game.max_utility())


def ismcts_moves(game, moves, seed=0):
    """The first ``moves`` actions of OpenSpiel's IS-MCTS with every source of chance seeded:
    its random state and the resampler's sampler (as docs/openspiel.md's example does)."""
    random_state = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=UCT_C, max_simulations=SEARCH_SIMULATIONS,
                           random_state=random_state)
    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    state = dealt(game)
    for _ in range(moves):
        state.apply_action(bot.step(state))
    return state.history(), state.information_state_string(0)


def test_a_seeded_ismcts_search_repeats():
    """With a seeded resampler the search repeats (without one, OpenSpiel's bot resamples with an
    unseeded sampler), so the docs' IS-MCTS example prints the same on every run."""
    game = load(1, "5")
    assert ismcts_moves(game, ISMCTS_MOVES) == ismcts_moves(game, ISMCTS_MOVES)


# --- every registered game, through the contract ----------------------------------------------

GAMES = game_names()  # the built-in games; a plug-in joins with register_openspiel_game (below)
ZERO_SUM = pyspiel.GameType.Utility.ZERO_SUM


def setups(name):
    """A few (players, automatic participants) of game ``name``, read from its record: the fewest
    agents with one automatic participant, the default game, the most agents."""
    game = get_game(name)
    seats = tos.seat_range(game)
    return [(seats.fewest, str(game.automatic_choices[0])), (seats.default, ""), (seats.most, "")]


GAME_SETUPS = [(name, players, automatic) for name in GAMES for players, automatic in setups(name)]


def load_game(name, players, automatic="", reward="win"):
    """Game ``name`` loaded by its pyspiel name with all three parameters."""
    kind = get_game(name).automatic_kind
    return pyspiel.load_game(f"python_{name}", {"players": players, kind: automatic, "reward": reward})


def option_text(game, action, record):
    """The words the bridge gives ``action`` in ``record``."""
    if game.describe_option is not None:
        return game.describe_option(action, record)
    return game.describe_action(action)


def test_importing_registers_every_game_under_its_name():
    assert GAMES[:3] == ["tiny_york", "construction_yard", "fifth_avenue"]
    for name in GAMES:
        assert f"python_{name}" in pyspiel.registered_names()
        assert tos.register_openspiel_game(name) == f"python_{name}"  # again: nothing to do
    assert tos.GAME_SHORT_NAME == tos.short_name(registry.DEFAULT_GAME)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_loads_by_name_with_its_parameters(name):
    game = get_game(name)
    seats = tos.seat_range(game)
    kind = game.automatic_kind
    default = pyspiel.load_game(f"python_{name}")
    assert default.num_players() == seats.default
    assert default.get_parameters() == {"players": seats.default, kind: "", "reward": "win"}
    assert default.num_distinct_actions() == game.num_actions
    assert default.max_game_length() == game.max_decisions
    assert default.max_chance_outcomes() == tos.NUM_DEALS
    assert default.information_state_tensor_shape() == default.observation_tensor_shape() == [game.obs_size]
    game_type = default.get_type()
    assert (game_type.short_name, game_type.long_name) == (f"python_{name}", f"Python {game.title}")
    assert (game_type.min_num_players, game_type.max_num_players) == (seats.fewest, seats.most)
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game_type.utility == ZERO_SUM  # agents only, "win"
    choice = str(game.automatic_choices[0])
    loaded = load_game(name, seats.fewest, f" {choice} ,{choice}", "rank")
    config = game.seat_config(seats.fewest, tos.parse_automatic(choice) * 2)
    assert loaded.spec.config == config and loaded.num_players() == seats.fewest
    assert loaded.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM  # automatic seats share
    assert str(pyspiel.load_game(str(loaded))) == str(loaded)  # the canonical parameter loads again
    assert loaded.get_parameters()[kind] == "+".join(map(str, getattr(config, kind)))


@pytest.mark.parametrize("name", GAMES)
def test_every_game_refuses_bad_parameters(name):
    game = get_game(name)
    seats = tos.seat_range(game)
    kind = game.automatic_kind
    choice = str(game.automatic_choices[0])
    for params, words in [
        ({"players": 0}, "players is the number of agent seats"),
        ({"players": seats.most + 1}, f"an int {seats.fewest}-{seats.most}"),
        ({"players": seats.most, kind: choice}, rf"here players={seats.most} and {kind}="),
        ({kind: "nobody"}, "nobody"),
        ({kind: f"{choice},,{choice}"}, "empty entry"),
        ({"reward": "points"}, "reward must be one of"),
    ]:
        with pytest.raises(ValueError, match=words):
            pyspiel.load_game(f"python_{name}", params)
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        pyspiel.load_game(f"python_{name}", {"colour": 1})


@pytest.mark.parametrize("name, players, automatic", GAME_SETUPS)
def test_pyspiel_random_simulation_of_every_game(name, players, automatic):
    """OpenSpiel's own API test over whole random games, serialization included."""
    pyspiel.random_sim_test(load_game(name, players, automatic), num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_the_deal_is_the_only_chance_node_of_every_game(name):
    game = get_game(name)
    players, automatic = setups(name)[0]
    spiel = load_game(name, players, automatic)
    state = spiel.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == tos.NUM_DEALS
    assert str(state) == f"{game.title} - waiting for the deal"
    state.apply_action(DEAL)
    assert state.record.tobytes() == game.new_game(spiel.spec.config, seed=DEAL).tobytes()
    play_out(state)  # asserts no further chance node


@pytest.mark.parametrize("name", GAMES)
def test_legal_actions_are_the_engine_mask_in_every_game(name):
    game = get_game(name)
    state = dealt(load_game(name, tos.seat_range(game).default))
    rng = np.random.default_rng(2)
    while not state.is_terminal():
        mask = game.legal_mask(state.record)
        assert state.legal_actions() == np.flatnonzero(mask).tolist()
        assert state.current_player() == game.current_player(state.record)
        others = [p for p in range(state.num_players()) if p != state.current_player()]
        assert all(state.legal_actions(p) == [] for p in others)
        illegal = np.flatnonzero(~mask)
        if illegal.size:
            before, history = state.record.tobytes(), state.history()
            with pytest.raises(ValueError, match="illegal action"):
                state.apply_action(int(illegal[rng.integers(illegal.size)]))
            assert state.record.tobytes() == before and state.history() == history
        action = int(rng.choice(np.flatnonzero(mask)))
        assert state.action_to_string(action) == option_text(game, action, state.record)
        state.apply_action(action)
    assert state.legal_actions() == [] and game.is_terminal(state.record)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("reward", REWARD_KINDS)
def test_returns_are_the_final_rewards_in_every_game(name, reward):
    game = get_game(name)
    players, automatic = setups(name)[REWARD_KINDS.index(reward)]
    spiel = load_game(name, players, automatic, reward)
    state = dealt(spiel, moves=3)
    assert state.returns() == [0.0] * players
    play_out(state, seed=players)
    expected = final_rewards(state.record, reward, game)[:players]
    assert state.returns() == pytest.approx(expected.tolist())
    assert all(spiel.min_utility() <= r <= spiel.max_utility() for r in state.returns())
    assert (spiel.get_type().utility == ZERO_SUM) == (not automatic and reward != "score")
    if spiel.get_type().utility == ZERO_SUM:
        assert sum(state.returns()) == pytest.approx(0.0)


@pytest.mark.parametrize("name", GAMES)
def test_tensors_and_strings_are_the_encoder_and_the_seat_view_in_every_game(name):
    game = get_game(name)
    spiel = load_game(name, tos.seat_range(game).default)
    state = dealt(spiel, moves=MOVES_BEFORE_CHECK)
    for player in range(spiel.num_players()):
        expected = game.encode(state.record, player)
        np.testing.assert_array_equal(state.information_state_tensor(player), expected)
        np.testing.assert_array_equal(state.observation_tensor(player), expected)
        text = state.information_state_string(player)
        assert text.startswith(game.render_text(state.record, player))
        assert ("Legal actions:" in text) == (player == state.current_player())
    observation = make_observation(spiel)
    assert list(observation.dict) == list(game.obs_slices)


@pytest.mark.parametrize("name", GAMES)
def test_resample_from_infostate_keeps_what_the_player_knows_in_every_game(name):
    game = get_game(name)
    state = dealt(load_game(name, tos.seat_range(game).default), moves=MOVES_BEFORE_CHECK)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0, 0.0, 1.0)
    before = state.record.tobytes()
    samples = [state.resample_from_infostate(player, sampler) for _ in range(3)]
    assert state.record.tobytes() == before
    for sample in samples:
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.legal_actions() == state.legal_actions()
    play_out(samples[0])


@pytest.mark.parametrize("name", GAMES)
def test_serialize_and_pickle_round_trip_in_every_game(name):
    players, automatic = setups(name)[0]
    spiel = load_game(name, players, automatic, "score")
    state = dealt(spiel, moves=MOVES_BEFORE_CHECK)
    data = pyspiel.serialize_game_and_state(spiel, state)
    restored_game, restored = pyspiel.deserialize_game_and_state(data)
    assert str(restored_game) == str(spiel)
    assert restored.history() == state.history()
    assert restored.record.tobytes() == state.record.tobytes()
    assert pickle.loads(pickle.dumps(state)).record.tobytes() == state.record.tobytes()
    assert str(play_out(restored, seed=3)) == str(play_out(state, seed=3))


@pytest.mark.parametrize("name", GAMES)
def test_ismcts_bot_moves_in_every_game(name):
    """OpenSpiel's IS-MCTS (its resampler asserts that a resampled state keeps the player's
    information state) for a few moves of one agent against an automatic participant."""
    players, automatic = setups(name)[0]
    game = load_game(name, players, automatic)
    random_state = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=UCT_C, max_simulations=SEARCH_SIMULATIONS,
                           random_state=random_state)
    sampler = pyspiel.UniformProbabilitySampler(0, 0.0, 1.0)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    state = dealt(game)
    for _ in range(ISMCTS_MOVES):
        if state.is_terminal():
            break
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_score_needs_the_games_bound_on_its_totals():
    game = dataclasses.replace(get_game("construction_yard"), max_score=None)
    spec = tos.OpenSpielSpec(game, game.seat_config(2, ()), (), "score")
    with pytest.raises(ValueError, match="max_score"):
        tos.utility_bounds(spec)
    assert tos.utility_bounds(dataclasses.replace(spec, reward="win")) == (-1.0, 1.0, 0.0)


@pytest.fixture
def copy_of_construction_yard():
    """Construction Yard's record under another name, registered for one test."""
    copy = dataclasses.replace(get_game("construction_yard"), name="cy_copy", env_id="CyCopy-v0",
                               aec_name="cy_copy_v0")
    registry.register_game(copy)
    yield copy
    registry.unregister_game(copy.name)


def test_a_game_registered_at_run_time_joins_with_one_call(copy_of_construction_yard):
    copy = copy_of_construction_yard
    assert tos.register_openspiel_game(copy) == "python_cy_copy"
    assert "python_cy_copy" in pyspiel.registered_names()
    assert tos.register_openspiel_game("cy_copy") == "python_cy_copy"  # again: nothing to do
    game = pyspiel.load_game("python_cy_copy", {"players": 1, "bots": "greedy", "reward": "rank"})
    assert game.get_type().long_name == "Python Construction Yard" and game.num_players() == 1
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = play_out(dealt(game))
    assert state.returns() == pytest.approx(final_rewards(state.record, "rank", copy)[:1].tolist())


def test_register_openspiel_game_refuses_what_it_cannot_register(copy_of_construction_yard):
    unregistered = dataclasses.replace(copy_of_construction_yard, name="cy_elsewhere")
    with pytest.raises(ValueError, match="register_game first"):
        tos.register_openspiel_game(unregistered)
    with pytest.raises(ValueError, match="another record"):
        tos.register_openspiel_game(dataclasses.replace(copy_of_construction_yard))
    unbounded = dataclasses.replace(copy_of_construction_yard, name="cy_unbounded", env_id="CyUnbounded-v0",
                                    aec_name="cy_unbounded_v0", max_decisions=None)
    registry.register_game(unbounded)
    try:
        with pytest.raises(ValueError, match="max_decisions"):
            tos.register_openspiel_game(unbounded)
    finally:
        registry.unregister_game(unbounded.name)
