"""WeasyPrint copies the faces into a folder in the temporary directory; a build must not
leave it behind (it did, 6.7 MB a build), and a forked child that ends must not remove it
from under its parent."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import os, sys
    from weasyprint import CSS
    from builder.render.fonts import font_configuration, font_face_css

    config = font_configuration()
    CSS(string=font_face_css(), font_config=config)
    folder = config._folder
    print(folder, len(os.listdir(folder)), flush=True)
    pid = os.fork()
    if pid == 0:
        os._exit(0)  # as a build's forked child ends
    os.waitpid(pid, 0)
    print(len(os.listdir(folder)), flush=True)

    import multiprocessing  # a child that makes its own, as the component sheets' does
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)

    held = []

    def own(send):
        mine = font_configuration()
        CSS(string=font_face_css(), font_config=mine)
        held.append(mine)  # held to the child's end, as its renderer is
        send.send(str(mine._folder))

    child = ctx.Process(target=own, args=(send,))
    child.start()
    theirs = receive.recv()
    child.join()
    print(theirs, os.path.exists(theirs), flush=True)
    keep = config  # held to the end, as a build's renderer is
""")


def test_the_font_folder_outlives_a_child_and_not_the_process_that_made_it(tmp_path):
    env = dict(os.environ, TMPDIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    first, second, third = done.stdout.split("\n")[:3]
    folder, copied = first.split()
    assert folder.startswith(str(tmp_path))
    assert int(copied) >= 7  # the seven faces
    assert int(second) == int(copied)  # the child's end left them
    assert not os.path.exists(folder)
    theirs, there = third.split()
    assert theirs != folder and there == "False"  # the child's own, gone when it ended
    assert os.listdir(tmp_path) == []  # nothing else left either


def test_the_folders_of_builds_that_were_killed_are_swept(tmp_path):
    """A build killed by a signal runs no finalizer and leaves its folder: the next font
    configuration removes the folders whose maker is gone, and none whose maker runs."""
    from builder.render.fonts import FONT_FOLDER, sweep_font_folders

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        dead = tmp_path / f"{FONT_FOLDER}{gone.pid}-abc"
        running = tmp_path / f"{FONT_FOLDER}{alive.pid}-def"
        mine = tmp_path / f"{FONT_FOLDER}{os.getpid()}-ghi"
        other = tmp_path / "warbook-fonts-x-jkl"   # not a pid: not warbook's naming
        for folder in (dead, running, mine, other):
            folder.mkdir()
            (folder / "face.otf").write_bytes(b"OTTO")
        assert sweep_font_folders(tmp_path) == 1
        assert not dead.exists() and running.exists() and mine.exists() and other.exists()
    finally:
        alive.kill()
        alive.wait()
