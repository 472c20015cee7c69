"""What the press pages read: a page of a channel's messages (or of every channel the
seat reads), and the newest of them."""

from __future__ import annotations

from django.core.paginator import Page, Paginator

from campaign.models import Message, Seat
from campaign.press import press


def message_page(seat: Seat, address: press.Address | None, number: int | None) -> Page:
    """Page ``number`` of the messages, newest first (the first page for None, the last
    for one past it or below 1, as Paginator.get_page reads it)."""
    return Paginator(press.messages(seat, address), press.PAGE_SIZE).get_page(number)


def newest_messages(seat: Seat, address: press.Address | None) -> list[Message]:
    """The first page of the messages, newest first."""
    return list(press.messages(seat, address)[: press.PAGE_SIZE])
