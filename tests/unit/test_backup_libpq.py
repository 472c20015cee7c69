"""bin/backup and bin/restore pass the database's password to pg_dump and pg_restore in
PGPASSWORD, never on a command line that any user of the machine can read
(courier/backup.py ``libpq``)."""

from psycopg.conninfo import conninfo_to_dict

from courier.backup import libpq


def test_the_password_leaves_the_address_and_comes_apart():
    conninfo, password = libpq("postgres://courier:s%40cret%20x@db.example:5433/courier_live")
    assert password == "s@cret x"
    assert "cret" not in conninfo
    assert conninfo_to_dict(conninfo) == {
        "user": "courier",
        "host": "db.example",
        "port": "5433",
        "dbname": "courier_live",
    }


def test_an_address_without_a_password_gives_an_empty_one():
    conninfo, password = libpq("postgres://postgres@127.0.0.1:5432/courier")
    assert password == ""
    assert conninfo_to_dict(conninfo)["dbname"] == "courier"
