"""Frames for viewers (frame 0 = start, frame i = after decision i, from a seat's view or omniscient) and the
`arena replay verify|show` commands."""

import copy

from arena import replay
from arena.cli import main


def test_frames(thebes_replay_file):
    rp = replay.load(thebes_replay_file)
    omniscient = replay.frames(rp)
    assert len(omniscient) == len(rp["decisions"]) + 1
    assert omniscient[0]["index"] == 0 and omniscient[0]["action"] is None
    assert omniscient[0]["observation"]["seat"] == -1 and omniscient[0]["observation"]["draw_pile"]
    d3 = rp["decisions"][2]
    assert (omniscient[3]["index"], omniscient[3]["seat"], omniscient[3]["action"]) == (3, d3["seat"], d3["action"])
    assert omniscient[3]["events"] == d3["events"]
    assert omniscient[-1]["observation"]["terminal"]
    seat1 = replay.frames(rp, 1)
    assert all(f["observation"]["seat"] == 1 and f["observation"]["draw_pile"] == [] for f in seat1)


def test_cli_verify(thebes_replay_file, tmp_path, capsys):
    assert main(["replay", "verify", str(thebes_replay_file)]) == 0
    assert "ok:" in capsys.readouterr().out
    bad = copy.deepcopy(replay.load(thebes_replay_file))
    bad["decisions"][4]["events"] = []
    path = replay.write(tmp_path / "bad.replay.json.gz", bad)
    assert main(["replay", "verify", str(path)]) == 1
    err = capsys.readouterr().err
    assert "MISMATCH" in err and "decision 4 " in err


def test_cli_show(thebes_replay_file, capsys):
    rp = replay.load(thebes_replay_file)
    assert main(["replay", "show", str(thebes_replay_file)]) == 0
    out = capsys.readouterr().out
    assert "omniscient view" in out
    assert f"    1. seat {rp['decisions'][0]['seat']}" in out and rp["decisions"][0]["action"] in out
    assert "result:" in out and "rank 1:" in out
    assert main(["replay", "show", str(thebes_replay_file), "--seat", "2"]) == 0
    out = capsys.readouterr().out
    assert "seat 2's view" in out and "seat 2 sees (what changed" in out
    assert main(["replay", "show", str(thebes_replay_file), "--seat", "7"]) == 2


def test_arena_replay_loads_neither_the_referee_nor_grpc(thebes_replay_file):
    """`arena replay show|verify` reads a file: a fresh interpreter running them imports no referee, sandbox or
    gRPC (the command imports only its own module), and a command that plays (`arena play`) still does."""
    import subprocess
    import sys

    probe = ("import sys\nfrom arena.cli import main\ntry:\n    rc = main(sys.argv[1:])\n"
             "except SystemExit as exit:  # --help\n    rc = exit.code\n"
             "print('LOADED', *sorted(m for m in sys.modules\n"
             "      if m in ('arena.match.referee', 'arena.sandbox', 'grpc') or m.startswith('arena.commands.')))\n"
             "sys.exit(rc)\n")

    def loaded(*argv: str) -> list[str]:
        done = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        return done.stdout.splitlines()[-1].split()[1:]

    for action in ("show", "verify"):
        assert loaded("replay", action, str(thebes_replay_file)) == ["arena.commands.replay"]
    assert {"arena.match.referee", "grpc"} <= set(loaded("play", "--help"))
