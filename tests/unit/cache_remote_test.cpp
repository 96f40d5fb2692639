// Remote storage (cache/remote/remote.h): URL parsing, and the HTTP client against
// scripted in-process servers for what nginx never sends (chunked bodies,
// close-delimited HTTP/1.0 answers, 5xx, lying lengths, stale kept-alive
// connections), and the Store's layering on top of a scripted remote.
// tests/cache/remote/remote_cache_test.py runs real nginx and redis-server.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

#include "cache/entry.h"
#include "cache/remote/remote.h"
#include "cache/store.h"
#include "tests/unit/cache_test_util.h"

namespace {

using cache::Digest;
using cache::parseRemote;
using cache::Remote;
using cache::RemoteFetch;
using cache::RemoteObject;
using cache::RemoteProtocol;
using cache::RemoteSpec;
using namespace cache_test;

RemoteSpec parsed(const std::string& text) {
  std::string why;
  std::optional<RemoteSpec> spec = parseRemote(text, &why);
  EXPECT_TRUE(spec) << text << ": " << why;
  return spec.value_or(RemoteSpec{});
}

std::string rejected(const std::string& text) {
  std::string why;
  EXPECT_FALSE(parseRemote(text, &why)) << text;
  return why;
}

TEST(RemoteUrl, HttpForms) {
  RemoteSpec a = parsed("http://cache.example");
  EXPECT_EQ(a.protocol, RemoteProtocol::Http);
  EXPECT_EQ(a.host, "cache.example");
  EXPECT_EQ(a.port, 80);
  EXPECT_EQ(a.prefix, "");
  EXPECT_TRUE(a.readOnly) << "remotes are read-only unless marked read-write";
  EXPECT_FALSE(a.tls);
  EXPECT_EQ(a.connectTimeoutMs, 500);
  EXPECT_EQ(a.operationTimeoutMs, 5000);

  RemoteSpec b = parsed("http://10.0.0.7:8080/ci/pykc//|read-only|connect-timeout=50|operation-timeout=900");
  EXPECT_EQ(b.host, "10.0.0.7");
  EXPECT_EQ(b.port, 8080);
  EXPECT_EQ(b.prefix, "/ci/pykc");
  EXPECT_TRUE(b.readOnly);
  EXPECT_EQ(b.connectTimeoutMs, 50);
  EXPECT_EQ(b.operationTimeoutMs, 900);
  EXPECT_EQ(b.text, "http://10.0.0.7:8080/ci/pykc//|read-only|connect-timeout=50|operation-timeout=900");

  RemoteSpec c = parsed("http://[::1]:9090|layout=bazel|read-write");
  EXPECT_EQ(c.host, "::1");
  EXPECT_EQ(c.port, 9090);
  EXPECT_TRUE(c.blobsInAc);
  EXPECT_FALSE(c.readOnly);

  RemoteSpec d = parsed("https://cache.example/p|ca-file=/etc/ca.pem|client-cert=c.pem|client-key=k.pem|"
                        "netrc=/home/u/.netrc|header-file=h.txt|signing-key=ci.key|verify-key=ci.pub");
  EXPECT_TRUE(d.tls);
  EXPECT_EQ(d.port, 443);
  EXPECT_EQ(d.caFile, "/etc/ca.pem");
  EXPECT_EQ(d.clientCert, "c.pem");
  EXPECT_EQ(d.clientKey, "k.pem");
  EXPECT_EQ(d.netrcFile, "/home/u/.netrc");
  EXPECT_EQ(d.headerFile, "h.txt");
  EXPECT_EQ(d.signingKeyFile, "ci.key");
  EXPECT_EQ(d.verifyKeyFile, "ci.pub");
}

TEST(RemoteUrl, RedisForms) {
  RemoteSpec a = parsed("redis://localhost");
  EXPECT_EQ(a.protocol, RemoteProtocol::Redis);
  EXPECT_EQ(a.port, 6379);
  EXPECT_EQ(a.db, 0);
  RemoteSpec b = parsed("redis://127.0.0.1:7000/5|read-only");
  EXPECT_EQ(b.port, 7000);
  EXPECT_EQ(b.db, 5);
  EXPECT_TRUE(b.readOnly);
  EXPECT_EQ(parsed("redis://h/").db, 0);
  RemoteSpec c = parsed("rediss://cache:6380/2|ca-file=ca.pem|read-write");
  EXPECT_TRUE(c.tls);
  EXPECT_EQ(c.port, 6380);
  EXPECT_EQ(c.db, 2);
  EXPECT_FALSE(c.readOnly);
}

TEST(RemoteUrl, Rejected) {
  EXPECT_NE(rejected("ftp://x").find("expected http[s]://"), std::string::npos);
  EXPECT_NE(rejected("http://x|ca-file=a.pem").find("needs TLS"), std::string::npos);
  EXPECT_NE(rejected("redis://x|client-cert=a.pem").find("needs TLS"), std::string::npos);
  EXPECT_NE(rejected("https://x|client-cert=a.pem").find("go together"), std::string::npos);
  EXPECT_NE(rejected("https://x|ca-file").find("ca-file=PATH"), std::string::npos);
  EXPECT_NE(rejected("redis://x|header-file=h").find("unknown attribute"), std::string::npos);
  EXPECT_NE(rejected("http://").find("no host"), std::string::npos);
  EXPECT_NE(rejected("http://h:0").find("not a port"), std::string::npos);
  EXPECT_NE(rejected("http://h:").find("empty port"), std::string::npos);
  EXPECT_NE(rejected("http://h:80x").find("not a port"), std::string::npos);
  EXPECT_NE(rejected("http://a b").find("host name"), std::string::npos);
  EXPECT_NE(rejected("http://[1.2.3.4]").find("IPv6"), std::string::npos);
  EXPECT_NE(rejected("http://h/a b").find("path"), std::string::npos);
  EXPECT_NE(rejected("http://u:p@h").find("credentials"), std::string::npos);
  EXPECT_EQ(rejected("http://u:p@h").find("p@"), std::string::npos) << "the secret is not repeated";
  EXPECT_NE(rejected("redis://h/x").find("database"), std::string::npos);
  EXPECT_NE(rejected("redis://h/-1").find("database"), std::string::npos);
  EXPECT_NE(rejected("http://h|read-only=yes").find("unknown attribute"), std::string::npos);
  EXPECT_NE(rejected("http://h|").find("empty attribute"), std::string::npos);
  EXPECT_NE(rejected("http://h||read-only").find("empty attribute"), std::string::npos);
  EXPECT_NE(rejected("http://h|connect-timeout").find("connect-timeout=MS"), std::string::npos);
  EXPECT_NE(rejected("http://h|connect-timeout=60001").find("1 to 60000"), std::string::npos);
  EXPECT_NE(rejected("redis://h|layout=bazel").find("unknown attribute"), std::string::npos);
}

TEST(RemoteUrl, Lists) {
  EXPECT_EQ(cache::splitRemoteList("  http://a\thttp://b|read-only \n redis://c  "),
            (std::vector<std::string>{"http://a", "http://b|read-only", "redis://c"}));
  EXPECT_TRUE(cache::splitRemoteList(" \t ").empty());
}

// A loopback server that answers each HTTP request with what `script` says
// for (connection number, request number on it, request head).
class ScriptedServer {
public:
  struct Reply {
    std::string bytes;
    bool close = false;
    // Send one byte at a time, 1 ms apart (every line split across reads).
    bool slowly = false;
  };
  using Script = std::function<Reply(int connection, int request, const std::string& head)>;

