"""Named parts of a flat vector (an observation, a global state): ``(name, size, words)`` rows."""


def part_slices(parts: tuple) -> tuple[dict[str, slice], int]:
    """({name: slice}, total size) of a parts table, in its order."""
    slices, start = {}, 0
    for name, size, _ in parts:
        slices[name] = slice(start, start + size)
        start += size
    return slices, start
