"""Reasons a person reads: why a bot failed its check, what a fault was, why a seat was disqualified, told in the
reader's language.

A `Reason` is a code and its parameters (`Reason("check.game_not_listed", {"game": "thebes"})`), never a
sentence: the referee and the check produce reasons, and whoever shows one renders it (`render`) in the language
of the person reading, through the arena's gettext catalogs (`arena.games.speech`; no Django here). The English
text of each code (`TEMPLATES`) is the catalogs' source text and also the form reasons were stored and recorded
in before codes existed (replays' fault messages, old validation reasons): `parse` recognises such a text, so it
is told in the reader's language too, and `retell` tells any stored text (as it was when it is no known phrase).

Parameters are identifiers, numbers or the bot's own words (an answer, a gRPC detail), shown as they are; a
parameter that is itself a known phrase (how a process ended, the clock's account) is told in the language too.
"""

from __future__ import annotations

import contextvars
import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from arena.games import speech
from arena.games.speech import N_, _

#: every code and its English text (a %-format with named parameters), most specific first where two could match
TEMPLATES: dict[str, str] = {
    # the bot check (arena.botcheck): one fixed phrase per kind of problem, safe to show anyone
    "check.archive_unpack": N_("the archive could not be unpacked"),
    "check.manifest_invalid": N_("bot.toml is invalid"),
    "check.no_game_here": N_("bot.toml lists no game played here"),
    "check.game_not_listed": N_("bot.toml does not list the game %(game)s"),
    "check.build_refused": N_("the build's output was refused"),
    "check.build_timed_out": N_("the build timed out"),
    "check.build_failed": N_("the build failed"),
    "check.build_changed_manifest": N_("the build changed bot.toml"),
    "check.command": N_("the command in bot.toml cannot be started"),
    "check.startup": N_("the bot did not get ready in the smoke match"),
    "check.timeout": N_("the bot answered too late in the smoke match"),
    "check.crash": N_("the bot crashed in the smoke match"),
    "check.illegal": N_("the bot answered illegal actions in the smoke match"),
    "check.malformed": N_("the bot answered malformed answers in the smoke match"),
    "check.faulted": N_("the bot faulted in the smoke match"),
    "check.disqualified": N_("the bot was disqualified in the smoke match"),
    "check.failed": N_("the bot failed its check"),
    # the platform's validation around the check (platform/botregistry)
    "validation.manifest_changed": N_("bot.toml changed after the upload"),
    "validation.package_refused": N_("the built package cannot be run: %(detail)s"),
    "validation.host_trouble": N_("validation could not run on this server; use \"validate again\" on the bot's "
                                  "page later"),
    "validation.host_trouble_before": N_("validation could not run on this server; please upload again later"),
    # faults the referee records (arena.match): answers
    "fault.decision_timeout": N_("no answer within %(decision_ms)s ms + %(bank_ms)s ms of bank on the bot's clock "
                                 "(%(clock)s)%(late)s"),
    "fault.person_timeout": N_("no answer within %(decision_ms)s ms + %(bank_ms)s ms of bank"),
    "fault.still_answering": N_("; your bot was perhaps still answering turn %(turn)s (decision %(decision)s, which "
                                "timed out) when turn %(next)s was asked: a timed-out answer is thrown away, so stop "
                                "computing it (or serve calls concurrently)"),
    "fault.call_timeout": N_("no answer to %(method)s within %(ms)s ms"),
    "fault.stopped_serving": N_("stopped serving during %(method)s (%(detail)s)"),
    "fault.connection_lost": N_("connection lost"),
    "fault.too_large": N_("answer to %(method)s too large (limit %(limit)s bytes): %(detail)s"),
    "fault.unimplemented": N_("the bot does not implement Bot.%(method)s of arena.v1"),
    "fault.not_a_message": N_("answer to %(method)s is not a valid %(method)sResponse message"),
    "fault.call_failed": N_("%(method)s failed with %(code)s: %(detail)s"),
    "fault.index_out_of_range": N_("answered index %(index)s, but there are only %(count)s legal actions "
                                   "(0..%(last)s)"),
    "fault.not_legal": N_("answered %(answer)s, which is not the text of a legal action (legal are e.g. "
                          "%(examples)s)"),
    "fault.no_choice": N_("answered without a choice: set DecideResponse.index (or .text)"),
    # faults at the start
    "fault.wrong_game": N_("bot.toml lists games %(games)s, not %(game)s"),
    "fault.could_not_start": N_("could not start %(command)s: %(error)s"),
    "fault.foreign_socket": N_("the bot does not serve its own socket: %(error)s"),
    "fault.ended_before_serving": N_("the bot %(ended)s before serving on its socket"),
    "fault.no_socket": N_("the bot did not open its socket $ARENA_SOCKET within %(ms)s ms (%(clock)s)"),
    "fault.start_failed_ended": N_("StartMatch failed: %(error)s; the bot %(ended)s"),
    "fault.start_failed": N_("StartMatch failed: %(error)s"),
    "fault.ended": N_("the bot %(ended)s"),
    # the bot's clock (arena.match.botclock) and how a process ended (arena.sandbox.process)
    "clock.account": N_("%(charged)s ms charged: %(cpu)s ms of CPU, %(wall)s ms of wall time of which %(starved)s ms "
                        "waiting for a CPU"),
    "exit.code": N_("exited with code %(code)s"),
    "exit.zero": N_("exited by itself with code 0"),
    "exit.cpu_budget": N_("CPU budget exceeded: used %(used)s s of CPU, the match allows %(allowed)s s"),
    "exit.oom": N_("killed by the OOM killer (memory limit %(mb)s MB)"),
    "exit.stopped": N_("stopped by the referee"),
    "exit.cpu_limit": N_("CPU time limit exceeded (%(seconds)s s per process, SIGXCPU)"),
    "exit.file_limit": N_("file size limit exceeded (%(mb)s MB per file, SIGXFSZ)"),
    "exit.sigkill": N_("killed (SIGKILL)"),
    "exit.sigsegv": N_("crashed with a segmentation fault (SIGSEGV)"),
    "exit.sigabrt": N_("aborted (SIGABRT)"),
    "exit.sigbus": N_("crashed with a bus error (SIGBUS)"),
    "exit.sigfpe": N_("crashed with an arithmetic error (SIGFPE)"),
    "exit.sigill": N_("crashed with an illegal instruction (SIGILL)"),
    "exit.sigterm": N_("terminated (SIGTERM)"),
    "exit.sigpipe": N_("killed by a broken pipe (SIGPIPE)"),
    "exit.signal": N_("killed by %(signal)s"),
    # why a seat was disqualified (arena.match.referee)
    "disqualified.wrong_game": N_("cannot play this game"),
    "disqualified.never_started": N_("never started"),
    "disqualified.foreign_socket": N_("served from outside its sandbox"),
    "disqualified.never_served": N_("never served"),
    "disqualified.start_failed": N_("could not start the match"),
    "disqualified.crashed": N_("crashed"),
    "disqualified.faults": N_("more than %(faults)s faults"),
    "disqualified.broken_package": N_("broken bot package"),
    "disqualified.resigned": N_("resigned"),
    # a person gave up their seat (arena.match.person)
    "resigned.person": N_("the person resigned"),
    # why the platform suspended a version (platform/matches/suspension.py)
    "suspension.faulted": N_("faulted in %(bad)s of its last %(recent)s matches (%(kinds)s); the faults are shown on "
                             "those matches' pages, most recent match %(match)s (/matches/%(match)s/). Upload a fixed "
                             "version, or resume this one from the bot's page if the faults were not the bot's doing."),
    "suspension.crash": N_("crashed in %(matches)s"),
    "suspension.timeout": N_("timed out in %(matches)s"),
    "suspension.startup": N_("failed to start in %(matches)s"),
    "suspension.disqualified": N_("was disqualified in %(matches)s"),
    # why a bot was retired (platform/botregistry/ownership.py)
    "retired.team_deleted": N_("its team was deleted"),
    "retired.team_empty": N_("its team has no members left"),
    "retired.owner_deleted": N_("its owner deleted their account"),
    "retired.staff": N_("staff retired it"),
    # a version's status inside a reason (BotVersion.Status's values)
    "status.pending": N_("pending"),
    "status.validating": N_("validating"),
    "status.ready": N_("ready"),
    "status.failed": N_("failed"),
    "status.suspended": N_("suspended"),
    # why a tournament entry forfeits (platform/tournaments/services.py)
    "forfeit.retired": N_("forfeit: the bot was retired (%(why)s)"),
    "forfeit.no_version": N_("forfeit: the bot had no version when the tournament started"),
    "forfeit.version_at_start_why": N_("forfeit: version %(number)s was %(status)s when the tournament started: "
                                       "%(why)s"),
    "forfeit.version_at_start": N_("forfeit: version %(number)s was %(status)s when the tournament started"),
    "forfeit.version_why": N_("forfeit: version %(number)s was %(status)s: %(why)s"),
    "forfeit.version": N_("forfeit: version %(number)s was %(status)s"),
    "tournament.too_few": N_("only %(entries)s entries for %(players)s-player tables"),
    "tournament.knockout": N_("knockout is played by 2 players per table"),
    "tournament.other_game": N_("entries for another game than %(game)s: %(bots)s"),
    "tournament.staff": N_("cancelled by staff"),
    # why a competition was cancelled (platform/competitions/services.py)
    "competition.final_not_started": N_("the final could not start: %(why)s"),
    "competition.final_cancelled": N_("the final was cancelled: %(why)s"),
    # why a version test ended (platform/versiontests/services.py), and what became of version B
    "versiontest.decided": N_("LLR %(llr)s reached the %(bound)s bound (%(limit)s after the overshoot correction) "
                              "after %(pairs)s pairs"),
    "versiontest.upper": N_("upper"),
    "versiontest.lower": N_("lower"),
    "versiontest.promoted": N_("version %(number)s promoted to active"),
    "versiontest.already_active": N_("version %(number)s was already active"),
    "versiontest.not_promoted": N_("version %(number)s not promoted: it is %(status)s"),
    "versiontest.max_pairs": N_("no decision after the maximum of %(pairs)s pairs"),
    "versiontest.void_pairs": N_("%(pairs)s pairs lost to failed matches"),
    "versiontest.no_opponents": N_("no opponents left on the ladder"),
    "versiontest.owner": N_("stopped by its owner"),
    "versiontest.owner_deleted": N_("stopped: its owner deleted their account"),
    # why a match failed, was cancelled or queued again (platform/matches/services.py)
    "match.gave_up": N_("gave up after %(attempts)s attempts: the worker running it stopped each time (last: "
                        "%(worker)s)"),
    "match.void_given_up": N_("%(reason)s (void %(times)s times: given up)"),
    "match.queued_again": N_("queued again after %(reason)s"),
    "match.owner_deleted": N_("cancelled: a bot's owner deleted their account"),
    "suspension.package": N_("suspended: its package cannot be run on Arena's workers (%(detail)s). Upload a "
                             "fixed version to play again."),
}

