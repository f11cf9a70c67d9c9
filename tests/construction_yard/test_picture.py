"""Construction Yard's picture (``tiny_york_env.games.construction_yard.picture``): a fixed shape in
every part of a game, the public table only (hidden parts never change it), every move and public
change does, and the envs' ``render_mode="rgb_array"``."""

from pathlib import Path

import gymnasium
import numpy as np
import pytest
from PIL import Image

from tiny_york_env import make_aec
from tiny_york_env.games.construction_yard import (
    GameConfig,
    apply_action,
    determinize,
    is_terminal,
    legal_mask,
    new_game,
)
from tiny_york_env.games.construction_yard import data as D
from tiny_york_env.games.construction_yard import state as S
from tiny_york_env.games.construction_yard.picture import PICTURE_SHAPE, main, mid_game_state, render_rgb
from tiny_york_env.registry import get_game

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = (2, 3, 6)
SEED = 3


def play(num_players, seed, stop=lambda state: False):
    """Random legal play of an all-agent game from ``seed`` until ``stop(state)`` or the end."""
    state = new_game(GameConfig(num_players=num_players), seed)
    rng = np.random.default_rng(seed)
    while not is_terminal(state) and not stop(state):
        legal = np.flatnonzero(legal_mask(state))
        apply_action(state, int(legal[rng.integers(legal.size)]))
    return state


def paying_after_scoring_a(state):
    """A seat pays for a building with cards on the table, after scoring A."""
    return state["decision"] == S.DEC_PAY and state["payment"].sum() > 0 and state["scorings_done"][0]


def keep_or_give(state):
    """Two players: a bought building waits to be kept or given to Dirk."""
    return state["decision"] == S.DEC_DIRK


def positions(num_players):
    """(name, state): the start, a payment after scoring A, keep-or-give (two players), the end."""
    paying = play(num_players, SEED, paying_after_scoring_a)
    assert paying_after_scoring_a(paying)
    over = play(num_players, SEED)
    assert is_terminal(over)
    found = [("start", new_game(GameConfig(num_players=num_players), SEED)), ("paying", paying)]
    if num_players == D.DIRK_PLAYERS:
        dirk = play(num_players, SEED, keep_or_give)
        assert keep_or_give(dirk)
        found.append(("keep or give", dirk))
    return [*found, ("over", over)]


def _with(state, edit):
    """A copy of ``state`` with ``edit(rec)`` applied to its record."""
    other = state.copy()
    edit(other.reshape(1)[0])
    return other


@pytest.mark.parametrize("num_players", PLAYERS)
def test_picture_has_the_fixed_shape_and_leaves_the_state_alone(num_players):
    """600 x 900 x 3 uint8 in every part of a game; drawing changes nothing; the same state draws the same."""
    assert PICTURE_SHAPE == (600, 900, 3)
    for name, state in positions(num_players):
        before = state.tobytes()
        picture = render_rgb(state)
        assert picture.shape == PICTURE_SHAPE and picture.dtype == np.uint8, name
        assert state.tobytes() == before, name
        assert picture.std() > 0, name  # something is drawn
        np.testing.assert_array_equal(render_rgb(state.copy()), picture, err_msg=name)


def test_every_move_changes_the_picture():
    """Each action of a whole two-player game (take, buy, pay, finish, keep or give) changes the picture."""
    state = new_game(GameConfig(num_players=2), SEED)
    rng = np.random.default_rng(SEED)
    picture = render_rgb(state)
    decisions = set()
    while not is_terminal(state):
        legal = np.flatnonzero(legal_mask(state))
        action = int(legal[rng.integers(legal.size)])
        decisions.add(int(state["decision"]))
        apply_action(state, action)
        after = render_rgb(state)
        assert not np.array_equal(after, picture), f"action {action} left the picture as it was"
        picture = after
    assert decisions == {S.DEC_CHOOSE, S.DEC_PAY, S.DEC_DIRK}


@pytest.mark.parametrize("num_players", PLAYERS)
def test_determinized_copies_draw_the_same_picture(num_players):
    """Each seat's determinized copy (other hands redealt, decks reshuffled, new generator) draws the same."""
    rng = np.random.default_rng(num_players)
    for name, state in positions(num_players):
        picture = render_rgb(state)
        for seat in range(num_players):
            other = determinize(state, seat, rng)
            hidden = ("hand", "money_deck", "building_deck")
            if name != "over":  # something hidden really changed, not only the generator
                assert any(not np.array_equal(other[f], state[f]) for f in hidden), (name, seat)
            np.testing.assert_array_equal(render_rgb(other), picture, err_msg=f"{name}, seat {seat}")


