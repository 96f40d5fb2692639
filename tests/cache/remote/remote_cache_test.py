#!/usr/bin/env python3
"""Remote cache storage (docs/CACHE.md, "Remote storage") against real servers.

Starts nginx (WebDAV PUT) and redis-server on free loopback ports in a temp
folder; two cache folders stand for two machines: one populates, the other
hits remotely. Then the faults: a tampered blob and record on each server, a
connection cut mid-answer (a proxy in front of the real server), garbage
answers, a server that never answers, one that drips, a refused connection.
Nothing wrong may be served (outputs byte-identical to a clean compile) and
nothing may hang (wall times bounded). Faults come from small Python socket
servers in this file; the backends under test are the real ones.

Exits 77 (CTest: skipped) only when nginx or redis-server is missing;
scripts/deps.sh installs both.

    tests/cache/remote/remote_cache_test.py --pykc build/bin/pykc
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

SKIP = 77

KERNELS = {
    "scale.py": '''from numba import cuda

SCALE = 3.0


@cuda.jit("void(float32[::1])")
def scale(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] *= SCALE
''',
    "copy.py": '''from numba import cuda


@cuda.jit("void(int32[::1], int32[::1])")
def copy(src, dst):
    i = cuda.grid(1)
    if i < src.size:
        dst[i] = src[i]
''',
    "square.py": '''import math
from numba import cuda


@cuda.jit(device=True)
def sq(v):
    return v * v


@cuda.jit(["void(float64[::1])", "void(float32[::1])"])
def square(x):
    i = cuda.grid(1)
    if i < x.size:
        x[i] = sq(x[i]) + math.sqrt(x[i])
''',
}

EXTRA = '''from numba import cuda


@cuda.jit("void(float32[::1], float32)")
def shift(x, d):
    i = cuda.grid(1)
    if i < x.size:
        x[i] += d
'''


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)
    print("ok:", what)


def find_binary(name):
    path = shutil.which(name)
    if path:
        return path
    for folder in ("/usr/sbin", "/usr/local/sbin", "/sbin"):
        candidate = os.path.join(folder, name)
        if os.access(candidate, os.X_OK):
            return candidate
    return None


def die_with_parent():
    """preexec_fn: the server gets SIGKILL when this driver dies, however it dies."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, 9)  # PR_SET_PDEATHSIG, SIGKILL
    except (OSError, AttributeError):
        pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port, proc, what, timeout=10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise Failure("%s exited with %d at start" % (what, proc.returncode))
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise Failure("%s does not listen on port %d" % (what, port))


