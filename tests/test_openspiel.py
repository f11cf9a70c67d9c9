"""The OpenSpiel bridge (tiny_york_env.openspiel): pyspiel's own checks, the engine behind it, no
leaks through the information state, and an OpenSpiel bot playing a whole game against Tom."""

import pickle

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.observation import make_observation

import tiny_york_env.openspiel as tos
from tiny_york_env.envs.rewards import final_rewards
from tiny_york_env.game import GameConfig, describe_action, final_scores, legal_mask, new_game, render_text
from tiny_york_env.observation import OBS_SIZE, encode

DEAL = 1234
SEARCH_SIMULATIONS = 4  # IS-MCTS budget per move: enough to exercise the search, fast enough to test
UCT_C = 2.0
MOVES_BEFORE_CHECK = 30


def load(players=2, toms="", reward="win"):
    return pyspiel.load_game(tos.GAME_SHORT_NAME, {"players": players, "toms": toms, "reward": reward})


def dealt(game, deal=DEAL, moves=0, seed=0):
    """A state after ``deal`` and ``moves`` uniformly random moves."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    state.apply_action(deal)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
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