def _swap_with_the_deck(rec, seat):
    """One card of ``seat``'s hand trades places with a money card of another kind in the deck."""
    held = [(c, v) for c in range(D.NUM_CURRENCIES) for v in range(D.NUM_VALUES) if rec["hand"][seat, c, v]]
    currency, value = held[0]
    code = currency * D.NUM_VALUES + value
    deck = rec["money_deck"][:int(rec["money_count"])]
    k = int(np.flatnonzero((deck < S.NUM_MONEY_CODES) & (deck != code))[0])
    swapped = int(deck[k])
    rec["hand"][seat, currency, value] -= 1
    rec["hand"][seat, swapped // D.NUM_VALUES, swapped % D.NUM_VALUES] += 1
    rec["money_deck"][k] = code


@pytest.mark.parametrize("num_players", PLAYERS)
def test_a_hand_card_swapped_with_the_deck_and_a_shuffled_building_deck_change_nothing(num_players):
    """An opponent's card traded with the money deck, the building deck reversed, another generator."""
    for name, state in positions(num_players):
        if name == "over":
            continue  # the building deck is empty at the end
        picture = render_rgb(state)
        for seat in range(1, num_players):
            def hide(rec, seat=seat):
                """Change only what nobody sees."""
                _swap_with_the_deck(rec, seat)
                count = int(rec["building_count"])
                rec["building_deck"][:count] = rec["building_deck"][:count][::-1].copy()
                rec["rng"] = rec["rng"][::-1].copy()

            other = _with(state, hide)
            assert not np.array_equal(other["hand"], state["hand"]), (name, seat)
            np.testing.assert_array_equal(render_rgb(other), picture, err_msg=f"{name}, seat {seat}")


def _add_a_card_to_a_hand(rec):
    """Seat 1 holds one more card (the hand's size changes)."""
    rec["hand"][1, 0, 0] += 1


def _build(rec):
    """Seat 0 owns one more Park."""
    rec["buildings"][0, D.BUILDING_TYPE_NAMES.index("Park")] += 1


def _give_dirk_a_building(rec):
    """Dirk owns one more Museum."""
    rec["buildings"][S.DIRK_ROW, 0] += 1


def _score(rec):
    """Seat 1 scores 4 more points in scoring A."""
    rec["score_lines"][1, 0] += 4


def _change_a_money_card(rec):
    """Another money card in the display's first occupied slot."""
    slot = int(np.flatnonzero(rec["money_display"] != S.NO_CARD)[0])
    rec["money_display"][slot] = (rec["money_display"][slot] + 1) % S.NUM_MONEY_CODES


def _change_a_building_card(rec):
    """A building of another type in the display's first occupied slot."""
    slot = int(np.flatnonzero(rec["building_display"] != S.NO_CARD)[0])
    shown = D.BUILDING_TYPE[rec["building_display"][slot]]
    rec["building_display"][slot] = int(np.flatnonzero(D.BUILDING_TYPE != shown)[0])


def _discard(rec):
    """One more blue card on the discard pile."""
    rec["discard"][rec["discard_count"]] = 0
    rec["discard_count"] += 1


def _pay_one_more(rec):
    """One more card of value 1 in the payment on the table."""
    rec["payment"][0] += 1
    rec["paid"] += D.MIN_VALUE


PUBLIC_EDITS = (_add_a_card_to_a_hand, _build, _give_dirk_a_building, _score, _change_a_money_card,
                _change_a_building_card, _discard, _pay_one_more)


@pytest.mark.parametrize("edit", PUBLIC_EDITS, ids=lambda edit: edit.__name__.strip("_"))
def test_a_public_change_changes_the_picture(edit):
    """Each public edit of a two-player payment after scoring A changes the picture."""
    state = play(2, SEED, paying_after_scoring_a)
    assert not np.array_equal(render_rgb(_with(state, edit)), render_rgb(state))


def test_the_winners_rows_are_drawn_at_the_end():
    """The finished game's picture differs from the same record with another winner."""
    over = play(3, SEED)
    other = _with(over, lambda rec: rec.__setitem__("winner_mask", int(rec["winner_mask"]) ^ 0b111))
    assert not np.array_equal(render_rgb(other), render_rgb(over))


def test_anything_but_one_construction_yard_record_is_a_value_error():
    """Two records, a zeroed record, a 5th Avenue record, other objects: a ValueError naming the game."""
    one = new_game(GameConfig(num_players=2), 1)
    two = np.stack([one, one])
    garbage = np.zeros((), S.STATE_DTYPE)
    fifth_avenue = get_game("fifth_avenue").new_game(seed=1)
    for bad in (two, garbage, fifth_avenue, np.zeros(3), [one], None):
        with pytest.raises(ValueError, match="Construction Yard"):
            render_rgb(bad)
    with pytest.raises(ValueError, match="Construction Yard"):
        get_game("construction_yard").render_rgb(fifth_avenue)


def test_the_game_record_draws_the_same_picture():
    """The contract's lazy ``render_rgb`` is the module's."""
    state = play(2, SEED, paying_after_scoring_a)
    np.testing.assert_array_equal(get_game("construction_yard").render_rgb(state), render_rgb(state))


def test_gymnasium_env_renders_rgb_array():
    """``gym.make("ConstructionYard-v0", render_mode="rgb_array")``: the picture of its game, to the end."""
    env = gymnasium.make("ConstructionYard-v0", render_mode="rgb_array")
    assert "rgb_array" in env.metadata["render_modes"]
    _, info = env.reset(seed=5)
    np.testing.assert_array_equal(env.render(), render_rgb(env.unwrapped.state))
    rng = np.random.default_rng(5)
    done = False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        _, _, terminated, truncated, info = env.step(int(legal[rng.integers(legal.size)]))
        done = terminated or truncated
    assert is_terminal(env.unwrapped.state)
    np.testing.assert_array_equal(env.render(), render_rgb(env.unwrapped.state))
    env.close()


def test_gymnasium_vector_env_renders_one_picture_per_game():
    """The native vector env's rgb_array render: one picture per game, each its game's."""
    envs = gymnasium.make_vec("ConstructionYard-v0", num_envs=2, render_mode="rgb_array")
    envs.reset(seed=5)
    pictures = envs.render()
    assert len(pictures) == 2
    for i, picture in enumerate(pictures):
        np.testing.assert_array_equal(picture, render_rgb(envs.unwrapped.game_state(i)))
    envs.close()


def test_pettingzoo_env_renders_rgb_array():
    """``make_aec("construction_yard", render_mode="rgb_array")``: the picture of its game."""
    env = make_aec("construction_yard", num_players=3, render_mode="rgb_array")
    assert "rgb_array" in env.unwrapped.metadata["render_modes"]
    env.reset(seed=5)
    np.testing.assert_array_equal(env.render(), render_rgb(env.unwrapped.game_state))
    before = env.render()
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    after = env.render()
    assert after.shape == PICTURE_SHAPE and not np.array_equal(after, before)


def test_main_writes_a_png(tmp_path):
    """``python -m tiny_york_env.games.construction_yard.picture PATH`` writes the mid-game picture."""
    path = main([str(tmp_path / "sub" / "board.png")])
    with Image.open(path) as image:
        assert image.format == "PNG" and image.size == (PICTURE_SHAPE[1], PICTURE_SHAPE[0])
        np.testing.assert_array_equal(np.asarray(image.convert("RGB")), render_rgb(mid_game_state()))


def test_docs_picture_is_a_fresh_render():
    """docs/images/construction-yard-board.png is a fresh render, pixel for pixel (the command redraws it)."""
    with Image.open(ROOT / "docs" / "images" / "construction-yard-board.png") as image:
        shipped = np.asarray(image.convert("RGB"))
    fresh = render_rgb(mid_game_state())
    assert shipped.shape == fresh.shape
    differing = int((shipped != fresh).any(axis=2).sum())
    assert differing == 0, (f"{differing} pixels of docs/images/construction-yard-board.png differ from a "
                            "fresh render; redraw it with "
                            "python -m tiny_york_env.games.construction_yard.picture "
                            "docs/images/construction-yard-board.png")
