"""Bad input gets a clear ValueError that says what is allowed, and changes nothing."""

import numpy as np
import pytest

from tiny_york_env.core.labels import count_noun
from tiny_york_env.games.tiny_york import (
    NUM_ACTIONS,
    STATE_DTYPE,
    GameConfig,
    apply_action,
    apply_actions,
    current_player,
    describe_action,
    final_scores,
    is_terminal,
    legal_actions,
    legal_mask,
    legal_masks,
    new_game,
    new_games,
    pending_decision,
    render_text,
    score_breakdown,
    step,
    winner,
)
from tiny_york_env.games.tiny_york.state import DEC_BID, DEC_START_STACK, DECISION_NAMES


def _message(err):
    return str(err.value).lower()


def _finished_game(num_agents=2, seed=0):
    state = new_game(GameConfig(num_agents=num_agents), seed)
    while not is_terminal(state):
        apply_action(state, int(legal_actions(state)[-1]))
    return state


def _bidding_game(seed=0):
    state = new_game(GameConfig(num_agents=3), seed)
    while int(state["decision"]) != DEC_BID:
        apply_action(state, int(legal_actions(state)[0]))
    return state


# --- GameConfig -----------------------------------------------------------------------------
@pytest.mark.parametrize("n", [0, 5, -1, 100])
def test_config_rejects_agent_counts_outside_1_to_4(n):
    with pytest.raises(ValueError) as err:
        GameConfig(num_agents=n)
    msg = _message(err)
    assert "num_agents" in msg and "1" in msg and "4" in msg and str(n) in msg


def test_config_rejects_one_agent_without_a_tom():
    with pytest.raises(ValueError) as err:
        GameConfig(num_agents=1)
    msg = _message(err)
    assert "participants" in msg and "2-4" in msg and "tom" in msg


@pytest.mark.parametrize("n", [True, False, "2", 2.0, None])
def test_config_rejects_non_int_agent_counts(n):
    with pytest.raises(ValueError) as err:
        GameConfig(num_agents=n)
    msg = _message(err)
    assert "num_agents" in msg and "int" in msg and repr(n).lower() in msg


@pytest.mark.parametrize("num_agents,toms,codes,levels", [
    (1, (5,), ("B4",), (5,)),
    (2, ("b4",), ("B4",), (5,)),
    (3, (1,), ("A6",), (1,)),
    (1, (12, "A9", 2), ("C5", "A9", "B3"), (12, 10, 2)),
    (1, (" c9 ",), ("C9",), (0,)),
    (2, [np.int64(7)], ("A8",), (7,)),
])
def test_config_accepts_toms_by_level_or_code(num_agents, toms, codes, levels):
    """Solo rules: a Tom is a level 1-12 (the rulebook's table) or mode A/B/C + draw count 2-9."""
    cfg = GameConfig(num_agents=num_agents, toms=toms)
    assert cfg.toms == codes and cfg.tom_levels == levels
    assert cfg.num_participants == num_agents + len(codes)


@pytest.mark.parametrize("tom", [0, 13, -1, "D4", "A1", "A10", "B", "", 4.5, True, None, "4B"])
def test_config_rejects_bad_toms(tom):
    with pytest.raises(ValueError) as err:
        GameConfig(num_agents=1, toms=(tom,))
    msg = _message(err)
    assert "tom" in msg and "level 1-12" in msg and "2-9" in msg and "a/b/c" in msg


def test_config_rejects_a_string_of_toms():
    """toms="B4" would read as two Toms 'B' and '4': it must be a tuple."""
    with pytest.raises(ValueError) as err:
        GameConfig(num_agents=1, toms="B4")
    assert "tuple" in _message(err)


@pytest.mark.parametrize("num_agents,toms", [(4, (1,)), (3, (1, 2)), (2, (1, 2, 3)), (1, (1, 2, 3, 4))])
def test_config_rejects_more_than_4_participants(num_agents, toms):
    with pytest.raises(ValueError) as err:
        GameConfig(num_agents=num_agents, toms=toms)
    msg = _message(err)
    assert "participants" in msg and "2-4" in msg
    assert count_noun(num_agents, "agent") in msg and count_noun(len(toms), "tom") in msg


@pytest.mark.parametrize("n", [2, 3, 4])
def test_config_accepts_2_to_4_agents(n):
    cfg = GameConfig(num_agents=n)
    assert cfg.num_agents == n and cfg.toms == () and cfg.num_participants == n


