"""Create the benchmark's PostgreSQL database if it does not exist (bench/run calls it).

python bench/database.py        # DATABASE_URL, else postgres://postgres@127.0.0.1:5432/courier_bench
"""

from __future__ import annotations

import os
import sys
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql

DEFAULT = "postgres://postgres@127.0.0.1:5432/courier_bench"


def main() -> None:
    url = os.environ.get("DATABASE_URL", DEFAULT)
    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql"):
        sys.exit(f"bench/ measures PostgreSQL: DATABASE_URL is {parts.scheme}://…")
    name = parts.path.lstrip("/")
    maintenance = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
    with psycopg.connect(maintenance, autocommit=True) as connection:
        exists = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [name]
        ).fetchone()
        if exists:
            print(f"Database {name} exists.")
        else:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            print(f"Database {name} created.")
        version = connection.execute("SHOW server_version").fetchone()[0]
        print(f"PostgreSQL {version} at {parts.hostname}:{parts.port or 5432}")


if __name__ == "__main__":
    main()
