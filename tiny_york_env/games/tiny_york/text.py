"""``render_text``: a plain-text view of a whole state (everything shown; for people and logs)."""

import numpy as np

from ...core.labels import count_noun
from .components import (
    BOROUGH_NAMES,
    CARD_NAMES,
    NEUTRAL,
    NUM_BOROUGHS,
    NUM_CARD_TYPES,
    NUM_GAME_ROUNDS,
    NUM_PRESTIGE_TILES,
    NUM_TILE_VALUES,
    NUM_TILES,
    NUM_VESSELS,
    SEQUENCE_LETTERS,
    TOM_MODES,
    VESSEL_ENDS,
    VESSEL_KIND,
    VESSEL_KIND_NAMES,
)
from .labels import prestige_label, seat_label, tile_label
from .state import (
    DEC_GAME_OVER,
    DECISION_NAMES,
    EMPTY,
    LOC_OWNED,
    NUM_SCORE_LINES,
    STACK_REVEALED,
    STAGE_BID_END,
    STAGE_BID_START,
    STAGE_BIDDING,
    STAGE_DECLARE_BID_LAST,
    STAGE_EVALUATE,
    STAGE_GAME_OVER,
    STAGE_NAMES,
    STAGE_PHASE0,
    STAGE_PHASE1,
    STAGE_PHASE3,
    STAGE_RETURN_CARDS,
    STAGE_ROUND_END,
    STAGE_START_CHARACTERS,
    STATE_DTYPE,
    VESSEL_ON_BOARD,
)

ROUND_TYPES = 6
SCORE_COLUMN = 8  # the final scoring's columns: "seat 3" and a gap
# Stages during which the header names the bidding round.
BIDDING_STAGE_NAMES = tuple(STAGE_NAMES[s] for s in (STAGE_BID_START, STAGE_DECLARE_BID_LAST,
                                                      STAGE_BIDDING, STAGE_EVALUATE))
# The rulebook's phases of a round ("Phase 0 - Prepare the game round", "Phase I", "Phase II - 6
# bidding rounds", "Phase III") by the engine's stage: what ``phase_text`` names.
PHASE_OF_STAGE = {STAGE_START_CHARACTERS: "setup", STAGE_PHASE0: "phase 0", STAGE_PHASE1: "phase I",
                  STAGE_BID_START: "phase II", STAGE_BIDDING: "phase II", STAGE_EVALUATE: "phase II",
                  STAGE_BID_END: "phase II", STAGE_RETURN_CARDS: "phase II",
                  STAGE_DECLARE_BID_LAST: "phase II", STAGE_PHASE3: "phase III",
                  STAGE_ROUND_END: "round end", STAGE_GAME_OVER: "game over"}


def _rec(state):
    if not isinstance(state, np.ndarray) or state.dtype != STATE_DTYPE or state.size != 1:
        raise ValueError("render_text takes one game state as returned by new_game")
    return state.reshape(1)[0]


def _cards(counts):
    parts = [f"{CARD_NAMES[t]} {int(counts[t])}" for t in range(NUM_CARD_TYPES) if counts[t] > 0]
    return ", ".join(parts) if parts else "-"


def _press_lines(rec):
    n = int(rec["num_seats"])
    tokens = list(range(n)) + [NEUTRAL]
    tokens.sort(key=lambda t: (-int(rec["press_space"][t]), -int(rec["press_height"][t])))
    by_space = {}
    for t in tokens:
        by_space.setdefault(int(rec["press_space"][t]), []).append(seat_label(t))
    return "Press track (top of stack first): " + "; ".join(
        f"{space}: {', '.join(labels)}" for space, labels in by_space.items())


def _board_lines(rec):
    n = int(rec["num_seats"])
    lines = []
    for b in range(NUM_BOROUGHS):
        value = int(rec["borough_base"][b] + rec["borough_prestige"][b])
        placed = [prestige_label(t) for t in range(NUM_PRESTIGE_TILES) if rec["prestige_loc"][t] == b]
        sky = ", ".join(f"{seat_label(s)}: {int(rec['skyscrapers'][b, s])}" for s in [*range(n), NEUTRAL])
        mayor = "  <- Mayor" if rec["mayor"] == b else ""
        lines.append(f"  {BOROUGH_NAMES[b]:<14}{SEQUENCE_LETTERS[rec['borough_sequence'][b]]}  "
                     f"value {value:>2} (base {int(rec['borough_base'][b])}"
                     f"{' + ' + ', '.join(placed) if placed else ''})  "
                     f"{sky}{mayor}")
    return lines


