// Remote: one remote level over the plugin's client (cache/remote/plugin.h):
// object names, the circuit breaker, read-only refusal, and record signatures.
#include "cache/remote/remote.h"

#include <cstring>

#include "cache/remote/credentials.h"
#include "cache/remote/plugin.h"
#include "cache/remote/signature.h"

namespace cache {

using namespace remote;

namespace {

constexpr const char* kNotAgain = "not used after an earlier failure";

std::unique_ptr<SigningKey> loadSigningKey(const PluginApi& api, const std::string& path, std::string* error) {
  std::string text, why;
  if (!readSecretFile(path, "signing key", &text, error)) return nullptr;
  std::optional<std::array<unsigned char, 32>> seed = parseKeyLine(text, kSecretKeyTag, &why);
  if (!seed) {
    *error = "the signing key `" + path + "` is malformed: " + why;
    return nullptr;
  }
  auto key = std::make_unique<SigningKey>();
  key->seed = *seed;
  if (!api.publicKeyOf(key->seed.data(), key->publicKey.data())) {
    *error = "the signing key `" + path + "` is not an Ed25519 seed";
    return nullptr;
  }
  return key;
}

std::unique_ptr<VerifyKey> loadVerifyKey(const std::string& path, std::string* error) {
  std::string text, why;
  // A public key is no secret: any permission bits will do.
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    *error = "cannot read the verify key `" + path + "`: " + std::strerror(errno);
    return nullptr;
  }
  char buf[512];
  size_t n = std::fread(buf, 1, sizeof buf, f);
  std::fclose(f);
  text.assign(buf, n);
  std::optional<std::array<unsigned char, 32>> bytes = parseKeyLine(text, kPublicKeyTag, &why);
  if (!bytes) {
    *error = "the verify key `" + path + "` is malformed: " + why;
    return nullptr;
  }
  auto key = std::make_unique<VerifyKey>();
  key->publicKey = *bytes;
  return key;
}

}  // namespace

Remote::Remote(RemoteSpec spec) : spec_(std::move(spec)) {}

Remote::~Remote() = default;

bool Remote::ready(std::string* error) {
  std::lock_guard<std::mutex> lock(setupMutex_);
  if (!setUp_) {
    setUp_ = true;
    api_ = loadPlugin(spec_.protocol, &setupError_);
    Credentials credentials;
    if (!api_) {
      broken_ = true;
    } else if (!spec_.signingKeyFile.empty() &&
               !(signingKey_ = loadSigningKey(*api_, spec_.signingKeyFile, &setupError_))) {
      broken_ = true;
    } else if (!spec_.verifyKeyFile.empty() && !(verifyKey_ = loadVerifyKey(spec_.verifyKeyFile, &setupError_))) {
      broken_ = true;
    } else if (!loadCredentials(spec_, &credentials, &setupError_)) {
      broken_ = true;
    } else {
      std::string why;
      client_ = api_->open(spec_, credentials, &why);
      if (!client_) {
        setupError_ = why;
        broken_ = true;
      }
    }
  }
  if (!client_) {
    *error = setupError_;
    return false;
  }
  if (broken_) {
    *error = kNotAgain;
    return false;
  }
  return true;
}

std::string Remote::objectName(RemoteObject object, const Digest& digest) const {
  if (spec_.protocol == RemoteProtocol::Redis) {
    return std::string(object == RemoteObject::Record ? "pykc:ac:" : "pykc:cas:") + digest.hex();
  }
  bool ac = object == RemoteObject::Record || spec_.blobsInAc;
  return spec_.prefix + (ac ? "/ac/" : "/cas/") + digest.hex();
}

RemoteFetch Remote::get(RemoteObject object, const Digest& digest, std::uint64_t maxBytes,
                        RecordSignature* signature) {
  if (signature) *signature = RecordSignature::Unsigned;
  RemoteFetch result;
  if (!ready(&result.error)) {
    result.status = RemoteFetch::Status::Failed;
    return result;
  }
  // A record may carry its signature trailer beyond the entry's bound.
  std::uint64_t limit = maxBytes + (object == RemoteObject::Record ? kTrailerBytes : 0);
  result = std::move(client_->get({objectName(object, digest)}, {limit})[0]);
  if (result.status == RemoteFetch::Status::Failed) {
    broken_ = true;
    return result;
  }
  if (result.status != RemoteFetch::Status::Found || object != RemoteObject::Record) return result;
  std::optional<SplitRecord> split = splitRecord(result.bytes);
  // Not an entry, or a malformed trailer: left to the Store's checks as it is.
  if (!split) return result;
  if (split->signedRecord && signature) {
    const unsigned char* trusted = verifyKey_ ? verifyKey_->publicKey.data()
                                   : signingKey_ ? signingKey_->publicKey.data() : nullptr;
    if (trusted && std::memcmp(trusted, split->publicKey.data(), kPublicKeyBytes) != 0) {
      *signature = RecordSignature::OtherKey;
    } else {
      bool good = api_->verify(split->publicKey.data(), signedMessage(split->entry), split->signature.data());
      *signature = good ? RecordSignature::Good : RecordSignature::Bad;
    }
  }
  result.bytes.resize(split->entry.size());
  return result;
}

std::vector<RemoteFetch> Remote::getMany(RemoteObject object, const std::vector<Digest>& digests,
                                         const std::vector<std::uint64_t>& maxBytes) {
  size_t n = digests.size();
  std::vector<RemoteFetch> results(n);
  if (n == 0) return results;
  std::string error;
  if (!ready(&error)) {
    for (RemoteFetch& r : results) {
      r.status = RemoteFetch::Status::Failed;
      r.error = error;
    }
    return results;
  }
  // Records go through get() one at a time (their trailers).
  if (object == RemoteObject::Record) {
    for (size_t i = 0; i < n; ++i) results[i] = get(object, digests[i], maxBytes[i]);
    return results;
  }
  std::vector<std::string> names;
  for (const Digest& d : digests) names.push_back(objectName(object, d));
  results = client_->get(names, maxBytes);
  for (const RemoteFetch& r : results) {
    if (r.status == RemoteFetch::Status::Failed) broken_ = true;
  }
  return results;
}

bool Remote::put(RemoteObject object, const Digest& digest, std::string_view bytes, std::string* error) {
  if (spec_.readOnly) {
    *error = "read-only";
    return false;
  }
  if (!ready(error)) return false;
  std::string signedBytes;
  if (object == RemoteObject::Record && signingKey_) {
    unsigned char sig[kSignatureBytes];
    if (!api_->sign(signingKey_->seed.data(), signedMessage(bytes), sig)) {
      *error = "signing failed";
      broken_ = true;
      return false;
    }
    signedBytes.reserve(bytes.size() + kTrailerBytes);
    signedBytes.append(bytes);
    signedBytes.append(kSignatureMagic);
    signedBytes.append(reinterpret_cast<const char*>(signingKey_->publicKey.data()), kPublicKeyBytes);
    signedBytes.append(reinterpret_cast<const char*>(sig), kSignatureBytes);
    bytes = signedBytes;
  }
  if (!client_->put(objectName(object, digest), bytes, error)) {
    broken_ = true;
    return false;
  }
  return true;
}

bool Remote::listRecords(std::vector<Digest>* keys, std::string* error) {
  if (!ready(error)) return false;
  std::vector<std::string> names;
  if (!client_->list("pykc:ac:", &names, error)) return false;
  for (const std::string& name : names) {
    if (std::optional<Digest> d = Digest::fromHex(std::string_view(name).substr(8))) keys->push_back(*d);
  }
  return true;
}

}  // namespace cache
