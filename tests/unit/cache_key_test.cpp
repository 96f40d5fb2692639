// Key derivation: tagged fields, separation, determinism, printing.
#include <gtest/gtest.h>

#include "cache/key.h"

namespace {

using cache::Digest;
using cache::Key;
using cache::KeyBuilder;

TEST(CacheKey, Blake3KnownAnswer) {
  // BLAKE3("") from the BLAKE3 test vectors.
  EXPECT_EQ(Digest::of("").hex(),
            "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262");
}

TEST(CacheKey, NeighbouringFieldsCannotRunTogether) {
  Key abC = KeyBuilder().add("x", "ab").add("x", "c").key();
  Key aBc = KeyBuilder().add("x", "a").add("x", "bc").key();
  EXPECT_NE(abC, aBc);
  // Tag and value cannot trade bytes either.
  EXPECT_NE(KeyBuilder().add("ab", "c").key(), KeyBuilder().add("a", "bc").key());
  // An empty field is still a field.
  EXPECT_NE(KeyBuilder().add("x", "a").key(), KeyBuilder().add("x", "a").add("x", "").key());
  // Same value, different tag.
  EXPECT_NE(KeyBuilder().add("arch", "sm_90").key(), KeyBuilder().add("sig", "sm_90").key());
  // Order matters.
  EXPECT_NE(KeyBuilder().add("a", "1").add("b", "2").key(),
            KeyBuilder().add("b", "2").add("a", "1").key());
  // sm_90a is not sm_90.
  EXPECT_NE(KeyBuilder().add("arch", "sm_90").key(), KeyBuilder().add("arch", "sm_90a").key());
}

TEST(CacheKey, Deterministic) {
  auto build = [] {
    KeyBuilder b;
    b.add("pykc", "0.1.0+abc").add("llvm", "19.1.7").add("arch", "sm_90").add("opt", 3);
    b.add("source", std::string(10000, 'x'));
    return b.key();
  };
  EXPECT_EQ(build(), build());
  EXPECT_EQ(build().hex().size(), 64u);
  // The key of a given recipe never changes: entries written by another
  // pykc build of the same scheme must keep hitting.
  EXPECT_EQ(KeyBuilder().add("arch", "sm_90").key().hex(),
            KeyBuilder().add("arch", "sm_90").key().hex());
  // A key is not the digest of its value (domain separation).
  EXPECT_NE(KeyBuilder().key().digest, Digest::of(""));
}

TEST(CacheKey, IntAndStringFieldsAgree) {
  EXPECT_EQ(KeyBuilder().add("opt", std::int64_t{3}).key(), KeyBuilder().add("opt", "3").key());
}

TEST(CacheKey, HexRoundTrip) {
  Key k = KeyBuilder().add("a", "b").key();
  std::optional<Key> back = Key::fromHex(k.hex());
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, k);
  std::string upper = k.hex();
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_EQ(Key::fromHex(upper), k);
  EXPECT_FALSE(Key::fromHex(k.hex().substr(1)));
  EXPECT_FALSE(Key::fromHex(k.hex() + "0"));
  EXPECT_FALSE(Key::fromHex(std::string(63, '0') + "g"));
  EXPECT_FALSE(Key::fromHex("../../../../etc/passwd"));
}

TEST(CacheKey, FieldsForPrinting) {
  KeyBuilder b;
  b.add("arch", "sm_90").add("source", std::string(100, 'y')).add("note", "a\"b");
  const auto& f = b.fields();
  ASSERT_EQ(f.size(), 4u);
  EXPECT_EQ(f[0].tag, "scheme");
  std::string scheme = std::to_string(cache::kKeySchemeVersion);
  EXPECT_EQ(f[0].summary, std::string(1, '"').append(scheme).append(1, '"'));
  EXPECT_EQ(f[1].summary, "\"sm_90\"");
  EXPECT_EQ(f[2].size, 100u);
  EXPECT_EQ(f[2].summary,
            "100 bytes, blake3 " + Digest::of(std::string(100, 'y')).hex().substr(0, 16));
  EXPECT_EQ(f[3].summary, "\"a\\\"b\"");
  std::string text = cache::formatKeyFields(b);
  EXPECT_NE(text.find("scheme: \"1\"\narch: \"sm_90\"\n"), std::string::npos);
  EXPECT_NE(text.find("key: " + b.key().hex() + "\n"), std::string::npos);
}

// A field known by its size and digest (libdevice's, remembered across processes) is
// the field describe() makes of the value, and adds the same bytes to a key.
TEST(CacheKey, DescribeDigestMatchesDescribe) {
  std::string value(500, '\x01');
  cache::KeyField full = cache::KeyBuilder::describe("libdevice", value);
  cache::KeyField known = cache::KeyBuilder::describeDigest("libdevice", value.size(),
                                                            Digest::of(value));
  EXPECT_EQ(known.tag, full.tag);
  EXPECT_EQ(known.summary, full.summary);
  EXPECT_EQ(known.size, full.size);
  EXPECT_EQ(known.valueDigest, full.valueDigest);
  cache::KeyBuilder a, b;
  a.add(full);
  b.add(known);
  EXPECT_EQ(a.key(), b.key());
}

}  // namespace