def _private_cards(rec, seat, viewer):
    """Hand and reserve as ``viewer`` may see them (R25: their contents are their owner's alone,
    except the reserve's face-up cards of character 3, which everyone sees)."""
    faceup = rec["reserve_faceup"][seat]
    shown = f"; face up: {_cards(faceup)}" if faceup.sum() > 0 else ""
    if viewer is None or viewer == seat:
        return _cards(rec["hand"][seat]), _cards(rec["reserve"][seat]) + shown
    return count_noun(int(rec["hand"][seat].sum()), "card"), "hidden" + shown


def _seat_lines(rec, seat, viewer=None):
    if rec["is_tom"][seat]:
        return _tom_lines(rec, seat, viewer)
    hand, reserve = _private_cards(rec, seat, viewer)
    kind = "agent"
    chars = []
    for tile in range(NUM_TILES):
        if rec["tile_loc"][tile] == LOC_OWNED and rec["tile_owner"][tile] == seat:
            mark = ("[used $]" if rec["tile_dollar"][tile] else "[used]") if rec["tile_used"][tile] else ""
            chars.append(tile_label(tile) + mark)
    vessels = [VESSEL_KIND_NAMES[VESSEL_KIND[v]] for v in range(NUM_VESSELS)
               if rec["vessel_owner"][v] == seat]
    return [
        f"{seat_label(seat)} ({kind}): points {int(rec['points'][seat])}, "
        f"dollars {int(rec['dollars'][seat])}, board skyscrapers {int(rec['board_skyscrapers'][seat])}, "
        f"press space {int(rec['press_space'][seat])}, vessels {', '.join(vessels) or '-'}",
        f"    hand: {hand}  |  reserve ({int(rec['reserve_size'][seat])}): "
        f"{reserve}  |  played: {_cards(rec['played'][seat])}",
        f"    characters: {' '.join(chars) or '-'}",
    ]


def _tom_lines(rec, seat, viewer=None):
    """Tom: level and code, supply size (its contents are his alone), dollars, characters."""
    size = int(rec["hand"][seat].sum())
    supply = count_noun(size, "card") + ("" if viewer is not None else f" ({_cards(rec['hand'][seat])})")
    code = f"{TOM_MODES[rec['tom_mode'][seat]]}{int(rec['tom_draw'][seat])}"
    level = int(rec["tom_level"][seat])
    name = f"Tom {level} ({code})" if level else f"Tom ({code})"
    chars = [tile_label(t) for t in range(NUM_TILES)
             if rec["tile_loc"][t] == LOC_OWNED and rec["tile_owner"][t] == seat]
    vessels = [VESSEL_KIND_NAMES[VESSEL_KIND[v]] for v in range(NUM_VESSELS)
               if rec["vessel_owner"][v] == seat]
    return [
        f"{seat_label(seat)} ({name}): points {int(rec['points'][seat])}, "
        f"dollars {int(rec['dollars'][seat])}, press space {int(rec['press_space'][seat])}, "
        f"vessels {', '.join(vessels) or '-'}",
        f"    supply: {supply}  |  "
        f"played: {_cards(rec['played'][seat])}",
        f"    characters: {' '.join(chars) or '-'}",
    ]


def _elevator_line(rec):
    rows = []
    for row in range(NUM_TILE_VALUES):
        tiles = [f"{col}:{tile_label(t)}" for col, t in enumerate(rec["elevator_display"][row])
                 if t != EMPTY]
        rows.append(f"  value {row + 1} ({int(rec['elevator_count'][row])} in stack): "
                    + (" ".join(tiles) or "-"))
    return rows


