"""Final scoring (rulebook "Ending the Game and Final Scoring", R20): a breakdown per
participant in ``score_lines`` and the winner."""

import numpy as np

from .building import present_everywhere
from .components import (
    BOROUGH_BONUS_END,
    BOROUGH_LANTERN,
    CHARACTER_33_STEPS_PER_POINT,
    CHARACTER_34_POINTS_PER_CARD,
    CHARACTER_35_MIN_SKYSCRAPERS,
    CHARACTER_35_POINTS,
    FIRST_END_GAME_CHARACTER,
    FIRST_SET_CHARACTER,
    LANTERN_CHARACTER_COLOUR,
    MAX_SEATS,
    NEUTRAL,
    NUM_BOROUGHS,
    NUM_CARD_TYPES,
    NUM_CHARACTERS,
    NUM_TILES,
    NUM_VESSEL_KINDS,
    NUM_VESSELS,
    PRESS_BONUS_POINTS,
    PRESS_BONUS_SPACE,
    SET_ANY_VESSEL,
    SET_COMPONENTS,
    SET_DOLLARS,
    SET_POINTS,
    SET_SKYSCRAPERS,
    SET_TABLE,
    TILE_CHARACTER,
    TILE_VALUE,
    VESSEL_KIND,
)
from .jit import jit
from .press import ahead, press_rank_with_neutral
from .state import (
    LOC_OWNED,
    NO_SEAT,
    NUM_SCORE_LINES,
    SCORE_BOROUGH,
    SCORE_BOROUGH_BONUS,
    SCORE_CHARACTERS,
    SCORE_END_CHARACTERS,
    SCORE_PRESS_BONUS,
    SCORE_REST,
    SCORE_TRACK,
)
from .tom import tom_character_points

FIRST_LANTERN_CHARACTER = 28
CHARACTER_33, CHARACTER_34, CHARACTER_35, CHARACTER_36 = 33, 34, 35, 36


@jit
def half_rounded_up(x):
    """x / 2 rounded up (majority ranks, the rest line)."""
    return (x + 1) // 2


@jit
def borough_value(st, b):
    """Base value tile plus every prestige tile placed in borough ``b``."""
    return st["borough_base"][b] + st["borough_prestige"][b]


@jit
def majority_points(st, b, out):
    """R20: rank participants and the neutral player by skyscrapers in ``b`` (ties by press
    order, neutral token counted); 1st gets the borough value, each next rank half the previous
    rounded up; nobody without a skyscraper scores. Writes each seat's points into ``out``."""
    tokens = np.empty(MAX_SEATS + 1, np.int64)
    n = 0
    for token in range(st["num_seats"]):
        tokens[n] = token
        n += 1
    tokens[n] = NEUTRAL
    n += 1
    for i in range(1, n):
        j = i
        while j > 0:
            a = tokens[j]
            c = tokens[j - 1]
            ca = st["skyscrapers"][b, a]
            cc = st["skyscrapers"][b, c]
            if ca > cc or (ca == cc and press_rank_with_neutral(st, a) < press_rank_with_neutral(st, c)):
                tokens[j] = c
                tokens[j - 1] = a
                j -= 1
            else:
                break
    value = borough_value(st, b)
    for i in range(n):
        token = tokens[i]
        if st["skyscrapers"][b, token] > 0 and token != NEUTRAL:
            out[token] = value
        value = half_rounded_up(value)
    return n


@jit
def _set_count(have, need):
    """How many complete sets ``need`` can be taken from ``have`` (component counts)."""
    best = -1
    for k in range(SET_COMPONENTS):
        if need[k] > 0:
            n = have[k] // need[k]
            if best < 0 or n < best:
                best = n
    return 0 if best < 0 else best