class Nginx:
    """nginx with its DAV module serving `dav` on a loopback port."""

    def __init__(self, binary, folder):
        self.folder = folder
        self.dav = os.path.join(folder, "dav")
        os.makedirs(self.dav)
        os.makedirs(os.path.join(folder, "logs"))
        self.port = free_port()
        conf = os.path.join(folder, "nginx.conf")
        logs = os.path.join(folder, "logs")
        with open(conf, "w") as f:
            f.write(f"""daemon off;
master_process off;
worker_processes 1;
pid "{logs}/nginx.pid";
error_log "{logs}/error.log";
events {{ worker_connections 256; }}
http {{
  access_log "{logs}/access.log";
  client_body_temp_path "{logs}/body";
  proxy_temp_path "{logs}/proxy";
  fastcgi_temp_path "{logs}/fastcgi";
  uwsgi_temp_path "{logs}/uwsgi";
  scgi_temp_path "{logs}/scgi";
  server {{
    listen 127.0.0.1:{self.port};
    root "{self.dav}";
    client_max_body_size 0;
    location / {{
      dav_methods PUT DELETE MKCOL;
      create_full_put_path on;
      dav_access user:rw group:r all:r;
    }}
  }}
}}
""")
        self.proc = subprocess.Popen([binary, "-p", folder, "-c", conf, "-e",
                                      os.path.join(logs, "stderr.log")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     preexec_fn=die_with_parent)
        wait_listening(self.port, self.proc, "nginx")

    def url(self, prefix="/pykc", attrs=""):
        return "http://127.0.0.1:%d%s%s" % (self.port, prefix, attrs)

    def files(self, prefix="pykc", kind="ac"):
        folder = os.path.join(self.dav, prefix, kind)
        return sorted(os.listdir(folder)) if os.path.isdir(folder) else []

    def path(self, prefix, kind, name):
        return os.path.join(self.dav, prefix, kind, name)

    def puts(self):
        """PUT requests in the access log, once it has settled: nginx writes a request's
        line after answering it, so the client may be gone before the line is there."""
        def count():
            with open(os.path.join(self.folder, "logs", "access.log")) as f:
                return sum(1 for line in f if '"PUT ' in line)
        last, deadline = count(), time.monotonic() + 2.0
        while time.monotonic() < deadline:
            time.sleep(0.1)
            now = count()
            if now == last:
                return now
            last = now
        return last

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class Redis:
    def __init__(self, binary, folder):
        os.makedirs(folder)
        self.port = free_port()
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", folder,
             "--save", "", "--appendonly", "no", "--daemonize", "no", "--protected-mode", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=die_with_parent)
        wait_listening(self.port, self.proc, "redis-server")

    def url(self, db=0, attrs=""):
        return "redis://127.0.0.1:%d/%d%s" % (self.port, db, attrs)

    def command(self, db, *args):
        """One command on a fresh connection; the reply as Python values."""
        def encode(parts):
            out = b"*%d\r\n" % len(parts)
            for p in parts:
                p = p if isinstance(p, bytes) else str(p).encode()
                out += b"$%d\r\n%s\r\n" % (len(p), p)
            return out
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as s:
            s.sendall(encode(["SELECT", db]) + encode(list(args)))
            f = s.makefile("rb")

            def reply():
                line = f.readline().rstrip(b"\r\n")
                if line[:1] in (b"+", b":"):
                    return line[1:]
                if line[:1] == b"-":
                    raise Failure("redis: " + line.decode())
                if line[:1] == b"$":
                    n = int(line[1:])
                    if n < 0:
                        return None
                    data = f.read(n + 2)
                    return data[:-2]
                if line[:1] == b"*":
                    return [reply() for _ in range(int(line[1:]))]
                raise Failure("redis: odd reply %r" % line)
            reply()  # SELECT
            return reply()

    def keys(self, db, pattern):
        return sorted(k.decode() for k in self.command(db, "KEYS", pattern))

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class FaultServer:
    """A loopback TCP server that misbehaves in one way per `mode`:

    garbage   answers every request with bytes that are no protocol
    stall     accepts, reads, never answers
    drip      answers a valid-looking header, then one byte every 200 ms
    partial   announces a 100000-byte body (or bulk string), sends 50 bytes, closes
    cut:N     a proxy to `upstream` that closes each connection after N answer bytes
    """

    def __init__(self, mode, protocol="http", upstream=None):
        self.mode = mode
        self.protocol = protocol
        self.upstream = upstream
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self.stopping = False
        self.open = []
        threading.Thread(target=self.serve, daemon=True).start()

    def url(self, attrs=""):
        if self.protocol == "redis":
            return "redis://127.0.0.1:%d%s" % (self.port, attrs)
        return "http://127.0.0.1:%d/pykc%s" % (self.port, attrs)

    def serve(self):
        while not self.stopping:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            self.open.append(conn)
            threading.Thread(target=self.handle, args=(conn,), daemon=True).start()

    def handle(self, conn):
        try:
            if self.mode.startswith("cut:"):
                return self.proxy(conn, int(self.mode[4:]))
            conn.recv(65536)
            if self.mode == "garbage":
                conn.sendall(b"\x00\x17 this is no answer at all \xff\xfe\r\n\r\n" * 20)
                time.sleep(0.2)
            elif self.mode == "stall":
                time.sleep(30)
            elif self.mode == "drip":
                head = (b"HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n"
                        if self.protocol == "http" else b"$5000\r\n")
                conn.sendall(head)
                for _ in range(150):
                    conn.sendall(b"x")
                    time.sleep(0.2)
            elif self.mode == "partial":
                head = (b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n"
                        if self.protocol == "http" else b"$100000\r\n")
                conn.sendall(head + b"PYKC" + b"\x00" * 46)
        except OSError:
            pass
        finally:
            try:
                conn.close()
            except OSError:
                pass

    def proxy(self, conn, limit):
        up = socket.create_connection(("127.0.0.1", self.upstream))
        sent = [0]
        done = threading.Event()

        def client_to_server():
            try:
                while not done.is_set():
                    data = conn.recv(65536)
                    if not data:
                        break
                    up.sendall(data)
            except OSError:
                pass
            done.set()

        threading.Thread(target=client_to_server, daemon=True).start()
        try:
            while not done.is_set():
                data = up.recv(65536)
                if not data:
                    break
                room = limit - sent[0]
                conn.sendall(data[:room])
                sent[0] += min(room, len(data))
                if sent[0] >= limit:
                    # The server "dies" here: its end of the connection goes.
                    break
        except OSError:
            pass
        done.set()
        for sock in (conn, up):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        up.close()

    def stop(self):
        self.stopping = True
        self.sock.close()
        for c in self.open:
            try:
                c.close()
            except OSError:
                pass


