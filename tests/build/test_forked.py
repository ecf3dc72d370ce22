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


def _raise_located():
    from builder.diagnostics import Diagnostic

    raise Diagnostic("content/war/rules.md", 3, 7, "a rule without a title")


def test_a_located_error_in_the_child_is_its_message_as_is(capfd):
    expected = "content/war/rules.md:3:7: error: a rule without a title"
    with pytest.raises(BuildError) as e:
        Forked("rulebooks", _raise_located).join()
    assert str(e.value) == expected          # no "rulebooks: " before the place
    assert e.value.located and not e.value.internal and e.value.exit_code == 1


def test_a_fault_of_a_games_own_code_in_the_child_is_located_at_its_line(tmp_path,
                                                                          monkeypatch):
    from builder import faults

    engine = tmp_path / "engine.py"
    engine.write_text("def score(cards):\n    return cards['ace']\n")
    namespace: dict = {}
    exec(compile(engine.read_text(), str(engine), "exec"), namespace)
    monkeypatch.setattr(faults, "_GAME_CODE", {engine.resolve()})
    monkeypatch.chdir(tmp_path)
    with pytest.raises(BuildError) as e:
        Forked("rulebooks", lambda: namespace["score"]({})).join()
    assert str(e.value) == "engine.py:2: error: KeyError: 'ace' in score()"
    assert e.value.located and not e.value.internal


def test_a_child_that_sends_something_other_than_a_result_fails(monkeypatch):
    import builder.build.forked as forked

    def _send_a_stranger(work, send, parent=None):
        send.send(("RESULT", 45))
        send.close()

    monkeypatch.setattr(forked, "_run_child", _send_a_stranger)
    with pytest.raises(BuildError, match="^sum: .*sent no result"):
        Forked("sum", lambda: 45).join()


def _raise_internal_build_error():
    raise BuildError("the queue lost a book", internal=True)


def test_a_build_error_marked_internal_in_the_child_stays_internal():
    """A BuildError the child's own code marks as a bug is reported as one (exit 2), not as
    a plain render error (exit 1)."""
    with pytest.raises(BuildError) as e:
        Forked("rulebooks", _raise_internal_build_error).join()
    assert e.value.internal and e.value.exit_code == 2
    assert str(e.value) == ("rulebooks: internal error: BuildError: the queue lost a book")


def test_a_failed_child_says_the_same_error_when_joined_again():
    child = Forked("component sheets", _raise_render_error)
    with pytest.raises(BuildError) as first:
        child.join()
    with pytest.raises(BuildError) as again:
        child.join()
    assert again.value is first.value
    assert child.process.exitcode == 1
