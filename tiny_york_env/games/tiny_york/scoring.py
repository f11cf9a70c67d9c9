"""Final scoring (rulebook "Ending the Game and Final Scoring", R20): a breakdown per
participant in ``score_lines`` and the winner."""

import numpy as np

from ...core.jit import jit
from .bots import tom_character_points
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
    NUM_SET_CHARACTERS,
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
from .press import ahead, press_rank_with_neutral
from .state import (
    LOC_OWNED,
    NO_SEAT,
    NUM_END_GAME_CHARACTERS,
    NUM_SCORE_LINES,
    SCORE_BOROUGH,
    SCORE_BOROUGH_BONUS,
    SCORE_CHARACTERS,
    SCORE_END_CHARACTERS,
    SCORE_PRESS_BONUS,
    SCORE_REST,
    SCORE_TRACK,
)

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
def _copies_owned(st, seat, c):
    """How many tiles of character ``c`` ``seat`` owns."""
    copies = 0
    for tile in range(NUM_TILES):
        if TILE_CHARACTER[tile] == c and st["tile_loc"][tile] == LOC_OWNED and st["tile_owner"][tile] == seat:
            copies += 1
    return copies


@jit
def _fixed_character_points(st, seat, c):
    """Addendum 28-36: what one copy of ``c`` scores (P9: 33 rounds up, 34 takes the best
    type; 36 counts itself). These need no sets, so their order does not matter."""
    total = 0
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
    return total


