"""The random generator kept inside the state record (its ``rng`` field): Marsaglia's
xorshift128 over four 32-bit words.

Words are 32-bit values held in int64, and every operation keeps intermediate values below
2**63, so compiled and plain-Python runs produce the same numbers without overflow.
"""

from .jit import jit

MASK32 = 0xFFFFFFFF
LOW16 = 0xFFFF
GOLDEN32 = 0x9E3779B9
MIX_MUL_1 = 0x7FEB352D
MIX_MUL_2 = 0x846CA68B


@jit
def mul32(a, b):
    """(a * b) mod 2**32 for 32-bit a, b, computed in 16-bit halves to stay inside int64."""
    low = a * (b & LOW16)
    high = ((a * (b >> 16)) & LOW16) << 16
    return (low + high) & MASK32


@jit
def mix32(x):
    """A 32-bit integer hash (lowbias32), used to spread a seed over the generator's words."""
    x ^= x >> 16
    x = mul32(x, MIX_MUL_1)
    x ^= x >> 15
    x = mul32(x, MIX_MUL_2)
    x ^= x >> 16
    return x


@jit
def seed_rng(words, seed):
    """Seed a 4-word generator (the record's ``rng`` field) from a non-negative integer below 2**63."""
    low = seed & MASK32
    high = (seed >> 32) & MASK32
    total = 0
    for k in range(4):
        word = mix32(low ^ mix32((high + (k + 1) * GOLDEN32) & MASK32))
        words[k] = word
        total += word
    if total == 0:
        words[0] = 1


@jit
def next32(words):
    """The next 32-bit output of generator ``words``."""
    x = words[0]
    t = x ^ ((x << 11) & MASK32)
    words[0] = words[1]
    words[1] = words[2]
    w = words[3]
    words[2] = w
    w = w ^ (w >> 19) ^ (t ^ (t >> 8))
    words[3] = w
    return w


@jit
def randbelow(words, n):
    """A uniform integer in [0, n) for 0 < n < 2**31, from generator ``words``."""
    return (next32(words) * n) >> 32
