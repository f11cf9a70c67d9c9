"""A small SVG builder every game's board drawing uses (the browser board, ``board_svg.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from html import escape

RGB = tuple[int, int, int]


def hex_colour(rgb: RGB) -> str:
    """``rgb`` as a CSS colour, ``#rrggbb``."""
    red, green, blue = rgb
    return f"#{red:02x}{green:02x}{blue:02x}"


class Svg:
    """A small SVG builder: shapes and escaped text, joined at the end."""

    def __init__(self, width: int, height: int, background: RGB = (255, 255, 255)) -> None:
        self.width, self.height, self.background = width, height, background
        self.parts: list[str] = []

    def rect(self, x, y, w, h, fill: RGB | str = "none", stroke: RGB | str = "#333", rx=0, title: str = "",
             stroke_width=1) -> None:
        """A rectangle (an RGB tuple or a CSS colour for fill and stroke), its title escaped."""
        fill = hex_colour(fill) if isinstance(fill, tuple) else fill
        stroke = hex_colour(stroke) if isinstance(stroke, tuple) else stroke
        body = f"<title>{escape(title)}</title>" if title else ""
        thick = f' stroke-width="{stroke_width}"' if stroke_width != 1 else ""
        self.parts.append(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{rx}" fill="{fill}" '
                          f'stroke="{stroke}"{thick}>{body}</rect>')

    def circle(self, x, y, r, fill: RGB | str, stroke="#333", title: str = "") -> None:
        fill = hex_colour(fill) if isinstance(fill, tuple) else fill
        body = f"<title>{escape(title)}</title>" if title else ""
        self.parts.append(f'<circle cx="{x}" cy="{y}" r="{r}" fill="{fill}" stroke="{stroke}">'
                          f'{body}</circle>')

    def line(self, x0, y0, x1, y1, stroke: RGB, width=6) -> None:
        self.parts.append(f'<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}" stroke="{hex_colour(stroke)}" '
                          f'stroke-width="{width}" stroke-linecap="round"/>')

    def text(self, x, y, words: str, size=13, fill="#1e1e1e", weight="normal", title: str = "") -> None:
        body = escape(str(words)) + (f"<title>{escape(title)}</title>" if title else "")
        self.parts.append(f'<text x="{x}" y="{y}" font-size="{size}" fill="{fill}" '
                          f'font-weight="{weight}">{body}</text>')

    @contextmanager
    def place(self, *keys: str) -> Iterator[None]:
        """The shapes drawn inside make one place of the board (a plot, a borough, a card pair),
        named by ``keys`` (``data-place``, space-separated): the browser board marks and clicks the
        places its legal actions name (``Game.action_place``); a key holds no whitespace."""
        if any(not key or any(c.isspace() for c in key) for key in keys):
            raise ValueError(f"place keys are words without spaces, got {keys!r}")
        self.parts.append(f'<g data-place="{escape(" ".join(keys))}">')
        try:
            yield
        finally:
            self.parts.append("</g>")

    def render(self) -> str:
        """The SVG document (scales to its container)."""
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {self.width} {self.height}" '
                f'font-family="sans-serif" class="board" style="background:{hex_colour(self.background)}">'
                + "".join(self.parts) + "</svg>")
