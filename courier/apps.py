from django.apps import AppConfig


class CourierConfig(AppConfig):
    """The site itself as an app: what every process (the web app, the task worker, the
    clock) watches of itself, connected once the models are loaded."""

    name = "courier"
    verbose_name = "Courier"

    def ready(self) -> None:
        """The request id carried into tasks and their log lines (courier/request_id.py),
        and the metrics of the queries, the cache and the worker (courier/metrics.py)."""
        from courier import metrics, request_id

        request_id.connect()
        metrics.install()
