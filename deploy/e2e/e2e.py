"""The user-level end-to-end test of docker-compose.yml, against a running stack (started by scripts/compose-e2e).

    python3 deploy/e2e/e2e.py user     the stack as a user meets it: services healthy, sign-up with the mailed
                                       link, a Python and a C++ bot uploaded through the API and validated in the
                                       worker's sandbox, ladder matches finished, a replay read through the web
                                       from the bucket, /metrics with its token
    python3 deploy/e2e/e2e.py faults   the same stack hurt: three workers, one killed mid-match (the match is
                                       played again elsewhere and counted once), broker and database restarted,
                                       `down` then `up` (the volumes keep the data), a worker started by hand on
                                       the compose network as on another machine (platform/README.md)

Plain Python 3 (no packages): it runs on any Docker host. It reads its settings from the environment that
scripts/compose-e2e sets: ARENA_E2E_COMPOSE (the compose command with its project and files), ARENA_E2E_DOCKER
(the docker command), ARENA_WEB_PORT, ARENA_METRICS_TOKEN, ARENA_E2E_STATE (a folder for what it keeps between
its two parts). Every wait is generous and says what it waited for: a slow machine makes it slower, never
failing. It prints one line per check and ends with "compose-e2e: N passed, N failed".
"""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = shlex.split(os.environ.get("ARENA_E2E_COMPOSE", "docker compose"))
DOCKER = shlex.split(os.environ.get("ARENA_E2E_DOCKER", "docker"))
PORT = int(os.environ.get("ARENA_WEB_PORT", "8000"))
BASE = f"http://127.0.0.1:{PORT}"
HOST = "localhost"  # ARENA_ALLOWED_HOSTS of the stack
STATE = Path(os.environ.get("ARENA_E2E_STATE", "/tmp/arena-compose-e2e"))
PASSWORD = "correct horse battery staple 42"
# Generous: a cold C++ build in the sandbox and the first matches on a loaded 2-core machine take minutes.
WAIT_HEALTHY = 900.0
WAIT_VALIDATED = 1200.0
WAIT_MATCHES = 1200.0

passed: list[str] = []
failed: list[str] = []


class CheckFailed(AssertionError):
    pass


def say(message: str) -> None:
    print(f"[compose-e2e {time.strftime('%H:%M:%S')}] {message}", flush=True)


def check(name: str, ok: bool, detail: str = "", fatal: bool = True) -> None:
    """Record a check; a failed one stops the part unless `fatal` is False (then the part goes on, to learn what
    else holds, and still ends failed)."""
    if ok:
        passed.append(name)
        say(f"PASS {name}{': ' + detail if detail else ''}")
    else:
        failed.append(name)
        say(f"FAIL {name}{': ' + detail if detail else ''}")
        if not fatal:
            return
        error = CheckFailed(f"{name}: {detail}")
        error.recorded = True  # type: ignore[attr-defined]
        raise error


def wait_for(what: str, predicate, timeout: float, interval: float = 3.0):
    """predicate() until it returns something true; its value. Raises CheckFailed naming `what` on time-out."""
    started = time.monotonic()
    last_note = started
    while True:
        value = predicate()
        if value:
            return value
        now = time.monotonic()
        if now - started > timeout:
            raise CheckFailed(f"gave up after {timeout:.0f} s waiting for {what}")
        if now - last_note > 60:
            say(f"... still waiting for {what} ({now - started:.0f} s)")
            last_note = now
        time.sleep(interval)


# --- the engine -----------------------------------------------------------------------------------------------

def run(cmd: list[str], check_rc: bool = True, timeout: float = 600) -> str:
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if check_rc and proc.returncode != 0:
        raise CheckFailed(f"{shlex.join(cmd)} exited {proc.returncode}: {proc.stderr.strip()[-2000:]}")
    return proc.stdout


def compose(*args: str, timeout: float = 900) -> str:
    if args[0] in ("up", "down", "rm"):  # each may remove containers, and with them what names their volumes
        note_volumes()
    return run([*COMPOSE, *args], timeout=timeout)


