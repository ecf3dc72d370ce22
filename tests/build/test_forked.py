"""The forked child of the build (``builder.build.Forked``): whatever way it ends other
than returning its result, ``join`` raises ``BuildError`` with a message, never a traceback.
Fast: a fork each, no rendering (the same in a real build: tests/build/test_build_failures.py)."""

from __future__ import annotations

import os
import signal
import sys

import pytest

from builder.build import BuildError
from builder.build.forked import Forked
from builder.render.errors import RenderError


def _raise_render_error():
    raise RenderError("the sheet does not fit")


def _raise_bug():
    raise RuntimeError("a bug")


def _exit_with(status):
    sys.exit(status)


def _vanish():
    os._exit(0)  # ends at once, status 0, without a word


def _killed():
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_child_returns_its_result():
    assert Forked("sum", lambda: sum(range(10))).join() == 45
    assert Forked("nothing", lambda: None).join() is None


def test_a_render_error_in_the_child_is_its_message(capfd):
    child = Forked("component sheets", _raise_render_error)
    with pytest.raises(BuildError) as e:
        child.join()
    assert str(e.value) == "component sheets: the sheet does not fit"
    assert not e.value.internal
    assert child.process.exitcode == 1
    assert capfd.readouterr().err == ""          # the child printed nothing itself


def test_a_bug_in_the_child_is_an_internal_error_without_a_traceback(capfd):
    with pytest.raises(BuildError) as e:
        Forked("rulebooks", _raise_bug).join()
    assert str(e.value) == "rulebooks: internal error: RuntimeError: a bug"
    assert e.value.internal
    assert "Traceback" not in capfd.readouterr().err


@pytest.mark.parametrize("status", [1, 3, 70])
def test_a_child_with_a_positive_exit_status_fails(status):
    with pytest.raises(BuildError, match=rf"^rulebooks: .*exit status {status} "):
        Forked("rulebooks", lambda: _exit_with(status)).join()


def test_a_child_that_exits_0_without_a_result_fails():
    with pytest.raises(BuildError, match="exit status 0 and sent no result"):
        Forked("rulebooks", lambda: _exit_with(0)).join()
    with pytest.raises(BuildError, match="exit status 0 and sent no result"):
        Forked("rulebooks", _vanish).join()


def test_a_child_killed_by_a_signal_fails():
    with pytest.raises(BuildError, match="^rulebooks: stopped by signal 9$"):
        Forked("rulebooks", _killed).join()


def test_join_is_idempotent():
    child = Forked("sum", lambda: 3)
    assert child.join() == 3 and child.join() == 3