#: the names of the kinds of fault (arena.match.types.FaultKind's values), as a reader sees them
KINDS: dict[str, str] = {
    "startup": N_("startup"),
    "timeout": N_("timeout"),
    "crash": N_("crash"),
    "illegal": N_("illegal action"),
    "malformed": N_("malformed answer"),
    "disqualified": N_("disqualified"),
    "resigned": N_("resigned"),
}

#: how reasons are joined in one sentence ("; "; Chinese "；"); lists of items as `speech.listed` lists them
_JOIN_REASONS = N_("%(first)s; %(next)s")


@dataclass(frozen=True)
class Reason:
    """A reason by its code (a key of TEMPLATES) and parameters (strings or numbers)."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __hash__(self) -> int:
        return hash((self.code, tuple(sorted((k, str(v)) for k, v in self.params.items()))))

    def __post_init__(self) -> None:
        if self.code not in TEMPLATES:
            raise KeyError(f"no reason {self.code!r}")

    def english(self) -> str:
        """The reason in English (the catalogs' source text)."""
        return render(self, "en")

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}

    @classmethod
    def from_json(cls, data: Any) -> Reason | None:
        """The reason stored as `to_json` made it; None for anything else (an unknown code among them)."""
        if not isinstance(data, dict) or data.get("code") not in TEMPLATES:
            return None
        params = data.get("params")
        return cls(data["code"], params if isinstance(params, dict) else {})


