"""The replay viewer's data: a match's replay as frames (`arena.replay.frames`) from one seat's view or
omniscient, cached on this web server's own disk (`arena_site.objects.local_dir`) as gzip JSON so a viewer opens fast and a page costs no
re-simulation after the first time.

Hidden information: a seat's view is what that seat was shown (its observations, and the other seats' decisions
as far as the game makes them public: `arena.replay.frames`); the omniscient view is served only for a
finished match (a replay exists only then, but the rule is checked here rather than assumed)."""

from __future__ import annotations

import functools
import gzip
import json
import logging
import os
import random
from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from arena import games, narration, reasons
from arena import replay as replays
from arena.games import speech
from arena_site import objects
from matches.models import Match

# 3: a seat's view shows other seats' decisions as the game allows (State.redact_decision), not all-or-nothing
# 4: the payload carries the story (arena.narration: turns in words, scores by frame, chapters, final parts)
# 5: a faulted turn's story says the referee substituted the move (arena.narration)
# 9: the story is told in the page's language (arena.games.speech); the language is part of the cache key
# 7: frames say which turns the referee played for a seat out of the game (`substitute`); Minos names instead of
#    codes; `opponents`: the game's own opponents with their rank (Minos solo: Rhadamanthus)
# 10: `faults`: each faulted frame's fault told in the payload's language (arena.reasons)
CACHE_VERSION = 10


log = logging.getLogger("arena.platform")


class NoReplay(LookupError):
    """The match has no replay (not finished, or it failed before playing)."""


def parse_seat(value: str | None, players: int) -> int | None:
    """'all' (or nothing) → None (omniscient); '0'..'n-1' → that seat. ValueError otherwise."""
    if value in (None, "", "all"):
        return None
    seat = int(value)
    if not 0 <= seat < players:
        raise ValueError(f"seat {seat} is not a seat of this match (0..{players - 1})")
    return seat


def frames_gz(match: Match, seat: int | None, language: str = "en") -> bytes:
    """The gzip-compressed JSON payload for the viewer: header, seat names, result and frames, its story told in
    `language` (a code of settings.LANGUAGES: `arena.games.speech`)."""
    language = speech.language_code(language)
    if seat is None and match.status != Match.Status.FINISHED:
        raise PermissionError("the omniscient view is shown once the game is finished")
    if not objects.exists(match.replay_path):
        raise NoReplay("this match has no replay" + ("" if match.done else " yet: it is not finished"))
    cache = _cache_path(match, seat, language)
    try:
        if cache.stat().st_mtime >= objects.storage().get_modified_time(match.replay_path).timestamp():
            return cache.read_bytes()
    except FileNotFoundError:
        pass
    with objects.opened(match.replay_path) as source:
        replay = replays.load(source)  # type: ignore[arg-type]  # gzip reads a file object as well as a path
    data = _gz(payload(replay, seat, language))
    _keep(cache, data)
    return data


def payload(replay: dict[str, Any], seat: int | None, language: str = "en") -> dict[str, Any]:
    """The viewer's payload of a replay from `seat`'s view (None: omniscient): header, seat names, result,
    frames, story (told in `language`) and the game's own opponents."""
    frames = replays.frames(replay, seat)
    names = [s.get("name") or f"seat {s.get('seat', i) + 1}" for i, s in enumerate(replay["header"]["seats"])]
    # from the same (possibly redacted) frames: the story never says more than the view shows
    story = narration.story(replay["header"]["game"], frames, names, language)
    return {
        "faults": told_faults(frames, language),
        "header": replay["header"],
        "seats": replay["header"]["seats"],
        "seat": seat,
        "result": replay.get("result"),
        "frames": frames,
        "story": story,
        "opponents": opponents(replay["header"]["game"], len(replay["header"]["seats"]), replay.get("result"),
                               story.get("parts")),
    }


def told_faults(frames: list[dict[str, Any]], language: str) -> dict[str, dict[str, str]]:
    """The faults of `frames` told in `language` (arena.reasons), by frame index: the kind's name and the
    referee's message (the bot's own words in it as they are). The frames keep the message as recorded."""
    told = {}
    for i, frame in enumerate(frames):
        fault = frame.get("fault")
        if fault:
            told[str(i)] = {"kind": reasons.kind(fault.get("kind") or "", language),
                            "message": reasons.retell(fault.get("message") or "", language)}
    return told


