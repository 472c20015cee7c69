"""What the pages read: plain functions of the campaign, phase, seat or user they are
given, each returning rows or a queryset, one module per kind of page. The views call
them instead of building queries (tests/unit/test_views_hold_no_queries.py)."""
