"""How a run was played, for its result file: its UTC start day, the package version, the machine."""

from __future__ import annotations

import datetime
import os
import platform
from pathlib import Path

from tiny_york_env import __version__

RUN_PROVENANCE_KEYS = ("played_on", "version", "machine")


def machine_description() -> str:
    """The machine a run plays on: the CPU model where the system names it, the cores, the Python
    version."""
    model = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        names = [line.split(":", 1)[1].strip() for line in cpuinfo.read_text(errors="replace").splitlines()
                 if line.startswith("model name")]
        model = names[0] if names else model
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}"


def run_provenance() -> dict[str, str]:
    """``RUN_PROVENANCE_KEYS`` of a run starting now."""
    played_on = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    return dict(zip(RUN_PROVENANCE_KEYS, (played_on, __version__, machine_description()), strict=True))
