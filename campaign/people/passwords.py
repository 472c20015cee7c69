"""The site's own password list check, beside Django's four validators (settings'
AUTH_PASSWORD_VALIDATORS, whose CommonPasswordValidator refuses the 20,000 most common
passwords). It refuses what an attacker tries first on this site in particular:

- the demo's published password (`bin/demo` prints it; campaign/management/commands/demo.py);
- the site's name, as the whole password once case, digits and punctuation are set aside
  ("courier", "Courier123", "2026-COURIER!");
- a season or a month with a year ("Summer2026", "june-1815", "2026winter");
- fewer than MIN_DISTINCT different characters ("zzzzzzzzz", "abababab").

Each refusal says which rule the password broke, never what the list holds."""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

SITE_NAME = "courier"
MIN_DISTINCT = 4
_SEASONS = "spring|summer|autumn|fall|winter"
_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
_WORD = f"(?:{_SEASONS}|{_MONTHS})"
_YEAR = r"(?:\d{2}|\d{4})"
_SEP = r"[\W_]*"
SEASON_AND_YEAR = re.compile(
    rf"{_SEP}(?:{_WORD}{_SEP}{_YEAR}|{_YEAR}{_SEP}{_WORD}){_SEP}", re.IGNORECASE
)


def _demo_password() -> str:
    from campaign.management.commands.demo import PASSWORD

    return PASSWORD


class SitePasswordValidator:
    """Refuses the demo's password, the site's name, a season or month with a year, and
    a password of fewer than MIN_DISTINCT different characters (see the module)."""

    def validate(self, password: str, user=None) -> None:
        folded = password.casefold()
        if folded == _demo_password().casefold():
            raise ValidationError(
                gettext("This password is the demo's, which anyone can read. Choose another."),
                code="password_demo",
            )
        if re.sub(r"[\W\d_]", "", folded) == SITE_NAME:
            raise ValidationError(
                gettext("This password is the site's name. Choose another."),
                code="password_site_name",
            )
        if SEASON_AND_YEAR.fullmatch(password):
            raise ValidationError(
                gettext(
                    "This password is a season or a month with a year, which is among the "
                    "first guesses. Choose another."
                ),
                code="password_season",
            )
        if len(set(folded)) < MIN_DISTINCT:
            raise ValidationError(
                gettext("This password repeats too few characters. Choose another."),
                code="password_repeated",
            )

    def get_help_text(self) -> str:
        return gettext(
            "Your password can’t be the site’s name or the demo’s password, a season or "
            "month with a year, or repeat only a few characters."
        )
