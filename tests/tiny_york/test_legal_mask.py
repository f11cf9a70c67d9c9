"""The legal mask and the per-action predicate agree: ``fill_legal_mask`` reads a bid's fields
once and skips the tile scan for owned characters, ``is_legal`` (``apply_action``'s check) asks
each action alone; over random games of every number of agents, at every decision, they say the
same."""

import numpy as np
import pytest

from tiny_york_env.games.tiny_york import api
from tiny_york_env.games.tiny_york.actions import NUM_ACTIONS
from tiny_york_env.games.tiny_york.components import MAX_SEATS, MIN_PARTICIPANTS
from tiny_york_env.games.tiny_york.legal import is_legal
from tiny_york_env.games.tiny_york.state import DEC_BID

GAMES_PER_SETUP = 3


@pytest.mark.parametrize("num_players", range(MIN_PARTICIPANTS, MAX_SEATS + 1))
def test_the_mask_is_the_predicate_at_every_decision(num_players):
    """Every action of every decision of random games: mask entry == ``is_legal``; bids seen."""
    rng = np.random.default_rng(num_players)
    bids = 0
    for game in range(GAMES_PER_SETUP):
        state = api.new_game(api.GameConfig(num_agents=num_players), seed=100 * num_players + game)
        while not api.is_terminal(state):
            mask = api.legal_mask(state)
            predicate = np.array([is_legal(state[()], a) for a in range(NUM_ACTIONS)])
            np.testing.assert_array_equal(mask, predicate)
            bids += int(state["decision"] == DEC_BID)
            api.apply_action(state, int(rng.choice(np.flatnonzero(mask))))
    assert bids > 0
