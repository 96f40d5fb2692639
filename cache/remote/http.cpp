// The HTTP protocol of the remote cache (Bazel's remote-cache layout:
// PREFIX/ac/<digest> for records, PREFIX/cas/<digest> for blobs): HTTP/1.1
// GET and PUT with keep-alive, pipelined GETs.
#include <cctype>

#include "cache/remote/protocol.h"

namespace cache::remote {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

struct HttpAnswer {
  int status = 0;
  std::string body;
  bool keepAlive = false;
};

std::string httpRequest(const RemoteSpec& spec, std::string_view method, const std::string& path,
                        std::uint64_t bodySize) {
  bool v6 = spec.host.find(':') != std::string::npos;
  std::string head = std::string(method) + " " + path + " HTTP/1.1\r\nHost: " +
                     (v6 ? "[" + spec.host + "]" : spec.host);
  if (spec.port != 80) head += ":" + std::to_string(spec.port);
  head += "\r\nUser-Agent: pykc\r\nAccept: */*\r\n";
  if (method == "PUT") {
    head += "Content-Type: application/octet-stream\r\nContent-Length: " +
            std::to_string(bodySize) + "\r\n";
  }
  head += "\r\n";
  return head;
}

// Reads one HTTP/1.1 answer to `method` from `reader`.
bool readHttpAnswer(Reader& reader, std::string_view method, std::uint64_t maxBytes,
                    HttpAnswer& answer, Outcome& out) {
  std::string line;
  if (!reader.line(line, 8192)) return false;
  // `HTTP/1.1 200 OK`
  if (line.size() < 12 || line.compare(0, 7, "HTTP/1.") != 0 || line[8] != ' ' ||
      !parseNumber(std::string_view(line).substr(9, 3), answer.status) ||
      (line.size() > 12 && line[12] != ' ')) {
    out = {Fault::Protocol, "not an HTTP answer", true};
    return false;
  }
  bool http10 = line[7] == '0';
  answer.keepAlive = !http10;
  std::optional<std::uint64_t> length;
  bool chunked = false;
  size_t headerBytes = 0;
  for (;;) {
    if (!reader.line(line, 8192)) return false;
    if (line.empty()) break;
    headerBytes += line.size();
    if (headerBytes > 65536) {
      out = {Fault::Protocol, "too many header bytes", true};
      return false;
    }
    size_t colon = line.find(':');
    if (colon == std::string::npos) {
      out = {Fault::Protocol, "a malformed header line", true};
      return false;
    }
    std::string name = lower(trim(std::string_view(line).substr(0, colon)));
    std::string value = lower(trim(std::string_view(line).substr(colon + 1)));
    if (name == "content-length") {
      std::uint64_t n = 0;
      if (!parseNumber(value, n) || (length && *length != n)) {
        out = {Fault::Protocol, "a malformed Content-Length", true};
        return false;
      }
      length = n;
    } else if (name == "transfer-encoding") {
      chunked = value.find("chunked") != std::string::npos;
    } else if (name == "connection") {
      if (value.find("close") != std::string::npos) answer.keepAlive = false;
      if (value.find("keep-alive") != std::string::npos && http10) answer.keepAlive = true;
    }
  }
  // 1xx (100 Continue is never asked for), 204 and 304 carry no body.
  bool noBody = answer.status < 200 || answer.status == 204 || answer.status == 304;
  if (noBody) return true;
  // Only a found object's body matters; others (a 404 page, a PUT's
  // answer) are read to keep the connection usable, up to 64 KiB.
  if (answer.status != 200 || method != "GET") maxBytes = 65536;
  if (chunked) {
    for (;;) {
      if (!reader.line(line, 1024)) return false;
      std::string_view size = line;
      if (size_t semi = size.find(';'); semi != std::string_view::npos) size = size.substr(0, semi);
      size = trim(size);
      std::uint64_t n = 0;
      auto [p, ec] = std::from_chars(size.data(), size.data() + size.size(), n, 16);
      if (size.empty() || ec != std::errc() || p != size.data() + size.size()) {
        out = {Fault::Protocol, "a malformed chunk size", true};
        return false;
      }
      if (n > maxBytes - std::min<std::uint64_t>(maxBytes, answer.body.size())) {
        out = {Fault::Protocol, "the answer is too large", true};
        return false;
      }
      if (n == 0) break;
      if (!reader.exact(static_cast<size_t>(n), answer.body)) return false;
      if (!reader.line(line, 0)) return false;
    }
    // Trailers, up to the empty line.
    do {
      if (!reader.line(line, 8192)) return false;
    } while (!line.empty());
  } else if (length) {
    if (*length > maxBytes) {
      out = {Fault::Protocol, "the answer is too large (" + std::to_string(*length) + " bytes)",
             true};
      return false;
    }
    if (!reader.exact(static_cast<size_t>(*length), answer.body)) return false;
  } else {
    answer.keepAlive = false;
    if (!reader.untilClose(answer.body, maxBytes)) return false;
  }
  return true;
}

// One HTTP/1.1 request and its answer on `fd`.
bool httpExchange(int fd, const RemoteSpec& spec, std::string_view method, const std::string& path,
                  std::string_view body, std::uint64_t maxBytes, Clock::time_point deadline,
                  HttpAnswer& answer, Outcome& out) {
  if (!sendAll(fd, httpRequest(spec, method, path, body.size()), deadline, out) ||
      !sendAll(fd, body, deadline, out)) {
    return false;
  }
  Reader reader(fd, deadline, out);
  if (!readHttpAnswer(reader, method, maxBytes, answer, out)) return false;
  // Bytes after the answer: the server is confused; do not reuse.
  if (!reader.drained()) answer.keepAlive = false;
  return true;
}

class HttpProtocol : public Protocol {
public:
  explicit HttpProtocol(const RemoteSpec& spec) : spec_(spec) {}

