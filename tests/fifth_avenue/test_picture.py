"""5th Avenue's picture (``tiny_york_env.games.fifth_avenue.picture``): a fixed shape in every part of a
game, the public table only (hidden parts never change it), public changes always do, and the
envs' ``render_mode="rgb_array"``."""

from pathlib import Path

import gymnasium
import numpy as np
import pytest
from PIL import Image

from tiny_york_env import make_aec
from tiny_york_env.envs.aec import ConstructionYardAECEnv
from tiny_york_env.envs.single import ConstructionYardEnv, FifthAvenueEnv, TinyYorkEnv
from tiny_york_env.games.fifth_avenue import (
    GameConfig,
    apply_action,
    determinize,
    is_terminal,
    legal_mask,
    new_game,
)
from tiny_york_env.games.fifth_avenue import data as D
from tiny_york_env.games.fifth_avenue import state as F
from tiny_york_env.games.fifth_avenue.picture import PICTURE_SHAPE, main, mid_game_state, render_rgb
from tiny_york_env.registry import get_game

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = (2, 3, 4)
SEED = 3


def play(num_players, seed, stop=lambda state: False):
    """Random legal play of an all-agent game from ``seed`` until ``stop(state)`` or the end."""
    state = new_game(GameConfig(num_players=num_players), seed)
    rng = np.random.default_rng(seed)
    while not is_terminal(state) and not stop(state):
        legal = np.flatnonzero(legal_mask(state))
        apply_action(state, int(legal[rng.integers(legal.size)]))
    return state


def in_auction_with_a_bid(state):
    """A bid is pending and some bid is already on the table."""
    return state["decision"] == F.DEC_BID and state["high_bidder"] != F.NO_PLAYER


def positions(num_players):
    """(name, state): the start, an auction with a bid on the table, the end."""
    auction = play(num_players, SEED, in_auction_with_a_bid)
    assert in_auction_with_a_bid(auction)
    over = play(num_players, SEED)
    assert is_terminal(over)
    start = new_game(GameConfig(num_players=num_players), SEED)
    return [("start", start), ("auction", auction), ("over", over)]


@pytest.mark.parametrize("num_players", PLAYERS)
def test_picture_has_the_fixed_shape_and_leaves_the_state_alone(num_players):
    """600 x 900 x 3 uint8 at the start, mid-auction and at the end; drawing changes nothing."""
    assert PICTURE_SHAPE == (600, 900, 3)
    for name, state in positions(num_players):
        before = state.tobytes()
        picture = render_rgb(state)
        assert picture.shape == PICTURE_SHAPE and picture.dtype == np.uint8, name
        assert state.tobytes() == before, name
        assert picture.std() > 0, name  # something is drawn


@pytest.mark.parametrize("num_players", PLAYERS)
def test_hidden_parts_never_change_the_picture(num_players):
    """Each seat's determinized copy, black stack reshuffled, unused businesses changed: the same picture."""
    rng = np.random.default_rng(num_players)
    for name, state in positions(num_players):
        picture = render_rgb(state)
        for seat in range(num_players):
            other = determinize(state, seat, rng)
            rec = other.reshape(1)[0]
            rng.shuffle(rec["black_stack"][:int(rec["black_count"])])
            rec["unused_business"] = np.roll(rec["unused_business"], 1)
            assert other.tobytes() != state.tobytes(), (name, seat)  # something hidden did change
            np.testing.assert_array_equal(render_rgb(other), picture, err_msg=f"{name}, seat {seat}")


def _change(state, edit):
    """A copy of ``state`` with ``edit(rec)`` applied to its record."""
    other = state.copy()
    edit(other.reshape(1)[0])
    return other


def _own_a_free_plot(rec):
    """P1 builds two skyscrapers on the first free plot."""
    plot = int(np.flatnonzero(rec["plot_owner"] == F.NO_PLAYER)[0])
    rec["plot_owner"][plot] = 1
    rec["plot_skyscrapers"][plot] = 2


def _change_a_top_card(rec):
    """Another value on a coloured stack's face-up top card."""
    colour = int(np.flatnonzero(rec["coloured_count"] > 0)[0])
    top = int(rec["coloured_count"][colour]) - 1
    rec["coloured_stack"][colour, top] = (rec["coloured_stack"][colour, top] + 1) % D.NUM_CARD_VALUES


def _add_a_card_to_a_hand(rec):
    """P0 holds one more black card (the hand's size changes)."""
    rec["hand"][0, F.BLACK, 0] += 1


def _take_a_business(rec):
    """The first business of the supply row is gone."""
    space = int(np.flatnonzero(rec["supply_row"] != F.NO_BUSINESS)[0])
    rec["supply_row"][space] = F.NO_BUSINESS


def _score(rec):
    """P1 scores 7 VP."""
    rec["score"][1] += 7


def _move_a_commissioner(rec):
    """The white commissioner stands elsewhere."""
    here = rec["commissioner_place"][0]
    rec["commissioner_place"][0] = D.TIMES_SQUARE if here != D.TIMES_SQUARE else D.D34E


def _stop_a_district(rec):
    """42nd Street East is under a building stop."""
    rec["stopped"][D.D42E] = 1


