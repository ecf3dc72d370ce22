"""The attacker's kit (issue 22): what tests/security/test_attacks.py, test_fuzz.py and
test_fuzz_attacks.py share to attack warbook as someone who controls a content folder would,
and to judge the outcome from outside the package.

- ``Arena``: a content folder, an output folder and a folder ``outside`` (a small tmpfs
  mounted with ``strictatime``, so that reading any file in it moves that file's access
  time) holding canary files with a unique random string; ``run`` starts the real command
  line in a subprocess (cwd the arena, never the repository) with a guard against hangs and
  soft memory and file-size limits that keep a runaway attack from taking the machine down;
- ``first_error`` / ``assert_located``: the shape every refusal must have,
  ``<path in the content folder>:<line>:<col>: error: ...``;
- ``assert_nothing_leaked``: no canary file was read or changed, nothing was added beside
  the two folders, and the canary string is in no new or changed output file (PDF text
  extracted with pypdf) nor in what the command printed;
- ``snapshot``: every file of a folder by its SHA-256, to compare a previous output byte
  for byte;
- ``lines_of`` / ``put``: a file as lines and back, for the fuzzers' edits; ``UNSAFE``: an
  address with a scheme in generated HTML.

Mounting needs root (or CAP_SYS_ADMIN), as the project's CI has: a missing capability
fails the test, it never skips it.
"""

from __future__ import annotations

import hashlib
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: a guard against a hang, never a speed check
HANG_GUARD_S = 60
#: soft limits for an attacked warbook (a fix may lower them; the hard limits stay as they
#: were, so it may raise them again): 6 GiB of address space, 1 GiB per written file
SOFT_AS = 6 << 30
SOFT_FSIZE = 1 << 30

#: a link or picture address with a scheme, in generated HTML (only http, https and mailto
#: may appear)
UNSAFE = re.compile(r"""(?:href|src)\s*=\s*["']?\s*([a-zA-Z][a-zA-Z0-9+.\-]*):""")
#: the one kind of data: address a page may hold: a picture or a font written into the page
#: (the 404 page of a site whose address is unknown carries its own, issue 27); never text,
#: HTML or a script
SAFE_DATA = re.compile(r"data:(?:image/png|image/svg\+xml|font/woff2);base64,[A-Za-z0-9+/=]+[\"']")


def unsafe_links(text: str, allowed: tuple[str, ...]) -> list[str]:
    """Every link or source in ``text`` whose scheme is not in ``allowed`` and that is not a
    picture or font written into the page (:data:`SAFE_DATA`)."""
    bad = []
    for m in UNSAFE.finditer(text):
        scheme = m.group(1).lower()
        if scheme in allowed:
            continue
        if scheme == "data" and SAFE_DATA.match(text, m.end() - len("data:")):
            continue
        bad.append(m.group(0))
    return bad
LOCATED = re.compile(r"^(?P<path>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.+)$")
CANARY_FONT = Path("/usr/share/fonts/opentype/cabin/Cabin-Regular.otf")  # a CFF font


# --------------------------------------------------------------------------- files
def lines_of(path: Path) -> list[str]:
    """A file's lines, split on newlines only (a final newline gives a last empty line)."""
    return path.read_text().split("\n")


def put(path: Path, lines: list[str]) -> None:
    """Write ``lines`` back as ``lines_of`` read them."""
    path.write_text("\n".join(lines))


# --------------------------------------------------------------------------- mounts
def mount_tmpfs(where: Path, size: str, *options: str) -> None:
    """A fresh tmpfs at ``where`` (made if missing). Fails (never skips) without the
    capability: the attacks that need one must not pass by going quiet."""
    where.mkdir(parents=True, exist_ok=True)
    opts = ",".join((f"size={size}",) + options)
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(where)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, f"cannot mount a tmpfs at {where} (run as root): {proc.stderr}"


def remount_read_only(where: Path) -> None:
    proc = subprocess.run(["mount", "-o", "remount,ro", str(where)], capture_output=True,
                          text=True)
    assert proc.returncode == 0, f"cannot remount {where} read-only: {proc.stderr}"