def note_volumes(*container_ids: str) -> None:
    """Add the volumes that the given containers (by default all of the stack's) mount to STATE/volumes, which
    scripts/compose-e2e removes at the end. A container that scaling down, a re-creation or `down` removes leaves
    its unnamed /data volume behind, and the final `down -v` knows only the containers present then."""
    ids = list(container_ids) or run([*COMPOSE, "ps", "-aq"], check_rc=False).split()
    if not ids:
        return
    names = run([*DOCKER, "inspect", "--format",
                 '{{range .Mounts}}{{if eq .Type "volume"}}{{.Name}} {{end}}{{end}}', *ids], check_rc=False).split()
    with (STATE / "volumes").open("a") as noted:
        noted.writelines(f"{name}\n" for name in names)


def containers(service: str) -> list[str]:
    return [c for c in compose("ps", "-q", service).split() if c]


def inspect(container: str) -> dict:
    return json.loads(run([*DOCKER, "inspect", container]))[0]


def health(container: str) -> str:
    state = inspect(container)["State"]
    return state.get("Health", {}).get("Status") or state["Status"]


def all_healthy(services: list[str], count: dict[str, int] | None = None) -> bool:
    for service in services:
        ids = containers(service)
        want = (count or {}).get(service, 1)
        if len(ids) < want or any(health(c) != "healthy" for c in ids):
            return False
    return True


def logs(service: str) -> str:
    return compose("logs", "--no-color", service)


def manage_shell(code: str) -> str:
    """Python run by `manage.py shell` in the web container (the platform's own view of its data)."""
    return compose("exec", "-T", "web", "python", "manage.py", "shell", "-c", code)


# --- the web, as a user's client --------------------------------------------------------------------------------

def http(method: str, path: str, body: dict | bytes | None = None, token: str | None = None,
         headers: dict[str, str] | None = None, content_type: str | None = None,
         timeout: float = 60) -> tuple[int, bytes, dict[str, str]]:
    """One request to the stack's web service, as the TLS proxy in front of it would pass it on."""
    data = None
    hdrs = {"Host": HOST, "X-Forwarded-Proto": "https", **(headers or {})}
    if isinstance(body, dict):
        data = json.dumps(body).encode()
        hdrs["Content-Type"] = "application/json"
    elif body is not None:
        data = body
        hdrs["Content-Type"] = content_type or "application/octet-stream"
    if token:
        hdrs["Authorization"] = f"Token {token}"
    request = urllib.request.Request(BASE + path, data=data, headers=hdrs, method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), dict(exc.headers)


def api(method: str, path: str, body: dict | None = None, token: str | None = None, expect: int = 200) -> dict:
    status, content, _ = http(method, path, body, token)
    if status != expect:
        raise CheckFailed(f"{method} {path} answered {status}, not {expect}: {content[:1000]!r}")
    return json.loads(content) if content else {}


