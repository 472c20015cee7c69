"""Answers by mail: a reply to a mail that invited one, handed over by the sending
service's inbound webhook or by `manage.py receive_mail`."""

from __future__ import annotations


def receive(raw: bytes, *, envelope_sender: str | None = None, envelope_recipient: str = "") -> str:
    """Act on one received mail (RFC 5322 bytes); returns what was done, in a word."""
    raise NotImplementedError