  explicit ScriptedServer(Script script) : script_(std::move(script)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    socklen_t len = sizeof a;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    ::listen(fd_, 16);
    thread_ = std::thread([this] { serve(); });
  }
  ~ScriptedServer() {
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    thread_.join();
    std::vector<std::thread> handlers;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (int c : clients_) ::shutdown(c, SHUT_RDWR);
      handlers = std::move(handlers_);
    }
    for (std::thread& t : handlers) t.join();
  }
  std::string url(const std::string& attributes = "") const {
    return "http://127.0.0.1:" + std::to_string(port_) + "/p" + attributes;
  }
  int connections() const { return connections_; }
  std::vector<std::string> heads() {
    std::lock_guard<std::mutex> lock(mutex_);
    return heads_;
  }

private:
  // Each connection on its own thread (libcurl opens several at once).
  void serve() {
    for (;;) {
      int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) return;
      int connection = connections_++;
      std::lock_guard<std::mutex> lock(mutex_);
      clients_.push_back(c);
      handlers_.emplace_back([this, c, connection] { handle(c, connection); });
    }
  }

  void handle(int c, int connection) {
    {
      std::string data;  // what arrived and is not yet handled (pipelined requests)
      for (int request = 0;; ++request) {
        char buf[4096];
        size_t end = std::string::npos;
        while ((end = data.find("\r\n\r\n")) == std::string::npos) {
          ssize_t n = ::recv(c, buf, sizeof buf, 0);
          if (n <= 0) break;
          data.append(buf, static_cast<size_t>(n));
        }
        if (end == std::string::npos) break;
        std::string head = data.substr(0, end);
        size_t length = 0;
        if (size_t cl = head.find("Content-Length: "); cl != std::string::npos) {
          length = std::stoul(head.substr(cl + 16));
        }
        while (data.size() < end + 4 + length) {
          ssize_t n = ::recv(c, buf, sizeof buf, 0);
          if (n <= 0) break;
          data.append(buf, static_cast<size_t>(n));
        }
        {
          std::lock_guard<std::mutex> lock(mutex_);
          heads_.push_back(head.substr(0, head.find("\r\n")));
        }
        data.erase(0, std::min(data.size(), end + 4 + length));
        Reply reply = script_(connection, request, head);
        if (reply.slowly) {
          int one = 1;
          (void)::setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
          for (char byte : reply.bytes) {
            (void)::send(c, &byte, 1, MSG_NOSIGNAL);
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
          }
        } else {
          (void)::send(c, reply.bytes.data(), reply.bytes.size(), MSG_NOSIGNAL);
        }
        if (reply.close) break;
      }
    }
    std::lock_guard<std::mutex> lock(mutex_);
    clients_.erase(std::find(clients_.begin(), clients_.end(), c));
    ::close(c);
  }

  Script script_;
  int fd_ = -1;
  std::uint16_t port_ = 0;
  std::atomic<int> connections_{0};
  std::mutex mutex_;
  std::vector<std::string> heads_;
  std::vector<int> clients_;
  std::vector<std::thread> handlers_;
  std::thread thread_;
};