def multipart(field: str, filename: str, data: bytes) -> tuple[bytes, str]:
    boundary = "arena-e2e-" + os.urandom(8).hex()
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{filename}\"\r\n"
            f"Content-Type: application/zip\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def bot_zip(source: Path, name: str) -> bytes:
    """A built-in bot's sources under a new name (what an author would upload; no build output)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(source.rglob("*")):
            rel = path.relative_to(source)
            if not path.is_file() or rel.parts[0] in ("build", "__pycache__") or "__pycache__" in rel.parts:
                continue
            data = path.read_bytes()
            if rel.as_posix() == "bot.toml":
                data = re.sub(rb'(?m)^name *= *"[^"]*"', f'name = "{name}"'.encode(), data)
                data = re.sub(rb'(?m)^games *= *\[[^\]]*\]', b'games = ["thebes"]', data)
            archive.writestr(rel.as_posix(), data)
    return buf.getvalue()


def finished_matches(token: str, bot: int) -> list[dict]:
    return api("GET", f"/api/matches/?bot={bot}&status=finished&page_size=100", token=token)["results"]


# --- the user's path ------------------------------------------------------------------------------------------

def user_part() -> dict:
    up_started = float(os.environ.get("ARENA_E2E_UP_STARTED", time.time()))
    migrate = [c for c in compose("ps", "-a", "-q", "migrate").split() if c]
    check("migrate ran once and exited 0", len(migrate) == 1 and inspect(migrate[0])["State"]["ExitCode"] == 0
          and inspect(migrate[0])["State"]["Status"] == "exited", "the ladders and built-in bots are registered")
    services = ["web", "worker", "people", "notifier", "beat"]
    wait_for("web, worker, people, notifier and beat to be healthy", lambda: all_healthy(services), WAIT_HEALTHY)
    say(f"TIMING up to all services healthy: {time.time() - up_started:.0f} s")
    check("web, worker, people, notifier and beat healthy", True)
    worker_log = logs("worker")
    check("the worker can sandbox (bubblewrap, cgroups, uids inside its container)",
          "sandbox available: bots run confined" in worker_log,
          next((line for line in worker_log.splitlines() if "sandbox" in line), "no sandbox line in the log"))

    wait_for("the first finished match (the built-in bots' ladders)", lambda: finished_count() > 0, WAIT_MATCHES, 5)
    say(f"TIMING up to the first finished match: {time.time() - up_started:.0f} s")

    name = "e2e" + os.urandom(3).hex()
    email = f"{name}@example.org"
    made = api("POST", "/api/auth/signup/", {"username": name, "email": email, "password": PASSWORD}, expect=201)
    token = made["token"]
    check("sign-up through the API", made.get("email_verified") is False, f"user {name}")

    def mailed_key() -> str | None:
        found = re.findall(r"/accounts/confirm-email/([^/\s]+)/", logs("mailsink"))
        return found[-1] if found else None

    key = wait_for(f"the verification mail to {email} in the mail sink", mailed_key, 300)
    verified = api("POST", "/api/auth/email/verify/", {"key": key})
    me = api("GET", "/api/auth/me/", token=token)
    check("address verified with the mailed link", verified.get("verified") is True
          and me.get("email_verification_pending") is False)

    versions = {}
    for runtime, source in (("python", ROOT / "bots/python/random"), ("cpp", ROOT / "bots/cpp/random")):
        bot_name = f"{name}-{runtime}"
        bot = api("POST", "/api/bots/", {"name": bot_name, "game": "thebes"}, token=token, expect=201)
        body, ctype = multipart("archive", f"{bot_name}.zip", bot_zip(source, bot_name))
        status, content, _ = http("POST", f"/api/bots/{bot['id']}/versions/", body, token, content_type=ctype,
                                  timeout=300)
        check(f"{runtime} bot uploaded through the API", status == 201, f"{status} {content[:300]!r}")
        versions[runtime] = (bot["id"], json.loads(content)["id"])

    ready: dict[str, bool] = {}
    for runtime, (_bot_id, version_id) in versions.items():
        def validated(version_id: int = version_id) -> dict | None:
            v = api("GET", f"/api/versions/{version_id}/", token=token)
            return v if v["status"] not in ("pending", "validating", "queued", "building") else None

        v = wait_for(f"the {runtime} bot's validation in the worker", validated, WAIT_VALIDATED)
        if v["status"] != "ready":  # the owner's log says more (the worker's log has the fault summary)
            say(f"{runtime} bot's validation log (its owner's view), last lines:\n"
                + "\n".join((v.get("validation_log") or "").splitlines()[-30:]))
        check(f"{runtime} bot validated in the worker's sandbox", v["status"] == "ready",
              f"status {v['status']} {v.get('status_reason', '')}", fatal=False)
        ready[runtime] = v["status"] == "ready"

    first_finished: dict[str, float] = {}
    for runtime, (bot_id, _) in versions.items():
        if not ready[runtime]:
            continue  # a failed version plays no ladder match
        got = wait_for(f"a finished ladder match of the {runtime} bot",
                       lambda bot_id=bot_id: finished_matches(token, bot_id), WAIT_MATCHES, interval=5)
        first_finished[runtime] = time.time()
        check(f"ladder match of the {runtime} bot finished", bool(got), f"match {got[0]['id']}")
    match = finished_matches(token, versions["cpp" if ready["cpp"] else "python"][0])[0]
    status, content, headers = http("GET", f"/api/matches/{match['id']}/replay/", token=token)
    body = content
    if content[:2] == b"\x1f\x8b":
        import gzip
        body = gzip.decompress(content)
    replay = json.loads(body) if status == 200 else {}
    check("replay downloaded through the web from the bucket", status == 200 and bool(replay),
          f"{status}, {len(content)} bytes")
    status, content, _ = http("GET", "/metrics", headers={"Authorization": f"Bearer {os.environ['ARENA_METRICS_TOKEN']}"})
    refused, _, _ = http("GET", "/metrics")
    check("/metrics answers with the token and refuses without it",
          status == 200 and b"arena_" in content and refused in (401, 403, 404), f"{status} / {refused}")
    timing = min(first_finished.values()) - up_started if first_finished else float("nan")
    say(f"TIMING up to the first finished match of an uploaded bot: {timing:.0f} s")
    state = {"token": token, "name": name, "versions": versions, "replay_match": match["id"]}
    STATE.mkdir(parents=True, exist_ok=True)
    (STATE / "user.json").write_text(json.dumps(state))
    return state


# --- faults -----------------------------------------------------------------------------------------------------

def match_rows(code: str) -> list:
    out = manage_shell("import json\nfrom matches.models import Match\n" + code)
    return json.loads(out.strip().splitlines()[-1])


def counted_once(match_id: int) -> bool:
    """The match finished and its result was applied once: each seat's rating on the ladder counts exactly the
    bot's finished rated matches of that ladder. Read in one snapshot (REPEATABLE READ), so that a match finishing
    meanwhile cannot be half seen; asked a few times, as a result is recorded in steps."""
    rows: list = []
    for _ in range(5):
        rows = match_rows(
            "from django.db import connection, transaction\n"
            "from ladders.models import Rating\n"
            "with transaction.atomic():\n"
            "    connection.cursor().execute('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ')\n"
            f"    m = Match.objects.get(id={match_id})\n"
            "    out = [m.status]\n"
            "    for p in m.participants.all():\n"
            "        r = Rating.objects.filter(ladder=m.ladder, bot=p.bot).first()\n"
            "        n = Match.objects.filter(ladder=m.ladder, rated=True, status='finished', participants__bot=p.bot)"
            ".distinct().count()\n"
            "        out.append([getattr(r, 'games', None), n])\n"
            "print(json.dumps(out))")
        say(f"match {match_id}: status and, per seat, [rating's games, finished rated matches]: {rows}")
        if rows[0] == "finished" and all(games == n for games, n in rows[1:]):
            return True
        time.sleep(5)
    return False


def faults_part() -> None:
    state = json.loads((STATE / "user.json").read_text())
    token = state["token"]
    # storage that accepts connections and never answers: the web's healthcheck must say so, not "healthy"
    minio = containers("minio")[0]
    run([*DOCKER, "pause", minio])
    try:
        wait_for("the web to turn unhealthy while the bucket hangs",
                 lambda: all(health(c) == "unhealthy" for c in containers("web")), WAIT_HEALTHY, 5)
        check("web unhealthy while it hangs on storage", True)
    finally:
        run([*DOCKER, "unpause", minio])
    wait_for("the web healthy again", lambda: all_healthy(["web"]), WAIT_HEALTHY, 5)
    check("web healthy again once storage answers", True)
    compose("up", "-d", "--no-deps", "--no-recreate", "--scale", "worker=3", "worker")
    wait_for("three healthy workers", lambda: all_healthy(["worker"], {"worker": 3}), WAIT_HEALTHY)
    check("scaled to three workers, all healthy", len(containers("worker")) == 3)

    def running_on_a_worker() -> tuple[int, str] | None:
        rows = match_rows("print(json.dumps(list(Match.objects.filter(status='running').exclude(worker='')"
                          ".values_list('id', 'worker'))))")
        by_host = {inspect(c)["Config"]["Hostname"]: c for c in containers("worker")}
        for match_id, worker in rows:
            host = claim_host(worker)
            if host in by_host:
                return match_id, by_host[host]
        return None

    match_id, victim = wait_for("a match running on one of the workers", running_on_a_worker, WAIT_MATCHES, 1)
    run([*DOCKER, "kill", victim])
    say(f"killed worker container {victim[:12]} while it played match {match_id}")
    wait_for(f"match {match_id} to finish on another worker", lambda: match_rows(
        f"print(json.dumps([Match.objects.get(id={match_id}).status]))") == ["finished"], WAIT_MATCHES, 5)
    check("the match of the killed worker finished elsewhere and was counted once", counted_once(match_id),
          f"match {match_id}")
    compose("up", "-d", "--no-deps", "--scale", "worker=1", "worker")

    # Redis and PostgreSQL restarted under the running stack: nothing recorded is lost, the web answers (no 500s
    # from connections the restart killed: CONN_HEALTH_CHECKS), and matches go on
    counts_before = data_counts()
    before = finished_count()
    compose("restart", "redis", "db")
    wait_for("db and redis healthy again", lambda: all_healthy(["db", "redis"]), WAIT_HEALTHY)
    statuses = [http("GET", "/api/auth/me/", token=token)[0] for _ in range(30)]
    check("after the broker and database restarted, the web answers every request", set(statuses) == {200},
          f"30 requests: {sorted(set(statuses))}")
    wait_for("a new finished match after the broker and the database restarted",
             lambda: finished_count() > before, WAIT_MATCHES, 5)
    counts_after = data_counts()
    check("broker and database restarted: nothing lost, matches go on",
          all(counts_after[k] >= v for k, v in counts_before.items()), f"{counts_before} -> {counts_after}")

    # down, then up: what the volumes keep (accounts, bots, matches, the bucket's replays)
    kept = data_counts()
    compose("down", timeout=900)
    compose("up", "-d", timeout=1800)
    wait_for("web, worker, people, notifier and beat healthy after down and up",
             lambda: all_healthy(["web", "worker", "people", "notifier", "beat"]), WAIT_HEALTHY)
    login = api("POST", "/api/auth/login/", {"username": state["name"], "password": PASSWORD})
    again = data_counts()
    check("down then up: accounts, bots and matches kept in the volumes",
          bool(login.get("token")) and all(again[k] >= v for k, v in kept.items()), f"{kept} -> {again}")
    status, content, _ = http("GET", f"/api/matches/{state['replay_match']}/replay/", token=login["token"])
    check("down then up: a replay written before is still downloaded from the bucket", status == 200,
          f"match {state['replay_match']}: {status}, {len(content)} bytes")
    wait_for("a match finished after down and up", lambda: finished_count() > again["finished"], WAIT_MATCHES, 5)
    check("down then up: matches go on", True)

    # A worker on "another machine": started by hand from the image with the command of platform/README.md
    # ("Deploy on several machines"), joined to the compose network only, the compose workers stopped so that
    # only it can play.
    network = next(iter(inspect(containers("web")[0])["NetworkSettings"]["Networks"]))
    env_file = STATE / "remote-worker.env"
    env_file.write_text("".join(f"{k}={v}\n" for k, v in remote_worker_env().items()))
    remote = run(remote_worker_command(network, env_file)).strip()
    try:
        compose("stop", "worker")
        remote_host = inspect(remote)["Config"]["Hostname"]
        wait_for("the separately started worker to be healthy (its mark of life)",
                 lambda: health(remote) == "healthy", WAIT_HEALTHY)
        def sandbox_line() -> str | None:  # Celery logs to stderr: `docker logs` passes it on as its own stderr
            proc = subprocess.run([*DOCKER, "logs", remote], capture_output=True, text=True, timeout=120)
            return next((line for line in (proc.stdout + proc.stderr).splitlines() if "sandbox" in line), None)

        line = wait_for("the separately started worker's sandbox line in its log", sandbox_line, WAIT_HEALTHY)
        check("the separately started worker can sandbox", "sandbox available" in line, line)
        done = wait_for("a match played by the separately started worker", lambda: match_rows(
            f"print(json.dumps(list(Match.objects.filter(status='finished', worker__startswith='{remote_host}/')"
            ".values_list('id', flat=True)[:1])))"), WAIT_MATCHES, 5)
        check("a worker started on its own, joined to the network, plays matches", bool(done), f"match {done[0]}")
    finally:
        note_volumes(remote)
        run([*DOCKER, "rm", "-f", remote], check_rc=False)
        compose("start", "worker")


def data_counts() -> dict[str, int]:
    """How many users, bots, versions and finished matches the database holds."""
    out = manage_shell(
        "import json\nfrom django.contrib.auth import get_user_model\nfrom botregistry.models import Bot, "
        "BotVersion\nfrom matches.models import Match\nprint(json.dumps({'users': get_user_model().objects.count(), "
        "'bots': Bot.objects.count(), 'versions': BotVersion.objects.count(), "
        "'finished': Match.objects.filter(status='finished').count()}))")
    return json.loads(out.strip().splitlines()[-1])


def readme_block(starts: str) -> str:
    """The fenced block of platform/README.md's "Deploy on several machines" whose first line starts so."""
    readme = (ROOT / "platform" / "README.md").read_text()
    section = readme[readme.index("## Deploy on several machines"):]
    section = section[:section.index("\n## ", 3)]
    for block in re.findall(r"```[a-z]*\n(.*?)```", section, re.S):
        lines = [line.strip() for line in block.strip().splitlines()]
        if lines and lines[0].startswith(starts):
            return "\n".join(lines)
    raise CheckFailed(f"platform/README.md's 'Deploy on several machines' has no block starting {starts!r}")