class Runner:
    def __init__(self, pykc, tmp):
        self.pykc = pykc
        self.tmp = tmp
        self.env = {k: v for k, v in os.environ.items()
                    if k not in ("PYKC_CACHE_DIR", "XDG_CACHE_HOME", "PYKC_CACHE_MAXSIZE",
                                 "PYKC_REMOTE_STORAGE", "LD_DEBUG")}
        self.env["HOME"] = os.path.join(tmp, "home")
        self.outs = 0

    def run(self, *args, env=None, timeout=120):
        e = dict(self.env)
        e.update(env or {})
        start = time.monotonic()
        p = subprocess.run([self.pykc, *args], capture_output=True, env=e, timeout=timeout)
        p.seconds = time.monotonic() - start
        return p

    def ok(self, *args, env=None, timeout=120):
        p = self.run(*args, env=env, timeout=timeout)
        if p.returncode != 0:
            raise Failure("pykc %s: exit %d\n%s%s" % (" ".join(args), p.returncode,
                                                    p.stdout.decode(), p.stderr.decode()))
        return p

    def compile(self, kernel, cache, *extra, env=None, timeout=120):
        """`pykc -v compile` into a fresh output folder: (process, cubin bytes)."""
        self.outs += 1
        out = os.path.join(self.tmp, "out%d" % self.outs)
        p = self.ok("-v", "compile", kernel, "--arch", "sm_90", "--cache-dir", cache, "-o", out,
                    *extra, env=env, timeout=timeout)
        stem = os.path.splitext(os.path.basename(kernel))[0]
        with open(os.path.join(out, stem + ".sm_90.cubin"), "rb") as f:
            return p, f.read()

    def stats(self, cache):
        return json.loads(self.ok("cache", "stats", "--json", "--cache-dir", cache).stdout)

    def keys(self, cache):
        p = self.ok("cache", "ls", "--json", "--cache-dir", cache)
        return sorted(e["key"] for e in json.loads(p.stdout))

    def verify_clean(self, cache):
        p = self.run("cache", "verify", "--cache-dir", cache)
        return p.returncode == 0 and b"no problems" in p.stdout


def remote_hit(p):
    return b"from remote" in p.stderr


def compiled(p):
    return b"compiling " in p.stderr


class World:
    def __init__(self, r, tmp, nginx, redis):
        self.r = r
        self.tmp = tmp
        self.nginx = nginx
        self.redis = redis
        self.kernels = os.path.join(tmp, "kernels")
        os.makedirs(self.kernels)
        for name, text in KERNELS.items():
            with open(os.path.join(self.kernels, name), "w") as f:
                f.write(text)
        self.scale = os.path.join(self.kernels, "scale.py")
        self.extra = os.path.join(tmp, "extra.py")
        with open(self.extra, "w") as f:
            f.write(EXTRA)
        # The reference: what a compile without any cache writes.
        _, self.reference = r.compile(self.scale, self.cache("reference"), "--no-cache")
        self.n = 0

    def cache(self, name=None):
        if name is None:
            self.n += 1
            name = "machine%d" % self.n
        return os.path.join(self.tmp, "caches", name)


