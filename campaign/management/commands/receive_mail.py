"""`manage.py receive_mail`: act on one mail read on standard input, as an MTA's pipe
hands it over (for instance Postfix's ``pipe`` transport with ``${sender}`` and
``${recipient}``), through campaign/mail_replies.py. It always exits 0 once the mail is
read, so that the MTA sends no bounce: a refusal is answered by mail, or dropped."""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand

from campaign import mail_replies


class Command(BaseCommand):
    help = "Act on one RFC 5322 mail read on standard input (an answer to a Courier mail)."

    def add_arguments(self, parser):
        parser.add_argument("--sender", default=None, help="The envelope sender (MAIL FROM).")
        parser.add_argument("--recipient", default="", help="The envelope recipient (RCPT TO).")

    def handle(self, *args, sender=None, recipient="", **options):
        raw = sys.stdin.buffer.read()
        outcome = mail_replies.receive(raw, envelope_sender=sender, envelope_recipient=recipient)
        self.stdout.write(outcome)
