"""Building skyscrapers (R16) and the borough bonus (R17)."""

from ...core.jit import jit
from .characters import free_skyscraper_bonus
from .components import BOROUGH_BONUS_FIRST, NUM_BOROUGHS
from .state import DEC_BUILD


@jit
def can_sell_into(st, seat, borough):
    """R16: ``seat`` has a skyscraper in a borough other than ``borough`` to move there."""
    for b in range(NUM_BOROUGHS):
        if b != borough and st["skyscrapers"][b, seat] > 0:
            return True
    return False


@jit
def start_building(st, seat, borough, count):
    """Build ``count`` skyscrapers from ``seat``'s board in ``borough`` (R16).

    Character 21 adds one skyscraper from the supply per tile, once per building action.
    Building from the board is compulsory while it has skyscrapers. For each one still to build
    with an empty board the player may sell (move) one of their own from another borough, or
    stop: that choice becomes a DEC_BUILD decision. Returns True when a decision is pending.
    """
    built = count
    if built > st["board_skyscrapers"][seat]:
        built = st["board_skyscrapers"][seat]
    st["board_skyscrapers"][seat] -= built
    st["skyscrapers"][borough, seat] += built
    # Character 21 adds its skyscraper with the first one built in this action (R16).
    st["build_bonus_due"] = 1 if built == 0 else 0
    if built > 0:
        free_skyscraper_bonus(st, seat, borough)
    left = count - built
    if left > 0 and can_sell_into(st, seat, borough):
        st["build_left"] = left
        st["build_borough"] = borough
        st["actor"] = seat
        st["decision"] = DEC_BUILD
        return True
    st["build_left"] = 0
    return False


@jit
def present_everywhere(st, seat):
    """True when ``seat`` has a skyscraper in all six boroughs (borough bonus)."""
    for b in range(NUM_BOROUGHS):
        if st["skyscrapers"][b, seat] == 0:
            return False
    return True


@jit
def check_borough_bonus(st):
    """R17: after a bidding round, the first participants present in all six boroughs gain 4
    points each and the Statue of Liberty tile is flipped."""
    if st["statue_flipped"] != 0:
        return
    for seat in range(st["num_seats"]):
        if present_everywhere(st, seat):
            st["points"][seat] += BOROUGH_BONUS_FIRST
            st["statue_flipped"] = 1