def summary(p):
    return p.stdout.decode().strip().rsplit(",", 1)[0]


def test_http(w):
    r, nginx = w.r, w.nginx
    url = nginx.url(attrs="|read-write")
    builder = w.cache("builder")
    p = r.ok("cache", "populate", w.kernels, "--arch", "sm_80,sm_90", "--cache-dir", builder,
             "--remote", url)
    check(summary(p) == "populate: 6 jobs, 0 hits (0 remote), 6 compiled, 0 failed",
          "http: machine 1 populates 6 jobs through nginx: " + summary(p))
    check(len(nginx.files("pykc", "ac")) == 6, "http: nginx holds 6 records under /pykc/ac/")
    check(len(nginx.files("pykc", "cas")) >= 6, "http: and their blobs under /pykc/cas/")
    s = r.stats(builder)
    check(s["remote_writes"] == 6 and s["remote_errors"] == 0, "http: 6 remote writes counted")

    consumer = w.cache("consumer")
    ro = nginx.url(attrs="|read-only")
    p, cubin = r.compile(w.scale, consumer, "--remote", ro, env={"LD_DEBUG": "libs"})
    check(remote_hit(p) and not compiled(p), "http: machine 2 hits remotely")
    check(cubin == w.reference, "http: the remote hit's cubin equals a compile without cache")
    check(b"libnvJitLink" not in p.stderr, "http: a remote hit does not load nvJitLink")
    s = r.stats(consumer)
    check((s["hits"], s["remote_hits"], s["misses"], s["remote_errors"]) == (0, 1, 0, 0),
          "http: stats count one remote hit")
    check(s["records"] == 1 and r.verify_clean(consumer),
          "http: the remote hit is written back to the local folder, intact")
    # Next time the local level serves it; the remote is not even asked (a
    # closed port would count an error if it were).
    dead = "http://127.0.0.1:%d/pykc" % free_port()
    p, cubin = r.compile(w.scale, consumer, "--remote", dead)
    s = r.stats(consumer)
    check(b"from remote" not in p.stderr and s["hits"] == 1 and s["remote_errors"] == 0
          and cubin == w.reference, "http: the second compile is a local hit")

    # --remote takes one URL, before FILE as well as after it; `cache stats`
    # prints the remote counters.
    c = w.cache()
    p = r.ok("-v", "compile", "--remote", ro, "--remote", dead, w.scale, "--arch", "sm_90",
             "--cache-dir", c, "-o", os.path.join(w.tmp, "before-file"))
    check(remote_hit(p), "http: `compile --remote URL --remote URL FILE`")
    text = r.ok("cache", "stats", "--cache-dir", c).stdout.decode()
    check("remote hits      1\n" in text and "remote misses    0\n" in text
          and "remote errors    0\n" in text and "hit rate         100.0%" in text,
          "http: `cache stats` shows the remote counters")

    puts = nginx.puts()
    p = r.ok("cache", "populate", w.kernels, "--arch", "sm_80,sm_90", "--cache-dir", consumer,
             "--remote", ro)
    check(summary(p) == "populate: 6 jobs, 6 hits (5 remote), 0 compiled, 0 failed",
          "http: machine 2's populate: 5 remote hits, 1 local")
    p, _ = r.compile(w.extra, consumer, "--remote", ro)
    check(compiled(p) and nginx.puts() == puts and len(nginx.files("pykc", "ac")) == 6,
          "http: a read-only remote gets no uploads")
    p, _ = r.compile(w.extra, w.cache(), "--remote", nginx.url())
    check(compiled(p) and nginx.puts() == puts and len(nginx.files("pykc", "ac")) == 6,
          "http: a remote not marked read-write gets no uploads either")
    p, _ = r.compile(w.extra, w.cache(), "--remote", url)
    check(compiled(p) and len(nginx.files("pykc", "ac")) == 7,
          "http: a read-write remote gets the compile's entry")

    # populate offers its local hits to read-write remotes that lack them.
    p = r.ok("cache", "populate", w.kernels, "--arch", "sm_80,sm_90", "--cache-dir", builder,
             "--remote", nginx.url("/restored", "|read-write"))
    check(summary(p) == "populate: 6 jobs, 6 hits (0 remote), 0 compiled, 0 failed"
          and len(nginx.files("restored", "ac")) == 6,
          "http: populate uploads its 6 local hits to a read-write remote that lacks them")
    puts = nginx.puts()
    r.ok("cache", "populate", w.kernels, "--arch", "sm_80,sm_90", "--cache-dir", builder,
         "--remote", nginx.url("/restored", "|read-write"))
    check(nginx.puts() == puts, "http: and uploads nothing once the remote has them")

    # The variable, several remotes: a dead one first, then nginx.
    env = {"PYKC_REMOTE_STORAGE": dead + "  " + ro}
    p, cubin = r.compile(w.extra, w.cache(), env=env)
    check(remote_hit(p) and b"Connection refused" in p.stderr and cubin is not None,
          "http: PYKC_REMOTE_STORAGE with two remotes: the dead one is skipped, the next hits")
    p, _ = r.compile(w.extra, w.cache(), "--remote", dead, env=env)
    check(compiled(p), "http: --remote overrides PYKC_REMOTE_STORAGE")
    p, _ = r.compile(w.extra, w.cache(), "--no-remote", env=env)
    check(compiled(p) and b"127.0.0.1" not in p.stderr, "http: --no-remote ignores the variable")
    p, _ = r.compile(w.extra, w.cache(), env={"PYKC_REMOTE_STORAGE": "ftp://x " + ro})
    check(remote_hit(p) and b"pykc: warning: PYKC_REMOTE_STORAGE: `ftp://x`" in p.stderr,
          "http: a malformed item of the variable is a warning, the others still work")


