"""What each Tiny York character does, for people: one table the terminal game (``? 23``), the
browser board (hover) and the docs page (docs/tiny-york.md) all read.

Each of the 42 characters has its ability in a sentence or two, as the rulebook's addendum gives it
(the project's readings in ``spec/rulings.md`` where the addendum is silent), and where that is:
the addendum's section for its phase. ``CHARACTER_SUMMARY`` (labels.py) keeps the few words an
option's text shows.
"""

from .actions import decode
from .components import (
    CHARACTER_FREE,
    CHARACTER_PHASE,
    ELEVATOR_COLUMNS,
    NUM_CHARACTERS,
    PHASE_END,
    PHASE_I,
    PHASE_II,
    PHASE_III,
    TILE_CHARACTER,
)
from .labels import CHARACTER_SUMMARY
from .state import EMPTY

# The addendum's sections by phase (components.CHARACTER_PHASE), as the rulebook heads them.
ADDENDUM_SECTIONS = {PHASE_I: "Phase I Characters", PHASE_II: "Phase II Characters",
                     PHASE_III: "Phase III Characters", PHASE_END: "Characters with the icon"}
PHASE_WORDS = {PHASE_I: "Phase I", PHASE_II: "Phase II", PHASE_III: "Phase III",
               PHASE_END: "final scoring"}
# Characters that act by themselves, not paid and used on a turn (R16), and when.
AUTOMATIC_CHARACTERS = {21: "by itself, at every building action"}
LANTERN_CHARACTERS = {28: "yellow", 29: "red", 30: "brown", 31: "green", 32: "blue"}

CHARACTER_ABILITIES = {
    1: "Gain 1 point. You may discard any number of cards from your hand, then draw as many from "
       "the draw pile.",
    2: "Take 2 single cards from different pairs instead of one pair from the display; the 2 "
       "cards left over form a new pair.",
    3: "Gain 1 point. Draw 1 card and place it face up in your reserve: from now on your reserve "
       "holds one more card to exchange with your hand.",
    4: "Instead of taking 1 pair of cards twice, take both pairs at once.",
    5: "Draw 3 cards from the draw pile, then put 2 cards on the discard pile.",
    6: "Take 2 dollars from the supply.",
    7: "Discard 1 of your characters (it leaves the game) and take 1 from the display with a value "
       "up to 1 higher (a value-5 one for a value 5).",
    8: "For each card of the pair you just took, you may take 1 identical card from your reserve "
       "into your hand; then refill your reserve from the draw pile.",
    9: "Draw 1 card from the draw pile and take 1 dollar from the supply.",
    10: "Draw 2 cards from the draw pile.",
    11: "Replace 1 neutral skyscraper with 1 skyscraper from your player board; the neutral one "
        "leaves the game.",
    12: "Gain 1 point. Discard any number of cards from your reserve, then refill it from the "
        "draw pile.",
    13: "Play any 1 card as a card of the current bidding round's type.",
    14: "Go back 1 or 2 spaces on the press track; each space counts as a played wild card.",
    15: "When you play at least 1 card from your hand, you may also play 1 card with the same icon "
        "from your reserve; then refill your reserve from the draw pile.",
    16: "Your bid is increased by 1 wild card.",
    17: "Your bid is increased by 1 prestige card.",
    18: "Take 1 dollar from the supply; you bid last in this bidding round (only one player may "
        "use character 18 in a bidding round).",
    19: "Gain twice the points for your bid of prestige cards (character 17's card included).",
    20: "Play any 1 card counting as 2 cards of the current bidding round's type.",
    21: "Each time you build with the prestige or skyscraper action, build 1 more skyscraper from "
        "the general supply in the same borough (by itself: one a building action for each "
        "copy you own).",
    22: "After your played cards are evaluated, return up to 2 of them to your hand.",
    23: "Gain 2 points.",
    24: "Gain 1 point, and place 1 skyscraper from the general supply on your player board.",
    25: "Gain 3 points.",
    26: "Place 1 skyscraper from the general supply on your player board and advance 1 space on "
        "the press track.",
    27: "Advance on the press track by your position on it, the neutral marker not counted: first "
        "1 space, second 2, third 3, fourth 4; with 2 players second advances 3 (the addendum's "
        "example).",
    **{c: f"At the end, gain 1 point for each of your skyscrapers in a borough with the {colour} "
          "lantern." for c, colour in LANTERN_CHARACTERS.items()},
    33: "At the end, gain 1 point for each 2 spaces you advanced on the press track (rounded up).",
    34: "At the end, gain 2 points for each card of one type of your choice in your reserve.",
    35: "At the end, gain 2 points for each borough with at least 3 of your skyscrapers.",
    36: "At the end, gain 1 point for each character you have.",
    37: "At the end, gain 5 points for each taxi + bus you own; the vessels scored return to the "
        "supply.",
    38: "At the end, gain 5 points for each streetcar + subway you own; the vessels scored return "
        "to the supply.",
    39: "At the end, gain 5 points for each boat + taxi you own; the vessels scored return to the "
        "supply.",
    40: "At the end, gain 6 points for each set of 1 vessel (any) + 2 dollars you own; the sets "
        "scored return to the supply.",
    41: "At the end, gain 6 points for each set of 2 dollars + 2 skyscrapers on your player board; "
        "the sets scored return to the supply.",
    42: "At the end, gain 6 points for each set of 1 vessel (any) + 2 skyscrapers on your player "
        "board; the sets scored return to the supply.",
}
assert sorted(CHARACTER_ABILITIES) == list(range(1, NUM_CHARACTERS + 1))

