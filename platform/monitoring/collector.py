"""The site's Prometheus metrics, read from the database and the broker when Prometheus scrapes.

Why at scrape time and not with counters incremented where things happen: matches run in Celery workers
(several processes, several machines) and `/metrics` is served by a web process; the database already holds
every fact exactly once, so reading it is exact across processes with nothing to share or reset on restart.
Every metric is a few indexed aggregate queries (`collect` makes five, plus one broker round trip).

Totals over all recorded matches (matches ended, match and decision durations, faults) only grow while
matches are kept, so they are exposed as counters and histograms: `rate()` and `histogram_quantile()` work
on them as on counters incremented in process.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import timedelta

from django.db import connection
from django.db.models import Count, DurationField, ExpressionWrapper, F, FloatField, Q, Sum
from django.db.models.lookups import LessThanOrEqual
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

# Upper bounds in seconds. A match lasts seconds to minutes; a bot's mean decision takes milliseconds to its
# time control (a few seconds).
MATCH_BUCKETS = (1.0, 5.0, 15.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0)
DECISION_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


def _histogram(name: str, doc: str, count: int, total: float, cumulative: Iterable[tuple[float, int]]
               ) -> HistogramMetricFamily:
    buckets = [(repr(le), n) for le, n in cumulative] + [("+Inf", count)]
    return HistogramMetricFamily(name, doc, buckets=buckets, sum_value=total)


def match_states() -> Iterator[Metric]:
    """Matches by status and kind (one GROUP BY), and the ended ones as counters."""
    from matches.models import Match

    states = GaugeMetricFamily("arena_matches", "Matches by status and kind, now.", labels=["status", "kind"])
    ended = CounterMetricFamily("arena_matches_ended", "Matches that ended, by how (finished, failed, cancelled).",
                                labels=["status", "kind"])
    seen = {(s, k): 0 for s in Match.Status.values for k in Match.Kind.values}
    for row in Match.objects.order_by().values("status", "kind").annotate(n=Count("id")):
        seen[(row["status"], row["kind"])] = row["n"]
    for (status, kind), n in sorted(seen.items()):
        states.add_metric([status, kind], n)
        if status in (Match.Status.FINISHED, Match.Status.FAILED, Match.Status.CANCELLED):
            ended.add_metric([status, kind], n)
    yield states
    yield ended


def match_durations() -> HistogramMetricFamily:
    """From claim (`started_at`) to the recorded result (`finished_at`) of every finished match: one query."""
    from matches.models import Match

    duration = ExpressionWrapper(F("finished_at") - F("started_at"), output_field=DurationField())
    played = Match.objects.filter(status=Match.Status.FINISHED, started_at__isnull=False,
                                  finished_at__isnull=False).order_by().alias(duration=duration)
    counts = played.aggregate(
        n=Count("id"), total=Sum(duration),
        **{f"le{i}": Count("id", filter=Q(duration__lte=timedelta(seconds=le))) for i, le in enumerate(MATCH_BUCKETS)})
    total = counts["total"] or timedelta(0)
    return _histogram("arena_match_duration_seconds", "How long finished matches ran, claim to result.",
                      counts["n"], total.total_seconds(),
                      [(le, counts[f"le{i}"]) for i, le in enumerate(MATCH_BUCKETS)])


def decision_durations() -> Iterator[Metric]:
    """Each seat of a finished match contributes its mean time per decision (`time_ms / decisions`, the referee
    records no single decision's time); the decision and thinking-time totals come with it: one query."""
    from matches.models import Match, Participant

    # float8 / integer is float8 in PostgreSQL; a bound multiplied in SQL would be numeric (8x slower)
    seat_mean = ExpressionWrapper(F("time_ms") / F("decisions"), output_field=FloatField())
    seats = Participant.objects.filter(match__status=Match.Status.FINISHED, decisions__gt=0).order_by()
    counts = seats.aggregate(
        n=Count("id"), all_decisions=Sum("decisions"), all_ms=Sum("time_ms"), mean_ms=Sum(seat_mean),
        **{f"le{i}": Count("id", filter=LessThanOrEqual(seat_mean, le * 1000.0))
           for i, le in enumerate(DECISION_BUCKETS)})
    mean_sum = (counts["mean_ms"] or 0.0) / 1000.0
    yield _histogram("arena_decision_duration_seconds",
                     "A seat's mean time per decision, over the seats of finished matches.",
                     counts["n"], mean_sum, [(le, counts[f"le{i}"]) for i, le in enumerate(DECISION_BUCKETS)])
    decisions = CounterMetricFamily("arena_decisions", "Decisions bots made in finished matches.")
    decisions.add_metric([], counts["all_decisions"] or 0)
    yield decisions
    thinking = CounterMetricFamily("arena_decision_seconds", "Time bots spent deciding in finished matches.")
    thinking.add_metric([], (counts["all_ms"] or 0.0) / 1000.0)
    yield thinking


def faults_by_kind() -> CounterMetricFamily:
    """Every fault the referee recorded on a seat (`Participant.faults`, a JSON list of {kind, ...}), by kind,
    counted by the database (one query: PostgreSQL's jsonb_array_elements, SQLite's json_each)."""
    from matches.models import Participant

    table = connection.ops.quote_name(Participant._meta.db_table)
    if connection.vendor == "postgresql":
        sql = (f"SELECT f.value->>'kind', COUNT(*) FROM {table} p "
               "CROSS JOIN LATERAL jsonb_array_elements(p.faults) f WHERE jsonb_typeof(p.faults) = 'array' "
               "AND p.faults <> '[]'::jsonb GROUP BY 1")
    else:
        sql = (f"SELECT json_extract(f.value, '$.kind'), COUNT(*) FROM {table} p, json_each(p.faults) f "
               "WHERE json_type(p.faults) = 'array' AND p.faults <> '[]' GROUP BY 1")
    faults = CounterMetricFamily("arena_faults", "Faults the referee recorded on bots, by kind.", labels=["kind"])
    with connection.cursor() as cursor:
        cursor.execute(sql)
        for kind, n in sorted(cursor.fetchall(), key=lambda row: str(row[0])):
            faults.add_metric([str(kind) if kind is not None else "unknown"], n)
    return faults


def validation_outcomes() -> GaugeMetricFamily:
    """Bot versions by status (pending, validating, ready, failed, suspended): one GROUP BY."""
    from botregistry.models import BotVersion

    versions = GaugeMetricFamily("arena_bot_versions", "Bot versions by validation status, now.", labels=["status"])
    seen = dict.fromkeys(BotVersion.Status.values, 0)
    for row in BotVersion.objects.order_by().values("status").annotate(n=Count("id")):
        seen[row["status"]] = row["n"]
    for status, n in sorted(seen.items()):
        versions.add_metric([status], n)
    return versions


def broker_queue() -> Iterator[Metric]:
    """Task messages waiting in the broker's queue (`matches.services.waiting_messages`); `arena_broker_up`
    is 0 when the broker could not say."""
    from matches.services import waiting_messages

    waiting = waiting_messages()
    up = GaugeMetricFamily("arena_broker_up", "1 if the broker answered the queue-length question.")
    up.add_metric([], 0 if waiting is None else 1)
    yield up
    if waiting is not None:
        queue = GaugeMetricFamily("arena_queue_messages", "Task messages waiting in the broker's queue.")
        queue.add_metric([], waiting)
        yield queue


def dependencies() -> Iterator[Metric]:
    """What stalls or pauses the platform: the shared cache unreachable (`arena_site.cache`), the working folder's
    free space, replays waiting in the database because storage refused them, and ladder matchmaking paused for
    either (`matches.storage.storage_low`). One count query and one bounded cache round trip."""
    from django.core.cache import cache

    from arena_site.cache import unreachable_since
    from matches.models import Match
    from matches.storage import free_megabytes, storage_low

    cache.get("arena-metrics-probe")  # bounded (the cache's socket timeouts); answers from memory when Redis fails
    up = GaugeMetricFamily("arena_cache_up", "1 if the shared cache (Redis) answered this process.")
    up.add_metric([], 0 if unreachable_since() is not None else 1)
    yield up
    free = free_megabytes()
    if free is not None:
        disk = GaugeMetricFamily("arena_storage_free_bytes", "Free space of this process's working folder.")
        disk.add_metric([], free * 1024 * 1024)
        yield disk
    unwritten = GaugeMetricFamily("arena_unwritten_replays",
                                  "Finished matches whose replay waits in the database because storage refused it.")
    unwritten.add_metric([], Match.objects.filter(unwritten_replay__isnull=False).count())
    yield unwritten
    paused = GaugeMetricFamily("arena_matchmaking_paused", "1 while ladder matchmaking is paused for storage.")
    paused.add_metric([], 1 if storage_low() else 0)
    yield paused


class ArenaCollector(Collector):
    """All of the above; registered on a registry of its own by `monitoring.views` (never the process-global
    one, so importing this module twice or in a worker registers nothing)."""

    def collect(self) -> Iterable[Metric]:
        yield from match_states()
        yield match_durations()
        yield from decision_durations()
        yield faults_by_kind()
        yield validation_outcomes()
        yield from broker_queue()
        yield from dependencies()
