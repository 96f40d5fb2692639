// The HTTP(S) client of the remote cache, on libcurl: GET and PUT of
// PREFIX/ac/<key> and PREFIX/cas/<digest> (Bazel's remote-cache layout, nginx
// WebDAV, S3-compatible gateways). Several GETs run at once on one multi
// handle: multiplexed over one HTTP/2 connection where TLS offers it, else on
// up to 6 kept-alive HTTP/1.1 connections. Handles are pooled, so connections
// (and TLS sessions) are reused by later operations and by populate's threads.
#include <curl/curl.h>

#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "cache/remote/plugin/plugin_internal.h"

namespace cache::remote {
namespace {


struct Transfer {
  CURL* easy = nullptr;
  std::string name;
  std::uint64_t maxBytes = 0;
  // PUT: the bytes and how far they have been sent.
  bool put = false;
  std::string_view upload;
  size_t sent = 0;
  std::string body;
  bool tooLarge = false;
  bool done = false;
  CURLcode code = CURLE_OK;
  char errbuf[CURL_ERROR_SIZE] = {};
};

size_t onData(char* data, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  size_t n = size * count;
  long status = 0;
  curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &status);
  // Only a found object's bytes matter; other bodies (a 404 page, a PUT's
  // answer) are dropped as they come.
  if (status != 200 || t->put) return n;
  if (t->body.size() + n > t->maxBytes) {
    t->tooLarge = true;
    return 0;
  }
  t->body.append(data, n);
  return n;
}

size_t onSend(char* buffer, size_t size, size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  size_t n = std::min(size * count, t->upload.size() - t->sent);
  std::memcpy(buffer, t->upload.data() + t->sent, n);
  t->sent += n;
  return n;
}

struct Classified {
  Fault fault = Fault::None;
  bool found = false;
  std::string error;
};

class HttpClient : public Client {
public:
  HttpClient(const RemoteSpec& spec, Credentials credentials)
      : spec_(spec), credentials_(std::move(credentials)) {
    bool v6 = spec_.host.find(':') != std::string::npos;
    base_ = std::string(spec_.tls ? "https://" : "http://") + (v6 ? "[" + spec_.host + "]" : spec_.host) + ":" +
            std::to_string(spec_.port);
    for (const std::string& h : credentials_.headers) headers_ = curl_slist_append(headers_, h.c_str());
    // No `Expect: 100-continue` round trip before a large PUT.
    headers_ = curl_slist_append(headers_, "Expect:");
    putHeaders_ = curl_slist_append(nullptr, "Content-Type: application/octet-stream");
    for (const std::string& h : credentials_.headers) putHeaders_ = curl_slist_append(putHeaders_, h.c_str());
    putHeaders_ = curl_slist_append(putHeaders_, "Expect:");
  }

  ~HttpClient() override {
    SigpipeGuard guard;
    for (CURLM* m : idle_) curl_multi_cleanup(m);
    curl_slist_free_all(headers_);
    curl_slist_free_all(putHeaders_);
    curl_global_cleanup();
  }

  std::vector<RemoteFetch> get(const std::vector<std::string>& names,
                               const std::vector<std::uint64_t>& maxBytes) override {
    std::vector<Transfer> transfers(names.size());
    for (size_t i = 0; i < names.size(); ++i) {
      transfers[i].name = names[i];
      transfers[i].maxBytes = maxBytes[i];
    }
    std::vector<Classified> outcome = run(transfers);
    std::vector<RemoteFetch> results(names.size());
    for (size_t i = 0; i < names.size(); ++i) {
      if (outcome[i].fault != Fault::None) {
        for (RemoteFetch& r : results) {
          r = RemoteFetch{RemoteFetch::Status::Failed, {}, outcome[i].error};
        }
        return results;
      }
      results[i].status = outcome[i].found ? RemoteFetch::Status::Found : RemoteFetch::Status::Missing;
      results[i].bytes = std::move(transfers[i].body);
    }
    return results;
  }

  bool put(const std::string& name, std::string_view bytes, std::string* error) override {
    std::vector<Transfer> transfers(1);
    transfers[0].name = name;
    transfers[0].put = true;
    transfers[0].upload = bytes;
    std::vector<Classified> outcome = run(transfers);
    if (outcome[0].fault != Fault::None) {
      *error = outcome[0].error;
      return false;
    }
    return true;
  }

