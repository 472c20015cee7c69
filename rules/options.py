"""A campaign's rule options as the pure rules read them: the campaign's choice, else the
ruleset's default (the first choice of its OptionSpec). Pure: no Django."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Options = Mapping[str, Any] | None


def reader(defaults: Mapping[str, Any]) -> Callable[[Options, str], Any]:
    """``option(options, key)`` for a ruleset whose defaults are ``defaults``."""

    def option(options: Options, key: str) -> Any:
        """A campaign option: the campaign's choice, else the default (first) choice."""
        return (options or {}).get(key, defaults[key])

    return option
