#include "source/file_source.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <utility>
#include <vector>

#include "common/redact.h"
#include "duck/test_support.h"
#include "source/source_test_support.h"

namespace databox::source {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kFileUrl[] = "https://downloads.example.org/files/42";
constexpr char kTarget[] = "https://bucket.example.net/files/42/data.xlsx";
constexpr char kSignature[] = "S1gnatureValue0123456789";

//! The presigned query of kTarget with `expires` and the six keys (minus `drop`, plus `extra`).
std::string SignedQuery(const std::string& expires = "10", const std::string& drop = "",
                        const std::string& extra = "") {
  const std::vector<std::pair<std::string, std::string>> keys = {
      {"X-Amz-Algorithm", "AWS4-HMAC-SHA256"},
      {"X-Amz-Credential", "AKIAEXAMPLE%2F20260803%2Feu-west-1%2Fs3%2Faws4_request"},
      {"X-Amz-Date", "20260803T120000Z"},
      {"X-Amz-Expires", expires},
      {"X-Amz-SignedHeaders", "host"},
      {"X-Amz-Signature", kSignature},
  };
  std::string query;
  for (const auto& [key, value] : keys) {
    if (key != drop) query += (query.empty() ? "" : "&") + key + "=" + value;
  }
  return query + extra;
}

std::string SignedUrl() { return std::string(kTarget) + "?" + SignedQuery(); }

registry::FileSettings Settings(std::optional<int64_t> size = std::nullopt) {
  registry::FileSettings file;
  file.url = kFileUrl;
  file.redirect_url = kTarget;
  file.size_bytes = size;
  return file;
}

http::Response Body(long status, std::string body) {
  http::Response r;
  r.status = status;
  r.body = std::move(body);
  return r;
}

http::Response Redirect(const std::string& location) {
  http::Response r = Body(302, "");
  r.headers.Add("Location", location);
  return r;
}

//! A client over a fake transport that answers by URL.
struct FakeServer {
  std::shared_ptr<testing::FakeTransport> transport;
  http::HttpClient client;
};

FakeServer Serve(testing::FakeTransport::Handler handler) {
  auto transport = std::make_shared<testing::FakeTransport>(std::move(handler));
  http::ClientOptions options;
  options.retry.max_attempts = 1;
  options.redirects.follow = false;  // as platform's MakeFileClient: the download checks it
  return {transport, http::HttpClient::WithTransport(transport, options)};
}

TEST(Md5HexTest, Rfc1321Vectors) {
  EXPECT_EQ(*Md5Hex(""), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(*Md5Hex("abc"), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(*Md5Hex("message digest"), "f96b697d7cb7938d525a2f31aaf161d0");
}

TEST(ComputeFileFactsTest, SizeAndMd5OfAFileLargerThanOneBlock) {
  duck::testing::TempDir dir;
  const std::string bytes(3 * 1024 * 1024 + 17, 'a');
  testing::WriteBytes(dir.path() / "f", bytes);
  auto facts = ComputeFileFacts(dir.path() / "f");
  ASSERT_TRUE(facts.has_value()) << facts.error().ToString();
  EXPECT_EQ(facts->size_bytes, static_cast<int64_t>(bytes.size()));
  EXPECT_EQ(facts->md5, *Md5Hex(bytes));
  auto missing = ComputeFileFacts(dir.path() / "absent");
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().kind, ErrorKind::kIo);
}

TEST(CheckPinnedFileTest, NamesTheFailedCheck) {
  const FileFacts facts{10, "900150983cd24fb0d6963f7d28e17f72"};
  EXPECT_TRUE(CheckPinnedFile(facts, {10, facts.md5}, "x").has_value());
  EXPECT_TRUE(CheckPinnedFile(facts, {std::nullopt, ""}, "x").has_value());
  auto size = CheckPinnedFile(facts, {11, facts.md5}, "avonet");
  ASSERT_FALSE(size.has_value());
  EXPECT_EQ(size.error().kind, ErrorKind::kData);
  EXPECT_THAT(size.error().message,
              HasSubstr("avonet: size check failed: the file has 10 bytes, expected 11"));
  auto md5 = CheckPinnedFile(facts, {10, "d41d8cd98f00b204e9800998ecf8427e"}, "avonet");
  ASSERT_FALSE(md5.has_value());
  EXPECT_THAT(md5.error().message, HasSubstr("avonet: md5 check failed: the file's MD5 is "
                                             "900150983cd24fb0d6963f7d28e17f72, expected "
                                             "d41d8cd98f00b204e9800998ecf8427e"));
}

TEST(DownloadPinnedFileTest, FollowsExactlyOneRedirectAndWritesTheFile) {
  duck::testing::TempDir dir;
  FakeServer server = Serve([](const http::Request& r) {
    if (r.url == kFileUrl) return Redirect(SignedUrl());
    if (r.url == SignedUrl()) return Body(200, "workbook bytes");
    return Body(404, "");
  });
  auto file = DownloadPinnedFile(server.client, Settings(14), "avonet", dir.path() / "a.xlsx");
  ASSERT_TRUE(file.has_value()) << file.error().ToString();
  EXPECT_EQ(testing::ReadBytes(dir.path() / "a.xlsx"), "workbook bytes");
  EXPECT_EQ(file->facts.size_bytes, 14);
  EXPECT_EQ(file->facts.md5, *Md5Hex("workbook bytes"));
  ASSERT_EQ(server.transport->requests().size(), 2u);
  EXPECT_EQ(server.transport->requests()[1].max_response_bytes, std::size_t{14});
  // The signature was registered as a secret: any text that quotes it is redacted.
  EXPECT_THAT(Redact("GET " + SignedUrl()), Not(HasSubstr(kSignature)));
}

TEST(DownloadPinnedFileTest, EveryMalformedSignedRedirectIsRefusedBeforeAnyDownload) {
  struct Variant {
    std::string name;
    std::string location;
    std::string problem;
  };
  const std::string target = kTarget;
  const std::vector<Variant> variants = {
      {"a longer path", target + ".old?" + SignedQuery(), "the URL is not " + target},
      {"a path prefix only", "https://bucket.example.net/files/42/?" + SignedQuery(),
       "the URL is not " + target},
      {"another host", "https://bucket.example.org/files/42/data.xlsx?" + SignedQuery(),
       "the URL is not " + target},
      {"plain http", "http://bucket.example.net/files/42/data.xlsx?" + SignedQuery(),
       "the URL is not " + target},
      {"a port", "https://bucket.example.net:8443/files/42/data.xlsx?" + SignedQuery(),
       "the URL is not " + target},
      {"no query", target, "has no signed query"},
      {"an empty query", target + "?", "has no signed query"},
      {"a fragment", SignedUrl() + "#x", "has a fragment"},
      {"no algorithm", target + "?" + SignedQuery("10", "X-Amz-Algorithm"),
       "lacks X-Amz-Algorithm"},
      {"no credential", target + "?" + SignedQuery("10", "X-Amz-Credential"),
       "lacks X-Amz-Credential"},
      {"no date", target + "?" + SignedQuery("10", "X-Amz-Date"), "lacks X-Amz-Date"},
      {"no expiry", target + "?" + SignedQuery("10", "X-Amz-Expires"), "lacks X-Amz-Expires"},
      {"no signed headers", target + "?" + SignedQuery("10", "X-Amz-SignedHeaders"),
       "lacks X-Amz-SignedHeaders"},
      {"no signature", target + "?" + SignedQuery("10", "X-Amz-Signature"),
       "lacks X-Amz-Signature"},
      {"an extra key", target + "?" + SignedQuery("10", "", "&response-content-type=x"),
       "unexpected key 'response-content-type'"},
      {"a lowercase key", target + "?" + SignedQuery("10", "X-Amz-Date", "&x-amz-date=1"),
       "unexpected key 'x-amz-date'"},
      {"a key twice", target + "?" + SignedQuery("10", "", "&X-Amz-Expires=10"),
       "X-Amz-Expires twice"},
      {"an empty value", target + "?" + SignedQuery("10", "X-Amz-Date", "&X-Amz-Date="),
       "X-Amz-Date without a value"},
      {"expires 0", target + "?" + SignedQuery("0"), "X-Amz-Expires is '0', expected 1..60"},
      {"expires 61", target + "?" + SignedQuery("61"), "X-Amz-Expires is '61', expected 1..60"},
      {"expires a week", target + "?" + SignedQuery("604800"), "X-Amz-Expires is '604800'"},
      {"expires signed", target + "?" + SignedQuery("+10"), "X-Amz-Expires is '+10'"},
      {"expires not a number", target + "?" + SignedQuery("10s"), "X-Amz-Expires is '10s'"},
  };
  for (const Variant& v : variants) {
    SCOPED_TRACE(v.name);
    duck::testing::TempDir dir;
    FakeServer server = Serve([&](const http::Request& r) {
      if (r.url == kFileUrl) return Redirect(v.location);
      return Body(200, "workbook bytes");
    });
    auto file = DownloadPinnedFile(server.client, Settings(), "avonet", dir.path() / "a.xlsx");
    ASSERT_FALSE(file.has_value());
    EXPECT_EQ(file.error().kind, ErrorKind::kData);
    EXPECT_THAT(file.error().message, HasSubstr("avonet: redirect check failed: GET " +
                                                std::string(kFileUrl) + " redirected to "));
    EXPECT_THAT(file.error().message, HasSubstr(v.problem));
    EXPECT_THAT(file.error().message, Not(HasSubstr(kSignature)));
    EXPECT_EQ(server.transport->requests().size(), 1u) << "the signed URL was fetched";
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "a.xlsx"));
  }
}