def unmount(where: Path) -> None:
    for _ in range(50):
        proc = subprocess.run(["umount", str(where)], capture_output=True, text=True)
        if proc.returncode == 0 or "not mounted" in proc.stderr:
            return
        time.sleep(0.1)  # a process of the attack may still be closing a file there
    subprocess.run(["umount", "-l", str(where)], capture_output=True)


# --------------------------------------------------------------------------- folders
def snapshot(folder: Path, skip_lock: bool = True) -> dict[str, str]:
    """Every file (and link) under ``folder``, relative name -> SHA-256 (links: their
    target). A lock file a fix may keep (a name holding "lock") is left out when
    ``skip_lock``."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            path = Path(dirpath) / name
            rel = str(path.relative_to(folder))
            if skip_lock and "lock" in name.lower():
                continue
            if path.is_symlink():
                out[rel] = "-> " + os.readlink(path)
            else:
                out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def small_content(dest: Path, slug: str = "war") -> Path:
    """One shipped game's folder and an index naming it: the cheapest whole build."""
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copytree(ROOT / "content" / slug, dest / slug)
    (dest / "index.yaml").write_text(f"games: [{slug}]\n")
    return dest


def copy_output(src: Path, dest: Path) -> None:
    """A previous build's output, copied with its files' times (the build manifest reuses
    a file by its size and time)."""
    shutil.copytree(src, dest, symlinks=True)


# --------------------------------------------------------------------------- running
@dataclass
class Result:
    args: tuple[str, ...]
    returncode: int | None  # None: killed by the hang guard
    stdout: str
    stderr: str
    seconds: float

    @property
    def hung(self) -> bool:
        return self.returncode is None

    def first_line(self) -> str:
        lines = [ln for ln in self.stderr.splitlines() if ln.strip()]
        return lines[0] if lines else ""

    def summary(self) -> str:
        status = f"killed after {self.seconds:.0f} s" if self.hung else f"exit {self.returncode}"
        return f"warbook {' '.join(self.args)}: {status}\n--- stderr:\n{self.stderr[-3000:]}" \
               f"\n--- stdout:\n{self.stdout[-1500:]}"


def limits() -> None:
    """In the child, before warbook starts: soft limits only."""
    for which, soft in ((resource.RLIMIT_AS, SOFT_AS), (resource.RLIMIT_FSIZE, SOFT_FSIZE)):
        _, hard = resource.getrlimit(which)
        if hard == resource.RLIM_INFINITY or hard > soft:
            resource.setrlimit(which, (soft, hard))