def test_redis(w):
    r, redis = w.r, w.redis
    url = redis.url(db=3, attrs="|read-write")
    builder = w.cache("redis builder")
    p = r.ok("cache", "populate", w.kernels, "--arch", "sm_80,sm_90", "--cache-dir", builder,
             "--remote", url, "-j", "2")
    check(summary(p) == "populate: 6 jobs, 0 hits (0 remote), 6 compiled, 0 failed",
          "redis: machine 1 populates 6 jobs through redis-server (2 threads)")
    check(len(redis.keys(3, "pykc:ac:*")) == 6 and len(redis.keys(3, "pykc:cas:*")) >= 6,
          "redis: database 3 holds 6 records and their blobs")
    check(redis.keys(0, "*") == [], "redis: database 0 untouched")
    consumer = w.cache("redis consumer")
    p, cubin = r.compile(w.scale, consumer, "--remote", redis.url(db=3, attrs="|read-only"))
    check(remote_hit(p) and cubin == w.reference, "redis: machine 2 hits remotely, same cubin")
    p = r.ok("cache", "populate", w.kernels, "--arch", "sm_80,sm_90", "--cache-dir", consumer,
             "--remote", redis.url(db=3, attrs="|read-only"))
    check(summary(p) == "populate: 6 jobs, 6 hits (5 remote), 0 compiled, 0 failed",
          "redis: machine 2's populate: 5 remote hits")
    check(r.verify_clean(consumer), "redis: the written-back entries verify")


def record_key_of(r, cache, kernel):
    p = r.ok("-v", "compile", kernel, "--arch", "sm_90", "--cache-dir", cache, "-o",
             os.path.join(r.tmp, "keyprobe"))
    line = [l for l in p.stderr.decode().splitlines() if "cache hit for" in l or "cache miss for" in l][0]
    return line.split("(")[1].split(")")[0]