std::string ok(const std::string& body) {
  return "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

const Digest kDigest = Digest::of("anything");

TEST(RemoteHttp, FoundMissingAndKeepAlive) {
  ScriptedServer server([](int, int request, const std::string&) -> ScriptedServer::Reply {
    if (request == 0) return {ok("hello"), false};
    return {"HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found", false};
  });
  Remote remote(parsed(server.url()));
  RemoteFetch a = remote.get(RemoteObject::Record, kDigest, 100);
  EXPECT_EQ(a.status, RemoteFetch::Status::Found);
  EXPECT_EQ(a.bytes, "hello");
  RemoteFetch b = remote.get(RemoteObject::Blob, kDigest, 100);
  EXPECT_EQ(b.status, RemoteFetch::Status::Missing);
  EXPECT_EQ(server.connections(), 1) << "the second request reuses the connection";
  EXPECT_EQ(server.heads(), (std::vector<std::string>{"GET /p/ac/" + kDigest.hex() + " HTTP/1.1",
                                                      "GET /p/cas/" + kDigest.hex() + " HTTP/1.1"}));
  EXPECT_TRUE(remote.usable());
}

TEST(RemoteHttp, ALongNotFoundPageIsAMissEvenForATinyObject) {
  ScriptedServer server([](int, int, const std::string&) -> ScriptedServer::Reply {
    std::string page(3000, 'x');
    return {"HTTP/1.1 404 Not Found\r\nContent-Length: 3000\r\n\r\n" + page, false};
  });
  Remote remote(parsed(server.url()));
  EXPECT_EQ(remote.get(RemoteObject::Blob, kDigest, 84).status, RemoteFetch::Status::Missing);
  EXPECT_EQ(remote.get(RemoteObject::Blob, kDigest, 84).status, RemoteFetch::Status::Missing);
  EXPECT_TRUE(remote.usable());
  EXPECT_EQ(server.connections(), 1);
}

TEST(RemoteHttp, GetManyAsksForAllAtOnce) {
  ScriptedServer server([](int, int request, const std::string& head) -> ScriptedServer::Reply {
    if (head.find(Digest::of("missing").hex()) != std::string::npos) {
      return {"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", false};
    }
    return {ok("answer " + std::to_string(request)), false};
  });
  Remote remote(parsed(server.url()));
  std::vector<Digest> digests{Digest::of("a"), Digest::of("missing"), Digest::of("c")};
  std::vector<RemoteFetch> got = remote.getMany(RemoteObject::Blob, digests, {100, 100, 100});
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].status, RemoteFetch::Status::Found);
  EXPECT_EQ(got[0].bytes.substr(0, 7), "answer ");
  EXPECT_EQ(got[1].status, RemoteFetch::Status::Missing);
  EXPECT_EQ(got[2].status, RemoteFetch::Status::Found);
  EXPECT_EQ(got[2].bytes.substr(0, 7), "answer ");
  // HTTP/1.1: up to 6 kept-alive connections at once (HTTP/2 would multiplex one).
  EXPECT_LE(server.connections(), 3);
}

