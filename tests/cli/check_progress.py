#!/usr/bin/env python3
"""U02: the progress bar of `shufl bias`, checked on its raw bytes (ctest cli.progress_pty).

Usage: check_progress.py SHUFL_BINARY

1. In a pseudo-terminal (Python's pty module; stdout and stderr both on the terminal, as a user
   sees them), a forced bar (`--progress`) on a short run of two algorithms: every frame is
   "\\r" + text + "\\x1b[K", at most 79 columns; the last bar byte is followed by the erase
   "\\r\\x1b[K" and then directly the report, so no report byte lands on the bar's line; no bar
   byte comes after the report started.
2. In a pseudo-terminal without --progress, a long run: the bar appears by itself, names the
   algorithm "k of m" (it reaches "2 of 2" when the second algorithm starts) and shows the time
   left as M:SS and a rate; then SIGTERM ends the run.
3. With stderr a pipe (no terminal) and no --progress, the same long run writes nothing at all on
   stderr; with --progress it writes frames (as pv -f does).
4. `shufl lines`' external-memory progress line ("shufl: reading 0.02 GiB", from a pipe larger
   than --memory 16M) with stderr on a pseudo-terminal and stdin a pipe held open: SIGINT and
   SIGTERM while it shows erase it ("\r\x1b[K" after the last frame, nothing after that) and
   still end the process by that signal (the shell's 130 and 143); a run that finishes erases it
   before exiting 0; with stderr a pipe nothing is written.
Exit 0 on success, 1 with a message per failure.
"""
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time

FRAME = re.compile(rb"\r([^\r\n\x1b]+ \(\d+ of \d+\)[^\r\n\x1b]*)\x1b\[K")
ERASE = b"\r\x1b[K"
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def run_in_pty(args, until=None, timeout=60.0):
    """Runs args with stdin/stdout/stderr on a new pty (80 columns); returns (bytes, status).
    With `until` (bytes regex), sends SIGTERM once the output matches it."""
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["COLUMNS"] = "80"
        try:
            os.execv(args[0], args)
        finally:
            os._exit(127)
    # 80 columns for TIOCGWINSZ.
    import fcntl
    import struct
    import termios
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    out = b""
    deadline = time.monotonic() + timeout
    signalled = False
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        if until is not None and not signalled and re.search(until, out):
            os.kill(pid, signal.SIGTERM)
            signalled = True
    else:
        os.kill(pid, signal.SIGKILL)
        failures.append(f"timeout: {args}")
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return out, status


LINES_FRAME = re.compile(rb"\rshufl: (reading|scattering|writing) \d+\.\d\d GiB( \(\d+%\))?\x1b\[K")
BLOCK = b"".join(b"%07d\n" % i for i in range(1 << 17))  # 1 MiB of lines


