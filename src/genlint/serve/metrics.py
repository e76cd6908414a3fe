"""Prometheus metrics for ``genlint serve`` (``GET /metrics``), when ``prometheus-client`` is
installed (the ``serve`` extra brings it). Counts never carry a value: labels are the route, the
status code and the gate's status."""

from __future__ import annotations

from typing import Any


class Metrics:
    """Per-application registry (two apps in one process never share counters)."""

    def __init__(self) -> None:
        from prometheus_client import CollectorRegistry, Counter, Histogram

        self.registry = CollectorRegistry()
        self.requests = Counter(
            "genlint_requests", "HTTP requests served", ["route", "status"], registry=self.registry
        )
        self.seconds = Histogram(
            "genlint_request_seconds", "Time to answer a request", ["route"],
            registry=self.registry,
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120),
        )  # fmt: skip
        self.gate = Counter(
            "genlint_gate_runs", "Chat completions by the gate's outcome", ["status"],
            registry=self.registry,
        )  # fmt: skip
        self.attempts = Counter(
            "genlint_gate_attempts", "Content attempts sent upstream", registry=self.registry
        )
        self.masked = Counter(
            "genlint_masked_values", "Personal-data values masked before the upstream",
            registry=self.registry,
        )  # fmt: skip

    def observe(self, route: str, status: int, seconds: float) -> None:
        self.requests.labels(route, str(status)).inc()
        self.seconds.labels(route).observe(seconds)

    def gate_run(self, summary: dict[str, Any]) -> None:
        self.gate.labels(str(summary.get("status"))).inc()
        self.attempts.inc(int(summary.get("attempts") or 0))
        self.masked.inc(sum(int(n) for n in (summary.get("masked") or {}).values()))

    def render(self) -> tuple[bytes, str]:
        """The counts in Prometheus' text format: this process's, or with several workers
        (``PROMETHEUS_MULTIPROC_DIR``, set by ``genlint serve --workers``) all workers' summed."""
        import os

        from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

        registry = self.registry
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            from prometheus_client import multiprocess

            registry = CollectorRegistry()
            multiprocess.MultiProcessCollector(registry)
        return generate_latest(registry), CONTENT_TYPE_LATEST


def make_metrics() -> Metrics | None:
    """Metrics, or None without prometheus-client (``/metrics`` then answers 404)."""
    try:
        return Metrics()
    except ImportError:
        return None
