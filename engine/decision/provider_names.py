"""The names of the autopilot's decision providers, spelled once.

``ProviderName`` is what the config file accepts; ``PROVIDERS`` (in that order) is what every
other surface offers: ``!autopilot provider``, its completion words, the console's ``agent``
command, ``mcagent sim --provider`` and the seat that builds a provider by name.
"""
from __future__ import annotations

from typing import Literal, get_args

ProviderName = Literal["mock", "api", "replay"]
PROVIDERS: tuple[str, ...] = get_args(ProviderName)
