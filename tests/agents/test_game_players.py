"""Each game's own players (its record's ``players``), as the registry makes them: they play legal
actions of their game only, the greedy heuristic of every game decides the same on the seat's
view as on the game (it reads only what its seat may know), and Tiny York's record heuristic is a
function of the state."""

import numpy as np
import pytest

from tiny_york_env.agents.base import choose_action
from tiny_york_env.agents.registry import PLAYERS, make_player, player_table
from tiny_york_env.registry import BUILTIN_GAMES, get_game

POSITIONS = 12  # random positions a game, a few decisions apart
VIEWS = 3  # redraws of each position's hidden parts


def random_positions(game, seed, count=POSITIONS):
    """``count`` positions of random games of ``game``'s default setup."""
    rng = np.random.default_rng(seed)
    positions = []
    while len(positions) < count:
        state = game.new_game(seed=int(rng.integers(2**31)))
        for _ in range(int(rng.integers(0, 60))):
            if game.is_terminal(state):
                break
            game.apply_action(state, int(rng.choice(np.flatnonzero(game.legal_mask(state)))))
        if not game.is_terminal(state):
            positions.append(state)
    return positions


@pytest.mark.parametrize("name", sorted(BUILTIN_GAMES))
def test_every_built_in_game_has_a_greedy_player_of_its_own(name):
    game = get_game(name)
    own = {entry.name for entry in game.players}
    assert "greedy" in own and not own & set(PLAYERS)  # none shadows a player of every game
    assert player_table(game)["greedy"] is next(e for e in game.players if e.name == "greedy")


@pytest.mark.parametrize("name", sorted(BUILTIN_GAMES))
def test_the_own_players_play_legal_actions_through_the_seat(name):
    game = get_game(name)
    for entry in game.players:
        agent = make_player(game, entry.name, seed=3)
        rng = np.random.default_rng(0)
        for state in random_positions(game, 5, 4):
            action = choose_action(agent, state, rng)
            assert game.legal_mask(state)[action], (entry.name, action)


# Tiny York's heuristic redraws the hidden cards itself (seeded from the record's generator words,
# which a view reseeds), so its choice on a view may differ; the engine bots' never look
BOT_HEURISTIC_GAMES = sorted(set(BUILTIN_GAMES) - {"tiny_york"})


@pytest.mark.parametrize("name", BOT_HEURISTIC_GAMES)
def test_the_greedy_heuristic_reads_only_what_its_seat_may_know(name):
    """The record's ``greedy_action`` on the seat's determinized views chooses what it chooses on
    the game itself, so deciding on a view (as the greedy player does) changes no choice."""
    game = get_game(name)
    for k, state in enumerate(random_positions(game, 11)):
        seat = game.current_player(state)
        chosen = game.greedy_action(state)
        for view in range(VIEWS):
            assert game.greedy_action(game.determinize(state, seat, 100 * k + view)) == chosen


def test_tiny_yorks_record_heuristic_is_a_function_of_the_state():
    game = get_game("tiny_york")
    for state in random_positions(game, 7):
        chosen = game.greedy_action(state)
        assert game.legal_mask(state)[chosen] and game.greedy_action(state.copy()) == chosen
    with pytest.raises(ValueError, match="game is over"):
        finished = game.new_game(seed=1)
        rng = np.random.default_rng(1)
        while not game.is_terminal(finished):
            game.apply_action(finished, int(rng.choice(np.flatnonzero(game.legal_mask(finished)))))
        game.greedy_action(finished)
