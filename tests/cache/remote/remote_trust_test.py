#!/usr/bin/env python3
"""A shared cache that lets no one in (docs/CACHE.md, "TLS and credentials",
"Trusted writers"), against real servers on loopback.

The test makes its own CA with openssl, then server certificates: a good one
for 127.0.0.1, an expired one, a self-signed one. It starts nginx with TLS
(HTTP/2), basic auth (readers and a builder; only the builder may PUT), a
bearer-token location and a server that wants client certificates, and
redis-server with TLS only and ACL users (a builder, a reader that may only
read). Then: builders populate and readers hit through each; wrong and missing
passwords, untrusted certificates (self-signed, expired, no CA file), a plain
client at a TLS port, stalled and garbage TLS servers; signed records, a
tampered record, an unsigned record and one signed by another key; `pykc cache
verify --remote`. Each fault ends in a clear log line and a local compile with
the right cubin, and no secret ever shows in any output.

bazel-remote is not tested: Debian 12 has no package for it (the test says so).
Exits 77 (CTest: skipped) when nginx, redis-server or openssl is missing.

    tests/cache/remote/remote_trust_test.py --pykc build/bin/pykc
"""
import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from remote_cache_test import (KERNELS, SKIP, Failure, FaultServer, Runner, check,  # noqa: E402
                               compiled, die_with_parent, find_binary, flip, free_port,
                               remote_hit, summary, wait_listening)

SECRETS = ["b-s3cret-builder", "r-s3cret-reader", "wrong-pa55word", "t0ken-xyz-bearer",
           "redis-b-pass", "redis-r-pass", "k3y-s3cret-header"]


def openssl(*args, cwd):
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


class Pki:
    """A CA, a server certificate for 127.0.0.1 signed by it, an expired one,
    a self-signed one, and a client certificate."""

    def __init__(self, folder):
        os.makedirs(folder)
        self.folder = folder
        ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        openssl("req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
                "-subj", "/CN=pykc test CA", cwd=folder)
        with open(os.path.join(folder, "san.ext"), "w") as f:
            f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
        for name, days in (("server", "2"), ("expired", "-1"), ("client", "2")):
            openssl("req", *ec, "-keyout", name + ".key", "-out", name + ".csr",
                    "-subj", "/CN=127.0.0.1", cwd=folder)
            openssl("x509", "-req", "-in", name + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                    "-CAcreateserial", "-out", name + ".pem", "-days", days, "-extfile", "san.ext",
                    cwd=folder)
        openssl("req", "-x509", *ec, "-keyout", "self.key", "-out", "self.pem", "-days", "2",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", cwd=folder)

    def path(self, name):
        return os.path.join(self.folder, name)


class TlsNginx:
    """nginx: https with basic auth (only `builder` may PUT), a bearer-token
    location, and servers with an expired, a self-signed certificate and one
    that wants client certificates."""

    def __init__(self, binary, folder, pki):
        self.folder = folder
        self.dav = os.path.join(folder, "dav")
        logs = os.path.join(folder, "logs")
        os.makedirs(self.dav)
        os.makedirs(logs)
        with open(os.path.join(folder, "users"), "w") as f:
            f.write("builder:{PLAIN}b-s3cret-builder\nreader:{PLAIN}r-s3cret-reader\n")
        with open(os.path.join(folder, "writers"), "w") as f:
            f.write("builder:{PLAIN}b-s3cret-builder\n")
        self.port, self.expired_port, self.self_port, self.mtls_port = (free_port() for _ in range(4))
        dav = """dav_methods PUT DELETE MKCOL;
      create_full_put_path on;
      dav_access user:rw group:r all:r;"""

        def server(port, cert, extra, body):
            return f"""
  server {{
    listen 127.0.0.1:{port} ssl http2;
    ssl_certificate "{pki.path(cert + '.pem')}";
    ssl_certificate_key "{pki.path(cert + '.key')}";
    root "{self.dav}";
    client_max_body_size 0;
    {extra}
    {body}
  }}"""
        servers = server(self.port, "server", "", f"""
    location /pykc/ {{
      auth_basic "pykc";
      auth_basic_user_file "{folder}/users";
      limit_except GET {{
        auth_basic "pykc writers";
        auth_basic_user_file "{folder}/writers";
      }}
      {dav}
    }}
    location /tok/ {{
      if ($http_authorization != "Bearer t0ken-xyz-bearer") {{ return 401; }}
      {dav}
    }}
    location /hdr/ {{
      if ($http_x_api_key != "k3y-s3cret-header") {{ return 403; }}
      {dav}
    }}""")
        servers += server(self.expired_port, "expired", "", f"location / {{ {dav} }}")
        servers += server(self.self_port, "self", "", f"location / {{ {dav} }}")
        servers += server(self.mtls_port, "server",
                          f'ssl_client_certificate "{pki.path("ca.pem")}"; ssl_verify_client on;',
                          f"location / {{ {dav} }}")
        conf = os.path.join(folder, "nginx.conf")
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
{servers}
}}
""")
        self.proc = subprocess.Popen([binary, "-p", folder, "-c", conf, "-e",
                                      os.path.join(logs, "stderr.log")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     preexec_fn=die_with_parent)
        for port in (self.port, self.expired_port, self.self_port, self.mtls_port):
            wait_listening(port, self.proc, "nginx")

    def url(self, prefix="/pykc", attrs="", port=None):
        return "https://127.0.0.1:%d%s%s" % (port or self.port, prefix, attrs)

    def files(self, prefix, kind="ac"):
        folder = os.path.join(self.dav, prefix, kind)
        return sorted(os.listdir(folder)) if os.path.isdir(folder) else []

    def path(self, prefix, kind, name):
        return os.path.join(self.dav, prefix, kind, name)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class TlsRedis:
    """redis-server on a TLS port only, with ACL users: `builder` may do
    anything to pykc:* keys, `reader` may only GET, SCAN and SELECT."""

    def __init__(self, binary, folder, pki):
        os.makedirs(folder)
        self.port = free_port()
        conf = os.path.join(folder, "redis.conf")
        with open(conf, "w") as f:
            f.write(f"""port 0