@jit
def _named_vessel_points(have, order, start, n, left):
    """Points the characters at ``order[start:n]`` that name vessel kinds (37-39) would take
    from the vessel kinds in ``have``, in that order (P8: what an 'any vessel' pick may spoil).
    ``left`` is scratch space for the vessel kinds."""
    left[:] = have[:NUM_VESSEL_KINDS]
    total = 0
    for i in range(start, n):
        row = order[i] - FIRST_SET_CHARACTER
        sets = -1
        for kind in range(NUM_VESSEL_KINDS):
            need = SET_TABLE[row, kind]
            if need > 0 and (sets < 0 or left[kind] // need < sets):
                sets = left[kind] // need
        if sets > 0:
            for kind in range(NUM_VESSEL_KINDS):
                left[kind] -= SET_TABLE[row, kind] * sets
            total += sets * SET_POINTS[row]
    return total


@jit
def _spare_vessel_kind(have, order, start, n, left):
    """P8: the vessel kind an 'any vessel' set returns: the one whose loss costs the
    characters still to score (``order[start:n]``) the fewest points; ties to the lowest kind."""
    best_kind = -1
    best = -1
    for kind in range(NUM_VESSEL_KINDS):
        if have[kind] > 0:
            have[kind] -= 1
            points = _named_vessel_points(have, order, start, n, left)
            have[kind] += 1
            if points > best:
                best = points
                best_kind = kind
    return best_kind


@jit
def _take_sets(have, need, sets, order, pos, n, left):
    """Remove ``sets`` sets from ``have`` (they return to the supply, R20): vessels of named
    kinds also leave the 'any vessel' count, and each 'any vessel' is the kind the characters
    after position ``pos`` of ``order`` miss least (P8). ``left``: scratch, one per kind."""
    for k in range(SET_COMPONENTS):
        have[k] -= need[k] * sets
    for kind in range(NUM_VESSEL_KINDS):
        have[SET_ANY_VESSEL] -= need[kind] * sets
    for _ in range(need[SET_ANY_VESSEL] * sets):
        have[_spare_vessel_kind(have, order, pos + 1, n, left)] -= 1


@jit
def score_set_order(order, n, have, points):
    """R20: the set characters ``order[:n]`` each take as many sets as they can, in that order;
    the sets leave ``have``. ``points[c - FIRST_SET_CHARACTER]`` gets what ``c`` scored."""
    total = 0
    left = np.empty(NUM_VESSEL_KINDS, np.int64)
    for i in range(n):
        row = order[i] - FIRST_SET_CHARACTER
        need = SET_TABLE[row]
        sets = _set_count(have, need)
        points[row] = sets * SET_POINTS[row]
        total += points[row]
        _take_sets(have, need, sets, order, i, n, left)
    return total


@jit
def _next_permutation(a, n):
    """Rearrange ``a[:n]`` into the next order in lexicographic order; False (and ``a[:n]``
    back in ascending order) after the last one."""
    i = n - 2
    while i >= 0 and a[i] >= a[i + 1]:
        i -= 1
    if i >= 0:
        j = n - 1
        while a[j] <= a[i]:
            j -= 1
        a[i], a[j] = a[j], a[i]
    lo, hi = i + 1, n - 1
    while lo < hi:
        a[lo], a[hi] = a[hi], a[lo]
        lo += 1
        hi -= 1
    return i >= 0


@jit
def _best_set_order(chars, n, have, points):
    """R20, P8: score the set characters ``chars[:n]`` (ascending, one entry per character) in
    every order and keep the one with the most points, the rest line included (ties: the
    first in lexicographic order, ascending first). ``have`` is left as that order leaves it;
    ``points[c - FIRST_SET_CHARACTER]`` gets what ``c`` scored."""
    best_total = -1
    best_have = have.copy()
    trial = have.copy()
    trial_points = np.zeros(NUM_SET_CHARACTERS, np.int64)
    more = True
    while more:
        trial[:] = have
        total = score_set_order(chars, n, trial, trial_points)
        total += half_rounded_up(trial[SET_DOLLARS] + trial[SET_SKYSCRAPERS])
        if total > best_total:
            best_total = total
            best_have[:] = trial
            points[:] = trial_points
        more = _next_permutation(chars, n)
    have[:] = best_have


@jit
def end_game_character_breakdown(st, seat, have, out):
    """R20: what each end-game character 28-42 of ``seat`` scores, all copies together, into
    ``out[c - FIRST_END_GAME_CHARACTER]``; returns the sum. ``have`` holds the vessel kinds,
    'any vessel', dollars and board skyscrapers; the sets 37-42 take leave it (P8: best order).
    A second copy of a set character finds less than one set left by the first: it scores 0."""
    chars = np.zeros(NUM_SET_CHARACTERS, np.int64)
    n = 0
    for c in range(FIRST_END_GAME_CHARACTER, NUM_CHARACTERS + 1):
        out[c - FIRST_END_GAME_CHARACTER] = 0
        copies = _copies_owned(st, seat, c)
        if copies > 0 and c < FIRST_SET_CHARACTER:
            out[c - FIRST_END_GAME_CHARACTER] = copies * _fixed_character_points(st, seat, c)
        elif copies > 0:
            chars[n] = c
            n += 1
    points = np.zeros(NUM_SET_CHARACTERS, np.int64)
    if n > 0:
        _best_set_order(chars, n, have, points)
    total = 0
    for c in range(FIRST_END_GAME_CHARACTER, NUM_CHARACTERS + 1):
        if c >= FIRST_SET_CHARACTER:
            out[c - FIRST_END_GAME_CHARACTER] = points[c - FIRST_SET_CHARACTER]
        total += out[c - FIRST_END_GAME_CHARACTER]
    return total


@jit
def end_game_character_points(st, seat, have):
    """R20: the points of ``seat``'s end-game characters 28-42 (P8: set characters in their
    best order); the sets taken leave ``have``. The record is not written."""
    out = np.zeros(NUM_END_GAME_CHARACTERS, np.int64)
    return end_game_character_breakdown(st, seat, have, out)


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
    """R20, in order: character values, end-game characters (each one's points also in
    ``end_character_points``), majorities, borough bonus, press bonus, (dollars + board
    skyscrapers) / 2 rounded up; then the winner. Toms by R24."""
    n = st["num_seats"]
    for seat in range(n):
        for k in range(NUM_SCORE_LINES):
            st["score_lines"][seat, k] = 0
        st["score_lines"][seat, SCORE_TRACK] = st["points"][seat]
        for k in range(NUM_END_GAME_CHARACTERS):
            st["end_character_points"][seat, k] = 0
        have = goods(st, seat)
        if st["is_tom"][seat] != 0:
            # R24: Tom's dollars go on his characters; end-game abilities give him nothing.
            points, have[SET_DOLLARS] = tom_character_points(st, seat)
            st["score_lines"][seat, SCORE_CHARACTERS] = points
        else:
            for tile in range(NUM_TILES):
                if st["tile_loc"][tile] == LOC_OWNED and st["tile_owner"][tile] == seat:
                    st["score_lines"][seat, SCORE_CHARACTERS] += TILE_VALUE[tile]
            st["score_lines"][seat, SCORE_END_CHARACTERS] = end_game_character_breakdown(
                st, seat, have, st["end_character_points"][seat])
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
