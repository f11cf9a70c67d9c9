"""Construction Yard's action codec: one flat table of every action id (docs/construction-yard.md).

Layout (NUM_ACTIONS = 32)::

    TAKE_MONEY    0..14   # + (bitmask of money display slots) - 1; bit k = slot k (rules: Take money)
    BUY          15..18   # + building display slot 0..3: start paying for it (rules: Buy one building card)
    PAY          19..27   # + value - 1: one more card of that value, in the slot's currency
    PAY_DONE         28   # finish the payment (once it covers the price)
    KEEP             29   # two players: keep the bought building
    GIVE_TO_DIRK     30   # two players: give it to Dirk
    PASS             31   # only when neither taking money nor buying is possible (ruling Y8)
"""

from ...core.checked import action_id, is_int
from .data import DISPLAY_SLOTS, MIN_VALUE, NUM_VALUES

NUM_SUBSETS = (1 << DISPLAY_SLOTS) - 1  # non-empty subsets of the money display
TAKE_MONEY = 0
BUY = TAKE_MONEY + NUM_SUBSETS
PAY = BUY + DISPLAY_SLOTS
PAY_DONE = PAY + NUM_VALUES
KEEP = PAY_DONE + 1
GIVE_TO_DIRK = KEEP + 1
PASS = GIVE_TO_DIRK + 1
NUM_ACTIONS = PASS + 1
# (kind name, first id, payload count)
ACTION_KINDS = (("take_money", TAKE_MONEY, NUM_SUBSETS), ("buy", BUY, DISPLAY_SLOTS),
                ("pay", PAY, NUM_VALUES), ("pay_done", PAY_DONE, 1), ("keep", KEEP, 1),
                ("give_to_dirk", GIVE_TO_DIRK, 1), ("pass", PASS, 1))


def encode(kind: str, payload: int = 0) -> int:
    """The action id of ``kind`` (a name of ACTION_KINDS) with ``payload``; ValueError otherwise.
    For "take_money" the payload is the slot bitmask 1..15, for "pay" the card value 1..9."""
    for name, first, count in ACTION_KINDS:
        if name == kind:
            index = payload - 1 if kind == "take_money" else payload - MIN_VALUE if kind == "pay" else payload
            if not is_int(payload) or not 0 <= index < count:
                raise ValueError(f"bad payload {payload!r} for {kind!r}")
            return first + index
    raise ValueError(f"unknown action kind {kind!r}; kinds: {[k[0] for k in ACTION_KINDS]}")


def decode(action: int) -> tuple[str, int]:
    """(kind, payload) of an action id, the inverse of ``encode``; ValueError outside 0..31."""
    action = action_id(action, NUM_ACTIONS)
    for name, first, count in ACTION_KINDS:
        if first <= action < first + count:
            index = action - first
            if name == "take_money":
                return name, index + 1
            if name == "pay":
                return name, index + MIN_VALUE
            return name, index
    raise AssertionError("unreachable: the kinds cover 0..NUM_ACTIONS-1")


def subset_slots(mask: int) -> list[int]:
    """The money display slots in a take-money bitmask."""
    return [k for k in range(DISPLAY_SLOTS) if mask >> k & 1]


def describe_action(action: int) -> str:
    """The action in words, e.g. ``'take money from slots 1+2'``."""
    kind, payload = decode(action)
    if kind == "take_money":
        return "take money from slot" + ("s " if payload & (payload - 1) else " ") + \
            "+".join(str(k + 1) for k in subset_slots(payload))
    if kind == "buy":
        return f"buy the building in slot {payload + 1}"
    if kind == "pay":
        return f"pay a {payload}"
    return {"pay_done": "finish the payment", "keep": "keep the building",
            "give_to_dirk": "give the building to Dirk", "pass": "pass"}[kind]


def action_names() -> list[str]:
    """``describe_action`` of every id, in id order."""
    return [describe_action(a) for a in range(NUM_ACTIONS)]