TEST(DownloadPinnedFileTest, ExpiryBoundsAreInclusive) {
  for (const std::string expires : {"1", "60"}) {
    SCOPED_TRACE(expires);
    duck::testing::TempDir dir;
    const std::string location = std::string(kTarget) + "?" + SignedQuery(expires);
    FakeServer server = Serve([&](const http::Request& r) {
      if (r.url == kFileUrl) return Redirect(location);
      if (r.url == location) return Body(200, "bytes");
      return Body(404, "");
    });
    auto file = DownloadPinnedFile(server.client, Settings(), "avonet", dir.path() / "a.xlsx");
    ASSERT_TRUE(file.has_value()) << file.error().ToString();
    EXPECT_EQ(server.transport->requests().size(), 2u);
  }
}

TEST(DownloadPinnedFileTest, RedirectToAnotherHostIsRefusedWithoutLeakingTheQuery) {
  duck::testing::TempDir dir;
  const std::string elsewhere =
      std::string("https://evil.example.com/x.xlsx?X-Amz-Signature=") + kSignature + "Other";
  FakeServer server = Serve([&](const http::Request&) { return Redirect(elsewhere); });
  auto file = DownloadPinnedFile(server.client, Settings(), "avonet", dir.path() / "a.xlsx");
  ASSERT_FALSE(file.has_value());
  EXPECT_EQ(file.error().kind, ErrorKind::kData);
  EXPECT_THAT(file.error().message, HasSubstr("avonet: redirect check failed"));
  EXPECT_THAT(file.error().message, HasSubstr("https://evil.example.com/x.xlsx?***"));
  EXPECT_THAT(file.error().message, Not(HasSubstr(kSignature)));
  EXPECT_EQ(server.transport->requests().size(), 1u);  // never fetched
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "a.xlsx"));
}