def run_lines_on_pty(shufl, mebibytes, sig=None):
    """`shufl lines --memory 16M` reading `mebibytes` MiB from a pipe, stderr on a new pty. With
    `sig`, the pipe stays open (the run waits for input), and `sig` is sent once a frame shows.
    Returns (stderr bytes, wait status)."""
    master, slave = os.openpty()
    p = subprocess.Popen([shufl, "lines", "--memory", "16M", "--seed", "1"], stdin=subprocess.PIPE,
                         stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    for _ in range(mebibytes):
        p.stdin.write(BLOCK)
    p.stdin.flush()
    if sig is None:
        p.stdin.close()
    err = b""
    signalled = False
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: every writer of the pty is gone
                break
            if not chunk:
                break
            err += chunk
        if sig is not None and not signalled and LINES_FRAME.search(err):
            p.send_signal(sig)
            signalled = True
        if p.poll() is not None and not ready:
            break
    else:
        p.kill()
        failures.append(f"lines progress: timeout (signal {sig})")
    status = p.wait()
    if sig is not None:
        p.stdin.close()
    os.close(master)
    return err, status


def check_lines_progress(shufl):
    for sig in (signal.SIGINT, signal.SIGTERM):
        err, status = run_lines_on_pty(shufl, 20, sig)
        check(LINES_FRAME.search(err) is not None, f"lines: no progress line on a terminal: {err[:200]!r}")
        check(err.endswith(ERASE), f"lines: {sig.name} leaves the progress line on the terminal: {err[-120:]!r}")
        check(LINES_FRAME.sub(b"", err).replace(ERASE, b"") == b"", f"lines: stray bytes around the line: {err!r}")
        check(status == -sig, f"lines: {sig.name} should end the run by the signal (shell: {128 + sig}), got {status}")
    err, status = run_lines_on_pty(shufl, 40)
    check(status == 0, f"lines: finished run: status {status}, {err[-200:]!r}")
    check(LINES_FRAME.search(err) is not None and err.endswith(ERASE),
          f"lines: a finished run leaves the progress line: {err[-120:]!r}")
    p = subprocess.run([shufl, "lines", "--memory", "16M", "--seed", "1"], input=BLOCK * 20,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    check(p.returncode == 0 and p.stderr == b"", f"lines: progress in a pipe: {p.returncode} {p.stderr[:200]!r}")


def main():
    shufl = os.path.abspath(sys.argv[1])

    # 1. Forced bar, short run, in a pty: erased before the report, nothing after it.
    out, status = run_in_pty([shufl, "bias", "--n", "52", "--trials", "3e4", "--seed", "1",
                              "--algo", "fisher-yates,naive", "--progress"])
    check(os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, f"forced run: status {status}")
    out = out.replace(b"\r\n", b"\n")  # the pty's ONLCR; bar frames use a bare \r
    start = out.find(b"shufl bias: n = 52")
    check(start > 0, f"forced run: no report or no bar before it: {out[:200]!r}")
    before, report = out[:start], out[start:]
    frames = FRAME.findall(before)
    check(len(frames) >= 1, f"forced run: no bar frame: {before[:300]!r}")
    check(before.endswith(ERASE), f"U02: the report starts on the bar's line: {before[-120:]!r}")
    check(FRAME.sub(b"", before).replace(ERASE, b"") == b"", f"forced run: stray bytes around the bar: {before!r}")
    check(b"\r" not in report and b"\x1b[" not in report and b"fisher-yates (1 of 2)" not in report,
          f"U02: bar bytes after the report started: {report[:300]!r}")
    for f in frames:
        check(len(f) <= 79, f"frame wider than 79 columns: {f!r}")
        check(re.search(rb"\((1|2) of 2\)", f) is not None, f"frame without k of m: {f!r}")
    check(b"verdict:" in report, "forced run: the report is incomplete")

    # 2. A long run on a terminal, not forced: the bar appears by itself, reaches "2 of 2", shows
    # time left and a rate. The second algorithm (40000 random transpositions per shuffle) is slow
    # on any machine, so the bar is seen while it runs; SIGTERM then ends the run.
    long_run = [shufl, "bias", "--n", "52", "--trials", "3e4", "--threads", "1",
                "--algo", "fisher-yates,transpositions:40000"]
    out, status = run_in_pty(long_run, until=rb"\(2 of 2\)[^\r]*\d+:\d\d left", timeout=120)
    frames = FRAME.findall(out)
    check(any(b"(2 of 2)" in f for f in frames), f"U02: no frame shows algorithm 2 of 2: {out[-400:]!r}")
    second = [f for f in frames if b"(2 of 2)" in f]
    check(any(re.search(rb"transpositions:40000 \(2 of 2\) \[[# ]+\] +\d+%", f) for f in second),
          f"U02: frame without the algorithm's label, bar and percentage: {second[-1:]!r}")
    check(any(re.search(rb"\d+:\d\d left", f) for f in second), f"U02: no time left: {second[-1:]!r}")
    check(any(re.search(rb"[\d.]+[KMG]? trials/s", f) for f in frames), f"U02: no rate: {frames[-1:]!r}")
    check(os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM, f"long run: status {status}")

    # 3. stderr on a pipe: nothing without --progress; frames with it.
    for forced in (False, True):
        args = long_run + (["--progress"] if forced else [])
        p = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        err = b""
        if forced:
            # Wait for the first frame (up to 60 s: on a loaded machine the run may start late),
            # not a fixed time, so a slow start is not a missing bar.
            deadline = time.monotonic() + 60
            while FRAME.search(err) is None and time.monotonic() < deadline:
                ready, _, _ = select.select([p.stderr], [], [], 0.1)
                if ready:
                    chunk = os.read(p.stderr.fileno(), 65536)
                    if not chunk:
                        break
                    err += chunk
        else:
            time.sleep(1.5)  # past the 0.5 s a terminal waits before the first frame
        p.send_signal(signal.SIGTERM)
        _, rest = p.communicate(timeout=60)
        err += rest
        if forced:
            check(FRAME.search(err) is not None, f"--progress on a pipe draws no frame: {err[:200]!r}")
        else:
            check(err == b"", f"U02: a bar (or anything) on stderr in a pipe: {err[:200]!r}")

    check_lines_progress(shufl)

    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("progress bar: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