  bool list(const std::string&, std::vector<std::string>*, std::string* error) override {
    *error = "an HTTP remote cannot list its records";
    return false;
  }

private:
  CURLM* takeMulti() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!idle_.empty()) {
        CURLM* m = idle_.back();
        idle_.pop_back();
        return m;
      }
    }
    CURLM* m = curl_multi_init();
    if (m) {
      curl_multi_setopt(m, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX);
      curl_multi_setopt(m, CURLMOPT_MAX_HOST_CONNECTIONS, 6L);
    }
    return m;
  }

  void giveMulti(CURLM* m, bool healthy) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (healthy && idle_.size() < 16) {
      idle_.push_back(m);
    } else {
      curl_multi_cleanup(m);
    }
  }

  void configure(Transfer& t, Clock::time_point deadline) const {
    CURL* e = t.easy;
    std::string url = base_ + t.name;
    curl_easy_setopt(e, CURLOPT_URL, url.c_str());
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, spec_.tls ? "https" : "http");
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t.errbuf);
    curl_easy_setopt(e, CURLOPT_USERAGENT, "pykc");
    curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(std::max(1, std::min(spec_.connectTimeoutMs, msLeft(deadline)))));
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(std::max(1, msLeft(deadline))));
    curl_easy_setopt(e, CURLOPT_PIPEWAIT, 1L);
    curl_easy_setopt(e, CURLOPT_HTTP_VERSION, spec_.tls ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_1_1);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &onData);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, &t);
    // No CURLOPT_MAXFILESIZE: libcurl would apply it to a long 404 page too.
    // onData stops a found object's body at its bound instead.
    if (spec_.tls) {
      // Verification is libcurl's default; said here so that no one turns it off by accident.
      curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 1L);
      curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 2L);
      if (!spec_.caFile.empty()) curl_easy_setopt(e, CURLOPT_CAINFO, spec_.caFile.c_str());
      if (!spec_.clientCert.empty()) {
        curl_easy_setopt(e, CURLOPT_SSLCERT, spec_.clientCert.c_str());
        curl_easy_setopt(e, CURLOPT_SSLKEY, spec_.clientKey.c_str());
      }
    }
    if (!credentials_.user.empty() || !credentials_.password.empty()) {
      curl_easy_setopt(e, CURLOPT_HTTPAUTH, static_cast<long>(CURLAUTH_BASIC));
      curl_easy_setopt(e, CURLOPT_USERNAME, credentials_.user.c_str());
      curl_easy_setopt(e, CURLOPT_PASSWORD, credentials_.password.c_str());
    } else if (!credentials_.token.empty()) {
      curl_easy_setopt(e, CURLOPT_HTTPAUTH, static_cast<long>(CURLAUTH_BEARER));
      curl_easy_setopt(e, CURLOPT_XOAUTH2_BEARER, credentials_.token.c_str());
    }
    if (t.put) {
      curl_easy_setopt(e, CURLOPT_UPLOAD, 1L);
      curl_easy_setopt(e, CURLOPT_READFUNCTION, &onSend);
      curl_easy_setopt(e, CURLOPT_READDATA, &t);
      curl_easy_setopt(e, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(t.upload.size()));
      curl_easy_setopt(e, CURLOPT_HTTPHEADER, putHeaders_);
    } else {
      curl_easy_setopt(e, CURLOPT_HTTPHEADER, headers_);
    }
  }

  Classified classify(Transfer& t) const {
    std::string detail = t.errbuf[0] ? std::string(t.errbuf) : std::string(curl_easy_strerror(t.code));
    switch (t.code) {
      case CURLE_OK:
        break;
      case CURLE_WRITE_ERROR:
        if (t.tooLarge) return {Fault::Protocol, false, "the answer is too large"};
        return {Fault::Protocol, false, detail};
      case CURLE_OPERATION_TIMEDOUT: {
        long connected = 0;
        curl_easy_getinfo(t.easy, CURLINFO_CONNECT_TIME_T, &connected);
        return {Fault::Timeout, false, connected == 0 ? "connect: timed out" : "timed out"};
      }
      case CURLE_COULDNT_CONNECT: {
        long osErrno = 0;
        curl_easy_getinfo(t.easy, CURLINFO_OS_ERRNO, &osErrno);
        std::string why = osErrno ? std::strerror(static_cast<int>(osErrno)) : detail;
        return {osErrno == ECONNREFUSED ? Fault::Refused : Fault::Transport, false, "connect: " + why};
      }
      case CURLE_COULDNT_RESOLVE_HOST:
        return {Fault::Transport, false, "cannot resolve `" + spec_.host + "`"};
      case CURLE_PARTIAL_FILE:
        return {Fault::Transport, false, "connection closed mid-answer"};
      case CURLE_SEND_ERROR:
      case CURLE_RECV_ERROR:
      case CURLE_GOT_NOTHING:
        return {Fault::Transport, false, "connection lost: " + detail};
      case CURLE_WEIRD_SERVER_REPLY:
      case CURLE_UNSUPPORTED_PROTOCOL:
      case CURLE_HTTP2:
      case CURLE_HTTP2_STREAM:
      case CURLE_BAD_CONTENT_ENCODING:
        return {Fault::Protocol, false, "not an HTTP answer (" + detail + ")"};
      case CURLE_PEER_FAILED_VERIFICATION:
        return {Fault::Protocol, false, "TLS: the server's certificate is not trusted: " + detail};
      case CURLE_SSL_CONNECT_ERROR:
        return {Fault::Protocol, false, "TLS handshake failed: " + detail};
      case CURLE_SSL_CACERT_BADFILE:
        return {Fault::Protocol, false, "TLS: cannot load the CA file `" + spec_.caFile + "`: " + detail};
      case CURLE_SSL_CERTPROBLEM:
        return {Fault::Protocol, false, "TLS: cannot use the client certificate: " + detail};
      default:
        return {Fault::Protocol, false, detail};
    }
    long status = 0;
    curl_easy_getinfo(t.easy, CURLINFO_RESPONSE_CODE, &status);
    bool sentCredentials = !credentials_.user.empty() || !credentials_.password.empty() ||
                           !credentials_.token.empty() || !credentials_.headers.empty();
    if (!t.put && status == 200) return {Fault::None, true, {}};
    if (!t.put && status == 404) return {Fault::None, false, {}};
    if (t.put && status >= 200 && status <= 299) return {Fault::None, false, {}};
    std::string text = "HTTP status " + std::to_string(status);
    if (status == 401 || status == 403) {
      text += sentCredentials ? ": the server refused the credentials" : ": the server wants credentials";
    }
    return {status >= 500 ? Fault::Server : Fault::Protocol, false, text};
  }

  // Runs every transfer to the end; retries the ones that met a transport
  // or server fault (25, then 50 ms later) within the operation's deadline.
  std::vector<Classified> run(std::vector<Transfer>& transfers) {
    SigpipeGuard guard;
    Clock::time_point deadline = Clock::now() + std::chrono::milliseconds(spec_.operationTimeoutMs);
    std::vector<Classified> outcome(transfers.size());
    std::vector<size_t> pending(transfers.size());
    for (size_t i = 0; i < pending.size(); ++i) pending[i] = i;
    int backoffMs = 25;
    for (int attempt = 0;; ++attempt) {
      CURLM* multi = takeMulti();
      if (!multi) {
        for (size_t i : pending) outcome[i] = {Fault::Protocol, false, "libcurl: cannot make a handle"};
        return outcome;
      }
      for (size_t i : pending) {
        Transfer& t = transfers[i];
        t.easy = curl_easy_init();
        t.body.clear();
        t.sent = 0;
        t.tooLarge = false;
        t.done = false;
        t.errbuf[0] = 0;
        configure(t, deadline);
        curl_multi_add_handle(multi, t.easy);
      }
      int running = 1;
      while (running > 0) {
        if (curl_multi_perform(multi, &running) != CURLM_OK) break;
        int msgs = 0;
        while (CURLMsg* msg = curl_multi_info_read(multi, &msgs)) {
          if (msg->msg != CURLMSG_DONE) continue;
          for (size_t i : pending) {
            if (transfers[i].easy == msg->easy_handle) {
              transfers[i].code = msg->data.result;
              transfers[i].done = true;
            }
          }
        }
        if (running == 0) break;
        if (msLeft(deadline) == 0) break;
        curl_multi_poll(multi, nullptr, 0, std::min(msLeft(deadline), 100), nullptr);
      }
      bool healthy = true;
      std::vector<size_t> retry;
      Fault worst = Fault::None;
      for (size_t i : pending) {
        Transfer& t = transfers[i];
        if (!t.done) {
          t.code = CURLE_OPERATION_TIMEDOUT;
          std::snprintf(t.errbuf, sizeof t.errbuf, "timed out");
        }
        outcome[i] = classify(t);
        curl_multi_remove_handle(multi, t.easy);
        curl_easy_cleanup(t.easy);
        t.easy = nullptr;
        if (outcome[i].fault != Fault::None) healthy = false;
        if (outcome[i].fault == Fault::Transport || outcome[i].fault == Fault::Server ||
            outcome[i].fault == Fault::Refused) {
          retry.push_back(i);
        } else if (outcome[i].fault != Fault::None) {
          worst = outcome[i].fault;
        }
      }
      giveMulti(multi, healthy);
      // A timeout or a protocol fault ends the operation; so do spent retries.
      if (retry.empty() || worst != Fault::None || attempt == 2 || msLeft(deadline) <= backoffMs) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(backoffMs));
      backoffMs *= 2;
      pending = std::move(retry);
    }
    return outcome;
  }

  RemoteSpec spec_;
  Credentials credentials_;
  std::string base_;
  curl_slist* headers_ = nullptr;
  curl_slist* putHeaders_ = nullptr;
  std::mutex mutex_;
  std::vector<CURLM*> idle_;
};

}  // namespace

std::unique_ptr<Client> openHttpClient(const RemoteSpec& spec, const Credentials& credentials, std::string* error) {
  // Reference-counted and thread-safe in libcurl 7.84 and later.
  if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
    *error = "libcurl cannot start";
    return nullptr;
  }
  return std::make_unique<HttpClient>(spec, credentials);
}

}  // namespace cache::remote
