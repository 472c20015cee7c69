"""Campaign views, split by concern: pages, orders, GM dashboard, seats."""
