"""CI runs the compose e2e for a submission that changes what the stack is made of (.ci/run, README.md "CI"): the
paths it watches are one list, `.ci/compose-e2e-paths`, and each names files that exist (a renamed Dockerfile or
folder would otherwise silently never run the e2e again); the base it compares with is a commit."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _pathspecs() -> list[str]:
    lines = (ROOT / ".ci" / "compose-e2e-paths").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def test_every_watched_path_names_files_of_the_repository():
    specs = _pathspecs()
    for needed in ("Dockerfile", "docker-compose.yml", "deploy", "scripts/worker-init", "scripts/compose-e2e",
                   "platform/arena_site/settings*.py", "arena/sandbox"):
        assert needed in specs, f"{needed} is not watched"
    for spec in specs:
        tracked = subprocess.run(["git", "ls-files", "--", spec], cwd=ROOT, capture_output=True, text=True,
                                 check=True).stdout.split()
        assert tracked, f".ci/compose-e2e-paths: {spec!r} names no file of the repository"


def test_the_base_is_a_commit_and_ci_reads_both_files():
    base = (ROOT / ".ci" / "compose-e2e-base").read_text().strip()
    assert re.fullmatch(r"[0-9a-f]{7,40}", base), base
    shallow = subprocess.run(["git", "rev-parse", "--is-shallow-repository"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.strip() == "true"
    if not shallow:  # a shallow clone may lack it (.ci/run then counts every path as changed)
        subprocess.run(["git", "cat-file", "-e", f"{base}^{{commit}}"], cwd=ROOT, check=True)
    run = (ROOT / ".ci" / "run").read_text()
    assert ".ci/compose-e2e-paths" in run and ".ci/compose-e2e-base" in run and "scripts/compose-e2e" in run
    assert "ARENA_CI_COMPOSE_E2E" in run