@jit
def end_game_character_points(st, seat, have):
    """R20: characters 28-42 in ascending number. ``have`` holds the vessel kinds, 'any vessel',
    dollars and board skyscrapers; sets taken by 37-42 are removed from it."""
    total = 0
    for c in range(FIRST_END_GAME_CHARACTER, NUM_CHARACTERS + 1):
        for tile in range(NUM_TILES):
            if (TILE_CHARACTER[tile] != c or st["tile_loc"][tile] != LOC_OWNED
                    or st["tile_owner"][tile] != seat):
                continue
            if c < CHARACTER_33:
                colour = LANTERN_CHARACTER_COLOUR[c - FIRST_LANTERN_CHARACTER]
                for b in range(NUM_BOROUGHS):
                    if BOROUGH_LANTERN[b] == colour:
                        total += st["skyscrapers"][b, seat]
            elif c == CHARACTER_33:
                steps = st["press_space"][seat]
                total += (steps + CHARACTER_33_STEPS_PER_POINT - 1) // CHARACTER_33_STEPS_PER_POINT
            elif c == CHARACTER_34:
                best = 0
                for t in range(NUM_CARD_TYPES):
                    if st["reserve"][seat, t] > best:
                        best = st["reserve"][seat, t]
                total += CHARACTER_34_POINTS_PER_CARD * best
            elif c == CHARACTER_35:
                for b in range(NUM_BOROUGHS):
                    if st["skyscrapers"][b, seat] >= CHARACTER_35_MIN_SKYSCRAPERS:
                        total += CHARACTER_35_POINTS
            elif c == CHARACTER_36:
                for other in range(NUM_TILES):
                    if st["tile_loc"][other] == LOC_OWNED and st["tile_owner"][other] == seat:
                        total += 1
            else:
                row = c - FIRST_SET_CHARACTER
                need = SET_TABLE[row]
                sets = _set_count(have, need)
                total += sets * SET_POINTS[row]
                _take_sets(have, need, sets)
    return total


@jit
def _take_sets(have, need, sets):
    """Remove ``sets`` sets from ``have`` (they return to the supply, R20): vessels of named
    kinds also leave the 'any vessel' count, and 'any vessel' is taken from the kinds left."""
    for k in range(SET_COMPONENTS):
        have[k] -= need[k] * sets
    for kind in range(NUM_VESSEL_KINDS):
        have[SET_ANY_VESSEL] -= need[kind] * sets
    for _ in range(need[SET_ANY_VESSEL] * sets):
        for kind in range(NUM_VESSEL_KINDS):
            if have[kind] > 0:
                have[kind] -= 1
                break


@jit
def goods(st, seat):
    """Component counts for set scoring: vessel kinds, any vessel, dollars, board skyscrapers."""
    have = np.zeros(SET_COMPONENTS, np.int64)
    for v in range(NUM_VESSELS):
        if st["vessel_owner"][v] == seat:
            have[VESSEL_KIND[v]] += 1
            have[SET_ANY_VESSEL] += 1
    have[SET_DOLLARS] = st["dollars"][seat]
    have[SET_SKYSCRAPERS] = st["board_skyscrapers"][seat]
    return have


@jit
def final_scoring(st):
    """R20, in order: character values, end-game characters, majorities, borough bonus,
    press bonus, (dollars + board skyscrapers) / 2 rounded up; then the winner. Toms by R24."""
    n = st["num_seats"]
    for seat in range(n):
        for k in range(NUM_SCORE_LINES):
            st["score_lines"][seat, k] = 0
        st["score_lines"][seat, SCORE_TRACK] = st["points"][seat]
        have = goods(st, seat)
        if st["is_tom"][seat] != 0:
            # R24: Tom's dollars go on his characters; end-game abilities give him nothing.
            points, have[SET_DOLLARS] = tom_character_points(st, seat)
            st["score_lines"][seat, SCORE_CHARACTERS] = points
        else:
            for tile in range(NUM_TILES):
                if st["tile_loc"][tile] == LOC_OWNED and st["tile_owner"][tile] == seat:
                    st["score_lines"][seat, SCORE_CHARACTERS] += TILE_VALUE[tile]
            st["score_lines"][seat, SCORE_END_CHARACTERS] = end_game_character_points(
                st, seat, have)
        if present_everywhere(st, seat):
            st["score_lines"][seat, SCORE_BOROUGH_BONUS] = BOROUGH_BONUS_END
        if st["press_space"][seat] >= PRESS_BONUS_SPACE:
            st["score_lines"][seat, SCORE_PRESS_BONUS] = PRESS_BONUS_POINTS
        st["score_lines"][seat, SCORE_REST] = half_rounded_up(have[SET_DOLLARS] + have[SET_SKYSCRAPERS])
    out = np.zeros(MAX_SEATS + 1, np.int64)
    for b in range(NUM_BOROUGHS):
        for k in range(MAX_SEATS + 1):
            out[k] = 0
        majority_points(st, b, out)
        for seat in range(n):
            st["score_lines"][seat, SCORE_BOROUGH + b] = out[seat]
    best = NO_SEAT
    best_total = 0
    for seat in range(n):
        total = 0
        for k in range(NUM_SCORE_LINES):
            total += st["score_lines"][seat, k]
        if best == NO_SEAT or total > best_total or (total == best_total and ahead(st, seat, best)):
            best = seat
            best_total = total
    st["winner"] = best