def start(args: tuple[str, ...], cwd: Path, **kw) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("WARBOOK_DEBUG", None)
    return subprocess.Popen([sys.executable, "-m", "builder", *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            errors="replace", start_new_session=True, preexec_fn=limits, **kw)


def kill_group(proc: subprocess.Popen) -> None:
    """The process this kit started and what it forked (its own session)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def run(args: tuple[str, ...], cwd: Path, guard: float = HANG_GUARD_S) -> Result:
    t0 = time.monotonic()
    proc = start(args, cwd)
    try:
        out, err = proc.communicate(timeout=guard)
        code = proc.returncode
    except subprocess.TimeoutExpired:
        kill_group(proc)
        out, err = proc.communicate()
        code = None
    else:
        kill_group(proc)  # nothing of it may outlive it
    return Result(tuple(args), code, out, err, time.monotonic() - t0)


# --------------------------------------------------------------------------- the verdicts
def first_error(stderr: str) -> str:
    """The first line of stderr that reports an error (``... error ...``), or ''."""
    for ln in stderr.splitlines():
        if re.search(r"\berror\b", ln, re.I) or "Traceback" in ln:
            return ln
    return ""


def assert_clean_failure(res: Result) -> None:
    """Exit status 1, within the hang guard, no traceback, no "internal error"."""
    assert not res.hung, f"no answer within {res.seconds:.0f} s\n" + res.summary()
    assert "Traceback" not in res.stderr + res.stdout, res.summary()
    assert "internal error" not in res.stderr, res.summary()
    assert "bug in warbook" not in res.stderr, res.summary()
    assert res.returncode == 1, res.summary()


def assert_located(res: Result, arena_dir: Path, paths: list[str], line: int | None = None,
                   words: str | None = None) -> re.Match:
    """The command failed cleanly and its first error is located ``path:line:col: error:``
    in one of ``paths`` (relative to the content folder; a path ending in '/' takes any
    file under it), at ``line`` when given, its message matching ``words`` (a regular
    expression, case-insensitive) when given."""
    assert_clean_failure(res)
    head = first_error(res.stderr)
    m = LOCATED.match(head)
    assert m, f"the first error is not located (path:line:col: error: ...): {head!r}\n" \
              + res.summary()
    shown = os.path.normpath(os.path.join(arena_dir, m["path"]))
    content = os.path.join(arena_dir, "content")
    wanted = [os.path.normpath(os.path.join(content, p)) + ("/" if p.endswith("/") else "")
              for p in paths]
    assert any(shown == w or (w.endswith("/") and shown.startswith(w)) for w in wanted), \
        f"the first error is in {m['path']}, not in {paths}: {head!r}"
    assert int(m["line"]) >= 1 and int(m["col"]) >= 1, head
    if line is not None:
        assert int(m["line"]) == line, f"expected line {line}: {head!r}"
    if words is not None:
        assert re.search(words, m["msg"], re.I), f"expected /{words}/ in {head!r}"
    return m


def pdf_text(path: Path) -> str:
    from pypdf import PdfReader

    try:
        reader = PdfReader(str(path))
        meta = " ".join(str(v) for v in (reader.metadata or {}).values())
        return meta + "".join(page.extract_text() or "" for page in reader.pages)
    except Exception as e:  # noqa: BLE001 - an unreadable PDF is reported, not a crash
        return f"(unreadable PDF: {e})"


# --------------------------------------------------------------------------- the arena
class Arena:
    """``dir/content``, ``dir/output`` (a previous good build when given) and
    ``dir/outside`` (a tmpfs with ``strictatime``: the canary files)."""

    def __init__(self, folder: Path, content: Path | None = None, output: Path | None = None):
        self.dir = folder
        self.content = folder / "content"
        self.output = folder / "output"
        self.outside = folder / "outside"
        self.canary = "warbook-canary-" + uuid.uuid4().hex
        if content is not None:
            shutil.copytree(content, self.content, symlinks=True)
        if output is not None:
            copy_output(output, self.output)
        mount_tmpfs(self.outside, "32m", "strictatime")
        self.mounted = [self.outside]
        self.plant_canaries()
        self.before_output = snapshot(self.output) if self.output.exists() else None
        self.before_outside = self.outside_listing()
        self.before_beside = sorted(p.name for p in folder.iterdir())

    def plant_canaries(self) -> None:
        c = self.canary
        o = self.outside
        (o / "canary.txt").write_text(c + "\n")
        (o / "secret.yaml").write_text(f"id: secret\ntitle: {c}\n")
        (o / "tpl" / "site").mkdir(parents=True)
        (o / "tpl" / "book").mkdir(parents=True)
        (o / "tpl" / "site" / "index.html.j2").write_text(f"<!doctype html><p>{c}</p>\n")
        (o / "tpl" / "site" / "site.css").write_text(f"/* {c} */ body {{ color: red }}\n")
        (o / "tpl" / "book" / "book.css").write_text(f"/* {c} */\n")
        (o / "font.otf").write_bytes(CANARY_FONT.read_bytes() + c.encode())
        (o / "logo.svg").write_text(
            '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
            f"<title>{c}</title><rect width='10' height='10'/></svg>\n")
        (o / "art.png").write_bytes(_png_with(c))
        # access times behind modification times: any read of a file moves it
        for p in o.rglob("*"):
            st = p.stat()
            os.utime(p, ns=(st.st_mtime_ns - 3600 * 10**9, st.st_mtime_ns))

    def outside_listing(self) -> dict[str, tuple]:
        out = {}
        for p in sorted(self.outside.rglob("*")):
            st = p.lstat()
            out[str(p.relative_to(self.outside))] = (st.st_size, st.st_mtime_ns,
                                                     st.st_atime_ns if p.is_file() else 0)
        return out

    def mount(self, name: str, size: str, *options: str) -> Path:
        where = self.dir / name
        mount_tmpfs(where, size, *options)
        self.mounted.append(where)
        return where

    def close(self) -> None:
        for where in reversed(self.mounted):
            unmount(where)

    # ------------------------------------------------------------------ running
    def run(self, *args: str, guard: float = HANG_GUARD_S) -> Result:
        res = run(tuple(args), self.dir, guard)
        self.last = res
        return res

    def build(self, *extra: str, guard: float = HANG_GUARD_S) -> Result:
        return self.run("build", "--content", "content", "--out", "output", *extra, guard=guard)

    def check(self, *extra: str, guard: float = HANG_GUARD_S) -> Result:
        return self.run("check", "--content", "content", *extra, guard=guard)

    # ------------------------------------------------------------------ verdicts
    def read_outside(self) -> list[str]:
        """The outside files whose access time moved (read) or that changed."""
        now = self.outside_listing()
        moved = [n for n, v in self.before_outside.items() if now.get(n) != v]
        added = [n for n in now if n not in self.before_outside]
        return moved + [f"{n} (new)" for n in added]

    def leaked_into(self, *texts: str) -> list[str]:
        """Where the canary string shows: printed text, or a new or changed file of the
        arena outside ``content`` and ``outside`` (PDFs by their extracted text)."""
        found = [f"printed ({i})" for i, t in enumerate(texts) if self.canary in t]
        before = self.before_output or {}
        for dirpath, dirnames, filenames in os.walk(self.dir, followlinks=False):
            top = Path(dirpath).relative_to(self.dir).parts[:1]
            if top in (("content",), ("outside",)):
                dirnames[:] = []
                continue
            for name in filenames:
                path = Path(dirpath) / name
                if path.is_symlink():
                    continue
                rel_out = str(path.relative_to(self.output)) if path.is_relative_to(
                    self.output) else None
                data = path.read_bytes()
                if rel_out is not None and before.get(rel_out) == hashlib.sha256(data).hexdigest():
                    continue  # the previous build's file, unchanged
                text = pdf_text(path) if name.endswith(".pdf") else ""
                if self.canary.encode() in data or self.canary in text:
                    found.append(str(path.relative_to(self.dir)))
        return found

    def assert_nothing_leaked(self, res: Result | None = None) -> None:
        res = res or self.last
        read = self.read_outside()
        assert not read, f"files outside the content folder were read or written: {read}"
        leaks = self.leaked_into(res.stdout, res.stderr)
        assert not leaks, f"the canary from outside the content folder shows in: {leaks}"
        beside = sorted(p.name for p in self.dir.iterdir() if "lock" not in p.name.lower())
        assert beside == sorted(n for n in self.before_beside if "lock" not in n.lower()), \
            f"something was left beside the output: {beside} (was {self.before_beside})"

    def assert_output_unchanged(self) -> None:
        assert self.before_output is not None
        now = snapshot(self.output)
        changed = sorted(k for k in set(now) | set(self.before_output)
                         if now.get(k) != self.before_output.get(k))
        assert not changed, f"the previous output changed: {changed[:10]} " \
                            f"({len(changed)} files)"

    def assert_refused(self, res: Result, paths: list[str], line: int | None = None,
                       words: str | None = None) -> None:
        """The whole promise for one attack: a located error, exit status 1, nothing read
        or written outside, the previous output (if any) byte for byte."""
        assert_located(res, self.dir, paths, line, words)
        self.assert_nothing_leaked(res)
        if self.before_output is not None:
            self.assert_output_unchanged()


def _png_with(text: str) -> bytes:
    """A 4 x 4 PNG with ``text`` in a tEXt chunk."""
    import io

    from PIL import Image, PngImagePlugin

    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", text)
    buf = io.BytesIO()
    Image.new("RGB", (4, 4), "red").save(buf, "PNG", pnginfo=info)
    return buf.getvalue()
