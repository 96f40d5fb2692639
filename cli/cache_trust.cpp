// `pykc cache keygen` and `pykc cache verify --remote`.
#include "cli/cache_trust.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "cache/entry.h"
#include "cache/remote/plugin.h"
#include "cache/remote/signature.h"
#include "cli/command.h"
#include "cli/invocation.h"

namespace cli {
namespace {

// Creates `path` with `mode`, never over an existing file.
bool writeNew(const std::string& path, const std::string& text, mode_t mode, std::string* error) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0) {
    *error = errno == EEXIST ? "`" + path + "` exists; not overwritten"
                             : "cannot write `" + path + "`: " + std::strerror(errno);
    return false;
  }
  bool ok = ::fchmod(fd, mode) == 0 && ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ok = ::close(fd) == 0 && ok;
  if (!ok) {
    *error = "cannot write `" + path + "`: " + std::strerror(errno);
    ::unlink(path.c_str());
  }
  return ok;
}

}  // namespace

int runKeygen(Invocation& inv, const std::string& prefix) {
  std::string error;
  const cache::remote::PluginApi* api = cache::remote::loadPlugin(cache::RemoteProtocol::Redis, &error);
  if (!api) {
    std::fprintf(inv.err, "pykc: error: %s\n", error.c_str());
    return kExitEnvironment;
  }
  unsigned char seed[cache::remote::kSeedBytes];
  unsigned char publicKey[cache::remote::kPublicKeyBytes];
  if (!api->generateKey(seed, publicKey)) {
    std::fprintf(inv.err, "pykc: error: libsodium cannot make a key\n");
    return kExitEnvironment;
  }
  std::string secretPath = prefix + ".key";
  std::string publicPath = prefix + ".pub";
  struct stat st {};
  for (const std::string& path : {secretPath, publicPath}) {
    if (::lstat(path.c_str(), &st) == 0) {
      std::fprintf(inv.err, "pykc: error: `%s` exists; not overwritten\n", path.c_str());
      return kExitEnvironment;
    }
  }
  if (!writeNew(secretPath, cache::remote::formatKeyLine(cache::remote::kSecretKeyTag, seed), 0600, &error) ||
      !writeNew(publicPath, cache::remote::formatKeyLine(cache::remote::kPublicKeyTag, publicKey), 0644, &error)) {
    std::fprintf(inv.err, "pykc: error: %s\n", error.c_str());
    return kExitEnvironment;
  }
  std::memset(seed, 0, sizeof seed);
  std::fprintf(inv.out,
               "wrote %s (secret: for the builders, `signing-key=%s`) and %s (public: for every reader, "
               "`verify-key=%s`); key id %s\n",
               secretPath.c_str(), secretPath.c_str(), publicPath.c_str(), publicPath.c_str(),
               cache::remote::keyId(publicKey).c_str());
  return kExitOk;
}

int runVerifyRemote(Invocation& inv, cache::Store& store, const std::vector<cache::RemoteSpec>& remotes) {
  for (const cache::RemoteSpec& spec : remotes) {
    if (spec.verifyKeyFile.empty() && spec.signingKeyFile.empty()) {
      std::fprintf(inv.err,
                   "pykc: error: --remote %s: `pykc cache verify --remote` needs the public key: add "
                   "`|verify-key=PATH`\n",
                   spec.text.c_str());
      return kExitUsage;
    }
  }
  bool problems = false;
  for (const cache::RemoteSpec& spec : remotes) {
    cache::Remote remote(spec);
    std::vector<cache::Digest> keys;
    std::string error;
    const char* source = "on the remote";
    if (!remote.listRecords(&keys, &error)) {
      if (!remote.usable()) {
        std::fprintf(inv.err, "pykc: error: remote %s: %s\n", spec.text.c_str(), error.c_str());
        problems = true;
        continue;
      }
      // HTTP cannot list: the records this folder knows.
      source = "in the local folder";
      for (const cache::EntryInfo& e : store.list()) keys.push_back(e.key.digest);
    }
    std::uint64_t good = 0, missing = 0, bad = 0;
    for (const cache::Digest& digest : keys) {
      cache::Key key{digest};
      cache::RecordSignature signature = cache::RecordSignature::Unsigned;
      cache::RemoteFetch f = remote.get(cache::RemoteObject::Record, digest, 1u << 24, &signature);
      if (f.status == cache::RemoteFetch::Status::Failed) {
        std::fprintf(inv.err, "pykc: error: remote %s: record %s: %s\n", spec.text.c_str(), key.hex().c_str(),
                     f.error.c_str());
        problems = true;
        break;
      }
      if (f.status == cache::RemoteFetch::Status::Missing) {
        ++missing;
        continue;
      }
      std::string why;
      if (signature != cache::RecordSignature::Good) {
        why = cache::describeSignature(signature);
      } else if (!cache::decodeRecord(f.bytes, key, &why)) {
        why = "damaged: " + why;
      }
      if (why.empty()) {
        ++good;
      } else {
        ++bad;
        std::fprintf(inv.out, "record %s: %s\n", key.hex().c_str(), why.c_str());
      }
    }
    std::fprintf(inv.out, "remote %s: %zu records %s: %llu signed by the key, %llu with problems", spec.text.c_str(),
                 keys.size(), source, static_cast<unsigned long long>(good), static_cast<unsigned long long>(bad));
    if (missing) std::fprintf(inv.out, ", %llu not on the remote", static_cast<unsigned long long>(missing));
    std::fprintf(inv.out, "\n");
    if (bad) problems = true;
  }
  if (problems) {
    std::fprintf(inv.err, "pykc: error: the remote holds records that are not signed by the key\n");
    return kExitEnvironment;
  }
  return kExitOk;
}

}  // namespace cli
