// A remote plugin's table (cache/remote/plugin.h): its protocol's client
// (PYKC_REMOTE_HTTP: libcurl, else hiredis), and Ed25519 through libsodium.
#include <sodium.h>

#include "cache/remote/plugin/plugin_internal.h"

namespace cache::remote {
namespace {

std::unique_ptr<Client> open(const RemoteSpec& spec, const Credentials& credentials, std::string* error) {
#ifdef PYKC_REMOTE_HTTP
  if (spec.protocol == RemoteProtocol::Http) return openHttpClient(spec, credentials, error);
#else
  if (spec.protocol == RemoteProtocol::Redis) return openRedisClient(spec, credentials, error);
#endif
  *error = "a remote plugin of another protocol";
  return nullptr;
}

bool generateKey(unsigned char seed[kSeedBytes], unsigned char publicKey[kPublicKeyBytes]) {
  if (sodium_init() < 0) return false;
  unsigned char secret[crypto_sign_SECRETKEYBYTES];
  randombytes_buf(seed, kSeedBytes);
  bool ok = crypto_sign_seed_keypair(publicKey, secret, seed) == 0;
  sodium_memzero(secret, sizeof secret);
  return ok;
}

bool publicKeyOf(const unsigned char seed[kSeedBytes], unsigned char publicKey[kPublicKeyBytes]) {
  if (sodium_init() < 0) return false;
  unsigned char secret[crypto_sign_SECRETKEYBYTES];
  bool ok = crypto_sign_seed_keypair(publicKey, secret, seed) == 0;
  sodium_memzero(secret, sizeof secret);
  return ok;
}

bool sign(const unsigned char seed[kSeedBytes], std::string_view message, unsigned char signature[kSignatureBytes]) {
  if (sodium_init() < 0) return false;
  unsigned char publicKey[crypto_sign_PUBLICKEYBYTES];
  unsigned char secret[crypto_sign_SECRETKEYBYTES];
  bool ok = crypto_sign_seed_keypair(publicKey, secret, seed) == 0 &&
            crypto_sign_detached(signature, nullptr, reinterpret_cast<const unsigned char*>(message.data()),
                                 message.size(), secret) == 0;
  sodium_memzero(secret, sizeof secret);
  return ok;
}

bool verify(const unsigned char publicKey[kPublicKeyBytes], std::string_view message,
            const unsigned char signature[kSignatureBytes]) {
  if (sodium_init() < 0) return false;
  return crypto_sign_verify_detached(signature, reinterpret_cast<const unsigned char*>(message.data()),
                                     message.size(), publicKey) == 0;
}

constexpr PluginApi kApi{kPluginAbi, sizeof(RemoteSpec), &open, &generateKey, &publicKeyOf, &sign, &verify};

static_assert(crypto_sign_PUBLICKEYBYTES == kPublicKeyBytes && crypto_sign_SEEDBYTES == kSeedBytes &&
              crypto_sign_BYTES == kSignatureBytes);

}  // namespace
}  // namespace cache::remote

extern "C" __attribute__((visibility("default"))) const cache::remote::PluginApi* pykc_remote_plugin() {
  return &cache::remote::kApi;
}