# A few words for each final-scoring character (CHARACTER_SUMMARY has those of 1-27).
END_GAME_SUMMARY = {
    **{c: f"end: 1 point a skyscraper in {colour}-lantern boroughs"
       for c, colour in LANTERN_CHARACTERS.items()},
    33: "end: 1 point per 2 press spaces", 34: "end: 2 points a reserve card of one type",
    35: "end: 2 points a borough with 3+ skyscrapers", 36: "end: 1 point a character",
    37: "end: 5 points a taxi + bus", 38: "end: 5 points a streetcar + subway",
    39: "end: 5 points a boat + taxi", 40: "end: 6 points a vessel + 2 dollars",
    41: "end: 6 points 2 dollars + 2 skyscrapers", 42: "end: 6 points a vessel + 2 skyscrapers",
}


def character_reference(character: int) -> str:
    """Where the rulebook gives ``character``'s ability: its addendum section."""
    return f"rulebook addendum, {ADDENDUM_SECTIONS[int(CHARACTER_PHASE[character])]}, {character}"


def character_when(character: int) -> str:
    """When ``character`` acts, in words: 'Phase II, 1 dollar a use', 'final scoring'."""
    phase = int(CHARACTER_PHASE[character])
    if phase == PHASE_END:
        return PHASE_WORDS[phase]
    if character in AUTOMATIC_CHARACTERS:
        return f"{PHASE_WORDS[phase]}, {AUTOMATIC_CHARACTERS[character]}"
    cost = "free" if CHARACTER_FREE[character] else "1 dollar a use"
    return f"{PHASE_WORDS[phase]}, once a round, {cost}"


def explain_character(character: int) -> str:
    """``character`` for people: number, when it acts, its ability and where the rulebook says it."""
    return (f"Character {character} ({character_when(character)}): {CHARACTER_ABILITIES[character]} "
            f"[{character_reference(character)}]")


def characters_table_markdown() -> str:
    """The characters table of docs/tiny-york.md."""
    lines = ["| # | when | ability | rulebook |", "|---|---|---|---|"]
    for c in range(1, NUM_CHARACTERS + 1):
        lines.append(f"| {c} | {character_when(c)} | {CHARACTER_ABILITIES[c]} | "
                     f"{ADDENDUM_SECTIONS[int(CHARACTER_PHASE[c])]} |")
    return "\n".join(lines)


def character_summary(character: int) -> str:
    """A few words on what ``character`` does (an option's note)."""
    return CHARACTER_SUMMARY.get(character) or END_GAME_SUMMARY[character]


def explain_term(term: str) -> str | None:
    """What a word of the texts means, for the terminal's ``? WORD``: a character number ("23",
    "#23"); None for any other word."""
    digits = term.strip().lstrip("#")
    if digits.isascii() and digits.isdigit() and 1 <= int(digits) <= NUM_CHARACTERS:
        return explain_character(int(digits))
    return None


def option_note(action: int, state) -> str:
    """What the characters an option names do (a start stack, a display tile, a character to
    give up), '' for an option that names none."""
    name, payload = decode(action)
    record = state.reshape(1)[0]
    if name == "START_STACK":
        tiles = list(record["start_stacks"][payload])
    elif name == "ELEVATOR_TAKE":
        tiles = [record["elevator_display"][payload // ELEVATOR_COLUMNS, payload % ELEVATOR_COLUMNS]]
    elif name == "CHARACTER_TILE":
        tiles = [payload]
    else:
        return ""
    characters = [int(TILE_CHARACTER[tile]) for tile in tiles if tile != EMPTY]
    return "; ".join(f"#{c}: {character_summary(c)}" for c in characters)