def remote_worker_env() -> dict[str, str]:
    """README's worker.env, each value as this stack has it (its names instead of the main host's address)."""
    ours = {"DATABASE_URL": "postgres://arena:arena@db:5432/arena", "CELERY_BROKER_URL": "redis://redis:6379/0",
            "ARENA_S3_ENDPOINT_URL": "http://minio:9000", "ARENA_S3_BUCKET": "arena",
            "ARENA_S3_ACCESS_KEY_ID": os.environ.get("ARENA_S3_ACCESS_KEY_ID", "arena"),
            "ARENA_S3_SECRET_ACCESS_KEY": os.environ.get("ARENA_S3_SECRET_ACCESS_KEY", "arena-minio-secret"),
            **{k: os.environ[k] for k in ("ARENA_SECRET_KEY", "ARENA_ALLOWED_HOSTS")}}
    env = {}
    for line in readme_block("DATABASE_URL=").splitlines():
        key, _, value = line.partition("=")
        env[key] = ours[key] if key in ours else value
        if "<" in env[key]:
            raise CheckFailed(f"README's worker.env: no value here for {key}")
    if os.environ.get("ARENA_SANDBOX_UID_BASE"):  # on this kernel, the stack's uids (scripts/compose-e2e)
        env["ARENA_SANDBOX_UID_BASE"] = os.environ["ARENA_SANDBOX_UID_BASE"]
    return env