def blobs_of(r, cache, key):
    p = r.ok("cache", "ls", "--json", "--cache-dir", cache)
    for e in json.loads(p.stdout):
        if e["key"] == key:
            return {o["name"]: o["digest"] for o in e["outputs"]}
    raise Failure("no entry " + key)


def flip(path, offset):
    with open(path, "r+b") as f:
        f.seek(offset)
        b = f.read(1)
        f.seek(offset)
        f.write(bytes([b[0] ^ 0x40]))


def test_tampered(w):
    r, nginx, redis = w.r, w.nginx, w.redis
    builder = w.cache("builder")
    key = record_key_of(r, builder, w.scale)
    blobs = blobs_of(r, builder, key)
    ro = nginx.url(attrs="|read-only")

    # A flipped byte in the cubin blob on the server.
    cubin_blob = nginx.path("pykc", "cas", blobs["cubin"])
    with open(cubin_blob, "rb") as f:
        good = f.read()
    flip(cubin_blob, len(good) // 2)
    c = w.cache()
    p, cubin = r.compile(w.scale, c, "--remote", ro)
    s = r.stats(c)
    check(not remote_hit(p) and compiled(p) and cubin == w.reference,
          "tampered blob on nginx: a miss, compiled, the right cubin")
    check(b"damaged blob " + blobs["cubin"].encode() in p.stderr and s["remote_errors"] == 1,
          "tampered blob: one remote error, logged with the digest")
    check(r.verify_clean(c) and s["records"] == 1, "tampered blob: nothing damaged written locally")
    # A read-write remote is repaired by the compile's upload.
    p, _ = r.compile(w.scale, w.cache(), "--remote", nginx.url(attrs="|read-write"))
    with open(cubin_blob, "rb") as f:
        check(compiled(p) and f.read() == good, "tampered blob: a builder's upload repairs it")
    p, cubin = r.compile(w.scale, w.cache(), "--remote", ro)
    check(remote_hit(p) and cubin == w.reference, "tampered blob: then it hits again")

    # A blob the server lacks: the record must not be used.
    os.rename(cubin_blob, cubin_blob + ".away")
    c = w.cache()
    p, cubin = r.compile(w.scale, c, "--remote", ro)
    check(compiled(p) and cubin == w.reference and r.stats(c)["records"] == 1
          and b"that the remote lacks" in p.stderr,
          "missing blob on nginx: the record is not used, compiled instead")
    os.rename(cubin_blob + ".away", cubin_blob)

    # A record that is another key's (a server mixing names up).
    other = record_key_of(r, builder, os.path.join(w.kernels, "copy.py"))
    record = nginx.path("pykc", "ac", key)
    shutil.copy(record, record + ".good")
    shutil.copy(nginx.path("pykc", "ac", other), record)
    p, cubin = r.compile(w.scale, w.cache(), "--remote", ro)
    check(compiled(p) and cubin == w.reference and b"damaged record" in p.stderr,
          "foreign record on nginx: a miss")
    # A truncated record.
    with open(record + ".good", "rb") as f:
        data = f.read()
    with open(record, "wb") as f:
        f.write(data[:100])
    p, cubin = r.compile(w.scale, w.cache(), "--remote", ro)
    check(compiled(p) and cubin == w.reference, "truncated record on nginx: a miss")
    os.replace(record + ".good", record)

    # Redis: a tampered blob and a record pointing elsewhere.
    name = "pykc:cas:" + blobs["cubin"]
    good = redis.command(3, "GET", name)
    bad = bytearray(good)
    bad[-10] ^= 1
    redis.command(3, "SET", name, bytes(bad))
    p, cubin = r.compile(w.scale, w.cache(), "--remote", redis.url(3, "|read-only"))
    check(compiled(p) and cubin == w.reference and b"damaged blob" in p.stderr,
          "tampered blob on redis: a miss, the right cubin")
    redis.command(3, "SET", name, good)
    redis.command(3, "SET", "pykc:ac:" + key, b"PYKC nonsense")
    p, cubin = r.compile(w.scale, w.cache(), "--remote", redis.url(3, "|read-only"))
    check(compiled(p) and cubin == w.reference, "garbage record on redis: a miss")
    p, cubin = r.compile(w.scale, w.cache(), "--remote", redis.url(3, "|read-write"))
    check(compiled(p) and redis.command(3, "GET", "pykc:ac:" + key) != b"PYKC nonsense",
          "garbage record on redis: a builder's upload replaces it")


def bounded(w, label, url, limit, expect_text=None):
    """A compile through a misbehaving remote: the right cubin, one error,
    no longer than `limit` seconds beyond a compile without remote."""
    r = w.r
    c = w.cache()
    p, cubin = r.compile(w.scale, c, "--remote", url, timeout=60)
    s = r.stats(c)
    check(compiled(p) and cubin == w.reference and s["remote_errors"] == 1 and s["remote_hits"] == 0,
          "%s: compiled, the right cubin, one remote error" % label)
    check(p.seconds < w.base_seconds + limit,
          "%s: bounded: %.2f s (a compile without remote: %.2f s)" % (label, p.seconds, w.base_seconds))
    if expect_text:
        # One of the texts (a tuple where the same fault may surface two ways, as a cut
        # connection does: a short body, or a reset before the rest). On failure, what the
        # log's remote lines said instead (timing-dependent faults under load).
        texts = expect_text if isinstance(expect_text, tuple) else (expect_text,)
        said = [line for line in p.stderr.decode(errors="replace").splitlines() if "remote" in line]
        check(any(t.encode() in p.stderr for t in texts), "%s: the log says `%s` (its remote lines: %s)" % (
            label, "` or `".join(texts), " | ".join(said)[-600:] or "none"))
    return p


def test_faults(w):
    r = w.r
    start = time.monotonic()
    r.compile(w.scale, w.cache())
    w.base_seconds = time.monotonic() - start

    # Garbage answers.
    for protocol in ("http", "redis"):
        server = FaultServer("garbage", protocol)
        bounded(w, "garbage %s answers" % protocol, server.url(), 2.0,
                "not an HTTP answer" if protocol == "http" else "not a Redis reply")
        server.stop()

    # A body cut short: the server announces 100000 bytes and dies after 50.
    for protocol in ("http", "redis"):
        server = FaultServer("partial", protocol)
        # The server closes with the client's request possibly unread: the kernel may
        # answer the client's next read with a reset instead of the end of the stream.
        bounded(w, "partial %s answer" % protocol, server.url(), 2.0,
                ("connection closed mid-answer", "connection lost", "Connection reset by peer"))
        server.stop()

    # The real servers killed mid-transfer: a proxy in front of each passes
    # the record and part of the first blob, then resets the connection.
    for protocol, upstream in (("http", w.nginx.port), ("redis", w.redis.port)):
        server = FaultServer("cut:900", protocol, upstream)
        url = server.url() if protocol == "http" else "redis://127.0.0.1:%d/3" % server.port
        bounded(w, "%s server killed mid-transfer" % protocol, url + "|read-only", 2.0)
        server.stop()

    # A refused connection (nothing listens): retried with back-off, then
    # left alone for the rest of the process.
    dead = free_port()
    bounded(w, "refused connection", "http://127.0.0.1:%d/pykc" % dead, 1.0,
            "Connection refused; not used again by this process")

    # A server that accepts and never answers; one that drips a byte every
    # 200 ms. Bounded by operation-timeout.
    for mode in ("stall", "drip"):
        for protocol in ("http", "redis"):
            server = FaultServer(mode, protocol)
            bounded(w, "%s %s server, operation-timeout=400" % (mode, protocol),
                    server.url("|operation-timeout=400"), 1.5, "timed out")
            server.stop()

    # The circuit breaker: 6 jobs, one failure, then the remote is skipped.
    server = FaultServer("stall", "http")
    c = w.cache()
    start = time.monotonic()
    p = r.ok("cache", "populate", w.kernels, "--arch", "sm_80,sm_90", "--cache-dir", c, "-j", "1",
             "--remote", server.url("|operation-timeout=400"))
    seconds = time.monotonic() - start
    s = r.stats(c)
    check(summary(p) == "populate: 6 jobs, 0 hits (0 remote), 6 compiled, 0 failed"
          and s["remote_errors"] == 1 and server.connections == 1,
          "stalled remote in populate: one timeout, then never asked again (%d connection)"
          % server.connections)
    check(seconds < 60, "stalled remote in populate: %.1f s" % seconds)
    server.stop()

    # The default timeouts bound a stall too (5 s), without any attribute.
    server = FaultServer("stall", "redis")
    p = bounded(w, "stalled redis, default timeouts", server.url(), 6.5)
    server.stop()


def test_shards(w):
    r, nginx = w.r, w.nginx
    url = nginx.url("/shards", "|read-write")
    whole = w.cache("whole")
    p = r.ok("cache", "populate", w.kernels, w.extra, "--arch", "sm_80,sm_86,sm_90",
             "--cache-dir", whole, "--no-remote")
    check(summary(p) == "populate: 12 jobs, 0 hits, 12 compiled, 0 failed",
          "shards: the whole job list is 12 jobs")
    all_keys = r.keys(whole)
    shard_keys = []
    total = 0
    for i in (1, 2, 3, 4, 5):
        c = w.cache("shard %d" % i)
        p = r.ok("cache", "populate", w.kernels, w.extra, "--arch", "sm_80,sm_86,sm_90",
                 "--cache-dir", c, "--remote", url, "--shard", "%d/5" % i)
        line = p.stdout.decode()
        check(line.startswith("populate: shard %d/5: " % i), "shards: " + line.strip())
        total += int(line.split(": ")[2].split(" ")[0])
        shard_keys.append(set(r.keys(c)))
    union = set().union(*shard_keys)
    check(total == 12 and sum(len(k) for k in shard_keys) == 12,
          "shards: 5 shards run 12 jobs in all, no job twice")
    check(sorted(union) == all_keys, "shards: the union of the shards' entries is the whole")
    check(sorted(nginx.files("shards", "ac")) == all_keys,
          "shards: every shard's results meet in the remote")
    # Deterministic: the same shard again picks the same jobs (all local hits).
    c = w.cache("shard 2")
    p = r.ok("cache", "populate", w.kernels, w.extra, "--arch", "sm_80,sm_86,sm_90",
             "--cache-dir", c, "--remote", url, "--shard", "2/5")
    check(" 0 compiled" in p.stdout.decode(), "shards: a shard's list is deterministic")
    # A consumer with the whole list: everything is a remote hit.
    p = r.ok("cache", "populate", w.kernels, w.extra, "--arch", "sm_80,sm_86,sm_90",
             "--cache-dir", w.cache(), "--remote", nginx.url("/shards", "|read-only"))
    check(summary(p) == "populate: 12 jobs, 12 hits (12 remote), 0 compiled, 0 failed",
          "shards: a fresh machine gets all 12 from the remote")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pykc", required=True)
    args = ap.parse_args()
    nginx_bin = find_binary("nginx")
    redis_bin = find_binary("redis-server")
    missing = [n for n, b in (("nginx", nginx_bin), ("redis-server", redis_bin)) if not b]
    if missing:
        print("SKIP: %s not installed (scripts/deps.sh installs nginx and redis-server)"
              % " and ".join(missing))
        return SKIP
    tmp = tempfile.mkdtemp(prefix="pykc remote cache ")
    nginx = redis = None
    try:
        nginx = Nginx(nginx_bin, os.path.join(tmp, "nginx"))
        redis = Redis(redis_bin, os.path.join(tmp, "redis"))
        r = Runner(os.path.abspath(args.pykc), tmp)
        w = World(r, tmp, nginx, redis)
        test_http(w)
        test_redis(w)
        test_tampered(w)
        test_faults(w)
        test_shards(w)
    except (Failure, subprocess.TimeoutExpired) as e:
        print("FAIL:", e)
        return 1
    finally:
        for server in (nginx, redis):
            if server:
                server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    print("all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