def response(request: HttpRequest, data: bytes) -> HttpResponse:
    """The viewer's payload `data` (gzip-compressed JSON) as sent: as it is to a client that accepts gzip,
    decompressed to one that does not; it varies with the encoding and with the language its story is told in."""
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        resp = HttpResponse(data, content_type="application/json")
        resp["Content-Encoding"] = "gzip"
    else:
        resp = HttpResponse(gzip.decompress(data), content_type="application/json")
    resp["Vary"] = "Accept-Encoding, Accept-Language, Cookie"
    return resp


def _gz(doc: dict[str, Any]) -> bytes:
    return gzip.compress(json.dumps(doc, separators=(",", ":")).encode(), compresslevel=6, mtime=0)


EXAMPLE_SEED = 7
EXAMPLE_NAMES = ("Ann", "Ben")


@functools.lru_cache(maxsize=8)
def example_gz(game: str, language: str = "en") -> bytes:
    """The rules pages' pictures: the viewer's payload of one fixed 2-player game between the game's greedy
    in-process players (`arena.games.<game>.policies`), omniscient. Deterministic (fixed seed), made once per
    process: the pictures are drawn by the viewer's own renderers from it, so they look like a replay."""
    played = games.load(game, players=2)
    policy = games.policies(game).get("greedy") or games.policies(game)["random"]
    replay = replays.of_selfplay(played, EXAMPLE_SEED, [policy(), policy()],
                                 [random.Random(EXAMPLE_SEED), random.Random(EXAMPLE_SEED + 1)], list(EXAMPLE_NAMES))
    return _gz(payload(replay, None, speech.language_code(language)))


def _keep(cache: Path, data: bytes) -> None:
    """Cache `data` at `cache`, then hold the whole cache to ARENA_FRAMES_CACHE_MB (the oldest go first). A disk
    that is full or failing keeps nothing: the viewer is served all the same, uncached."""
    tmp = cache.with_name(cache.name + f".{os.getpid()}.part")
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        os.replace(tmp, cache)
    except OSError as exc:
        log.warning("the viewer's cache could not keep %s (%s): served uncached", cache.name, exc)
        tmp.unlink(missing_ok=True)
        return
    _bound(objects.local_dir() / "frames", int(settings.ARENA_FRAMES_CACHE_MB * 1024 * 1024))


def _bound(root: Path, limit: int) -> None:
    """Remove the oldest cached payloads (every cache version) until those left take at most `limit` bytes."""
    kept = []
    for path in root.rglob("*.json.gz"):
        try:
            stat = path.stat()
        except FileNotFoundError:  # another web process removed it
            continue
        kept.append((stat.st_mtime, stat.st_size, path))
    total = sum(size for _, size, _ in kept)
    for _, size, path in sorted(kept):
        if total <= limit:
            return
        path.unlink(missing_ok=True)
        total -= size


def _cache_path(match: Match, seat: int | None, language: str) -> Path:
    view = "all" if seat is None else f"seat{seat}"
    return (objects.local_dir() / "frames" / f"v{CACHE_VERSION}" / language / f"{match.pk // 1000:04d}"
            / f"{match.pk}.{view}.json.gz")


def opponents(game: str, players: int, result: dict[str, Any] | None,
              parts: list[dict[str, float]] | None = None) -> list[dict[str, Any]]:
    """The game's own opponents (`Game.engine_opponents`; Minos solo: Rhadamanthus) as the end screen and the
    seats table show them: `{"name", "rank", "score", "row"}`, `row` their score row after the seats (`parts`:
    the story's final parts, which hold their score; without them `score` is None). Their ranks are the ones the
    seats' ranks leave free, in order (`arena.match.ranking.final_ranks` ranks the seats around them), unless the
    result records them (`MatchResult.engine_opponents`, matches played since it exists): then as recorded."""
    recorded = (result or {}).get("engine_opponents") or []
    if recorded:
        return [{"name": o["name"], "rank": o.get("rank"), "score": o.get("score"), "row": players + k}
                for k, o in enumerate(recorded)]
    mod = narration.narrator(game)
    names = mod.opponent_names(players) if mod and hasattr(mod, "opponent_names") else []
    taken = {s.get("rank") for s in (result or {}).get("seats") or []}
    free = [r for r in range(1, players + len(names) + 1) if r not in taken]
    out = []
    for k, name in enumerate(names):
        row = players + k
        score = parts[row].get("total") if parts and row < len(parts) else None
        out.append({"name": name, "rank": free[k] if k < len(free) else None, "score": score, "row": row})
    return out