def remote_worker_command(network: str, env_file: Path) -> list[str]:
    """README's `docker run` of a worker host, on the compose network, with this run's env file and name."""
    command = shlex.split(readme_block("docker run ").replace("\\\n", " "))
    assert command[:3] == ["docker", "run", "-d"], command[:3]
    out = [*DOCKER, "run", "-d", "--network", network]
    rest = command[3:]
    k = 0
    while k < len(rest):
        word = rest[k]
        if word in ("--name", "--env-file"):
            out += [word, "arena-e2e-remote-worker" if word == "--name" else str(env_file)]
            k += 2
            continue
        if word.startswith("seccomp="):  # a path of the repository
            word = f"seccomp={ROOT / word.split('=', 1)[1]}"
        out.append(word)
        k += 1
    return out


def claim_host(worker: str) -> str:
    """The host name in a worker's claim (`host/pid-namespace:pid[#nonce]`, arena_site.workers.worker_id): a
    container's host name is its id's first 12 digits."""
    return worker.split("#", 1)[0].rpartition(":")[0].split("/", 1)[0]


def finished_count() -> int:
    return match_rows("print(json.dumps([Match.objects.filter(status='finished').count()]))")[0]


def bench_part() -> None:
    """Matches per minute with 1 and with 3 workers (ARENA_E2E_BENCH_SECONDS each, default 300): a figure, not a
    check. The machine's load goes into it: compare the two within one run."""
    window = float(os.environ.get("ARENA_E2E_BENCH_SECONDS", "300"))
    for workers in (1, 3):
        compose("up", "-d", "--no-deps", "--scale", f"worker={workers}", "worker")
        wait_for(f"{workers} healthy workers", lambda w=workers: all_healthy(["worker"], {"worker": w}), WAIT_HEALTHY)
        start = finished_count()
        time.sleep(window)
        done = finished_count() - start
        say(f"TIMING {workers} worker(s): {done} matches finished in {window:.0f} s = {done * 60 / window:.1f}/min")
    compose("up", "-d", "--no-deps", "--scale", "worker=1", "worker")


def main() -> int:
    part = sys.argv[1] if len(sys.argv) > 1 else "user"
    try:
        {"user": user_part, "faults": faults_part, "bench": bench_part}[part]()
    except CheckFailed as exc:
        if not getattr(exc, "recorded", False):  # a wait that gave up: not yet counted
            failed.append(str(exc))
            say(f"FAIL {exc}")
    except Exception as exc:  # an unexpected answer: reported as a failure with what it was
        failed.append(repr(exc))
        say(f"FAIL {part}: {exc!r}")
    print(f"compose-e2e {part}: {len(passed)} passed, {len(failed)} failed", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