def _header(rec):
    rnd = int(rec["round"])
    stage = STAGE_NAMES[int(rec["stage"])]
    if rnd == 0:
        head = "Tiny York - setup, start characters"
    else:
        head = f"Tiny York - round {min(rnd, NUM_GAME_ROUNDS)}/{NUM_GAME_ROUNDS}, {stage}"
    if 0 <= int(rec["bid_round"]) < ROUND_TYPES and stage in BIDDING_STAGE_NAMES:
        head += f", bidding round {int(rec['bid_round']) + 1} ({CARD_NAMES[rec['bid_round']]})"
    statue = "won" if rec["statue_flipped"] else "4 points, not yet won"
    return [head, f"Statue of Liberty: {statue}.  Draw pile {int(rec['draw_count'])}, "
                  f"discard {int(rec['discard'].sum())}"]


def phase_text(state: np.ndarray) -> str:
    """The round and the rulebook's phase of it ('round 2/5, phase II'; 'setup', 'game over'):
    the terminal game shows the whole board when it changes."""
    rec = _rec(state)
    phase = PHASE_OF_STAGE[int(rec["stage"])]
    if rec["round"] == 0 or rec["stage"] == STAGE_GAME_OVER:
        return phase
    return f"round {min(int(rec['round']), NUM_GAME_ROUNDS)}/{NUM_GAME_ROUNDS}, {phase}"


def _score_lines(rec):
    from .api import score_line_names  # local: api imports this module's neighbours
    names = score_line_names()
    n = int(rec["num_seats"])
    width = max(len(x) for x in names)
    heads = "".join(f"{seat_label(s):>{SCORE_COLUMN}}" for s in range(n))
    lines = ["Final scoring:", " " * (width + 2) + heads]
    for k in range(NUM_SCORE_LINES):
        lines.append(f"  {names[k]:<{width}}" + "".join(
            f"{int(rec['score_lines'][s, k]):>{SCORE_COLUMN}}" for s in range(n)))
    totals = rec["score_lines"][:n].sum(axis=1)
    lines.append(f"  {'total':<{width}}" + "".join(f"{int(t):>{SCORE_COLUMN}}" for t in totals))
    lines.append(f"Winner: {seat_label(int(rec['winner']))}")
    return lines


def render_text(state: np.ndarray, viewer: int | None = None) -> str:
    """The state as text: board, tracks, displays, every participant, the pending decision; with a
    ``viewer`` seat, other hands and reserves and Toms' supplies show only their sizes (R25)."""
    rec = _rec(state)
    n = int(rec["num_seats"])
    lines = _header(rec) + ["Boroughs:"] + _board_lines(rec) + [_press_lines(rec)]
    revealed = [f"{k}: {prestige_label(t)}" for k, t in enumerate(rec["prestige_revealed"])
                if t != EMPTY]
    lines.append(f"Prestige tiles revealed: {', '.join(revealed) or '-'}")
    vessels = [f"{VESSEL_KIND_NAMES[VESSEL_KIND[v]]} {v} "
               f"({BOROUGH_NAMES[VESSEL_ENDS[v, 0]]}-{BOROUGH_NAMES[VESSEL_ENDS[v, 1]]})"
               for v in range(NUM_VESSELS) if rec["vessel_owner"][v] == VESSEL_ON_BOARD]
    lines.append(f"Vessels on the board: {', '.join(vessels) or '-'}")
    lines.append("Elevator display:")
    lines += _elevator_line(rec)
    stacks = [f"{k}: {tile_label(r0)} + {tile_label(r1)}"
              for k, (r0, r1) in enumerate(rec["start_stacks"])
              if rec["start_stack_status"][k] == STACK_REVEALED]
    if stacks and rec["stage"] == STAGE_START_CHARACTERS:
        lines.append("Start-character stacks: " + "; ".join(stacks))
    pairs = [f"{p}: {CARD_NAMES[a] if a != EMPTY else '-'} + {CARD_NAMES[b] if b != EMPTY else '-'}"
             for p, (a, b) in enumerate(rec["pairs"][: int(rec["num_pairs"])])
             if a != EMPTY or b != EMPTY]
    if pairs:
        lines.append("Card pairs: " + "; ".join(pairs))
    for seat in range(n):
        lines += _seat_lines(rec, seat, viewer)
    if rec["decision"] == DEC_GAME_OVER:
        lines += _score_lines(rec)
    else:
        lines.append(f"To move: {seat_label(int(rec['actor']))} - {DECISION_NAMES[rec['decision']]}")
    return "\n".join(lines)
