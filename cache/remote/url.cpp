// Remote URLs (`--remote`, $PYKC_REMOTE_STORAGE): schemes, hosts, ports,
// attributes; and their redaction for messages.
#include "cache/remote/remote.h"

#include <arpa/inet.h>

#include <charconv>

namespace cache {
namespace {

template <typename T>
bool parseNumber(std::string_view text, T& out) {
  if (text.empty()) return false;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && p == text.data() + text.size();
}

bool isHostChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '-' || c == '_';
}

bool isPathChar(char c) {
  return isHostChar(c) || c == '/' || c == '~' || c == '%' || c == '+' || c == ':' || c == '@' ||
         c == '=' || c == ',' || c == '!';
}

}  // namespace

std::vector<std::string> splitRemoteList(std::string_view text) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n')) ++i;
    size_t start = i;
    while (i < text.size() && !(text[i] == ' ' || text[i] == '\t' || text[i] == '\n')) ++i;
    if (i > start) out.emplace_back(text.substr(start, i - start));
  }
  return out;
}

std::optional<RemoteSpec> parseRemote(std::string_view text, std::string* why) {
  RemoteSpec spec;
  spec.text = std::string(text);
  std::string_view url = text.substr(0, text.find('|'));
  std::string_view attributes =
      url.size() < text.size() ? text.substr(url.size() + 1) : std::string_view();
  auto fail = [&](std::string message) -> std::optional<RemoteSpec> {
    *why = std::move(message);
    return std::nullopt;
  };
  std::string_view rest;
  if (url.substr(0, 7) == "http://") {
    spec.protocol = RemoteProtocol::Http;
    spec.port = 80;
    rest = url.substr(7);
  } else if (url.substr(0, 8) == "https://") {
    spec.protocol = RemoteProtocol::Http;
    spec.tls = true;
    spec.port = 443;
    rest = url.substr(8);
  } else if (url.substr(0, 8) == "redis://") {
    spec.protocol = RemoteProtocol::Redis;
    spec.port = 6379;
    rest = url.substr(8);
  } else if (url.substr(0, 9) == "rediss://") {
    spec.protocol = RemoteProtocol::Redis;
    spec.tls = true;
    spec.port = 6379;
    rest = url.substr(9);
  } else {
    return fail("expected http[s]://HOST[:PORT][/PREFIX] or redis[s]://HOST[:PORT][/DB]");
  }
  std::string_view authority = rest.substr(0, rest.find('/'));
  std::string_view path = rest.substr(authority.size());
  if (authority.find('@') != std::string_view::npos) {
    return fail("credentials in the URL are not supported: use $PYKC_REMOTE_TOKEN or a netrc file "
                "(`netrc=PATH`, $PYKC_REMOTE_NETRC)");
  }
  std::string_view portText;
  if (!authority.empty() && authority[0] == '[') {
    size_t close = authority.find(']');
    if (close == std::string_view::npos) return fail("an unclosed `[` in the host");
    spec.host = std::string(authority.substr(1, close - 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after[0] != ':') return fail("expected `:PORT` after `]`");
      portText = after.substr(1);
      if (portText.empty()) return fail("an empty port");
    }
    in6_addr ignored{};
    if (::inet_pton(AF_INET6, spec.host.c_str(), &ignored) != 1) {
      return fail("`" + spec.host + "` is not an IPv6 address");
    }
  } else {
    size_t colon = authority.find(':');
    spec.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) {
      portText = authority.substr(colon + 1);
      if (portText.empty()) return fail("an empty port");
    }
    if (spec.host.empty()) return fail("no host");
    for (char c : spec.host) {
      if (!isHostChar(c)) return fail("`" + spec.host + "` is not a host name");
    }
  }
  if (!portText.empty()) {
    unsigned port = 0;
    if (!parseNumber(portText, port) || port == 0 || port > 65535) {
      return fail("`" + std::string(portText) + "` is not a port (1 to 65535)");
    }
    spec.port = static_cast<std::uint16_t>(port);
  }
  if (spec.protocol == RemoteProtocol::Http) {
    for (char c : path) {
      if (!isPathChar(c)) return fail("the path `" + std::string(path) + "` has a character other than letters, digits and -._~%/+:@=,!");
    }
    while (!path.empty() && path.back() == '/') path.remove_suffix(1);
    spec.prefix = std::string(path);
  } else if (!path.empty() && path != "/") {
    if (!parseNumber(path.substr(1), spec.db) || spec.db < 0 || spec.db > 1000000) {
      return fail("`" + std::string(path.substr(1)) + "` is not a database number");
    }
  }
  bool more = url.size() < text.size();
  while (more) {
    std::string_view item = attributes.substr(0, attributes.find('|'));
    more = item.size() < attributes.size();
    attributes.remove_prefix(std::min(attributes.size(), item.size() + 1));
    if (item.empty()) return fail("an empty attribute (a `|` too many)");
    std::string_view name = item.substr(0, item.find('='));
    bool hasValue = name.size() < item.size();
    std::string_view value = hasValue ? item.substr(name.size() + 1) : std::string_view();
    auto milliseconds = [&](int& into, int max) -> bool {
      int ms = 0;
      if (!hasValue || !parseNumber(value, ms) || ms < 1 || ms > max) {
        *why = "`" + std::string(item) + "`: expected " + std::string(name) + "=MS, 1 to " +
               std::to_string(max);
        return false;
      }
      into = ms;
      return true;
    };
    auto path = [&](std::string& into) -> bool {
      if (!hasValue || value.empty()) {
        *why = "`" + std::string(item) + "`: expected " + std::string(name) + "=PATH";
        return false;
      }
      into = std::string(value);
      return true;
    };
    bool http = spec.protocol == RemoteProtocol::Http;
    if (name == "read-only" && !hasValue) {
      spec.readOnly = true;
    } else if (name == "read-write" && !hasValue) {
      spec.readOnly = false;
    } else if (name == "connect-timeout") {
      if (!milliseconds(spec.connectTimeoutMs, 60000)) return std::nullopt;
    } else if (name == "operation-timeout") {
      if (!milliseconds(spec.operationTimeoutMs, 600000)) return std::nullopt;
    } else if (name == "layout" && http && (value == "bazel" || value == "standard")) {
      spec.blobsInAc = value == "bazel";
    } else if (name == "ca-file" || name == "client-cert" || name == "client-key") {
      if (!spec.tls) return fail("`" + std::string(name) + "` needs TLS (https:// or rediss://)");
      if (!path(name == "ca-file" ? spec.caFile : name == "client-cert" ? spec.clientCert : spec.clientKey)) {
        return std::nullopt;
      }
    } else if (name == "netrc") {
      if (!path(spec.netrcFile)) return std::nullopt;
    } else if (name == "header-file" && http) {
      if (!path(spec.headerFile)) return std::nullopt;
    } else if (name == "signing-key") {
      if (!path(spec.signingKeyFile)) return std::nullopt;
    } else if (name == "verify-key") {
      if (!path(spec.verifyKeyFile)) return std::nullopt;
    } else {
      return fail("unknown attribute `" + std::string(item) +
                  "` (known: read-only, read-write, connect-timeout=MS, operation-timeout=MS, "
                  "ca-file=PATH, client-cert=PATH, client-key=PATH, netrc=PATH, " +
                  (http ? "header-file=PATH, " : "") + "signing-key=PATH, verify-key=PATH" +
                  (http ? ", layout=bazel|standard)" : ")"));
    }
  }
  if (spec.clientCert.empty() != spec.clientKey.empty()) {
    return fail("`client-cert` and `client-key` go together");
  }
  return spec;
}

std::string redactRemote(std::string_view text) {
  size_t scheme = text.find("://");
  if (scheme == std::string_view::npos) return std::string(text);
  size_t start = scheme + 3;
  size_t end = text.find_first_of("/|", start);
  std::string_view authority = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
  size_t at = authority.rfind('@');
  if (at == std::string_view::npos) return std::string(text);
  return std::string(text.substr(0, start)) + "***" + std::string(text.substr(start + at));
}

}  // namespace cache
