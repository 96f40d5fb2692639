#pragma once
// `pykc cache keygen` and `pykc cache verify --remote` (docs/CACHE.md,
// "Trusted writers"): signing keys for remote records, and an audit of a
// remote's records against a public key.
#include <string>
#include <vector>

#include "cache/remote/remote.h"
#include "cache/store.h"

namespace cli {

struct Invocation;

// Writes PREFIX.key (the secret seed, mode 0600) and PREFIX.pub; never
// overwrites. Exit 0, or 3 (a file exists or cannot be written, no plugin).
int runKeygen(Invocation& inv, const std::string& prefix);

// Checks the signature of every record on each remote (Redis: all of
// pykc:ac:*; HTTP, which cannot list: the records in `store`'s folder).
// Prints each unsigned, badly signed, foreign-key or damaged record and a
// summary per remote. Exit 0 when all are good, 3 otherwise; 2 when a remote
// has no `verify-key` or `signing-key`.
int runVerifyRemote(Invocation& inv, cache::Store& store, const std::vector<cache::RemoteSpec>& remotes);

}  // namespace cli