TEST(DownloadPinnedFileTest, NoRedirectOrASecondRedirectIsRefused) {
  duck::testing::TempDir dir;
  FakeServer direct = Serve([](const http::Request&) { return Body(200, "bytes"); });
  auto file = DownloadPinnedFile(direct.client, Settings(), "avonet", dir.path() / "a.xlsx");
  ASSERT_FALSE(file.has_value());
  EXPECT_THAT(file.error().message,
              HasSubstr("redirect check failed: GET " + std::string(kFileUrl) +
                        " answered 200, expected exactly one 302"));

  FakeServer twice = Serve([](const http::Request& r) {
    if (r.url == kFileUrl) return Redirect(SignedUrl());
    return Redirect(SignedUrl());
  });
  file = DownloadPinnedFile(twice.client, Settings(), "avonet", dir.path() / "a.xlsx");
  ASSERT_FALSE(file.has_value());
  EXPECT_THAT(file.error().message, HasSubstr("redirect check failed"));
  EXPECT_THAT(file.error().message, HasSubstr("answered 302"));
  EXPECT_THAT(file.error().message, Not(HasSubstr(kSignature)));
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "a.xlsx"));
}

TEST(DownloadPinnedFileTest, ServerErrorsAreNetworkErrorsAndMissingLocationIsData) {
  duck::testing::TempDir dir;
  FakeServer down = Serve([](const http::Request&) { return Body(503, ""); });
  auto file = DownloadPinnedFile(down.client, Settings(), "avonet", dir.path() / "a.xlsx");
  ASSERT_FALSE(file.has_value());
  EXPECT_EQ(file.error().kind, ErrorKind::kNetwork);

  FakeServer bare = Serve([](const http::Request&) { return Body(302, ""); });
  file = DownloadPinnedFile(bare.client, Settings(), "avonet", dir.path() / "a.xlsx");
  ASSERT_FALSE(file.has_value());
  EXPECT_EQ(file.error().kind, ErrorKind::kData);
  EXPECT_THAT(file.error().message, HasSubstr("without a Location header"));
}

TEST(DownloadPinnedFileTest, WithoutARedirectUrlTheUrlAnswersDirectly) {
  duck::testing::TempDir dir;
  FakeServer server = Serve([](const http::Request&) { return Body(200, "plain"); });
  registry::FileSettings file;
  file.url = kFileUrl;
  auto got = DownloadPinnedFile(server.client, file, "src", dir.path() / "sub" / "f.bin");
  ASSERT_TRUE(got.has_value()) << got.error().ToString();
  EXPECT_EQ(testing::ReadBytes(dir.path() / "sub" / "f.bin"), "plain");
}

}  // namespace
}  // namespace databox::source
