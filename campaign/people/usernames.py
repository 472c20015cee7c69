"""User names that cannot pass for someone else's.

A new user name is NFKC-normalized (as Django's UsernameField already does) and refused
when it mixes Latin, Cyrillic and Greek letters ("frаnce" with a Cyrillic а), or when it
looks like or reads as a name already taken:

- ``looks_key``: how it looks. Upper-case look-alikes mapped first (Cyrillic Н is a Latin
  H, but its lower case н is not an h), then case folded, accents dropped, and lower-case
  look-alikes of Latin letters mapped (Cyrillic а о р с у х і ј ѕ, Greek ο ν ι κ ρ, the
  digits 0 and 1…): "frаnce", "FRANCE" and "Frànce" all look like "france".
- ``reads_key``: how it reads. Cyrillic and Greek letters transliterated to Latin ones,
  so "гм" reads as "gm" and "иван" as "ivan", though their letters look like none.

The tables are the common homoglyphs and transliterations of the site's three alphabets,
not all of Unicode's confusables (TR39): a name in another script is compared as it is,
case folded. A well-kept library of the whole TR39 table would add its data for little
more here: the names to protect are those the site's players use."""

from __future__ import annotations

import unicodedata

from django.contrib.auth import get_user_model

# Capital letters that look like a Latin capital (applied before case folding).
UPPER_LOOKALIKES = str.maketrans(
    {
        # Cyrillic
        "А": "a", "В": "b", "Е": "e", "К": "k", "М": "m", "Н": "h", "О": "o", "Р": "p",
        "С": "c", "Т": "t", "У": "y", "Х": "x", "І": "i", "Ј": "j", "Ѕ": "s", "Ү": "y",
        "Ԛ": "q", "Ԝ": "w", "Ӏ": "l",
        # Greek
        "Α": "a", "Β": "b", "Ε": "e", "Ζ": "z", "Η": "h", "Ι": "i", "Κ": "k", "Μ": "m",
        "Ν": "n", "Ο": "o", "Ρ": "p", "Τ": "t", "Υ": "y", "Χ": "x",
    }
)  # fmt: skip
# Small letters (after case folding) that look like a Latin small letter.
LOWER_LOOKALIKES = str.maketrans(
    {
        # Cyrillic
        "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i",
        "ј": "j", "ѕ": "s", "һ": "h", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ү": "y", "ь": "b",
        "г": "r", "п": "n",
        # Greek
        "α": "a", "ο": "o", "ν": "v", "ι": "i", "κ": "k", "ρ": "p", "υ": "u", "γ": "y",
        "χ": "x", "ς": "c",
        # Latin and digits
        "ı": "i", "ɑ": "a", "ɡ": "g", "0": "o", "1": "l",
    }
)  # fmt: skip
# Cyrillic and Greek small letters as they are written in Latin letters.
TRANSLITERATION = str.maketrans(
    {
        # Cyrillic (Russian, with the Ukrainian and Serbian letters that differ)
        "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ж": "zh", "з": "z",
        "и": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r",
        "с": "s", "т": "t", "у": "u", "ф": "f", "х": "h", "ц": "ts", "ч": "ch", "ш": "sh",
        "щ": "shch", "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "yu", "я": "ya", "і": "i",
        "є": "e", "ґ": "g", "ј": "j", "ѕ": "dz", "ђ": "dj", "ћ": "c", "љ": "lj", "њ": "nj",
        "џ": "dz",
        # Greek
        "α": "a", "β": "b", "γ": "g", "δ": "d", "ε": "e", "ζ": "z", "η": "i", "θ": "th",
        "ι": "i", "κ": "k", "λ": "l", "μ": "m", "ν": "n", "ξ": "x", "ο": "o", "π": "p",
        "ρ": "r", "σ": "s", "ς": "s", "τ": "t", "υ": "y", "φ": "f", "χ": "ch", "ψ": "ps",
        "ω": "o",
    }
)  # fmt: skip
CONFUSABLE_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")


def normalized(name: str) -> str:
    """The name as it is stored: NFKC (full-width letters, ligatures… made plain)."""
    return unicodedata.normalize("NFKC", name)


def _folded(name: str) -> str:
    """Case folded, accents and other combining marks dropped."""
    decomposed = unicodedata.normalize("NFD", normalized(name).casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def looks_key(name: str) -> str:
    """What the name looks like (two names with one key pass for each other)."""
    upper = unicodedata.normalize("NFD", normalized(name)).translate(UPPER_LOOKALIKES)
    return _folded(upper).translate(LOWER_LOOKALIKES)


def reads_key(name: str) -> str:
    """What the name reads as, in Latin letters."""
    return _folded(name).translate(TRANSLITERATION)


def scripts(name: str) -> set[str]:
    """The alphabets among Latin, Cyrillic and Greek whose letters the name uses."""
    found = set()
    for ch in normalized(name):
        if ch.isalpha():
            script = unicodedata.name(ch, "").split(" ", 1)[0]
            if script in CONFUSABLE_SCRIPTS:
                found.add(script)
    return found


def mixes_scripts(name: str) -> bool:
    return len(scripts(name)) > 1


def lookalike_taken(name: str, *, exclude_pk=None) -> bool:
    """Whether an account's user name looks like or reads as ``name`` (the same name in
    another case included). Every name is compared: a site of players has few enough."""
    looks, reads = looks_key(name), reads_key(name)
    names = get_user_model().objects.exclude(pk=exclude_pk).values_list("username", flat=True)
    return any(looks_key(other) == looks or reads_key(other) == reads for other in names.iterator())
