"""`manage.py receive_mail`: act on one mail read on standard input, as an MTA's pipe
hands it over (for instance Postfix's ``pipe`` transport with ``${sender}`` and
``${recipient}``), through campaign/jobs/mail_replies.py. It exits 0 once the mail is acted on
or refused (a refusal is answered by mail, or dropped), so that the MTA sends no bounce;
and 75 (EX_TEMPFAIL) when it could not act on it (the database down, say), so that the
MTA keeps the mail and hands it over again later."""

from __future__ import annotations

import logging
import sys

from django.core.management.base import BaseCommand

from campaign.jobs import mail_replies

TRY_AGAIN_LATER = 75  # EX_TEMPFAIL (sysexits.h): an MTA defers the mail and retries


class Command(BaseCommand):
    help = "Act on one RFC 5322 mail read on standard input (an answer to a Courier mail)."

    def add_arguments(self, parser):
        parser.add_argument("--sender", default=None, help="The envelope sender (MAIL FROM).")
        parser.add_argument("--recipient", default="", help="The envelope recipient (RCPT TO).")

    def handle(self, *args, sender=None, recipient="", **options):
        raw = sys.stdin.buffer.read()
        try:
            outcome = mail_replies.receive(
                raw, envelope_sender=sender, envelope_recipient=recipient
            )
        except Exception:
            logging.getLogger(__name__).exception("Mail not acted on: to be handed over again")
            sys.exit(TRY_AGAIN_LATER)
        self.stdout.write(outcome)
