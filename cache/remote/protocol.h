#pragma once
// One remote-cache protocol behind one interface (cache/remote/remote.h's
// Remote runs the retries, the connection pool and the error policy; a
// Protocol only speaks its wire format on one connection): HTTP (Bazel's
// /ac/ and /cas/ layout, http.cpp) and Redis (RESP GET/SET, redis.cpp).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cache/remote/remote.h"
#include "cache/remote/transport.h"

namespace cache::remote {

// What one attempt found.
struct Attempt {
  Outcome outcome;
  bool found = false;
  std::string bytes;
};

// What one pipelined attempt found: the first `done` answers.
struct ManyAttempt {
  Outcome outcome;
  size_t done = 0;
  std::vector<char> found;
  std::vector<std::string> bytes;
};

class Protocol {
public:
  virtual ~Protocol() = default;
  // The name of an object on the server.
  virtual std::string objectName(RemoteObject object, const Digest& digest) const = 0;
  // Set-up of a fresh connection (Redis: SELECT the database); false with
  // `out` set when it fails.
  virtual bool prepare(int fd, Clock::time_point deadline, Outcome& out) const = 0;
  // One exchange each on `fd`, results and faults in the attempt; they return
  // whether the connection may be kept for another exchange. A missing object
  // is not a fault. `getMany` pipelines the requests and may stop early
  // (`done`): the rest are fetched one by one.
  virtual bool get(int fd, const std::string& name, std::uint64_t maxBytes, Clock::time_point deadline,
                   Attempt& a) const = 0;
  virtual bool getMany(int fd, const std::vector<std::string>& names, const std::vector<std::uint64_t>& maxBytes,
                       Clock::time_point deadline, ManyAttempt& a) const = 0;
  virtual bool put(int fd, const std::string& name, std::string_view bytes, Clock::time_point deadline,
                   Attempt& a) const = 0;
};

std::unique_ptr<Protocol> httpProtocol(const RemoteSpec& spec);
std::unique_ptr<Protocol> redisProtocol(const RemoteSpec& spec);

}  // namespace cache::remote
