// The remote cache's own parsers and the signing primitives (docs/CACHE.md,
// "TLS and credentials", "Trusted writers"): netrc and header files, URL
// redaction, key files, record signature trailers, Ed25519 through the
// plugin. tests/cache/remote/remote_trust_test.py runs them against real
// servers; tests/fuzz/fuzz_remote.cpp fuzzes the parsers.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstring>
#include <fstream>

#include "cache/entry.h"
#include "cache/remote/credentials.h"
#include "cache/remote/plugin.h"
#include "cache/remote/signature.h"
#include "tests/unit/cache_test_util.h"

namespace {

using namespace cache::remote;

TEST(RemoteNetrc, FindsTheHostElseDefault) {
  std::string why;
  std::string text =
      "# builders\n"
      "machine other.example login o password op\n"
      "machine cache.example\n  login builder\n  password \"s3 cr\\\"et\"\n"
      "default login anon password ap\n";
  auto e = findNetrcEntry(text, "cache.example", &why);
  ASSERT_TRUE(e) << why;
  EXPECT_EQ(e->login, "builder");
  EXPECT_EQ(e->password, "s3 cr\"et");
  auto d = findNetrcEntry(text, "elsewhere", &why);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->login, "anon");
  EXPECT_FALSE(findNetrcEntry("machine a login x", "b", &why));
  EXPECT_TRUE(why.empty());
  // The first entry for a host wins; a later one does not overwrite it.
  auto first = findNetrcEntry("machine h login a password 1 machine h login b password 2", "h", &why);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->login, "a");
}

TEST(RemoteNetrc, MalformedTextSaysWhyWithoutTheSecret) {
  std::string why;
  EXPECT_FALSE(findNetrcEntry("machine h login a password", "h", &why));
  EXPECT_EQ(why, "`password` without a value");
  why.clear();
  EXPECT_FALSE(findNetrcEntry("machine h password \"unclosed-secret", "h", &why));
  EXPECT_EQ(why, "an unclosed quote");
}

TEST(RemoteHeaders, NameValueLinesOnly) {
  std::vector<std::string> headers;
  std::string why;
  EXPECT_TRUE(parseHeaderLines("# S3 gateway\nX-Api-Key: abc\r\n\nAuthorization: Bearer t\n", &headers, &why));
  EXPECT_EQ(headers, (std::vector<std::string>{"X-Api-Key: abc", "Authorization: Bearer t"}));
  headers.clear();
  EXPECT_FALSE(parseHeaderLines("X-Ok: 1\nnot a header secret-value\n", &headers, &why));
  EXPECT_EQ(why, "line 2 is not `Name: value`");
  EXPECT_FALSE(parseHeaderLines(" X-Indented: 1\n", &headers, &why));
  EXPECT_FALSE(parseHeaderLines("X-Bad\x01: 1\n", &headers, &why));
}

TEST(RemoteCredentials, SecretFilesMustBePrivate) {
  cache_test::TempDir dir;
  std::string path = dir.path() + "/netrc";
  std::ofstream(path) << "machine 127.0.0.1 login u password the-secret\n";
  ::chmod(path.c_str(), 0644);
  cache::RemoteSpec spec;
  spec.host = "127.0.0.1";
  spec.netrcFile = path;
  Credentials c;
  std::string error;
  EXPECT_FALSE(loadCredentials(spec, &c, &error));
  EXPECT_NE(error.find("readable by other users"), std::string::npos) << error;
  EXPECT_EQ(error.find("the-secret"), std::string::npos);
  ::chmod(path.c_str(), 0600);
  EXPECT_TRUE(loadCredentials(spec, &c, &error)) << error;
  EXPECT_EQ(c.user, "u");
  EXPECT_EQ(c.password, "the-secret");
  spec.netrcFile = dir.path() + "/missing";
  EXPECT_FALSE(loadCredentials(spec, &c, &error));
  EXPECT_NE(error.find("cannot read the netrc file"), std::string::npos);
}

