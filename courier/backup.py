"""The Django side of bin/backup and bin/restore (read them first): what the site keeps
outside its database, the migration head of a database, and a new database to restore
into. Run as ``python -m courier.backup COMMAND …`` from the repository's root, with the
site's environment (DATABASE_URL and the rest: the settings say where the files are).

  heads                 each app's newest migration applied in DATABASE_URL's database,
                        one ``app name`` a line, sorted
  pack TAR              write the files kept outside the database into TAR, each place
                        under its name (outbox/, media/); a place that does not exist is left
                        out
  unpack TAR            put them back where this environment's settings keep them; a place
                        that already holds files is moved aside first, to
                        ``<place>.before-restore-<time>``, never overwritten
  new-database          create DATABASE_URL's database if the server has none of that
                        name; refuse (exit 1) if it has one that already holds tables
  libpq                 DATABASE_URL for pg_dump and pg_restore: a line with the address
                        without its password, then a line with the password (empty if
                        none), which the scripts pass in PGPASSWORD, never on a command line
"""

from __future__ import annotations

import os
import sys
import tarfile
from datetime import UTC, datetime
from pathlib import Path


def _django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "courier.settings")
    import django

    django.setup()


def places() -> dict[str, Path]:
    """The directories the site writes files into, by their name in the backup: the
    development outbox's mail (MAIL_OUTBOX_DIR) and uploaded files (MEDIA_ROOT), if set.
    Everything else it keeps is in the database."""
    from django.conf import settings

    found = {"outbox": Path(settings.MAIL_OUTBOX_DIR)}
    if settings.MEDIA_ROOT:
        found["media"] = Path(settings.MEDIA_ROOT)
    return found


def heads() -> list[tuple[str, str]]:
    """Each app's newest migration applied in the default database: an applied migration
    none of whose children of the same app (in the code's migration graph) is applied."""
    from django.db import connection
    from django.db.migrations.loader import MigrationLoader

    loader = MigrationLoader(connection)
    applied = set(loader.applied_migrations or {})
    graph = loader.graph

    def newer_applied(key: tuple[str, str]) -> bool:
        children = graph.node_map[key].children
        return any(child in applied and child[0] == key[0] for child in children)

    return sorted(key for key in applied if key in graph.nodes and not newer_applied(key))


def pack(target: Path) -> list[str]:
    """Write the places that exist into the tar file ``target``; their names."""
    packed = []
    with tarfile.open(target, "w") as tar:
        for name, path in places().items():
            if path.is_dir():
                tar.add(path, arcname=name)
                packed.append(name)
    return packed


def unpack(source: Path) -> list[str]:
    """Put each place of the tar file ``source`` back where the settings keep it; what a
    place held already is moved aside, never mixed with or overwritten. Their names."""
    where = places()
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    with tarfile.open(source) as tar:
        members = tar.getmembers()
        names = sorted({member.name.split("/", 1)[0] for member in members})
        unknown = [name for name in names if name not in where]
        if unknown:
            raise SystemExit(f"{source}: holds {', '.join(unknown)}, which this site does not keep")
        for name in names:
            path = where[name]
            if path.exists() and (not path.is_dir() or any(path.iterdir())):
                aside = path.with_name(f"{path.name}.before-restore-{stamp}")
                path.rename(aside)
                print(f"{path}: what it held was moved to {aside}", file=sys.stderr)
            path.mkdir(parents=True, exist_ok=True)
            inside = []
            for member in members:
                if member.name.split("/", 1)[0] != name or member.name == name:
                    continue
                member.name = member.name.split("/", 1)[1]
                inside.append(member)
            tar.extractall(path, members=inside, filter="data")
    return names


def new_database(url: str) -> bool:
    """Create the database ``url`` names unless the server has it (True: created).
    Refuse one that already holds tables: a restore goes into an empty database."""
    import psycopg
    from psycopg import sql
    from psycopg.conninfo import conninfo_to_dict

    name = conninfo_to_dict(url).get("dbname")
    if not name:
        raise SystemExit(f"{_shown(url)}: names no database")
    with _server(url) as server:
        exists = server.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            server.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            return True
    with psycopg.connect(url) as database:
        (tables,) = database.execute(
            "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S')"
            " AND n.nspname NOT IN ('pg_catalog', 'information_schema')"
            " AND n.nspname NOT LIKE 'pg_toast%'"
        ).fetchone()
    if tables:
        raise SystemExit(
            f"Database {name!r} already holds {tables} tables: restore into a new database"
            " (bin/restore creates it), or drop this one first."
        )
    return False


def _server(url: str):
    """A connection to the server of ``url`` (its maintenance database, ``postgres``, or
    ``template1`` where there is none), to create a database."""
    import psycopg
    from psycopg.conninfo import make_conninfo

    try:
        return psycopg.connect(make_conninfo(url, dbname="postgres"), autocommit=True)
    except psycopg.OperationalError:
        return psycopg.connect(make_conninfo(url, dbname="template1"), autocommit=True)


def libpq(url: str) -> tuple[str, str]:
    """``url`` as a libpq connection string without its password, and the password."""
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    parts = conninfo_to_dict(url)
    password = str(parts.pop("password", "") or "")
    return make_conninfo(**parts), password


def _shown(url: str) -> str:
    """The URL without its password, to be printed."""
    from psycopg.conninfo import conninfo_to_dict

    parts = conninfo_to_dict(url)
    return f"{parts.get('user', '')}@{parts.get('host', '')}/{parts.get('dbname', '')}"


def main(argv: list[str]) -> int:
    command, *args = argv or ["help"]
    if command == "new-database" and not args:
        print("created" if new_database(os.environ["DATABASE_URL"]) else "empty")
        return 0
    if command == "libpq" and not args:
        print(*libpq(os.environ["DATABASE_URL"]), sep="\n")
        return 0
    if command == "heads" and not args:
        _django()
        for app, name in heads():
            print(app, name)
        return 0
    if command in ("pack", "unpack") and len(args) == 1:
        _django()
        done = (pack if command == "pack" else unpack)(Path(args[0]))
        print(" ".join(done) or "nothing")
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
