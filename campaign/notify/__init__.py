"""Who hears what, and how it reaches them: the notices of a phase opened or resolved
and the reminders before a deadline, every mail written (outgoing) and its reply and
unsubscribe tokens, an order form as plain text for mail, the campaign's webhook in its
chat's format, Web Push, and their delivery by the worker (with the development outbox).
It reads core but knows nothing of play, press or people, which call it."""