def render(reason: Reason, language: str | None = None) -> str:
    """`reason` in `language` (a site language code, `speech.language_code`; None: the one being spoken)."""
    if language is not None:
        with speech.speaking(language):
            return render(reason, None)
    params = dict.fromkeys(_names(reason.code), "")  # a parameter a stored reason lacks is shown empty
    params.update((name, value if name in _VERBATIM else _told(value)) for name, value in reason.params.items())
    return _(TEMPLATES[reason.code]) % params


def render_all(reasons: Iterable[Reason], language: str | None = None) -> str:
    """Several reasons as one sentence, each once, joined as the language joins clauses ("" for none)."""
    told = list(dict.fromkeys(render(r, language) for r in reasons))
    return join(told, language)


def join(parts: list[str], language: str | None = None, items: bool = False) -> str:
    """`parts` joined as the language joins clauses (`items`: as it lists things)."""
    if language is not None:
        with speech.speaking(language):
            return join(parts, None, items)
    if items:
        return speech.listed(parts)
    text = parts[0] if parts else ""
    for part in parts[1:]:
        text = _(_JOIN_REASONS) % {"first": text, "next": part}
    return text


def kind(name: str, language: str | None = None) -> str:
    """The name of a kind of fault (`timeout`, `illegal`, ...) in `language`; an unknown one as it is."""
    if name not in KINDS:
        return name
    if language is not None:
        with speech.speaking(language):
            return _(KINDS[name])
    return _(KINDS[name])


