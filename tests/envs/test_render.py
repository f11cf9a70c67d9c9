"""The picture renderer: fixed shape, follows the state, writes the README picture."""

from pathlib import Path

import numpy as np
from PIL import Image

from tiny_york_env.games.tiny_york import GameConfig, apply_action, is_terminal, legal_mask, new_game
from tiny_york_env.games.tiny_york.picture import PICTURE_SHAPE, main, mid_game_state, render_rgb

ROOT = Path(__file__).resolve().parents[2]


def test_picture_has_the_documented_shape_in_every_part_of_a_game():
    """600 x 900 RGB uint8 at setup, mid-game and after the end, for 2-4 participants."""
    assert PICTURE_SHAPE == (600, 900, 3)
    for config in (GameConfig(num_agents=2), GameConfig(num_agents=4), GameConfig(1, toms=(5,))):
        for until_round in (0, 3, 99):
            picture = render_rgb(mid_game_state(config, seed=4, until_round=until_round))
            assert picture.dtype == np.uint8 and picture.shape == PICTURE_SHAPE
    assert is_terminal(mid_game_state(GameConfig(num_agents=4), seed=4, until_round=99))


def test_picture_changes_when_a_skyscraper_is_built_and_rendering_changes_nothing():
    """A step that adds a skyscraper to a borough changes the picture; drawing leaves the state."""
    state = new_game(GameConfig(num_agents=3), 6)
    rng = np.random.default_rng(6)
    while True:
        before_state = state.copy()
        legal = np.flatnonzero(legal_mask(state))
        apply_action(state, int(legal[rng.integers(legal.size)]))
        if state["skyscrapers"].sum() > before_state["skyscrapers"].sum():
            break
    before, after = render_rgb(before_state), render_rgb(state)
    assert not np.array_equal(before, after)
    copy = state.copy()
    render_rgb(state)
    assert copy.tobytes() == state.tobytes()


def test_main_writes_a_png(tmp_path):
    """``python -m tiny_york_env.games.tiny_york.picture PATH`` writes the mid-game picture as a PNG."""
    path = main([str(tmp_path / "sub" / "board.png")])
    with Image.open(path) as image:
        assert image.format == "PNG" and image.size == (PICTURE_SHAPE[1], PICTURE_SHAPE[0])
        np.testing.assert_array_equal(np.asarray(image.convert("RGB")), render_rgb(mid_game_state()))


def test_readme_picture_is_a_fresh_render():
    """docs/images/board.png is what ``python -m tiny_york_env.games.tiny_york.picture docs/images/board.png``
    draws now (README "Picture"): the default mid-game position, pixel for pixel. When the engine
    or the renderer changes, that command redraws it."""
    with Image.open(ROOT / "docs" / "images" / "board.png") as image:
        assert image.size == (PICTURE_SHAPE[1], PICTURE_SHAPE[0])
        shipped = np.asarray(image.convert("RGB"))
    fresh = render_rgb(mid_game_state())
    differing = int((shipped != fresh).any(axis=2).sum())
    assert differing == 0, (f"{differing} pixels of docs/images/board.png differ from a fresh render; "
                            "redraw it with python -m tiny_york_env.games.tiny_york.picture "
                            "docs/images/board.png")
