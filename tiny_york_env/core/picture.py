"""What every game's ``picture.py`` shares: the canvas (an RGB image with Pillow's default font, text
and its width), writing a picture as a PNG, and the random play that reaches the mid-game position
its ``main`` draws. Needs pillow (imported here, so only a picture imports it)."""

import argparse
import os
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

INK = (30, 30, 30)  # text and outlines on every game's picture
RGB = tuple[int, int, int]


def default_font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    """Pillow's default font at ``size`` (scalable since pillow 10.1; the bitmap font before)."""
    try:
        return ImageFont.load_default(size=size)
    except TypeError:
        return ImageFont.load_default()


class Canvas:
    """An RGB image of ``width`` x ``height`` on ``background`` and its drawing context; a game's
    picture sets ``font`` (the default of ``text`` and ``width``) and draws on it."""

    def __init__(self, width: int, height: int, background: RGB) -> None:
        """A blank canvas."""
        self.image = Image.new("RGB", (width, height), background)
        self.draw = ImageDraw.Draw(self.image)
        self.font = None  # the game's picture sets its body font (None: Pillow's default)

    def text(self, xy, text: str, fill: RGB = INK, font=None) -> None:
        """``text`` with its top left at ``xy``."""
        self.draw.text(xy, text, fill=fill, font=font or self.font)

    def width(self, text: str, font=None) -> int:
        """The drawn width of ``text``."""
        return int(self.draw.textlength(text, font=font or self.font))


def write_png(pixels: np.ndarray, path: str | os.PathLike[str]) -> Path:
    """Write ``pixels`` (uint8 H x W x 3) to ``path`` as a PNG, its parent folders made."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(pixels).save(path)
    return path


def play_randomly_until(state: np.ndarray, seed: int, legal_mask: Callable[[np.ndarray], np.ndarray],
                        apply_action: Callable[[np.ndarray, int], None],
                        is_terminal: Callable[[np.ndarray], bool],
                        reached: Callable[[np.ndarray], bool]) -> np.ndarray:
    """Uniformly random legal play (a generator seeded ``seed``) on ``state`` in place until
    ``reached(state)`` or the end; ``state``."""
    rng = np.random.default_rng(seed)
    while not is_terminal(state) and not reached(state):
        legal = np.flatnonzero(legal_mask(state))
        apply_action(state, int(legal[rng.integers(legal.size)]))
    return state


def picture_command(argv: Sequence[str] | None, title: str, default_png: Path, seed: int,
                    stop: tuple[str, int, str], position: Callable[[int, int], np.ndarray],
                    save: Callable[[np.ndarray, Path], Path]) -> Path:
    """The ``main`` of a game's ``picture.py``: ``[PATH] [--seed S] [--STOP N]`` draws the mid-game
    position ``position(seed, N)`` of ``title`` with ``save`` to PATH (default ``default_png``);
    ``stop`` is (option name, default, help) of where the random play stops. The path written."""
    name, default, help_text = stop
    parser = argparse.ArgumentParser(description=f"Draw a mid-game {title} position as a PNG.")
    parser.add_argument("path", nargs="?", default=str(default_png), help=f"output (default {default_png})")
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument(f"--{name}", type=int, default=default, help=help_text, dest="stop",
                        metavar=name.upper())
    args = parser.parse_args(argv)
    path = save(position(args.seed, args.stop), args.path)
    print(f"wrote {path}")
    return path