# --- new_game ------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [-1, -(2**40), 1.0, 0.5, "1", True, [1], b"1"])
def test_new_game_rejects_bad_seeds(seed):
    with pytest.raises(ValueError) as err:
        new_game(GameConfig(), seed)
    msg = _message(err)
    assert "seed" in msg and "non-negative int" in msg


@pytest.mark.parametrize("config", ["2", 2, {"num_agents": 2}, object()],
                         ids=["str", "int", "dict", "object"])
def test_new_game_rejects_a_config_that_is_not_a_gameconfig(config):
    with pytest.raises(ValueError, match="GameConfig"):
        new_game(config, 0)


@pytest.mark.parametrize("config", ["2", 2, {"num_agents": 2}], ids=["str", "int", "dict"])
def test_new_games_rejects_a_config_that_is_not_a_gameconfig(config):
    with pytest.raises(ValueError, match="GameConfig"):
        new_games(config, [0, 1])


def test_new_games_rejects_bad_seeds():
    with pytest.raises(ValueError, match="seed"):
        new_games(GameConfig(), [1, -1])


def test_new_game_accepts_numpy_seeds_and_refuses_seeds_past_the_range():
    assert new_game(GameConfig(), np.int64(7)).tobytes() == new_game(GameConfig(), 7).tobytes()
    assert new_game(GameConfig(), 2**63 - 1).dtype == STATE_DTYPE
    for bad in (2**63, 2**70):  # never wrapped onto another seed's game
        with pytest.raises(ValueError, match=r"below 2\*\*63"):
            new_game(GameConfig(), bad)


# --- apply_action -------------------------------------------------------------------------
def _assert_refused(state, action, *words):
    before = state.tobytes()
    with pytest.raises(ValueError) as err:
        apply_action(state, action)
    assert state.tobytes() == before, f"refusing {action!r} changed the state"
    msg = str(err.value)
    for w in words:
        assert w in msg, f"{w!r} not in {msg!r}"
    return msg


@pytest.mark.parametrize("make", [lambda: new_game(GameConfig(num_agents=2), 4), _bidding_game])
def test_illegal_action_is_named_with_the_pending_decision(make):
    state = make()
    decision = DECISION_NAMES[int(state["decision"])]
    legal = legal_actions(state)
    for bad in np.flatnonzero(~legal_mask(state))[::17]:
        msg = _assert_refused(state, int(bad), f"illegal action {bad}", describe_action(int(bad)),
                              decision, f"seat {int(state['actor'])}")
        # the message lists what is legal instead
        for a in legal:
            assert f"{a} ({describe_action(int(a))})" in msg


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, NUM_ACTIONS + 7, -(2**31)])
def test_out_of_range_action_is_refused(bad):
    state = _bidding_game(1)
    _assert_refused(state, bad, str(bad), "outside", pending_decision(state))


@pytest.mark.parametrize("bad", [2**63, 2**70, -(2**64)])
def test_huge_action_ids_are_refused_with_valueerror(bad):
    # too big for int64: still an illegal action, not an OverflowError from the kernel call
    state = new_game(GameConfig(), 2)
    _assert_refused(state, bad, str(bad))


@pytest.mark.parametrize("bad", [1.0, 0.5, "0", None, True, False, np.float64(0), [0], np.array([0])])
def test_non_int_action_is_refused(bad):
    state = new_game(GameConfig(), 3)
    msg = _assert_refused(state, bad, "int", repr(bad))
    assert f"0..{NUM_ACTIONS - 1}" in msg


def test_numpy_integer_actions_are_accepted():
    state = new_game(GameConfig(), 3)
    a = legal_actions(state)[0]
    for kind in (np.int16, np.int32, np.int64, np.uint8):
        s = state.copy()
        apply_action(s, kind(a))
        assert s.tobytes() == step(state, int(a)).tobytes()


def test_actions_after_the_end_are_refused():
    state = _finished_game()
    for a in (0, int(legal_actions(new_game(GameConfig(), 0))[0]), NUM_ACTIONS - 1):
        msg = _assert_refused(state, a, str(a)).lower()
        assert "game" in msg and "over" in msg
    with pytest.raises(ValueError, match="over"):
        step(state, 0)