TEST(RemoteHttp, GetManyFinishesOneByOneWhenTheServerClosesEarly) {
  // Each connection answers one request, says `Connection: close` and ends.
  ScriptedServer server([](int connection, int, const std::string&) -> ScriptedServer::Reply {
    std::string body = "connection " + std::to_string(connection);
    return {"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: " +
                std::to_string(body.size()) + "\r\n\r\n" + body,
            true};
  });
  Remote remote(parsed(server.url()));
  std::vector<RemoteFetch> got = remote.getMany(
      RemoteObject::Blob, {Digest::of("a"), Digest::of("b"), Digest::of("c")}, {100, 100, 100});
  ASSERT_EQ(got.size(), 3u);
  for (const RemoteFetch& f : got) EXPECT_EQ(f.status, RemoteFetch::Status::Found) << f.error;
  EXPECT_EQ(got[0].bytes, "connection 0");
  EXPECT_EQ(got[2].bytes, "connection 2");
  EXPECT_TRUE(remote.usable());
}

TEST(RemoteHttp, ChunkedAndCloseDelimitedBodies) {
  ScriptedServer server([](int, int request, const std::string&) -> ScriptedServer::Reply {
    if (request == 0) {
      return {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
              "5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\n",
              false};
    }
    return {"HTTP/1.0 200 OK\r\n\r\nuntil the end", true};
  });
  Remote remote(parsed(server.url()));
  RemoteFetch a = remote.get(RemoteObject::Record, kDigest, 100);
  ASSERT_EQ(a.status, RemoteFetch::Status::Found) << a.error;
  EXPECT_EQ(a.bytes, "hello world");
  RemoteFetch b = remote.get(RemoteObject::Record, kDigest, 100);
  ASSERT_EQ(b.status, RemoteFetch::Status::Found) << b.error;
  EXPECT_EQ(b.bytes, "until the end");
}

TEST(RemoteHttp, AnswersArrivingByteByByte) {
  ScriptedServer server([](int, int request, const std::string&) -> ScriptedServer::Reply {
    if (request == 0) {
      return {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
              false, true};
    }
    return {ok("def"), false, true};
  });
  Remote remote(parsed(server.url()));
  RemoteFetch a = remote.get(RemoteObject::Record, kDigest, 100);
  ASSERT_EQ(a.status, RemoteFetch::Status::Found) << a.error;
  EXPECT_EQ(a.bytes, "abc");
  RemoteFetch b = remote.get(RemoteObject::Record, kDigest, 100);
  ASSERT_EQ(b.status, RemoteFetch::Status::Found) << b.error;
  EXPECT_EQ(b.bytes, "def");
}

TEST(RemoteHttp, StaleKeptAliveConnectionIsRetriedAtOnce) {
  // The server answers once per connection and then closes without saying so.
  ScriptedServer server([](int, int, const std::string&) -> ScriptedServer::Reply {
    return {ok("x"), true};
  });
  Remote remote(parsed(server.url()));
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(remote.get(RemoteObject::Record, kDigest, 100).status, RemoteFetch::Status::Found);
  }
  EXPECT_TRUE(remote.usable());
}

