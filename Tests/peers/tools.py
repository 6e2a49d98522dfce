"""Running the tools crosscheck.py compares: locwire and protoc as one process per input, and cpporacle.cc (the
C++ protobuf library) as one long-running process."""

import collections
import os
import subprocess
import threading
import time


Run = collections.namedtuple("Run", "rc out err secs")  # rc None: timed out


class Tools:
    """Runs locwire and protoc. Thread-safe: each call is one subprocess."""

    def __init__(self, locwire, timeout, proto_dir, proto_files):
        self.locwire = locwire
        self.proto_dir = proto_dir
        self.timeout = timeout
        self.proto_files = proto_files
        self.runs = collections.Counter()
        self._lock = threading.Lock()

    def _run(self, argv, data, kind):
        with self._lock:
            self.runs[kind] += 1
        start = time.monotonic()
        try:
            p = subprocess.run(argv, input=data, capture_output=True, timeout=self.timeout)
            return Run(p.returncode, p.stdout, p.stderr.decode("utf-8", "replace").strip(),
                       time.monotonic() - start)
        except subprocess.TimeoutExpired:
            return Run(None, b"", "timed out after %ss" % self.timeout, time.monotonic() - start)

    def lw(self, typ, frm, to, data):
        return self._run([self.locwire, "convert", "--type", typ, "--from", frm, "--to", to], data, "locwire")

    def protoc(self, mode, typ, data):
        argv = ["protoc", "--%s=%s" % (mode, typ), "-I", str(self.proto_dir)] + self.proto_files
        return self._run(argv, data, "protoc")


class CppOracle:
    """cpporacle.cc (the C++ protobuf library, JSON parser and printer included) as one long-running process
    answering one request per line. Built at start-up; optional (crosscheck runs without it if it cannot be
    built, and says so)."""

    def __init__(self, exe, descriptor_set):
        self.argv = [exe, descriptor_set]
        self.lock = threading.Lock()
        self.proc = None

    def ask(self, mode, typ, data):
        """("OK", bytes) or ("ERR", message)."""
        with self.lock:
            for _ in range(2):
                if self.proc is None or self.proc.poll() is not None:
                    self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                                 stderr=subprocess.DEVNULL, text=True, bufsize=1)
                try:
                    self.proc.stdin.write("%s %s %s\n" % (mode, typ, data.hex()))
                    self.proc.stdin.flush()
                    line = self.proc.stdout.readline()
                except BrokenPipeError:
                    line = ""
                if line:
                    kind, _, rest = line.rstrip("\n").partition(" ")
                    return (kind, bytes.fromhex(rest)) if kind == "OK" else (kind, rest)
                self.proc = None  # it crashed on this input: say so, and restart it for the next one
                return ("ERR", "C++ oracle crashed")

    def close(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait()


def build_cpp_oracle(tmp, proto_dir, files, source):
    """Compiles cpporacle.cc against the system libprotobuf (a few seconds). None (and a reason) on failure."""
    exe, ds = os.path.join(tmp, "cpporacle"), os.path.join(tmp, "schema.pb")
    try:
        subprocess.run(["protoc", "--descriptor_set_out=" + ds, "--include_imports", "-I", str(proto_dir)] + files,
                       check=True, capture_output=True)
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "protobuf"], check=True, capture_output=True,
                               text=True).stdout.split()
        subprocess.run(["g++", "-O1", "-std=c++17", str(source), "-o", exe] + flags, check=True,
                       capture_output=True, text=True)
    except (OSError, subprocess.CalledProcessError) as e:
        return None, "C++ oracle not built (%s): %s" % (e, getattr(e, "stderr", "") or "")
    return CppOracle(exe, ds), None