TEST(RemoteUrlRedaction, UserinfoIsHidden) {
  EXPECT_EQ(cache::redactRemote("https://u:secret@h:1/p|read-write"), "https://***@h:1/p|read-write");
  EXPECT_EQ(cache::redactRemote("redis://:pw@h"), "redis://***@h");
  EXPECT_EQ(cache::redactRemote("http://h/a@b"), "http://h/a@b") << "an @ in the path is no userinfo";
  EXPECT_EQ(cache::redactRemote("http://h|netrc=/x@y"), "http://h|netrc=/x@y");
}

TEST(RemoteKeys, KeyLinesRoundTrip) {
  unsigned char bytes[32];
  for (int i = 0; i < 32; ++i) bytes[i] = static_cast<unsigned char>(i * 7);
  std::string line = formatKeyLine(kPublicKeyTag, bytes);
  std::string why;
  auto parsed = parseKeyLine(line, kPublicKeyTag, &why);
  ASSERT_TRUE(parsed) << why;
  EXPECT_EQ(std::memcmp(parsed->data(), bytes, 32), 0);
  EXPECT_FALSE(parseKeyLine(line, kSecretKeyTag, &why)) << "a public key is no secret key";
  EXPECT_FALSE(parseKeyLine(line.substr(0, line.size() - 2), kPublicKeyTag, &why));
  std::string upper = line;
  upper[kPublicKeyTag.size() + 1] = 'G';
  EXPECT_FALSE(parseKeyLine(upper, kPublicKeyTag, &why));
}

TEST(RemoteSignature, TrailersSplitAndVerify) {
  std::string error;
  const PluginApi* api = loadPlugin(cache::RemoteProtocol::Redis, &error);
  ASSERT_TRUE(api) << error;
  cache::ActionRecord record{cache::Key{cache::Digest::of("k")}, {{"cubin", cache::Digest::of("c"), 1}}};
  std::string entry = cache::encodeRecord(record);
  auto plain = splitRecord(entry);
  ASSERT_TRUE(plain);
  EXPECT_FALSE(plain->signedRecord);
  EXPECT_EQ(plain->entry, entry);

  unsigned char seed[32], pub[32], sig[64];
  ASSERT_TRUE(api->generateKey(seed, pub));
  ASSERT_TRUE(api->sign(seed, signedMessage(entry), sig));
  std::string object = entry + std::string(kSignatureMagic) + std::string(reinterpret_cast<char*>(pub), 32) +
                       std::string(reinterpret_cast<char*>(sig), 64);
  auto split = splitRecord(object);
  ASSERT_TRUE(split);
  EXPECT_TRUE(split->signedRecord);
  EXPECT_EQ(split->entry, entry);
  EXPECT_TRUE(api->verify(split->publicKey.data(), signedMessage(split->entry), split->signature.data()));
  // One flipped bit of the entry, or a signature over another key's record, fails.
  std::string tampered = entry;
  tampered[kTrailerBytes % entry.size()] ^= 1;
  EXPECT_FALSE(api->verify(pub, signedMessage(tampered), sig));
  unsigned char pub2[32];
  unsigned char seed2[32];
  ASSERT_TRUE(api->generateKey(seed2, pub2));
  EXPECT_FALSE(api->verify(pub2, signedMessage(entry), sig));
  // Deterministic: the same key and record give the same bytes.
  unsigned char again[64];
  ASSERT_TRUE(api->sign(seed, signedMessage(entry), again));
  EXPECT_EQ(std::memcmp(sig, again, 64), 0);
  unsigned char derived[32];
  ASSERT_TRUE(api->publicKeyOf(seed, derived));
  EXPECT_EQ(std::memcmp(pub, derived, 32), 0);
  // Anything else after the entry is no trailer.
  EXPECT_FALSE(splitRecord(entry + "x"));
  EXPECT_FALSE(splitRecord(object.substr(0, object.size() - 1)));
  std::string badMagic = object;
  badMagic[entry.size()] = 'Q';
  EXPECT_FALSE(splitRecord(badMagic));
  EXPECT_FALSE(splitRecord(entry.substr(0, 50)));
}

}  // namespace