PUBLIC_EDITS = (_own_a_free_plot, _change_a_top_card, _add_a_card_to_a_hand, _take_a_business, _score,
                _move_a_commissioner, _stop_a_district)


@pytest.mark.parametrize("edit", PUBLIC_EDITS, ids=lambda edit: edit.__name__.strip("_"))
def test_a_public_change_changes_the_picture(edit):
    """Each public edit of a mid-auction position changes the picture."""
    state = play(3, SEED, in_auction_with_a_bid)
    assert not np.array_equal(render_rgb(_change(state, edit)), render_rgb(state))


def test_a_higher_bid_on_the_table_changes_the_picture():
    """One more card in the high bid on the table changes the picture."""
    state = play(4, SEED, in_auction_with_a_bid)

    def raise_the_bid(rec):
        """The high bidder adds a black 4."""
        bidder = int(rec["high_bidder"])
        rec["bid_cards"][bidder, F.BLACK, 0] += 1
        rec["bid_total"][bidder] += D.CARD_VALUES[0]
        rec["high_bid"] += D.CARD_VALUES[0]

    assert not np.array_equal(render_rgb(_change(state, raise_the_bid)), render_rgb(state))


def test_anything_but_one_5th_avenue_record_is_a_value_error():
    """Two records, a zeroed record, a Tiny York record, other objects: ValueError naming 5th Avenue."""
    one = new_game(GameConfig(num_players=2), 1)
    two = np.stack([one, one])
    garbage = np.zeros((), F.STATE_DTYPE)
    tiny_york = get_game("tiny_york").new_game(seed=1)
    for bad in (two, garbage, tiny_york, np.zeros(3), [one], None):
        with pytest.raises(ValueError, match="5th Avenue"):
            render_rgb(bad)
    with pytest.raises(ValueError, match="5th Avenue"):
        get_game("fifth_avenue").render_rgb(tiny_york)


def test_the_game_record_draws_the_same_picture():
    """The contract's lazy ``render_rgb`` is the module's."""
    state = play(2, SEED, in_auction_with_a_bid)
    np.testing.assert_array_equal(get_game("fifth_avenue").render_rgb(state), render_rgb(state))


def test_gymnasium_env_renders_rgb_array():
    """``gym.make("FifthAvenue-v0", render_mode="rgb_array")`` lists the mode and renders the picture."""
    assert "rgb_array" in FifthAvenueEnv.metadata["render_modes"]
    env = gymnasium.make("FifthAvenue-v0", render_mode="rgb_array")
    assert "rgb_array" in env.metadata["render_modes"]
    _, info = env.reset(seed=5)
    picture = env.render()
    assert picture.shape == PICTURE_SHAPE and picture.dtype == np.uint8
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert env.render().shape == PICTURE_SHAPE
    env.close()


def test_gymnasium_vector_env_renders_one_picture_per_game():
    """The native vector env's rgb_array render: one picture per game."""
    envs = gymnasium.make_vec("FifthAvenue-v0", num_envs=2, render_mode="rgb_array")
    envs.reset(seed=5)
    pictures = envs.render()
    assert len(pictures) == 2 and all(p.shape == PICTURE_SHAPE for p in pictures)
    envs.close()


def test_pettingzoo_env_renders_rgb_array():
    """``make_aec("fifth_avenue", render_mode="rgb_array")`` lists the mode and renders the picture."""
    env = make_aec("fifth_avenue", num_players=3, render_mode="rgb_array")
    assert "rgb_array" in env.unwrapped.metadata["render_modes"]
    env.reset(seed=5)
    picture = env.render()
    assert picture.shape == PICTURE_SHAPE and picture.dtype == np.uint8
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert env.render().shape == PICTURE_SHAPE


def test_the_other_games_draw_pictures_too():
    """Tiny York keeps its picture; Construction Yard has one too (tests/construction_yard)."""
    assert "rgb_array" in TinyYorkEnv.metadata["render_modes"]
    assert ConstructionYardEnv.metadata["render_modes"] == ["human", "ansi", "rgb_array"]
    assert ConstructionYardAECEnv.metadata["render_modes"] == ["human", "ansi", "rgb_array"]


def test_main_writes_a_png(tmp_path):
    """``python -m tiny_york_env.games.fifth_avenue.picture PATH`` writes the mid-game picture as a PNG."""
    path = main([str(tmp_path / "sub" / "board.png")])
    with Image.open(path) as image:
        assert image.format == "PNG" and image.size == (PICTURE_SHAPE[1], PICTURE_SHAPE[0])
        np.testing.assert_array_equal(np.asarray(image.convert("RGB")), render_rgb(mid_game_state()))


def test_docs_picture_is_a_fresh_render():
    """docs/images/fifth-avenue-board.png is a fresh render, pixel for pixel (the command redraws it)."""
    with Image.open(ROOT / "docs" / "images" / "fifth-avenue-board.png") as image:
        shipped = np.asarray(image.convert("RGB"))
    fresh = render_rgb(mid_game_state())
    assert shipped.shape == fresh.shape
    differing = int((shipped != fresh).any(axis=2).sum())
    assert differing == 0, (f"{differing} pixels of docs/images/fifth-avenue-board.png differ from a fresh "
                            "render; redraw it with python -m tiny_york_env.games.fifth_avenue.picture "
                            "docs/images/fifth-avenue-board.png")