  std::string objectName(RemoteObject object, const Digest& digest) const override {
    bool ac = object == RemoteObject::Record || spec_.blobsInAc;
    return spec_.prefix + (ac ? "/ac/" : "/cas/") + digest.hex();
  }

  bool prepare(int, Clock::time_point, Outcome&) const override { return true; }

  bool get(int fd, const std::string& name, std::uint64_t maxBytes, Clock::time_point deadline,
           Attempt& a) const override {
    HttpAnswer answer;
    if (!httpExchange(fd, spec_, "GET", name, {}, maxBytes, deadline, answer, a.outcome)) return false;
    if (answer.status == 200) {
      a.found = true;
      a.bytes = std::move(answer.body);
    } else if (answer.status != 404) {
      a.outcome = statusFault(answer.status);
    }
    return answer.keepAlive;
  }

  bool getMany(int fd, const std::vector<std::string>& names, const std::vector<std::uint64_t>& maxBytes,
               Clock::time_point deadline, ManyAttempt& a) const override {
    std::string requests;
    for (const std::string& name : names) requests += httpRequest(spec_, "GET", name, 0);
    if (!sendAll(fd, requests, deadline, a.outcome)) return false;
    Reader reader(fd, deadline, a.outcome);
    for (size_t i = 0; i < names.size(); ++i) {
      HttpAnswer answer;
      if (!readHttpAnswer(reader, "GET", maxBytes[i], answer, a.outcome)) return false;
      if (answer.status == 200) {
        a.found[i] = 1;
        a.bytes[i] = std::move(answer.body);
      } else if (answer.status != 404) {
        a.outcome = statusFault(answer.status);
        return false;
      }
      a.done = i + 1;
      // The server ends the connection early: the rest go one by one.
      if (!answer.keepAlive) return false;
    }
    return reader.drained();
  }

  bool put(int fd, const std::string& name, std::string_view bytes, Clock::time_point deadline,
           Attempt& a) const override {
    HttpAnswer answer;
    if (!httpExchange(fd, spec_, "PUT", name, bytes, 0, deadline, answer, a.outcome)) return false;
    if (answer.status < 200 || answer.status > 299) a.outcome = statusFault(answer.status);
    return answer.keepAlive;
  }

private:
  static Outcome statusFault(int status) {
    return {status >= 500 ? Fault::Server : Fault::Protocol, "HTTP status " + std::to_string(status), true};
  }

  RemoteSpec spec_;
};

}  // namespace

std::unique_ptr<Protocol> httpProtocol(const RemoteSpec& spec) { return std::make_unique<HttpProtocol>(spec); }

}  // namespace cache::remote