tls-port {self.port}
bind 127.0.0.1
tls-cert-file "{pki.path('server.pem')}"
tls-key-file "{pki.path('server.key')}"
tls-ca-cert-file "{pki.path('ca.pem')}"
tls-auth-clients no
dir "{folder}"
save ""
appendonly no
protected-mode no
user default off
user builder on >redis-b-pass ~pykc:* +@all
user reader on >redis-r-pass ~pykc:* -@all +get +scan +select +ping
""")
        self.proc = subprocess.Popen([binary, conf], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, preexec_fn=die_with_parent)
        wait_listening(self.port, self.proc, "redis-server")

    def url(self, db=0, attrs=""):
        return "rediss://127.0.0.1:%d/%d%s" % (self.port, db, attrs)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class World:
    def __init__(self, r, tmp, pki, nginx, redis):
        self.r, self.tmp, self.pki, self.nginx, self.redis = r, tmp, pki, nginx, redis
        self.kernels = os.path.join(tmp, "kernels")
        os.makedirs(self.kernels)
        for name, text in KERNELS.items():
            with open(os.path.join(self.kernels, name), "w") as f:
                f.write(text)
        self.scale = os.path.join(self.kernels, "scale.py")
        _, self.reference = r.compile(self.scale, self.cache("reference"), "--no-cache")
        self.n = 0
        self.outputs = []
        self.ca = "|ca-file=" + pki.path("ca.pem")

    def cache(self, name=None):
        if name is None:
            self.n += 1
            name = "machine%d" % self.n
        return os.path.join(self.tmp, "caches", name)

    def netrc(self, name, host_entries):
        path = os.path.join(self.tmp, name)
        with open(path, "w") as f:
            for login, password in host_entries:
                f.write("machine 127.0.0.1\n  login %s\n  password %s\n" % (login, password))
        os.chmod(path, 0o600)
        return path

    def seen(self, p):
        """Keeps every output for the final secrets check."""
        self.outputs.append(p.stdout + p.stderr)
        return p


def local_fallback(w, label, url, expect, env=None):
    """A compile through a remote that must fail: the right cubin, compiled
    here, one remote error, and the log line `expect`."""
    r = w.r
    c = w.cache()
    p, cubin = r.compile(w.scale, c, "--remote", url, env=env, timeout=60)
    w.seen(p)
    s = r.stats(c)
    w.seen(r.ok("cache", "stats", "--cache-dir", c))
    check(compiled(p) and not remote_hit(p) and cubin == w.reference and s["remote_errors"] >= 1,
          "%s: compiled here, the right cubin, a remote error" % label)
    check(expect.encode() in p.stderr, "%s: the log says `%s`" % (label, expect))
    return p


def test_https(w):
    r, nginx = w.r, w.nginx
    builder_netrc = w.netrc("builder.netrc", [("builder", "b-s3cret-builder")])
    reader_netrc = w.netrc("reader.netrc", [("reader", "r-s3cret-reader")])
    wrong_netrc = w.netrc("wrong.netrc", [("reader", "wrong-pa55word")])
    builder_url = nginx.url(attrs="|read-write" + w.ca + "|netrc=" + builder_netrc)
    builder = w.cache("https builder")
    p = w.seen(r.ok("-v", "cache", "populate", w.kernels, "--arch", "sm_80,sm_90", "--cache-dir",
                    builder, "--remote", builder_url))
    check(summary(p) == "populate: 6 jobs, 0 hits (0 remote), 6 compiled, 0 failed"
          and len(nginx.files("pykc")) == 6,
          "https: the builder populates 6 entries through nginx over TLS with basic auth")
    reader_url = nginx.url(attrs=w.ca + "|netrc=" + reader_netrc)
    p, cubin = r.compile(w.scale, w.cache(), "--remote", reader_url, env={"LD_DEBUG": "libs"})
    w.seen(p)
    check(remote_hit(p) and cubin == w.reference, "https: a reader hits remotely, the same cubin")
    check(b"libnvJitLink" not in p.stderr, "https: a remote hit loads no nvJitLink")
    p, _ = r.compile(w.scale, w.cache(), env={"LD_DEBUG": "libs"})
    check(b"libcurl" not in p.stderr and b"libpykc_remote" not in p.stderr,
          "https: a compile without remotes loads neither libcurl nor the remote plugin")
    # The netrc file from the environment instead of the URL.
    p, cubin = r.compile(w.scale, w.cache(), "--remote", nginx.url(attrs=w.ca),
                         env={"PYKC_REMOTE_NETRC": reader_netrc})
    check(remote_hit(p) and cubin == w.reference, "https: $PYKC_REMOTE_NETRC works as netrc=PATH")

    local_fallback(w, "https wrong password", nginx.url(attrs=w.ca + "|netrc=" + wrong_netrc),
                   "HTTP status 401: the server refused the credentials")
    local_fallback(w, "https no credentials", nginx.url(attrs=w.ca),
                   "HTTP status 401: the server wants credentials")
    # A reader marked read-write: nginx refuses its PUT; the compile goes on.
    c = w.cache()
    p, cubin = r.compile(os.path.join(w.kernels, "copy.py"), c, "--remote",
                         nginx.url("/pykc/other", "|read-write" + w.ca + "|netrc=" + reader_netrc))
    w.seen(p)
    check(compiled(p) and b"HTTP status 401: the server refused the credentials" in p.stderr
          and nginx.files("pykc/other") == [],
          "https: a reader's upload is refused by the server, logged, the compile succeeds")
    os.chmod(reader_netrc, 0o644)
    local_fallback(w, "https netrc readable by others", nginx.url(attrs=w.ca + "|netrc=" + reader_netrc),
                   "is readable by other users (chmod 600 it)")
    os.chmod(reader_netrc, 0o600)

    # A bearer token from the environment.
    tok = nginx.url("/tok", "|read-write" + w.ca)
    p, _ = r.compile(w.scale, w.cache(), "--remote", tok, env={"PYKC_REMOTE_TOKEN": "t0ken-xyz-bearer"})
    w.seen(p)
    check(compiled(p) and len(nginx.files("tok")) == 1,
          "https: $PYKC_REMOTE_TOKEN is sent as a bearer token (upload accepted)")
    p, cubin = r.compile(w.scale, w.cache(), "--remote", nginx.url("/tok", w.ca),
                         env={"PYKC_REMOTE_TOKEN": "t0ken-xyz-bearer"})
    w.seen(p)
    check(remote_hit(p) and cubin == w.reference, "https: and read back with it")
    local_fallback(w, "https wrong token", nginx.url("/tok", w.ca),
                   "HTTP status 401", env={"PYKC_REMOTE_TOKEN": "wrong-pa55word"})

    # Header credentials (S3-compatible gateways): a header file.
    headers = os.path.join(w.tmp, "headers")
    with open(headers, "w") as f:
        f.write("# the gateway's key\nX-Api-Key: k3y-s3cret-header\n")
    os.chmod(headers, 0o600)
    p, _ = r.compile(w.scale, w.cache(), "--remote", nginx.url("/hdr", "|read-write" + w.ca + "|header-file=" + headers))
    w.seen(p)
    check(compiled(p) and len(nginx.files("hdr")) == 1, "https: header-file lines go with every request (upload accepted)")
    p, cubin = r.compile(w.scale, w.cache(), "--remote", nginx.url("/hdr", w.ca + "|header-file=" + headers))
    w.seen(p)
    check(remote_hit(p) and cubin == w.reference, "https: and read back with them")
    local_fallback(w, "https without the header", nginx.url("/hdr", w.ca), "HTTP status 403")

    # Certificates.
    local_fallback(w, "https self-signed server certificate",
                   nginx.url("/", w.ca, port=nginx.self_port),
                   "TLS: the server's certificate is not trusted")
    local_fallback(w, "https expired server certificate",
                   nginx.url("/", w.ca, port=nginx.expired_port), "expired")
    local_fallback(w, "https without the CA file (system store only)", nginx.url("/", "", port=nginx.port),
                   "TLS: the server's certificate is not trusted")
    local_fallback(w, "https server that wants a client certificate",
                   nginx.url("/", w.ca, port=nginx.mtls_port), "HTTP status 400")
    mtls = nginx.url("/m", "|read-write" + w.ca + "|client-cert=" + w.pki.path("client.pem") +
                     "|client-key=" + w.pki.path("client.key"), port=nginx.mtls_port)
    p, _ = r.compile(w.scale, w.cache(), "--remote", mtls)
    check(compiled(p) and len(nginx.files("m")) == 1,
          "https: with a client certificate the server takes the upload")

    # Faults over TLS: a server that never finishes the handshake, one that answers garbage.
    server = FaultServer("stall", "http")
    start = time.monotonic()
    local_fallback(w, "https stalled handshake", "https://127.0.0.1:%d/p|operation-timeout=400" % server.port,
                   "timed out")
    check(time.monotonic() - start < 30, "https stalled handshake: bounded")
    server.stop()
    server = FaultServer("garbage", "http")
    local_fallback(w, "https garbage instead of TLS", "https://127.0.0.1:%d/p" % server.port, "TLS")
    server.stop()
    print("skip: bazel-remote: Debian 12 has no package for it (the HTTP client is the one nginx tests)")


def test_rediss(w):
    r, redis = w.r, w.redis
    builder_netrc = w.netrc("redis-builder.netrc", [("builder", "redis-b-pass")])
    reader_netrc = w.netrc("redis-reader.netrc", [("reader", "redis-r-pass")])
    wrong_netrc = w.netrc("redis-wrong.netrc", [("reader", "wrong-pa55word")])
    builder = w.cache("rediss builder")
    p = w.seen(r.ok("-v", "cache", "populate", w.kernels, "--arch", "sm_80,sm_90", "--cache-dir", builder,
                    "--remote", redis.url(2, "|read-write" + w.ca + "|netrc=" + builder_netrc)))
    s = r.stats(builder)
    check(summary(p) == "populate: 6 jobs, 0 hits (0 remote), 6 compiled, 0 failed"
          and s["remote_writes"] == 6 and s["remote_errors"] == 0,
          "rediss: the builder (ACL user) populates 6 entries over TLS")
    p, cubin = r.compile(w.scale, w.cache(), "--remote", redis.url(2, w.ca + "|netrc=" + reader_netrc),
                         env={"LD_DEBUG": "libs"})
    check(remote_hit(p) and cubin == w.reference, "rediss: the read-only ACL user hits remotely")
    check(b"libpykc_remote_redis" in p.stderr and b"libcurl" not in p.stderr,
          "rediss: a Redis hit loads the Redis plugin and no libcurl")
    local_fallback(w, "rediss wrong password", redis.url(2, w.ca + "|netrc=" + wrong_netrc), "WRONGPASS")
    local_fallback(w, "rediss no credentials", redis.url(2, w.ca), "NOAUTH")
    c = w.cache()
    p, _ = r.compile(os.path.join(w.kernels, "copy.py"), c, "--remote",
                     redis.url(3, "|read-write" + w.ca + "|netrc=" + reader_netrc))
    w.seen(p)
    check(compiled(p) and b"NOPERM" in p.stderr,
          "rediss: the reader's upload is refused by its ACL (NOPERM), the compile succeeds")
    local_fallback(w, "rediss without the CA file", redis.url(2, "|netrc=" + reader_netrc),
                   "TLS: the server's certificate is not trusted")
    local_fallback(w, "plain redis:// at a TLS port", "redis://127.0.0.1:%d/2|operation-timeout=1000" % redis.port,
                   "Connection reset by peer")
    server = FaultServer("stall", "redis")
    local_fallback(w, "rediss stalled handshake", "rediss://127.0.0.1:%d|operation-timeout=400" % server.port,
                   "timed out")
    server.stop()


def test_signing(w):
    r, nginx, redis = w.r, w.nginx, w.redis
    keys = os.path.join(w.tmp, "keys")
    os.makedirs(keys)
    p = w.seen(r.ok("cache", "keygen", os.path.join(keys, "ci")))
    check(os.stat(os.path.join(keys, "ci.key")).st_mode & 0o777 == 0o600 and
          open(os.path.join(keys, "ci.pub")).read().startswith("pykc-ed25519-public-key-v1 "),
          "signing: keygen writes ci.key (0600) and ci.pub")
    p = r.run("cache", "keygen", os.path.join(keys, "ci"))
    check(p.returncode == 3 and b"exists; not overwritten" in p.stderr, "signing: keygen never overwrites")
    r.ok("cache", "keygen", os.path.join(keys, "other"))
    key, pub = os.path.join(keys, "ci.key"), os.path.join(keys, "ci.pub")
    netrc = w.netrc("signer.netrc", [("builder", "b-s3cret-builder")])
    auth = w.ca + "|netrc=" + netrc
    builder = w.cache("signing builder")
    w.seen(r.ok("cache", "populate", w.kernels, "--arch", "sm_90", "--cache-dir", builder,
                "--remote", nginx.url("/pykc/signed", "|read-write|signing-key=" + key + auth)))
    records = nginx.files("pykc/signed")
    check(len(records) == 3, "signing: the builder uploads 3 signed records")
    with open(nginx.path("pykc/signed", "ac", records[0]), "rb") as f:
        data = f.read()
    check(data[-104:-96] == b"PYKCSIG1", "signing: each record ends in its signature trailer")
    reader = nginx.url("/pykc/signed", "|verify-key=" + pub + auth)
    p, cubin = r.compile(w.scale, w.cache(), "--remote", reader)
    check(remote_hit(p) and cubin == w.reference, "signing: a reader with the public key hits")
    p = w.seen(r.ok("cache", "verify", "--cache-dir", builder, "--remote", reader))
    check(b"3 signed by the key, 0 with problems" in p.stdout, "signing: `cache verify --remote`: all good")

    # Unsigned entries from a writer without the key (same server, other prefix).
    w.seen(r.ok("cache", "populate", w.kernels, "--arch", "sm_90", "--cache-dir", w.cache(),
                "--remote", nginx.url("/pykc/unsigned", "|read-write" + auth)))
    local_fallback(w, "signing: an unsigned record", nginx.url("/pykc/unsigned", "|verify-key=" + pub + auth),
                   "it is not signed")
    # A tampered signed record: one byte of its payload (and its checksum
    # recomputed would not help: the signature covers the whole entry).
    c = w.cache()
    r.compile(w.scale, c, "--no-remote")
    key_of_scale = r.keys(c)[0]
    record = nginx.path("pykc/signed", "ac", key_of_scale)
    shutil.copy(record, record + ".good")
    flip(record, 90)
    local_fallback(w, "signing: a tampered signed record", reader, "its signature does not verify")
    p = r.run("cache", "verify", "--cache-dir", builder, "--remote", reader)
    check(p.returncode == 3 and ("record %s: its signature does not verify" % key_of_scale).encode() in p.stdout
          and b"pykc: error: the remote holds records that are not signed by the key" in p.stderr,
          "signing: `cache verify --remote` names the tampered record, exit 3")
    # Signed by another key.
    os.replace(record + ".good", record)
    w.seen(r.ok("cache", "populate", w.kernels, "--arch", "sm_90", "--cache-dir", w.cache(),
                "--remote", nginx.url("/pykc/signed", "|read-write|signing-key=" + os.path.join(keys, "other.key") + auth)))
    local_fallback(w, "signing: a record signed by another key", reader, "it is signed by another key")
    # The rightful builder's populate repairs the remote (share() re-uploads).
    w.seen(r.ok("cache", "populate", w.kernels, "--arch", "sm_90", "--cache-dir", builder,
                "--remote", nginx.url("/pykc/signed", "|read-write|signing-key=" + key + auth)))
    p = w.seen(r.ok("cache", "verify", "--cache-dir", builder, "--remote", reader))
    check(b"3 signed by the key, 0 with problems" in p.stdout,
          "signing: the builder's populate re-signs what another key signed")
    p = r.run("cache", "verify", "--remote", nginx.url("/pykc/signed", auth), "--cache-dir", builder)
    check(p.returncode == 2 and b"needs the public key" in p.stderr, "signing: verify --remote needs verify-key")

    # Redis: verify lists every record with SCAN.
    rnetrc = w.netrc("redis-signer.netrc", [("builder", "redis-b-pass")])
    rauth = w.ca + "|netrc=" + rnetrc
    w.seen(r.ok("cache", "populate", w.kernels, "--arch", "sm_90", "--cache-dir", w.cache(),
                "--remote", redis.url(5, "|read-write|signing-key=" + key + rauth)))
    w.seen(r.ok("cache", "populate", os.path.join(w.kernels, "copy.py"), "--arch", "sm_80", "--cache-dir",
                w.cache(), "--remote", redis.url(5, "|read-write" + rauth)))
    p = w.seen(r.run("cache", "verify", "--cache-dir", w.cache(), "--remote", redis.url(5, "|verify-key=" + pub + rauth)))
    check(p.returncode == 3 and b"4 records on the remote: 3 signed by the key, 1 with problems" in p.stdout
          and b": it is not signed" in p.stdout,
          "signing: verify --remote on Redis lists every record (SCAN) and finds the unsigned one")


def test_no_secrets(w):
    leaks = [s for s in SECRETS for out in w.outputs if s.encode() in out]
    check(not leaks and len(w.outputs) > 20,
          "no secret in any of %d outputs (-v logs, cache stats, errors)" % len(w.outputs))
    p = w.r.run("compile", w.scale, "--remote", "https://reader:r-s3cret-reader@127.0.0.1/p")
    check(p.returncode == 2 and b"r-s3cret-reader" not in p.stderr and b"https://***@127.0.0.1/p" in p.stderr,
          "a password in a --remote URL is refused and not repeated")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pykc", required=True)
    args = ap.parse_args()
    nginx_bin = find_binary("nginx")
    redis_bin = find_binary("redis-server")
    missing = [n for n, b in (("nginx", nginx_bin), ("redis-server", redis_bin),
                              ("openssl", shutil.which("openssl"))) if not b]
    if missing:
        print("SKIP: %s not installed (scripts/deps.sh installs them)" % " and ".join(missing))
        return SKIP
    # No spaces: attribute paths (ca-file=, netrc=) cannot hold them.
    tmp = tempfile.mkdtemp(prefix="pykc-remote-trust-")
    nginx = redis = None
    try:
        pki = Pki(os.path.join(tmp, "pki"))
        nginx = TlsNginx(nginx_bin, os.path.join(tmp, "nginx"), pki)
        redis = TlsRedis(redis_bin, os.path.join(tmp, "redis"), pki)
        r = Runner(os.path.abspath(args.pykc), tmp)
        for var in ("PYKC_REMOTE_TOKEN", "PYKC_REMOTE_NETRC"):
            r.env.pop(var, None)
        w = World(r, tmp, pki, nginx, redis)
        test_https(w)
        test_rediss(w)
        test_signing(w)
        test_no_secrets(w)
    except (Failure, subprocess.TimeoutExpired, subprocess.CalledProcessError) as e:
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
