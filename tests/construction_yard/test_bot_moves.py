"""The bot log (``bot_moves.py``): the bots' actions since the last outside decision, checked by
replaying them: the outside action, then the logged ones, rebuild the record the engine made."""

import numpy as np
import pytest

from tiny_york_env.games.construction_yard import bot_moves as M
from tiny_york_env.games.construction_yard import rules
from tiny_york_env.games.construction_yard.bots import bot_action
from tiny_york_env.games.construction_yard.legal import fill_legal_mask
from tiny_york_env.games.construction_yard.state import STATE_DTYPE
from tiny_york_env.registry import get_game

GAME = get_game("construction_yard")
BOT_SETS = {2: ("greedy",), 3: ("random", "greedy"), 6: ("greedy", "random", "greedy", "random")}
LOG_FIELDS = ("bot_moves", "bot_move_count")


def _games(players, seeds):
    for seed in seeds:
        config = GAME.make_config(num_players=players, bots=BOT_SETS[players])
        rng = np.random.default_rng(seed)
        state = GAME.new_game(config, seed)
        yield state, None, None
        while not GAME.is_terminal(state):
            before = state.copy()
            action = int(rng.choice(np.flatnonzero(GAME.legal_mask(state))))
            GAME.apply_action(state, action)
            yield state, before, action


def _without_log(rec):
    names = [n for n in STATE_DTYPE.names if n not in LOG_FIELDS]
    return tuple(np.asarray(rec[n]).tobytes() for n in names)


@pytest.mark.parametrize("players", sorted(BOT_SETS))
def test_the_logged_moves_replay_to_the_engines_record(players):
    """Each logged move is the seat to move's, legal there and the bot's own choice, and after
    them the record is the one the engine made: nothing a bot did is missing from the log."""
    replayed = 0
    for state, before, action in _games(players, range(6)):
        if before is None:
            continue
        copy = before.reshape(1).copy()
        rules.play(copy[0], action)
        mask = np.zeros(GAME.num_actions, np.bool_)
        rows = state[()]["bot_moves"][:int(state["bot_move_count"])]
        for seat, move in rows:
            assert copy[0]["actor"] == seat and GAME.kernels.actor_of(copy[0]) == seat
            fill_legal_mask(copy[0], mask)
            assert mask[move]
            assert bot_action(copy[0], mask) == move  # the bot's choice (the random one draws)
            rules.play(copy[0], int(move))
            replayed += 1
        assert _without_log(copy[0]) == _without_log(state[()])
    assert replayed > 0


def test_agents_only_games_log_nothing_and_the_log_stays_small():
    most = 0
    for state, _, _ in _games(6, range(4)):
        most = max(most, int(state["bot_move_count"]))
    assert 0 < most <= M.BOT_MOVE_CAPACITY // 2
    config = GAME.make_config(num_players=3, bots=())
    rng = np.random.default_rng(1)
    state = GAME.new_game(config, 1)
    while not GAME.is_terminal(state):
        GAME.apply_action(state, int(rng.choice(np.flatnonzero(GAME.legal_mask(state)))))
        assert state["bot_move_count"] == 0


def test_the_moves_in_words():
    for state, _, _ in _games(3, [2]):
        for seat, words in GAME.automatic_moves(state):
            assert seat in (1, 2) and words
    state = GAME.new_game(GAME.make_config(num_players=2, bots=("greedy",)), 0)
    rec = state[()]
    rec["bot_moves"][:] = (1, 0)
    rec["bot_move_count"] = M.BOT_MOVE_CAPACITY + 3
    assert GAME.automatic_moves(state)[-1] == (1, "... and 3 more bot moves not kept")


@pytest.mark.parametrize("field,index,value,words", [
    ("bot_move_count", None, -1, "bot_move_count is -1"),
    ("bot_moves", (M.BOT_MOVE_CAPACITY - 1, 1), 5, "is not zero beyond bot_move_count"),
    ("bot_moves", (0, 0), 0, "names seat 0, which is not a bot's"),
    ("bot_moves", (0, 1), 9999, "action is 9999"),
])
def test_a_corrupted_log_is_refused(field, index, value, words):
    state = GAME.new_game(GAME.make_config(num_players=2, bots=("greedy",)), 0)
    rec = state[()]
    rec["bot_moves"][:] = 0
    rec["bot_moves"][0] = (1, 0)
    rec["bot_move_count"] = 1
    GAME.validate_state(state)
    if index is None:
        rec[field] = value
    else:
        rec[field][index] = value
    with pytest.raises(ValueError, match=words):
        GAME.validate_state(state)
