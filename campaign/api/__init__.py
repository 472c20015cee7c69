"""The read-only JSON API for bots and clients, with personal access tokens."""
