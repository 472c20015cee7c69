"""docker-compose.yml runs Courier as tests/reliability/test_two_nodes.py shows it works:
two web replicas behind one proxy (deploy/nginx.conf), two task workers, one clock, and
the migrations run once, by a service the others wait for, never by each web replica."""

from __future__ import annotations

from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def services() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]


def replicas(service: dict) -> int:
    return service.get("deploy", {}).get("replicas", 1)


def waits_for_the_migrations(service: dict) -> bool:
    return service["depends_on"]["migrate"]["condition"] == "service_completed_successfully"


def test_two_web_replicas_without_a_host_port_that_do_not_migrate(services):
    web = services["web"]
    assert replicas(web) == 2
    assert "ports" not in web  # two replicas cannot publish one port: the proxy does
    assert "migrate" not in web["command"]
    assert waits_for_the_migrations(web)


def test_the_migrations_run_once_before_anything_else(services):
    migrate = services["migrate"]
    assert migrate["command"].split()[-2:] == ["migrate", "--noinput"]
    assert replicas(migrate) == 1
    assert migrate.get("restart", "no") == "no"
    assert migrate["depends_on"]["db"]["condition"] == "service_healthy"
    assert migrate["environment"] == services["web"]["environment"]  # the same database


def test_two_workers_and_one_clock(services):
    assert replicas(services["worker"]) == 2
    assert "db_worker" in services["worker"]["command"]
    assert replicas(services["clock"]) == 1
    assert services["clock"]["command"].split()[-1] == "clock"
    assert [name for name, s in services.items() if "clock" in str(s.get("command"))] == ["clock"]
    assert waits_for_the_migrations(services["worker"])
    assert waits_for_the_migrations(services["clock"])


def test_the_proxy_publishes_the_port_and_forwards_to_the_replicas(services):
    proxy = services["proxy"]
    assert proxy["image"].startswith("nginx:") and proxy["image"].endswith("alpine")
    assert proxy["ports"] == ["8000:80"]
    assert proxy["depends_on"]["web"]["condition"] == "service_healthy"
    assert "./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro" in proxy["volumes"]
    published = [name for name, s in services.items() if s.get("ports")]
    assert published == ["proxy"]
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "set $web http://web:8000;" in conf and "proxy_pass $web;" in conf
    assert "resolver 127.0.0.11" in conf  # Docker's DNS: every replica, asked again
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in conf
    assert "proxy_set_header X-Forwarded-Proto $forwarded_proto;" in conf
    # the app reads those headers only behind as many proxies as it is told
    assert services["web"]["environment"]["COURIER_TRUSTED_PROXIES"].endswith(":-1}")