#: Parameters that hold a bot's or a compiler's own words: shown exactly as given, never read as the arena's
#: phrases (a bot could otherwise pass off its text as the arena's, or nest phrases to make every page that shows
#: the fault parse them again and again).
_VERBATIM = frozenset({"answer", "command", "detail", "error"})
#: How deep phrases are re-told inside phrases, and the longest text read as one: beyond either, a text is shown
#: as it is (a stored reason nests one or two phrases; a bot-controlled text may try thousands).
_MAX_DEPTH = 3
_MAX_TEXT = 4000
_depth: contextvars.ContextVar[int] = contextvars.ContextVar("arena_reasons_depth", default=0)


def _told(value: Any) -> Any:
    """A parameter as shown: a known phrase in the language, a list of reasons (as `to_json` stores them) as a
    list, anything else as it is."""
    if isinstance(value, str):
        return retell(value)
    if isinstance(value, list):
        return join([render(r) for r in map(Reason.from_json, value) if r is not None], items=True)
    return value


_NAME = re.compile(r"%\((\w+)\)s")


@functools.cache
def _names(code: str) -> tuple[str, ...]:
    """The parameters code `code`'s template names (read once a code: the templates are constants)."""
    return tuple(dict.fromkeys(_NAME.findall(TEMPLATES[code])))


@functools.cache
def _patterns() -> list[tuple[str, str, str, re.Pattern[str]]]:
    """Each code's English text as a pattern that matches the texts it makes (a repeated parameter repeats), with
    the literal text it starts and ends with (a text without them is not tried against the pattern)."""
    out = []
    for code, template in TEMPLATES.items():
        pattern, seen = "", set()
        pieces = re.findall(r"(.*?)(?:%\((\w+)\)s|$)", template, flags=re.DOTALL)
        for literal, name in pieces:
            pattern += re.escape(literal)
            if name:
                pattern += f"(?P={name})" if name in seen else f"(?P<{name}>.*?)"
                seen.add(name)
        named = [i for i, (_literal, name) in enumerate(pieces) if name]
        head = pieces[0][0] if named else template
        tail = "".join(literal for literal, _name in pieces[named[-1] + 1:]) if named else template
        out.append((code, head, tail, re.compile(pattern, re.DOTALL)))
    return out


def parse_one(text: str) -> Reason | None:
    """The reason whose English text `text` is, or None."""
    for code, head, tail, pattern in _patterns():
        if text.startswith(head) and text.endswith(tail) and (found := pattern.fullmatch(text)):
            return Reason(code, found.groupdict())
    return None


def parse(text: str) -> list[Reason] | None:
    """The reasons a stored English text says (one, or several joined by "; "), or None when any part of it is
    no known phrase."""
    if not text:
        return []
    one = parse_one(text)
    if one is not None:
        return [one]
    if "; " not in text:
        return None
    parts = [parse_one(part) for part in text.split("; ")]
    return None if any(p is None for p in parts) else [p for p in parts if p is not None]


def retell(text: str, language: str | None = None) -> str:
    """A stored English reason in `language` when it is a known phrase (or several, joined by "; ", or a list of
    them joined by ", "); else `text` as it is."""
    if language is not None:
        with speech.speaking(language):
            return retell(text, None)
    depth = _depth.get()
    if depth >= _MAX_DEPTH or len(text) > _MAX_TEXT:
        return text
    token = _depth.set(depth + 1)
    try:
        return _retold(text)
    finally:
        _depth.reset(token)


def _retold(text: str) -> str:
    reasons = parse(text) if text else None
    if reasons:
        return render_all(reasons)
    items = [parse_one(part) for part in text.split(", ")] if ", " in text else [None]
    if all(items):
        return join([render(r) for r in items if r is not None], items=True)
    return text
