"""Every character's ability for people (``character_texts.py``), held to the rulebook's addendum:
the same characters, each in its phase's section, with the addendum's numbers; on the board's
hover, in the options that name it and on the docs page."""

import html
import re
from pathlib import Path

import numpy as np
import pytest

from tiny_york_env.games.tiny_york import GameConfig, new_game
from tiny_york_env.games.tiny_york.board_svg import tiny_york_svg
from tiny_york_env.games.tiny_york.character_texts import (
    ADDENDUM_SECTIONS,
    CHARACTER_ABILITIES,
    characters_table_markdown,
    explain_character,
    explain_term,
    option_note,
)
from tiny_york_env.games.tiny_york.components import CHARACTER_PHASE, NUM_CHARACTERS, TILE_CHARACTER
from tiny_york_env.registry import get_game

ROOT = Path(__file__).resolve().parents[2]
QUOTE = Path(__file__).with_name("addendum_abilities.txt")  # the addendum's lines, quoted
RULEBOOK = ROOT.parent / "shared" / "rules" / "rulebook-en.txt"  # beside the repository, if there
ABILITY_LINE = re.compile(r"^(\d+)(?:\s*-\s*(\d+))?:\s*(.+)$")  # "23: Gain 2 points." / "28 - 32: ..."


def quoted_lines():
    """The quote's lines (its comment lines left out)."""
    return [line for line in QUOTE.read_text().splitlines() if line and not line.startswith("#")]


def addendum():
    """{character: (its section's heading, its ability's text)} from the quoted addendum."""
    headings = set(ADDENDUM_SECTIONS.values())
    section, found = None, {}
    for line in quoted_lines():
        heading = next((h for h in headings if line.startswith(h)), None)
        if heading:
            section = heading
            continue
        match = ABILITY_LINE.match(line)
        assert match, f"neither a heading nor an ability: {line!r}"
        first, last = int(match[1]), int(match[2] or match[1])
        for character in range(first, last + 1):
            found[character] = (section, match[3])
    return found


def test_the_quote_is_the_rulebooks_text():
    """Each quoted line is a line of the rulebook's addendum, in order (where the rulebook is
    beside the repository, as in a development checkout)."""
    if not RULEBOOK.is_file():
        pytest.skip(f"the rulebook is not beside the repository ({RULEBOOK}); the quote stands in")
    lines = [line.strip() for line in RULEBOOK.read_text().splitlines()]
    positions = [lines.index(line) for line in quoted_lines()]
    assert positions == sorted(positions)


def test_the_table_has_every_character_of_the_addendum_in_its_section():
    found = addendum()
    assert sorted(found) == sorted(CHARACTER_ABILITIES) == list(range(1, NUM_CHARACTERS + 1))
    for character, (section, _) in found.items():
        assert section == ADDENDUM_SECTIONS[int(CHARACTER_PHASE[character])], character


def test_each_ability_keeps_the_addendums_numbers():
    """Every number the addendum's sentence names (points, cards, spaces, other characters) is in
    the table's sentence: a changed or dropped amount fails."""
    for character, (_, text) in addendum().items():
        named = set(re.findall(r"\d+", text)) - {str(character)}
        ours = set(re.findall(r"\d+", CHARACTER_ABILITIES[character]))
        assert named <= ours, f"character {character}: {sorted(named - ours)} missing"


def test_explanations_name_the_phase_the_cost_and_the_reference():
    assert explain_character(4) == ("Character 4 (Phase I, once a round, free): " + CHARACTER_ABILITIES[4]
                                    + " [rulebook addendum, Phase I Characters, 4]")
    assert "(final scoring)" in explain_character(35) and "1 dollar a use" in explain_character(23)
    assert explain_term("23") == explain_term(" #23 ") == explain_character(23)
    assert explain_term("0") is None and explain_term("43") is None and explain_term("taxi") is None


def test_the_board_shows_each_displayed_characters_ability_on_hover():
    state = new_game(GameConfig(2), seed=3)
    titles = {html.unescape(t) for t in re.findall(r"<title>(.*?)</title>", tiny_york_svg(state, 0))}
    record = state.reshape(1)[0]
    shown = {int(TILE_CHARACTER[t]) for t in record["elevator_display"].ravel() if t >= 0}
    assert shown
    for character in shown:
        assert any(CHARACTER_ABILITIES[character] in title for title in titles), character


def test_options_that_name_characters_have_a_note_of_what_they_do():
    game = get_game("tiny_york")
    state = new_game(GameConfig(2), seed=3)
    legal = np.flatnonzero(game.legal_mask(state))  # the start stacks: two characters each
    notes = [option_note(int(a), state) for a in legal]
    assert all(note.count("#") == 2 for note in notes)
    record = state.reshape(1)[0]
    first = [int(TILE_CHARACTER[t]) for t in record["start_stacks"][int(legal[0])]]
    assert all(f"#{c}:" in notes[0] for c in first)
    assert game.option_note is option_note


def test_the_docs_page_has_the_table():
    text = (ROOT / "docs" / "tiny-york.md").read_text()
    start, end = "<!-- characters-table:start -->", "<!-- characters-table:end -->"
    assert text[text.index(start) + len(start):text.index(end)].strip() == characters_table_markdown()
