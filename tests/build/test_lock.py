"""One build at a time per output (issue 22, item 7): ``builder/lock.py``.

Real processes throughout: a holder process takes an output's lock (as ``warbook build`` or
``warbook serve`` does) and a second ``warbook build`` or ``serve`` into the same output,
run from the command line, must stop at once naming the holder. A holder killed with
SIGKILL leaves its lock free (its file may stay, with a dead process's id in it); a forked
child of the build never keeps the lock when its parent is gone. The slow test races two
real builds into one output.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from builder import lock

ROOT = Path(__file__).resolve().parents[2]

HOLDER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from builder import lock
    with lock.hold(Path(sys.argv[1]), sys.argv[2]):
        print("held", flush=True)
        time.sleep(120)
""")

#: a holder whose build has a forked child at work (the sheets, the second rulebook process)
HOLDER_WITH_CHILD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from builder import lock
    from builder.build.forked import Forked
    with lock.hold(Path(sys.argv[1]), "warbook build"):
        child = Forked("component sheets", lambda: time.sleep(120))
        print("held", child.process.pid, flush=True)
        time.sleep(120)
""")


def start(script: str, *args: str) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-c", script, *args], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    assert line.startswith("held"), line
    return proc, line


def warbook(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "builder", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait(timeout=10)


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"  # a zombie has ended
    except FileNotFoundError:
        return False


@pytest.fixture
def no_content(tmp_path: Path) -> Path:
    """A content folder whose check fails at once: a build that gets past the lock says so
    ("the check failed"), one that does not never reaches it."""
    content = tmp_path / "content"
    content.mkdir()
    (content / "index.yaml").write_text("games: [nowhere]\n")
    return content


@pytest.mark.parametrize("holder,says", [
    ("warbook build", "is being built by process {pid} (warbook build); wait for it or stop it"),
    ("warbook serve", "is being served by process {pid} (warbook serve), which rebuilds it on "
                      "every save; stop it (Ctrl-C) or use another folder with --out"),
])
def test_a_second_build_into_a_held_output_stops_naming_the_holder(tmp_path, no_content,
                                                                   holder, says):
    out = tmp_path / "output"
    proc, _ = start(HOLDER, str(out), holder)
    try:
        t0 = time.monotonic()
        done = warbook("build", "--content", str(no_content), "--out", "output", cwd=tmp_path)
        assert time.monotonic() - t0 < 30  # it does not wait for the holder
        assert done.returncode == 1
        assert done.stderr == (f"error: output/ {says.format(pid=proc.pid)}\n"
                               f"build stopped: nothing was written\n")
        assert done.stdout == ""  # not even the check ran
        assert not out.exists()
    finally:
        stop(proc)


def test_a_serve_into_a_held_output_stops_naming_the_holder(tmp_path, no_content):
    out = tmp_path / "output"
    proc, _ = start(HOLDER, str(out), "warbook build")
    try:
        done = warbook("serve", "--content", str(no_content), "--out", str(out), "--port", "0",
                       cwd=tmp_path)
        assert done.returncode == 1
        assert done.stderr == (f"error: {out}/ is being built by process {proc.pid} (warbook "
                               f"build); wait for it or stop it\n")
    finally:
        stop(proc)


def test_the_lock_of_a_killed_process_is_free(tmp_path, no_content):
    out = tmp_path / "output"
    proc, _ = start(HOLDER, str(out), "warbook build")
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    path = lock.lock_path(out)
    assert path.read_text() == f"{proc.pid}\nwarbook build\n"  # left behind, stale
    done = warbook("build", "--content", str(no_content), "--out", str(out), cwd=tmp_path)
    assert done.returncode == 1
    assert "is being built" not in done.stderr
    assert "build stopped: the check failed; nothing was written" in done.stderr
    assert not path.exists()  # the build took the stale lock over and removed it at the end


def test_a_held_lock_names_its_process_and_is_removed_when_let_go(tmp_path):
    out = tmp_path / "output"
    path = lock.lock_path(out)
    assert path == tmp_path / ".output.lock"
    with lock.hold(out, "warbook serve"):
        assert path.read_text() == f"{os.getpid()}\nwarbook serve\n"
        with lock.hold(out, "warbook build"):  # the build inside serve: the same process
            assert path.read_text() == f"{os.getpid()}\nwarbook serve\n"
        assert path.exists()  # the inner hold let nothing go
        other = subprocess.run([sys.executable, "-c", HOLDER, str(out), "warbook build"],
                               cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert other.returncode == 1
        assert (f"lock.Busy: {out}/ is being served by process {os.getpid()} (warbook serve)"
                in other.stderr)
    assert not path.exists()


def test_two_names_of_one_folder_share_its_lock(tmp_path):
    real = tmp_path / "real" / "output"
    real.mkdir(parents=True)
    link = tmp_path / "output"
    link.symlink_to(real)
    assert lock.lock_path(link) == lock.lock_path(real) == real.parent / ".output.lock"
    proc, _ = start(HOLDER, str(real), "warbook build")
    try:
        with pytest.raises(lock.Busy, match=f"^{re.escape(str(link))}/ is being built by "
                                            f"process {proc.pid} "):
            with lock.hold(link, "warbook build"):
                pass
    finally:
        stop(proc)


def test_a_killed_build_frees_its_lock_and_its_children_end_with_it(tmp_path):
    """The build's forked child does not hold the lock, and dies with its parent (kill -9
    leaves no worker behind, still drawing into a staging folder)."""
    out = tmp_path / "output"
    proc, line = start(HOLDER_WITH_CHILD, str(out))
    child = int(line.split()[1])
    assert alive(child)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    deadline = time.monotonic() + 5
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(child)
    with lock.hold(out, "warbook build"):  # free at once
        pass


def test_a_folder_where_no_lock_can_be_made_is_a_plain_error(tmp_path, no_content):
    """An immutable parent folder (chattr +i, which stops root too): the lock file cannot
    be made; a plain error naming the output and the cause, exit status 1."""
    parent = tmp_path / "frozen"
    parent.mkdir()
    subprocess.run(["chattr", "+i", str(parent)], check=True)
    try:
        done = warbook("build", "--content", str(no_content), "--out", "frozen/output",
                       cwd=tmp_path)
    finally:
        subprocess.run(["chattr", "-i", str(parent)], check=True)
    assert done.returncode == 1
    assert done.stderr.startswith(f"error: cannot lock the output frozen/output: operation "
                                  f"not permitted: {parent}/.output.lock; ")
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    assert list(parent.iterdir()) == []


def one_game(tmp: Path) -> Path:
    content = tmp / "content"
    content.mkdir()
    shutil.copytree(ROOT / "content" / "war", content / "war")
    index = (ROOT / "content" / "index.yaml").read_text()
    (content / "index.yaml").write_text(re.sub(r"(?m)^games:.*$", "games: [war]", index))
    return content


@pytest.mark.slow
@pytest.mark.build
def test_two_real_builds_into_one_output(tmp_path):
    """The second build, started while the first is at work, stops naming it; the first
    publishes its whole output."""
    content = one_game(tmp_path)
    first = subprocess.Popen([sys.executable, "-m", "builder", "build", "--content", str(content),
                              "--out", "output"], cwd=tmp_path, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        path = tmp_path / ".output.lock"
        deadline = time.monotonic() + 60
        while not (path.exists() and path.read_text().startswith(f"{first.pid}\n")):
            assert time.monotonic() < deadline and first.poll() is None
            time.sleep(0.05)
        second = warbook("build", "--content", str(content), "--out", "output", cwd=tmp_path)
        assert first.poll() is None, "the first build ended before the second was refused"
        assert second.returncode == 1
        assert second.stderr == (f"error: output/ is being built by process {first.pid} "
                                 f"(warbook build); wait for it or stop it\n"
                                 f"build stopped: nothing was written\n")
        stdout, stderr = first.communicate(timeout=300)
    finally:
        stop(first)
    assert first.returncode == 0, stderr
    assert (tmp_path / "output" / "pdf" / "war-rules.pdf").is_file()
    assert (tmp_path / "output" / "site" / "index.html").is_file()
    assert not path.exists()
