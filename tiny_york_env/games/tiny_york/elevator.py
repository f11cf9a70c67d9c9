"""Character tiles: the elevator display and stacks (setup step 3, R14) and the start stacks."""

from ...core.jit import jit
from ...core.rng import randbelow
from .components import ELEVATOR_COLUMNS, NUM_TILE_VALUES, NUM_TILES, TILE_IS_START, TILE_VALUE
from .state import EMPTY, LOC_DISPLAY, LOC_ELEVATOR_STACK, LOC_OWNED, LOC_REMOVED, NO_SEAT


@jit
def shuffle_elevator_stacks(st):
    """Setup step 3: dark tiles in five shuffled stacks by value, top four of each revealed."""
    for row in range(NUM_TILE_VALUES):
        n = 0
        for tile in range(NUM_TILES):
            if TILE_IS_START[tile] == 0 and TILE_VALUE[tile] == row + 1:
                st["elevator_stack"][row, n] = tile
                st["tile_loc"][tile] = LOC_ELEVATOR_STACK
                st["tile_owner"][tile] = NO_SEAT
                n += 1
        for i in range(n - 1, 0, -1):
            j = randbelow(st["rng"], i + 1)
            tmp = st["elevator_stack"][row, i]
            st["elevator_stack"][row, i] = st["elevator_stack"][row, j]
            st["elevator_stack"][row, j] = tmp
        st["elevator_count"][row] = n
        for i in range(n, st["elevator_stack"].shape[1]):
            st["elevator_stack"][row, i] = EMPTY
        for col in range(ELEVATOR_COLUMNS):
            st["elevator_display"][row, col] = EMPTY
            refill_display_slot(st, row, col)


@jit
def refill_display_slot(st, row, col):
    """Put the top tile of row ``row``'s stack in display slot ``col`` (R14), if any is left."""
    n = st["elevator_count"][row]
    if n == 0:
        st["elevator_display"][row, col] = EMPTY
        return
    tile = st["elevator_stack"][row, n - 1]
    st["elevator_stack"][row, n - 1] = EMPTY
    st["elevator_count"][row] = n - 1
    st["elevator_display"][row, col] = tile
    st["tile_loc"][tile] = LOC_DISPLAY


@jit
def give_tile(st, tile, seat):
    """``seat`` now owns character ``tile`` (placed above the player board)."""
    st["tile_loc"][tile] = LOC_OWNED
    st["tile_owner"][tile] = seat
    st["tile_used"][tile] = 0
    st["tile_dollar"][tile] = 0


@jit
def remove_tile(st, tile):
    """Return character ``tile`` to the box (leftover start stacks)."""
    st["tile_loc"][tile] = LOC_REMOVED
    st["tile_owner"][tile] = NO_SEAT


@jit
def take_from_display(st, seat, slot):
    """``seat`` takes the tile in display ``slot``; the gap is refilled from that value's stack."""
    row = slot // ELEVATOR_COLUMNS
    col = slot % ELEVATOR_COLUMNS
    tile = st["elevator_display"][row, col]
    give_tile(st, tile, seat)
    refill_display_slot(st, row, col)


@jit
def display_has_tile_up_to(st, value):
    """True when the display shows a tile of value <= ``value``."""
    top = value
    if top > NUM_TILE_VALUES:
        top = NUM_TILE_VALUES
    for row in range(top):
        for col in range(ELEVATOR_COLUMNS):
            if st["elevator_display"][row, col] != EMPTY:
                return True
    return False