def test_start_stack_decision_refuses_hidden_stacks():
    state = new_game(GameConfig(num_agents=2), 9)
    assert int(state["decision"]) == DEC_START_STACK
    # with 2 agents and no Toms, 3 stacks are revealed (R4): stacks 3, 4, 5 stay hidden
    for stack in (3, 4, 5):
        _assert_refused(state, stack, pending_decision(state))


# --- end-of-game verbs ----------------------------------------------------------------------
@pytest.mark.parametrize("fn", [final_scores, winner, score_breakdown])
def test_final_results_only_after_the_end(fn):
    for state in (new_game(GameConfig(), 0), _bidding_game()):
        before = state.tobytes()
        with pytest.raises(ValueError) as err:
            fn(state)
        assert "not over" in _message(err)
        assert state.tobytes() == before


# --- a wrong object as the state ------------------------------------------------------------
WRONG_STATES = {
    "None": None, "int": 5, "str": "state", "list": [1, 2], "dict": {"round": 1},
    "floats": np.zeros(3), "float0d": np.zeros((), dtype=np.float64),
    "otherdtype": np.zeros((), dtype=[("round", np.int32)]), "batch2d": np.zeros((2, 2), dtype=STATE_DTYPE),
}
SINGLE_GAME_VERBS = {
    "current_player": current_player,
    "legal_mask": legal_mask,
    "legal_actions": legal_actions,
    "pending_decision": pending_decision,
    "is_terminal": is_terminal,
    "final_scores": final_scores,
    "winner": winner,
    "score_breakdown": score_breakdown,
    "render_text": render_text,
    "apply_action": lambda s: apply_action(s, 0),
    "step": lambda s: step(s, 0),
}


@pytest.mark.parametrize("verb", sorted(SINGLE_GAME_VERBS))
@pytest.mark.parametrize("wrong", sorted(WRONG_STATES))
def test_single_game_verbs_reject_a_wrong_state_object(verb, wrong):
    with pytest.raises(ValueError):
        SINGLE_GAME_VERBS[verb](WRONG_STATES[wrong])


@pytest.mark.parametrize("verb", sorted(SINGLE_GAME_VERBS))
def test_single_game_verbs_reject_a_batch(verb):
    batch = new_games(GameConfig(), [1, 2])
    before = batch.tobytes()
    with pytest.raises(ValueError, match="batch|one game"):
        SINGLE_GAME_VERBS[verb](batch)
    assert batch.tobytes() == before


# --- batch verbs ------------------------------------------------------------------------------
@pytest.mark.parametrize("wrong", [None, 5, [1, 2], np.zeros(3), np.zeros((), dtype=STATE_DTYPE),
                                   np.zeros((2, 2), dtype=STATE_DTYPE)],
                         ids=["None", "int", "list", "floats", "single", "2d"])
@pytest.mark.parametrize("verb", ["legal_masks", "apply_actions"])
def test_batch_verbs_reject_a_wrong_states_object(wrong, verb):
    with pytest.raises(ValueError):
        if verb == "legal_masks":
            legal_masks(wrong)
        else:
            apply_actions(wrong, [0])


@pytest.mark.parametrize("count", [0, 1, 2, 4, 30])
def test_apply_actions_rejects_a_wrong_number_of_actions(count):
    # one action per game: anything else must not read past the actions array
    states = new_games(GameConfig(), [1, 2, 3])
    before = states.tobytes()
    with pytest.raises(ValueError):
        apply_actions(states, [0] * count)
    assert states.tobytes() == before


def test_apply_actions_rejects_non_integer_actions():
    states = new_games(GameConfig(), [1, 2])
    before = states.tobytes()
    legal = [int(legal_actions(states[k:k + 1])[0]) for k in range(2)]
    with pytest.raises(ValueError):
        apply_actions(states, [legal[0] + 0.5, legal[1] + 0.5])
    assert states.tobytes() == before


def test_apply_actions_flags_out_of_range_ids_and_leaves_those_games():
    states = new_games(GameConfig(), [1, 2, 3, 4])
    legal = int(legal_actions(states[3:4])[0])
    before = states.copy()
    flags = apply_actions(states, [-1, NUM_ACTIONS, 10**6, legal])
    np.testing.assert_array_equal(flags, [True, True, True, False])
    assert states[:3].tobytes() == before[:3].tobytes()
    assert states[3].tobytes() != before[3].tobytes()