TEST(RemoteHttp, ServerErrorsAreRetriedThenTheBreakerTrips) {
  ScriptedServer server([](int, int, const std::string&) -> ScriptedServer::Reply {
    return {"HTTP/1.1 503 Busy\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", true};
  });
  Remote remote(parsed(server.url()));
  auto start = std::chrono::steady_clock::now();
  RemoteFetch a = remote.get(RemoteObject::Record, kDigest, 100);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(a.status, RemoteFetch::Status::Failed);
  EXPECT_EQ(a.error, "HTTP status 503");
  EXPECT_EQ(server.connections(), 3) << "one try and two retries";
  EXPECT_GE(ms, 70) << "back-off of 25 and 50 ms";
  EXPECT_FALSE(remote.usable());
  // Tripped: nothing more goes to the server.
  EXPECT_EQ(remote.get(RemoteObject::Record, kDigest, 100).status, RemoteFetch::Status::Failed);
  std::string error;
  EXPECT_FALSE(remote.put(RemoteObject::Blob, kDigest, "x", &error));
  EXPECT_EQ(server.connections(), 3);
}

TEST(RemoteHttp, LyingOrOversizedAnswersFail) {
  for (std::string answer : {std::string("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n"),
                             std::string("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello"),
                             std::string("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"),
                             std::string("HTTP/1.1 2000 OK\r\n\r\n"), std::string("SSH-2.0-OpenSSH\r\n")}) {
    ScriptedServer server([&](int, int, const std::string&) -> ScriptedServer::Reply {
      return {answer, true};
    });
    Remote remote(parsed(server.url("|operation-timeout=2000")));
    RemoteFetch f = remote.get(RemoteObject::Record, kDigest, 100);
    EXPECT_EQ(f.status, RemoteFetch::Status::Failed) << answer;
    EXPECT_FALSE(remote.usable());
  }
}

TEST(RemoteHttp, PutSendsTheBytesAndReadOnlyRefuses) {
  std::string seen;
  ScriptedServer server([&](int, int, const std::string& head) -> ScriptedServer::Reply {
    seen = head;
    return {"HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n", false};
  });
  Remote remote(parsed(server.url("|layout=bazel|read-write")));
  std::string error;
  EXPECT_TRUE(remote.put(RemoteObject::Blob, kDigest, "payload", &error)) << error;
  EXPECT_NE(seen.find("PUT /p/ac/" + kDigest.hex() + " HTTP/1.1"), std::string::npos) << seen;
  EXPECT_NE(seen.find("Content-Length: 7"), std::string::npos);
  Remote readOnly(parsed(server.url("|read-only")));
  EXPECT_FALSE(readOnly.put(RemoteObject::Blob, kDigest, "payload", &error));
  EXPECT_EQ(error, "read-only");
  EXPECT_EQ(server.connections(), 1);
}

