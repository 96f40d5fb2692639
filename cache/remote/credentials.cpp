// Credentials for remotes: $PYKC_REMOTE_TOKEN, netrc files, header files.
#include "cache/remote/credentials.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace cache::remote {
namespace {

constexpr size_t kMaxSecretFileBytes = 65536;
constexpr size_t kMaxTokenBytes = 4096;

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// Splits netrc text into tokens: whitespace-separated, or "double quoted"
// with backslash escapes (curl's reading).
bool netrcTokens(std::string_view text, std::vector<std::string>* tokens, std::string* why) {
  size_t i = 0;
  while (i < text.size()) {
    if (isSpace(text[i])) {
      ++i;
      continue;
    }
    // A `#` starting a token comments out the rest of the line.
    if (text[i] == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    std::string token;
    if (text[i] == '"') {
      ++i;
      bool closed = false;
      while (i < text.size()) {
        char c = text[i++];
        if (c == '"') {
          closed = true;
          break;
        }
        if (c == '\\' && i < text.size()) c = text[i++];
        token.push_back(c);
      }
      if (!closed) {
        *why = "an unclosed quote";
        return false;
      }
    } else {
      while (i < text.size() && !isSpace(text[i])) token.push_back(text[i++]);
    }
    if (token.size() > kMaxTokenBytes) {
      *why = "a token longer than 4096 bytes";
      return false;
    }
    tokens->push_back(std::move(token));
  }
  return true;
}

}  // namespace

std::optional<NetrcEntry> findNetrcEntry(std::string_view text, std::string_view host, std::string* why) {
  std::vector<std::string> tokens;
  if (!netrcTokens(text, &tokens, why)) return std::nullopt;
  std::optional<NetrcEntry> found;
  std::optional<NetrcEntry> fallback;
  // Where login and password go: the entry for `host`, the first `default`,
  // or nowhere (another machine's).
  NetrcEntry ignored;
  NetrcEntry* target = &ignored;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    auto value = [&](std::string* into) {
      if (i + 1 >= tokens.size()) {
        *why = "`" + t + "` without a value";
        return false;
      }
      *into = tokens[++i];
      return true;
    };
    if (t == "machine") {
      std::string name;
      if (!value(&name)) return std::nullopt;
      target = &ignored;
      if (name == host && !found) target = &found.emplace();
    } else if (t == "default") {
      target = fallback ? &ignored : &fallback.emplace();
    } else if (t == "login") {
      if (!value(&target->login)) return std::nullopt;
    } else if (t == "password") {
      if (!value(&target->password)) return std::nullopt;
    } else if (t == "account") {
      std::string unused;
      if (!value(&unused)) return std::nullopt;
    } else if (t == "macdef") {
      // A macro runs to the next blank line; none of ours. Skip its name.
      std::string unused;
      if (!value(&unused)) return std::nullopt;
    }
    // Other tokens (macro bodies) are skipped.
  }
  if (found) return found;
  return fallback;
}

bool parseHeaderLines(std::string_view text, std::vector<std::string>* headers, std::string* why) {
  size_t lineNumber = 0;
  while (!text.empty()) {
    ++lineNumber;
    std::string_view line = text.substr(0, text.find('\n'));
    text.remove_prefix(std::min(text.size(), line.size() + 1));
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    size_t start = 0;
    while (start < line.size() && (line[start] == ' ' || line[start] == '\t')) ++start;
    if (start == line.size() || line[start] == '#') continue;
    size_t colon = line.find(':');
    bool ok = colon != std::string_view::npos && colon > 0 && start == 0;
    for (size_t k = 0; ok && k < colon; ++k) {
      char c = line[k];
      ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    }
    for (size_t k = 0; ok && k < line.size(); ++k) {
      unsigned char c = static_cast<unsigned char>(line[k]);
      ok = c >= 0x20 && c != 0x7f;
    }
    if (!ok) {
      *why = "line " + std::to_string(lineNumber) + " is not `Name: value`";
      return false;
    }
    headers->emplace_back(line);
  }
  return true;
}

bool readSecretFile(const std::string& path, const char* what, std::string* text, std::string* error) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = std::string("cannot read the ") + what + " `" + path + "`: " + std::strerror(errno);
    return false;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    *error = std::string("the ") + what + " `" + path + "` is not a regular file";
    return false;
  }
  if ((st.st_mode & 077) != 0) {
    ::close(fd);
    *error = std::string("the ") + what + " `" + path +
             "` is readable by other users (chmod 600 it)";
    return false;
  }
  if (static_cast<std::uint64_t>(st.st_size) > kMaxSecretFileBytes) {
    ::close(fd);
    *error = std::string("the ") + what + " `" + path + "` is larger than 64 KiB";
    return false;
  }
  text->clear();
  char buf[4096];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      *error = std::string("cannot read the ") + what + " `" + path + "`: " + std::strerror(errno);
      ::close(fd);
      return false;
    }
    if (n == 0) break;
    text->append(buf, static_cast<size_t>(n));
    if (text->size() > kMaxSecretFileBytes) break;
  }
  ::close(fd);
  return true;
}

bool loadCredentials(const RemoteSpec& spec, Credentials* out, std::string* error) {
  *out = Credentials{};
  if (const char* token = std::getenv("PYKC_REMOTE_TOKEN"); token && *token) {
    out->token = token;
    for (char c : out->token) {
      if (static_cast<unsigned char>(c) < 0x21 || c == 0x7f) {
        *error = "$PYKC_REMOTE_TOKEN holds a space or control character";
        return false;
      }
    }
  }
  std::string netrc = spec.netrcFile;
  if (netrc.empty()) {
    if (const char* env = std::getenv("PYKC_REMOTE_NETRC"); env && *env) netrc = env;
  }
  if (!netrc.empty()) {
    std::string text;
    if (!readSecretFile(netrc, "netrc file", &text, error)) return false;
    std::string why;
    std::optional<NetrcEntry> entry = findNetrcEntry(text, spec.host, &why);
    if (!why.empty()) {
      *error = "the netrc file `" + netrc + "` is malformed: " + why;
      return false;
    }
    if (entry) {
      out->user = entry->login;
      out->password = entry->password;
    }
  }
  if (!spec.headerFile.empty()) {
    std::string text;
    if (!readSecretFile(spec.headerFile, "header file", &text, error)) return false;
    std::string why;
    if (!parseHeaderLines(text, &out->headers, &why)) {
      *error = "the header file `" + spec.headerFile + "`: " + why;
      return false;
    }
  }
  return true;
}

}  // namespace cache::remote
