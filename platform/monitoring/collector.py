"""The site's Prometheus metrics, read from the database and the broker when Prometheus scrapes.

Why at scrape time and not with counters incremented where things happen: matches run in Celery workers
(several processes, several machines) and `/metrics` is served by a web process; the database already holds
every fact exactly once, so reading it is exact across processes with nothing to share or reset on restart.
Every metric is a few indexed aggregate queries plus one broker round trip. The totals over finished matches
(durations, decisions, faults) would be full scans of every match and seat (2.7-3.9 s at 100,000 matches): the
share of matches finished SEAL_AFTER_SECONDS ago or more is added up once, kept in the shared cache, and extended
by the matches finished since (`finished_totals`), so a scrape reads only the newest matches.

Totals over all recorded matches (matches ended, match and decision durations, faults) only grow while
matches are kept, so they are exposed as counters and histograms: `rate()` and `histogram_quantile()` work
on them as on counters incremented in process.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import connection
from django.db.models import Count, DurationField, ExpressionWrapper, F, FloatField, Q, Sum
from django.db.models.lookups import LessThanOrEqual
from django.utils import timezone
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


def match_states(totals: Totals) -> Iterator[Metric]:
    """Matches by status and kind: the ended ones from the totals (`finished_totals`), also as counters; queued
    and running ones counted now (one GROUP BY over the few rows the status index finds)."""
    from matches.models import Match

    states = GaugeMetricFamily("arena_matches", "Matches by status and kind, now.", labels=["status", "kind"])
    ended = CounterMetricFamily("arena_matches_ended", "Matches that ended, by how (finished, failed, cancelled).",
                                labels=["status", "kind"])
    seen = {(s, k): 0 for s in Match.Status.values for k in Match.Kind.values}
    seen.update(totals.ended)
    live = Match.objects.order_by().filter(status__in=[Match.Status.QUEUED, Match.Status.RUNNING])
    for row in live.values("status", "kind").annotate(n=Count("id")):
        seen[(row["status"], row["kind"])] = row["n"]
    for (status, kind), n in sorted(seen.items()):
        states.add_metric([status, kind], n)
        if status in ENDED:
            ended.add_metric([status, kind], n)
    yield states
    yield ended


#: A match that finished longer ago than this is "sealed": its row and its seats no longer change, so its share of
#: the totals is added once and kept (`Totals`), and each scrape reads only the matches finished since.
SEAL_AFTER_SECONDS = 300
_SEALED_KEY = "arena-metrics-sealed-v2"
ENDED = ("finished", "failed", "cancelled")  # Match.Status values of the matches that ended


@dataclass
class Totals:
    """The sums behind the histograms and counters over finished matches (added up, never recomputed)."""

    matches: int = 0
    match_seconds: float = 0.0
    match_le: list[int] = field(default_factory=lambda: [0] * len(MATCH_BUCKETS))
    seats: int = 0
    decisions: int = 0
    decision_ms: float = 0.0
    mean_ms: float = 0.0
    seat_le: list[int] = field(default_factory=lambda: [0] * len(DECISION_BUCKETS))
    faults: dict[str, int] = field(default_factory=dict)
    ended: dict[tuple[str, str], int] = field(default_factory=dict)  # (status, kind) of the matches that ended

    def __add__(self, other: Totals) -> Totals:
        faults = dict(self.faults)
        for kind, n in other.faults.items():
            faults[kind] = faults.get(kind, 0) + n
        ended = dict(self.ended)
        for key, n in other.ended.items():
            ended[key] = ended.get(key, 0) + n
        return Totals(self.matches + other.matches, self.match_seconds + other.match_seconds,
                      [a + b for a, b in zip(self.match_le, other.match_le, strict=True)],
                      self.seats + other.seats, self.decisions + other.decisions,
                      self.decision_ms + other.decision_ms, self.mean_ms + other.mean_ms,
                      [a + b for a, b in zip(self.seat_le, other.seat_le, strict=True)], faults, ended)


def _window(prefix: str, since: datetime | None, until: datetime | None) -> Q:
    """Matches that ended (`finished_at`, set whichever way a match ends) in [since, until)."""
    window = Q(**{f"{prefix}finished_at__isnull": False})
    if since is not None:
        window &= Q(**{f"{prefix}finished_at__gte": since})
    if until is not None:
        window &= Q(**{f"{prefix}finished_at__lt": until})
    return window


def totals_between(since: datetime | None, until: datetime | None) -> Totals:
    """The totals of the matches that ended in [since, until) (open ends: None): four aggregate queries that the
    index on `finished_at` narrows to those matches. (A seat's faults are recorded when its match ends.)"""
    from matches.models import Match, Participant

    window, seat_window = _window("", since, until), _window("match__", since, until)
    out = Totals()
    for row in (Match.objects.filter(window, status__in=ENDED).order_by().values("status", "kind")
                .annotate(n=Count("id"))):
        out.ended[(row["status"], row["kind"])] = row["n"]

    # claim (`started_at`) to the recorded result (`finished_at`) of every finished match
    duration = ExpressionWrapper(F("finished_at") - F("started_at"), output_field=DurationField())
    played = Match.objects.filter(window, status=Match.Status.FINISHED, started_at__isnull=False,
                                  finished_at__isnull=False).order_by().alias(duration=duration)
    counts = played.aggregate(
        n=Count("id"), total=Sum(duration),
        **{f"le{i}": Count("id", filter=Q(duration__lte=timedelta(seconds=le))) for i, le in enumerate(MATCH_BUCKETS)})
    out.matches, out.match_seconds = counts["n"], (counts["total"] or timedelta(0)).total_seconds()
    out.match_le = [counts[f"le{i}"] for i in range(len(MATCH_BUCKETS))]

    # each seat of a finished match: its mean time per decision (the referee records no single decision's time);
    # float8 / integer is float8 in PostgreSQL, a bound multiplied in SQL would be numeric (8x slower)
    seat_mean = ExpressionWrapper(F("time_ms") / F("decisions"), output_field=FloatField())
    seats = Participant.objects.filter(seat_window, match__status=Match.Status.FINISHED, decisions__gt=0).order_by()
    counts = seats.aggregate(
        n=Count("id"), all_decisions=Sum("decisions"), all_ms=Sum("time_ms"), mean_ms=Sum(seat_mean),
        **{f"le{i}": Count("id", filter=LessThanOrEqual(seat_mean, le * 1000.0))
           for i, le in enumerate(DECISION_BUCKETS)})
    out.seats, out.decisions = counts["n"], counts["all_decisions"] or 0
    out.decision_ms, out.mean_ms = counts["all_ms"] or 0.0, counts["mean_ms"] or 0.0
    out.seat_le = [counts[f"le{i}"] for i in range(len(DECISION_BUCKETS))]

    # every fault the referee recorded on a seat (a JSON list of {kind, ...}), by kind, counted by the database
    # (PostgreSQL's jsonb_array_elements, SQLite's json_each) over the seats of the window's matches
    seat_table = connection.ops.quote_name(Participant._meta.db_table)
    match_table = connection.ops.quote_name(Match._meta.db_table)
    where, params = ["m.finished_at IS NOT NULL"], []
    if since is not None:
        where.append("m.finished_at >= %s")
        params.append(since)
    if until is not None:
        where.append("m.finished_at < %s")
        params.append(until)
    window_sql = " AND ".join(where)
    if connection.vendor == "postgresql":
        sql = (f"SELECT f.value->>'kind', COUNT(*) FROM {match_table} m JOIN {seat_table} p ON p.match_id = m.id "
               "CROSS JOIN LATERAL jsonb_array_elements(p.faults) f WHERE jsonb_typeof(p.faults) = 'array' "
               f"AND p.faults <> '[]'::jsonb AND {window_sql} GROUP BY 1")
    else:
        sql = (f"SELECT json_extract(f.value, '$.kind'), COUNT(*) FROM {match_table} m JOIN {seat_table} p "
               "ON p.match_id = m.id, json_each(p.faults) f WHERE json_type(p.faults) = 'array' "
               f"AND p.faults <> '[]' AND {window_sql} GROUP BY 1")
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for kind, n in cursor.fetchall():
            out.faults[str(kind) if kind is not None else "unknown"] = n
    return out


_sealed_here: dict[str, tuple[datetime, Totals]] = {}  # this process's copy, for when the shared cache fails


def finished_totals(now: datetime | None = None) -> Totals:
    """The totals over every finished match: those sealed (finished SEAL_AFTER_SECONDS ago or more) kept in the
    shared cache and this process, extended by the matches sealed since the last scrape, plus the few finished
    since the seal, read at each scrape. Exact: a match's row is final long before it is sealed (its ending
    commits within its short recording transaction). The first scrape after the cache is emptied reads everything
    once."""
    from django.core.cache import cache

    seal = (now or timezone.now()) - timedelta(seconds=SEAL_AFTER_SECONDS)
    key = f"{_SEALED_KEY}:{connection.settings_dict['NAME']}"  # another database's totals are not these
    kept = cache.get(key) or _sealed_here.get(key)
    if isinstance(kept, tuple) and len(kept) == 2 and isinstance(kept[1], Totals):
        sealed_at, sealed = kept
        if sealed_at > seal:  # sealed by a process whose clock runs ahead: its seal is as good
            return sealed + totals_between(sealed_at, None)
        sealed = sealed + totals_between(sealed_at, seal)
    else:
        sealed = totals_between(None, seal)
    _sealed_here[key] = (seal, sealed)
    cache.set(key, (seal, sealed), timeout=None)
    return sealed + totals_between(seal, None)


def finished_metrics(totals: Totals) -> Iterator[Metric]:
    """The histograms and counters over finished matches."""
    yield _histogram("arena_match_duration_seconds", "How long finished matches ran, claim to result.",
                     totals.matches, totals.match_seconds, zip(MATCH_BUCKETS, totals.match_le, strict=True))
    yield _histogram("arena_decision_duration_seconds",
                     "A seat's mean time per decision, over the seats of finished matches.",
                     totals.seats, totals.mean_ms / 1000.0, zip(DECISION_BUCKETS, totals.seat_le, strict=True))
    decisions = CounterMetricFamily("arena_decisions", "Decisions bots made in finished matches.")
    decisions.add_metric([], totals.decisions)
    yield decisions
    thinking = CounterMetricFamily("arena_decision_seconds", "Time bots spent deciding in finished matches.")
    thinking.add_metric([], totals.decision_ms / 1000.0)
    yield thinking
    faults = CounterMetricFamily("arena_faults", "Faults the referee recorded on bots, by kind.", labels=["kind"])
    for kind, n in sorted(totals.faults.items()):
        faults.add_metric([kind], n)
    yield faults


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
    from arena_site.disk_reports import recent

    workers = GaugeMetricFamily("arena_worker_free_bytes", "Free space of each worker machine's working folder, as "
                                "reported in the last 10 minutes.", labels=["machine", "folder"])
    for machine, folder, free_mb in recent():
        workers.add_metric([machine, folder], free_mb * 1024 * 1024)
    yield workers
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
        totals = finished_totals()
        yield from match_states(totals)
        yield from finished_metrics(totals)
        yield validation_outcomes()
        yield from broker_queue()
        yield from dependencies()
