// The Redis protocol of the remote cache: RESP GET and SET of
// pykc:ac:<digest> (records) and pykc:cas:<digest> (blobs), pipelined GETs,
// SELECT of the database on each fresh connection.
#include "cache/remote/protocol.h"

namespace cache::remote {
namespace {

std::string respCommand(std::initializer_list<std::string_view> args) {
  std::string out;
  out.push_back('*');
  out.append(std::to_string(args.size()));
  out.append("\r\n");
  for (std::string_view a : args) {
    out.push_back('$');
    out.append(std::to_string(a.size()));
    out.append("\r\n");
    out.append(a);
    out.append("\r\n");
  }
  return out;
}

// One reply: a bulk string (`found`), nil (`!found`) or +OK.
bool respReply(Reader& reader, std::uint64_t maxBytes, std::string& bulk, bool& found,
               Outcome& out) {
  std::string line;
  if (!reader.line(line, 8192)) return false;
  if (line.empty()) {
    out = {Fault::Protocol, "an empty Redis reply", true};
    return false;
  }
  found = false;
  switch (line[0]) {
    case '+':
      return true;
    case '-':
      out = {Fault::Server, "Redis: " + line.substr(1), true};
      return false;
    case '$': {
      if (line == "$-1") return true;
      std::uint64_t n = 0;
      if (!parseNumber(std::string_view(line).substr(1), n)) break;
      if (n > maxBytes) {
        out = {Fault::Protocol, "the answer is too large (" + std::to_string(n) + " bytes)", true};
        return false;
      }
      if (!reader.exact(static_cast<size_t>(n), bulk)) return false;
      std::string crlf;
      if (!reader.exact(2, crlf)) return false;
      if (crlf != "\r\n") break;
      found = true;
      return true;
    }
    default:
      break;
  }
  out = {Fault::Protocol, "not a Redis reply", true};
  return false;
}

class RedisProtocol : public Protocol {
public:
  explicit RedisProtocol(const RemoteSpec& spec) : spec_(spec) {}

  std::string objectName(RemoteObject object, const Digest& digest) const override {
    return std::string(object == RemoteObject::Record ? "pykc:ac:" : "pykc:cas:") + digest.hex();
  }

  bool prepare(int fd, Clock::time_point deadline, Outcome& out) const override {
    if (spec_.db == 0) return true;
    Reader reader(fd, deadline, out);
    std::string ignored;
    bool found = false;
    if (!sendAll(fd, respCommand({"SELECT", std::to_string(spec_.db)}), deadline, out) ||
        !respReply(reader, 0, ignored, found, out)) {
      return false;
    }
    out = {};
    return true;
  }

  bool get(int fd, const std::string& name, std::uint64_t maxBytes, Clock::time_point deadline,
           Attempt& a) const override {
    if (!sendAll(fd, respCommand({"GET", name}), deadline, a.outcome)) return false;
    Reader reader(fd, deadline, a.outcome);
    if (!respReply(reader, maxBytes, a.bytes, a.found, a.outcome)) return false;
    return reader.drained();
  }

  bool getMany(int fd, const std::vector<std::string>& names, const std::vector<std::uint64_t>& maxBytes,
               Clock::time_point deadline, ManyAttempt& a) const override {
    std::string commands;
    for (const std::string& name : names) commands += respCommand({"GET", name});
    if (!sendAll(fd, commands, deadline, a.outcome)) return false;
    Reader reader(fd, deadline, a.outcome);
    for (size_t i = 0; i < names.size(); ++i) {
      bool found = false;
      if (!respReply(reader, maxBytes[i], a.bytes[i], found, a.outcome)) return false;
      a.found[i] = found;
      a.done = i + 1;
    }
    return reader.drained();
  }

  bool put(int fd, const std::string& name, std::string_view bytes, Clock::time_point deadline,
           Attempt& a) const override {
    if (!sendAll(fd, respCommand({"SET", name, bytes}), deadline, a.outcome)) return false;
    Reader reader(fd, deadline, a.outcome);
    std::string ignored;
    bool found = false;
    if (!respReply(reader, 0, ignored, found, a.outcome)) return false;
    return reader.drained();
  }

private:
  RemoteSpec spec_;
};

}  // namespace

std::unique_ptr<Protocol> redisProtocol(const RemoteSpec& spec) { return std::make_unique<RedisProtocol>(spec); }

}  // namespace cache::remote