TEST(RemoteHttp, RefusedConnectionFailsFast) {
  int probe = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(probe, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(probe, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(probe);
  Remote remote(parsed("http://127.0.0.1:" + std::to_string(ntohs(a.sin_port))));
  auto start = std::chrono::steady_clock::now();
  RemoteFetch f = remote.get(RemoteObject::Record, kDigest, 100);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(f.status, RemoteFetch::Status::Failed);
  EXPECT_NE(f.error.find("Connection refused"), std::string::npos) << f.error;
  EXPECT_LT(ms, 1000);
}

// The Store over a scripted remote: what it serves is verified.
TEST(RemoteStore, VerifiedHitIsWrittenBackAndTamperingIsAMiss) {
  cache::Key key{Digest::of("the action")};
  std::string cubin = "cubin bytes";
  Digest blobDigest = Digest::of(cubin);
  std::string blobFile = cache::encodeBlob(cubin);
  cache::ActionRecord record{key, {{"cubin", blobDigest, cubin.size()}}};
  std::string recordFile = cache::encodeRecord(record);
  std::atomic<bool> tamper{false};
  ScriptedServer server([&](int, int, const std::string& head) -> ScriptedServer::Reply {
    if (head.find("/ac/" + key.hex()) != std::string::npos) return {ok(recordFile), false};
    if (head.find("/cas/" + blobDigest.hex()) != std::string::npos) {
      std::string bytes = blobFile;
      if (tamper) bytes.back() ^= 1;
      return {ok(bytes), false};
    }
    return {"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", false};
  });
  {
    TempDir dir;
    LogLines log;
    cache::StoreOptions o;
    o.root = dir.path();
    o.log = log.sink();
    o.remotes.push_back(parsed(server.url("|read-only")));
    tamper = true;
    {
      cache::Store store(o);
      EXPECT_FALSE(store.get(key));
      EXPECT_TRUE(log.contains("damaged blob")) << "logged";
      cache::Counters c = store.counters();
      EXPECT_EQ(c.remoteErrors, 1u);
      EXPECT_EQ(c.misses, 1u);
      EXPECT_EQ(store.usage().records, 0u) << "nothing written back";
    }
    tamper = false;
    cache::Store store(o);
    cache::GetInfo info;
    auto outputs = store.get(key, &info);
    ASSERT_TRUE(outputs);
    EXPECT_EQ((*outputs)[0].bytes, cubin);
    EXPECT_EQ(info.remote, server.url("|read-only"));
    EXPECT_EQ(store.counters().remoteHits, 1u);
    EXPECT_EQ(store.usage().records, 1u) << "written back";
    // The next get is local.
    int before = static_cast<int>(server.heads().size());
    EXPECT_TRUE(store.get(key, &info));
    EXPECT_EQ(info.remote, "");
    EXPECT_EQ(static_cast<int>(server.heads().size()), before);
  }
}

}  // namespace

namespace {

TEST(RemoteStore, ARecordClaimingHugeOutputsIsRefusedBeforeAnyDownload) {
  cache::Key key{Digest::of("greedy action")};
  cache::ActionRecord record{key, {{"a", Digest::of("a"), std::uint64_t{900} << 20},
                                   {"b", Digest::of("b"), std::uint64_t{900} << 20}}};
  std::string recordFile = cache::encodeRecord(record);
  ScriptedServer server([&](int, int, const std::string& head) -> ScriptedServer::Reply {
    if (head.find("/ac/") != std::string::npos) return {ok(recordFile), false};
    return {"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", false};
  });
  TempDir dir;
  LogLines log;
  cache::StoreOptions o;
  o.root = dir.path();
  o.log = log.sink();
  o.remotes.push_back(parsed(server.url()));
  cache::Store store(o);
  EXPECT_FALSE(store.get(key));
  EXPECT_TRUE(log.contains("its outputs claim 1.8 GiB"));
  EXPECT_EQ(server.heads().size(), 1u) << "no blob was asked for";
}

}  // namespace

namespace {

// A Redis server that answers the first command with nil and then closes the
// connection; every later connection is reset at once. A client writing a
// large SET to it writes into a dead socket: EPIPE, which must be an error
// and not SIGPIPE's end of the process (hiredis and OpenSSL write without
// MSG_NOSIGNAL).
TEST(RemoteRedis, AServerThatResetsMidUploadIsAnErrorNotSigpipe) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::listen(fd, 8);
  std::thread server([fd] {
    for (int n = 0;; ++n) {
      int c = ::accept(fd, nullptr, nullptr);
      if (c < 0) return;
      if (n == 0) {
        // The kept-alive connection: closed after the answer. The client's
        // first write to it draws a reset, its next one EPIPE.
        char buf[4096];
        (void)::recv(c, buf, sizeof buf, 0);
        (void)::send(c, "$-1\r\n", 5, MSG_NOSIGNAL);
        ::close(c);
        continue;
      }
      linger l{1, 0};
      ::setsockopt(c, SOL_SOCKET, SO_LINGER, &l, sizeof l);
      ::close(c);
    }
  });
  Remote remote(parsed("redis://127.0.0.1:" + std::to_string(ntohs(a.sin_port)) + "|read-write"));
  EXPECT_EQ(remote.get(RemoteObject::Record, kDigest, 100).status, RemoteFetch::Status::Missing);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::string error;
  EXPECT_FALSE(remote.put(RemoteObject::Blob, kDigest, std::string(8 << 20, 'x'), &error));
  EXPECT_FALSE(error.empty());
  EXPECT_FALSE(remote.usable());
  ::shutdown(fd, SHUT_RDWR);
  ::close(fd);
  server.join();
}

}  // namespace
