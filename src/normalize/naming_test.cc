#include "normalize/naming.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "normalize/digest.h"

namespace databox::normalize {
namespace {

TEST(NamingTest, SplitsCamelCaseAndAcronyms) {
  EXPECT_EQ(NormalizeIdentifier("camelCase"), "camel_case");
  EXPECT_EQ(NormalizeIdentifier("DealFlow"), "deal_flow");
  EXPECT_EQ(NormalizeIdentifier("acceptedScientificName"), "accepted_scientific_name");
  EXPECT_EQ(NormalizeIdentifier("gbifID"), "gbif_id");
  EXPECT_EQ(NormalizeIdentifier("HTTPServer"), "http_server");
  EXPECT_EQ(NormalizeIdentifier("elevationUnit"), "elevation_unit");
  EXPECT_EQ(NormalizeIdentifier("numSpeciesAllTime"), "num_species_all_time");
  EXPECT_EQ(NormalizeIdentifier("already_snake"), "already_snake");
  EXPECT_EQ(NormalizeIdentifier("ABCdefGHi"), "ab_cdef_g_hi");
  EXPECT_EQ(NormalizeIdentifier("aBCDe"), "a_bc_de");
}

TEST(NamingTest, ReducesAlphabetAndUnderscores) {
  EXPECT_EQ(NormalizeIdentifier("  spaced name  "), "spaced_name");
  EXPECT_EQ(NormalizeIdentifier("a.b/c"), "a_b_c");
  EXPECT_EQ(NormalizeIdentifier("a+b*c@d|e-f"), "axbxcadle_f");
  EXPECT_EQ(NormalizeIdentifier("a  ..  b"), "a_b");
  EXPECT_EQ(NormalizeIdentifier("a__b"), "a_b");
  EXPECT_EQ(NormalizeIdentifier("trailing__"), "trailingxx");
  EXPECT_EQ(NormalizeIdentifier("Größe"), "gr_e");
}

TEST(NamingTest, PrefixesLeadingDigits) {
  EXPECT_EQ(NormalizeIdentifier("1st"), "_1st");
  EXPECT_EQ(NormalizeIdentifier("2024Value"), "_2024_value");
}

TEST(NamingTest, BlankKeysGetTheEmptyName) {
  EXPECT_EQ(NormalizeIdentifier(""), "_empty");
  EXPECT_EQ(NormalizeIdentifier("   "), "_empty");
}

TEST(NamingTest, PathsKeepTheirSeparator) {
  EXPECT_EQ(NormalizePath("geometry__coordinateType"), "geometry__coordinate_type");
  EXPECT_EQ(NormalizePath("a____b"), "a__b");
  EXPECT_EQ(ShortenFragments({"taxonomy", "banding_codes"}), "taxonomy__banding_codes");
  EXPECT_EQ(ShortenFragments({"a", "", "b"}), "a__b");
}

TEST(NamingTest, ShortensWithHashTagLikeDlt) {
  // Tag = lower(base64(shake_128("a_very_long_identifier").digest(4))) with /+ -> ab, computed
  // with Python's hashlib.
  EXPECT_EQ(NormalizeIdentifier("a_very_long_identifier", 10), "a_5pamiwer");
  EXPECT_EQ(NormalizeIdentifier("a_very_long_identifier", 64), "a_very_long_identifier");
  EXPECT_EQ(NormalizeIdentifier("aVeryLongIdentifier", 10).size(), 10u);
}

TEST(DigestTest, MatchesPythonBase64AndShake) {
  EXPECT_EQ(Base64NoPad(std::string("\x00\x01\x02\xff\xfe", 5)), "AAEC//4");
  // RFC 4648's vectors, without the padding: 0, 1 and 2 bytes after the last whole group.
  EXPECT_EQ(Base64NoPad(""), "");
  EXPECT_EQ(Base64NoPad("f"), "Zg");
  EXPECT_EQ(Base64NoPad("fo"), "Zm8");
  EXPECT_EQ(Base64NoPad("foo"), "Zm9v");
  EXPECT_EQ(Base64NoPad("foobar"), "Zm9vYmFy");
  // base64(shake_128("ROOTID_t__tags_0").digest(10)) from Python's hashlib.
  EXPECT_EQ(Digest128("ROOTID_t__tags_0"), "up74rXjQR/EjEA");
  EXPECT_EQ(RandomDltId().size(), 14u);
  EXPECT_NE(RandomDltId(), RandomDltId());
}

TEST(DigestTest, ShakeAcrossRateBlockBoundaries) {
  // SHAKE-128 absorbs 168 bytes per permutation and squeezes 168 per block; these inputs and
  // outputs cross those boundaries. Expected values from Python's hashlib.shake_128.
  EXPECT_EQ(Digest128(""), "f5wrpOiPgn1hYA");
  EXPECT_EQ(Digest128(std::string(167, 'a')), "T1xsU66BkKj/ig");
  EXPECT_EQ(Digest128(std::string(168, 'b')), "fown7BQcU3r7/w");
  EXPECT_EQ(Digest128(std::string(400, 'c')), "JMpABcJ00PimMQ");
  const std::string long_output = Shake128(std::string(400, 'c'), 200);
  EXPECT_EQ(long_output.substr(196), std::string("\x46\xb7\xbe\x19"));
}

TEST(DigestTest, ManyAtOnceMatchesPython) {
  // The batched path (four texts per vector permutation) against Python's hashlib values, with
  // one-block and longer texts mixed so groups of 1-4 and the scalar fallback all occur.
  const std::vector<std::string> texts = {"ROOTID_t__tags_0",    "",
                                          std::string(167, 'a'), std::string(168, 'b'),
                                          std::string(400, 'c'), "ROOTID_t__tags_0"};
  std::vector<std::string> out(texts.size());
  Digest128Many(texts, out);
  EXPECT_EQ(out, (std::vector<std::string>{"up74rXjQR/EjEA", "f5wrpOiPgn1hYA", "T1xsU66BkKj/ig",
                                           "fown7BQcU3r7/w", "JMpABcJ00PimMQ", "up74rXjQR/EjEA"}));
}

TEST(DigestTest, ManyAtOnceEqualsOneAtATime) {
  // Every group size and position: 1..17 texts of lengths 0..190 (the one-at-a-time path is
  // checked against hashlib above).
  for (std::size_t n = 1; n <= 17; ++n) {
    std::vector<std::string> texts;
    for (std::size_t i = 0; i < n; ++i) {
      texts.push_back(std::string((n * 37 + i * 23) % 191, static_cast<char>('a' + i)));
    }
    std::vector<std::string> out(n);
    Digest128Many(texts, out);
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_EQ(out[i], Digest128(texts[i])) << "n=" << n << " i=" << i;
    }
  }
}

TEST(DigestTest, RandomIdsDoNotRepeat) {
  // Ids come from a pool refilled from the CSPRNG; crossing many refills must not repeat ids.
  std::set<std::string> ids;
  for (int i = 0; i < 10'000; ++i) ids.insert(RandomDltId());
  EXPECT_EQ(ids.size(), 10'000u);
}

}  // namespace
}  // namespace databox::normalize
