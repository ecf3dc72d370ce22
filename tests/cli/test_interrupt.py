"""A Ctrl-C is never lost.

Python prints an exception raised inside a ``__del__`` as "Exception ignored" and goes on,
so a Ctrl-C that landed while the garbage collector ran a finalizer (WeasyPrint's font
configuration has one) used to be dropped: ``warbook build`` built on, and ``warbook
serve`` served on until killed (a CI run stopped a server that way and waited 30 s in
vain). Here a designer's engine (trusted code) sends the interrupt from inside a
finalizer, the first time it is loaded: the command stops, as after any Ctrl-C.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: the interrupt, sent by a finalizer, once (the marker file says it was sent)
FINALIZER = '''

class _InterruptsWhenCollected:
    def __del__(self):
        import os, signal
        if not os.path.exists({marker!r}):
            open({marker!r}, "w").close()
            os.kill(os.getpid(), signal.SIGINT)


_InterruptsWhenCollected()
'''


def eights_interrupting(tmp_path: Path) -> tuple[Path, Path]:
    """Crazy Eights (tests/fixtures/eights) whose engine interrupts its process from a
    finalizer as it is loaded; the content folder and the marker file."""
    content = tmp_path / "content"
    shutil.copytree(ROOT / "tests" / "fixtures" / "eights", content / "eights")
    (content / "index.yaml").write_text("games: [eights]\n")
    marker = tmp_path / "interrupted"
    engine = content / "eights" / "engine.py"
    engine.write_text(engine.read_text() + FINALIZER.format(marker=str(marker)))
    return content, marker


def warbook(*args: str, cwd: Path, timeout: float) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.run([sys.executable, "-m", "builder", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


def test_a_ctrl_c_in_a_finalizer_stops_the_build_and_writes_nothing(tmp_path):
    content, marker = eights_interrupting(tmp_path)
    out = tmp_path / "output"
    done = warbook("build", "--content", str(content), "--out", str(out), cwd=tmp_path,
                   timeout=600)
    assert marker.exists()  # the interrupt was sent
    assert done.returncode == 130, done.stdout + done.stderr
    assert "interrupted" in done.stderr
    assert "Exception ignored" not in done.stdout + done.stderr
    assert not (out / "pdf").exists() and not (out / "site").exists()


@pytest.mark.slow
def test_a_ctrl_c_in_a_finalizer_stops_serve(tmp_path):
    content, marker = eights_interrupting(tmp_path)
    try:
        done = warbook("serve", "--content", str(content), "--out", str(tmp_path / "output"),
                       "--port", "0", cwd=tmp_path, timeout=300)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"serve did not stop after the interrupt: {e.stdout}")
    assert marker.exists()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "stopping" in done.stdout + done.stderr
    assert "Exception ignored" not in done.stdout + done.stderr
