"""How the arena names its players in results: a name spelt one way, a factory by its label."""

from __future__ import annotations

from collections.abc import Iterable

from ..agents.registry import AgentSpec, normalize_agent_name


def agent_label(spec: AgentSpec) -> str:
    """A short name for a player given by name (spelt one way: ``'Champion@2.0'`` is
    ``'champion@2'``, so equal settings label alike) or by factory."""
    if isinstance(spec, str):
        try:
            return normalize_agent_name(spec)
        except ValueError:  # not a player's name: checked (and refused) elsewhere
            return spec
    return getattr(spec, "label", None) or getattr(spec, "__name__", None) or repr(spec)


def unique_labels(specs: Iterable[AgentSpec]) -> list[str]:
    """Labels for ``specs``, with ``#2``, ``#3``... added where a label repeats."""
    labels: list[str] = []
    seen: dict[str, int] = {}
    for spec in specs:
        base = agent_label(spec)
        seen[base] = seen.get(base, 0) + 1
        labels.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    return labels
