"""``makemessages`` that also extracts the log's sentences: the msgids of rules/text.py's
``Text("…")`` and ``Plural("…", "…", count=…)``."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=Text",
        "--keyword=Plural:1,2",
    ]
