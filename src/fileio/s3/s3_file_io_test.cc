// S3FileIO against an in-memory fake of the S3 REST protocol (behind the real HttpClient, so
// retries and redaction are the production ones). The protocol facts the fake encodes (status
// codes, XML shapes, query parameters) are from the S3 API reference; tests against a real
// S3-compatible server live in tests/integration/s3_fileio.
#include "fileio/s3/s3_file_io.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "common/encoding.h"
#include "common/markup_escape.h"
#include "common/redact.h"
#include "fileio/s3/s3_errors.h"
#include "fileio/s3/s3_xml.h"
#include "http/loopback_server_test_support.h"
#include "http/sigv4.h"

namespace databox::fileio::s3 {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

//! Instant, deterministic retries.
class NoWaitTiming final : public http::RetryTiming {
 public:
  std::chrono::steady_clock::time_point Now() override { return {}; }
  std::chrono::system_clock::time_point WallNow() override { return {}; }
  void SleepFor(std::chrono::milliseconds) override {}
  double Random() override { return 0; }
};

std::map<std::string, std::string> ParseQuery(std::string_view query) {
  std::map<std::string, std::string> out;
  while (!query.empty()) {
    std::string_view param = query.substr(0, query.find('&'));
    query.remove_prefix(std::min(query.size(), param.size() + 1));
    std::size_t eq = param.find('=');
    out[UrlDecode(param.substr(0, eq), false)] =
        eq == std::string_view::npos ? "" : UrlDecode(param.substr(eq + 1), false);
  }
  return out;
}

http::Response Xml(long status, std::string body) {
  http::Response response;
  response.status = status;
  response.body = std::move(body);
  return response;
}

http::Response ErrorXml(long status, std::string_view code) {
  return Xml(status, "<Error><Code>" + std::string(code) + "</Code><Message>fake " +
                         std::string(code) + "</Message></Error>");
}

//! A thread-safe in-memory S3 for one path-style bucket "b" at http://s3.test.
class FakeS3 final : public http::Transport {
 public:
  Result<http::Response> Send(const http::Request& request, const http::AttemptLimits&) override {
    std::lock_guard lock(mutex_);
    requests_.push_back(request);
    if (!scripted_.empty()) {
      http::Response next = scripted_.front();
      scripted_.pop_front();
      return next;
    }
    return Serve(request);
  }

  void Script(http::Response response) {
    std::lock_guard lock(mutex_);
    scripted_.push_back(std::move(response));
  }
  std::vector<http::Request> requests() {
    std::lock_guard lock(mutex_);
    return requests_;
  }

  std::map<std::string, std::string> objects;  //!< key -> bytes
  std::size_t page_size = 1000;                //!< ListObjectsV2 MaxKeys
  bool honour_if_none_match = true;            //!< false: answer 501 to conditional PUTs
  std::set<int> failing_parts;                 //!< part numbers answered with 500
  std::set<std::string> aborted_uploads;
  std::string signing_key_id = "AKIDFAKE";  //!< every request must be signed with this key id

 private:
  http::Response Serve(const http::Request& request) {
    constexpr std::string_view kBase = "http://s3.test/b";
    std::string_view url = request.url;
    EXPECT_TRUE(url.starts_with(kBase)) << url;
    url.remove_prefix(kBase.size());
    std::string_view path = url.substr(0, url.find('?'));
    std::map<std::string, std::string> query =
        ParseQuery(path.size() < url.size() ? url.substr(path.size() + 1) : "");
    std::string key = UrlDecode(path.empty() ? "" : path.substr(1), false);
    // What every signed request must carry.
    EXPECT_EQ(request.headers.Get("x-amz-content-sha256").value_or(""), Sha256Hex(request.body));
    EXPECT_THAT(std::string(request.headers.Get("Authorization").value_or("")),
                HasSubstr("AWS4-HMAC-SHA256 Credential=" + signing_key_id + "/"));

    if (request.method == http::Method::kGet && query.contains("list-type")) {
      return List(query);
    }
    if (query.contains("uploads")) {
      uploads_[std::to_string(++upload_counter_)] = {};
      return Xml(200, "<InitiateMultipartUploadResult><UploadId>" +
                          std::to_string(upload_counter_) +
                          "</UploadId></InitiateMultipartUploadResult>");
    }
    if (query.contains("uploadId")) return Multipart(request, key, query);
    auto it = objects.find(key);
    switch (request.method) {
      case http::Method::kHead:
      case http::Method::kGet: {
        if (it == objects.end()) {
          return request.method == http::Method::kHead ? Xml(404, "") : ErrorXml(404, "NoSuchKey");
        }
        http::Response response = Xml(200, request.method == http::Method::kGet ? it->second : "");
        response.headers.Add("Content-Length", std::to_string(it->second.size()));
        response.headers.Add("ETag", ETagOf(it->second));
        if (auto range = request.headers.Get("Range")) {
          uint64_t first = 0, last = 0;
          if (std::sscanf(std::string(*range).c_str(), "bytes=%lu-%lu", &first, &last) != 2) {
            return ErrorXml(400, "InvalidRange");
          }
          if (first >= it->second.size()) return ErrorXml(416, "InvalidRange");
          response.status = 206;
          response.body = it->second.substr(first, last - first + 1);
        }
        return response;
      }
      case http::Method::kPut:
        if (request.headers.Get("If-None-Match") == "*") {
          if (!honour_if_none_match) return ErrorXml(501, "NotImplemented");
          if (it != objects.end()) return ErrorXml(412, "PreconditionFailed");
        }
        if (auto tag = request.headers.Get("If-Match")) {
          if (it == objects.end()) return ErrorXml(404, "NoSuchKey");
          if (*tag != ETagOf(it->second)) return ErrorXml(412, "PreconditionFailed");
        }
        objects[key] = request.body;
        return Xml(200, "");
      case http::Method::kDelete:
        objects.erase(key);
        return Xml(204, "");
      default:
        return ErrorXml(405, "MethodNotAllowed");
    }
  }

  //! A quoted ETag that changes with the content, as S3's do.
  static std::string ETagOf(const std::string& body) {
    return "\"" + Sha256Hex(body).substr(0, 32) + "\"";
  }

  http::Response List(std::map<std::string, std::string>& query) {
    const std::string& prefix = query["prefix"];
    auto it = objects.lower_bound(query.contains("continuation-token") ? query["continuation-token"]
                                                                       : prefix);
    std::string body = "<ListBucketResult><Name>b</Name>";
    std::size_t n = 0;
    for (; it != objects.end() && it->first.starts_with(prefix) && n < page_size; ++it, ++n) {
      body += "<Contents><Key>" + EscapeMarkup(it->first) + "</Key><Size>" +
              std::to_string(it->second.size()) + "</Size></Contents>";
    }
    bool more = it != objects.end() && it->first.starts_with(prefix);
    body += std::string("<IsTruncated>") + (more ? "true" : "false") + "</IsTruncated>";
    if (more)
      body += "<NextContinuationToken>" + EscapeMarkup(it->first) + "</NextContinuationToken>";
    return Xml(200, body + "</ListBucketResult>");
  }

  http::Response Multipart(const http::Request& request, const std::string& key,
                           std::map<std::string, std::string>& query) {
    const std::string& id = query["uploadId"];
    if (!uploads_.contains(id)) return ErrorXml(404, "NoSuchUpload");
    if (request.method == http::Method::kPut) {
      int number = std::stoi(query["partNumber"]);
      if (failing_parts.contains(number)) return ErrorXml(500, "InternalError");
      // A form content type (libcurl's default for bodies) makes real servers drop the body.
      EXPECT_EQ(request.headers.Get("Content-Type").value_or(""), "application/octet-stream");
      uploads_[id][number] = request.body;
      http::Response response = Xml(200, "");
      response.headers.Add("ETag", "\"etag-" + std::to_string(number) + "\"");
      return response;
    }
    if (request.method == http::Method::kDelete) {
      uploads_.erase(id);
      aborted_uploads.insert(id);
      return Xml(204, "");
    }
    // Complete: the listed parts in order, with the ETags we gave out.
    std::string assembled;
    int expected = 1;
    Result<std::vector<std::string>> numbers = XmlTexts(request.body, "PartNumber");
    Result<std::vector<std::string>> etags = XmlTexts(request.body, "ETag");
    EXPECT_TRUE(numbers && etags) << request.body;
    if (!numbers || !etags) return ErrorXml(400, "MalformedXML");
    EXPECT_EQ(numbers->size(), etags->size());
    for (std::size_t i = 0; i < numbers->size(); ++i, ++expected) {
      EXPECT_EQ((*numbers)[i], std::to_string(expected));
      EXPECT_EQ((*etags)[i], "\"etag-" + std::to_string(expected) + "\"");
      assembled += uploads_[id][expected];
    }
    EXPECT_EQ(numbers->size(), uploads_[id].size());
    objects[key] = assembled;
    uploads_.erase(id);
    return Xml(200, "<CompleteMultipartUploadResult><Key>" + key +
                        "</Key></CompleteMultipartUploadResult>");
  }

  std::mutex mutex_;
  std::deque<http::Response> scripted_;
  std::vector<http::Request> requests_;
  int upload_counter_ = 0;
  std::map<std::string, std::map<int, std::string>> uploads_;
};

class S3FileIOTest : public ::testing::Test {
 protected:
  void SetUp() override { Rebuild(); }

  void Rebuild(Credentials credentials = {.access_key_id = "AKIDFAKE",
                                          .secret_access_key = "fake-secret-value-123",
                                          .session_token = "fake-session-token-456",
                                          .expiration = std::nullopt}) {
    auto provider = StaticCredentialsProvider::Make(std::move(credentials));
    ASSERT_TRUE(provider) << provider.error().ToString();
    RebuildWith(std::move(*provider));
  }

  void RebuildWith(std::shared_ptr<CredentialsProvider> provider) {
    S3Options options;
    options.endpoint = "http://s3.test";
    options.path_style = true;
    options.multipart_threshold = 100;
    options.part_size = 16;
    options.upload_parallelism = 3;
    options.conditional_create = conditional_;
    options.http.timing = &timing_;
    options.http.retry.max_attempts = 3;
    std::shared_ptr<FakeS3> fake = fake_;
    auto io = S3FileIO::Make(options, std::move(provider),
                             [fake, options]() -> Result<std::unique_ptr<http::HttpClient>> {
                               return std::make_unique<http::HttpClient>(
                                   http::HttpClient::WithTransport(fake, options.http));
                             });
    ASSERT_TRUE(io) << io.error().ToString();
    io_ = std::move(*io);
  }

  std::string TempFile(std::string_view bytes) {
    std::string path = ::testing::TempDir() + "s3_upload_" + std::to_string(::getpid()) + "_" +
                       std::to_string(temp_counter_++);
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }

  NoWaitTiming timing_;
  ConditionalCreate conditional_ = ConditionalCreate::kIfNoneMatch;
  std::shared_ptr<FakeS3> fake_ = std::make_shared<FakeS3>();
  std::unique_ptr<S3FileIO> io_;
  int temp_counter_ = 0;
};

TEST_F(S3FileIOTest, WriteReadSizeExistsDelete) {
  ASSERT_TRUE(io_->Write("s3://b/dir/a b+c.txt", "hello world"));
  EXPECT_EQ(fake_->objects.at("dir/a b+c.txt"), "hello world");
  EXPECT_EQ(io_->Read("s3://b/dir/a b+c.txt").value(), "hello world");
  EXPECT_EQ(io_->Size("s3://b/dir/a b+c.txt").value(), 11u);
  EXPECT_TRUE(io_->Exists("s3://b/dir/a b+c.txt").value());
  EXPECT_FALSE(io_->Exists("s3://b/dir/missing").value());
  EXPECT_EQ(io_->Read("s3://b/dir/missing").error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(io_->Size("s3://b/dir/missing").error().kind, ErrorKind::kNotFound);
  ASSERT_TRUE(io_->Delete("s3://b/dir/a b+c.txt"));
  EXPECT_EQ(io_->Delete("s3://b/dir/a b+c.txt").error().kind, ErrorKind::kNotFound);
  EXPECT_TRUE(fake_->objects.empty());
}

TEST_F(S3FileIOTest, RequestsCarrySessionTokenAndEncodedKeys) {
  ASSERT_TRUE(io_->Write("s3://b/k$1", "x"));
  http::Request put = fake_->requests().back();
  EXPECT_EQ(put.url, "http://s3.test/b/k%241");
  EXPECT_EQ(put.headers.Get("x-amz-security-token").value_or(""), "fake-session-token-456");
  EXPECT_EQ(put.headers.Get("Host").value_or(""), "s3.test");
  EXPECT_THAT(std::string(put.headers.Get("Authorization").value_or("")),
              HasSubstr("x-amz-security-token"));
}

// A provider holding credentials per table location (vended by a catalog) is asked with the
// location of each request, and a listing with its prefix.
TEST_F(S3FileIOTest, CredentialsAreAskedForTheRequestsLocation) {
  class ByLocation final : public CredentialsProvider {
   public:
    Result<Credentials> Get() override { return MakeError(ErrorKind::kConfig, "no static keys"); }
    Result<Credentials> GetFor(std::string_view location) override {
      asked.emplace_back(location);
      if (!location.starts_with("s3://b/tables/birds")) return Get();
      return Credentials{.access_key_id = "AKIDBIRDS",
                         .secret_access_key = "birds-secret",
                         .session_token = "birds-token",
                         .expiration = std::nullopt};
    }
    std::vector<std::string> asked;
  };
  auto provider = std::make_shared<ByLocation>();
  RebuildWith(provider);
  fake_->signing_key_id = "AKIDBIRDS";
  ASSERT_TRUE(io_->Write("s3://b/tables/birds/data/1.parquet", "x"));
  http::Request put = fake_->requests().back();
  EXPECT_EQ(put.headers.Get("x-amz-security-token").value_or(""), "birds-token");
  EXPECT_THAT(std::string(put.headers.Get("Authorization").value_or("")), HasSubstr("AKIDBIRDS/"));
  ASSERT_TRUE(io_->List("s3://b/tables/birds/").has_value());
  auto refused = io_->Read("s3://b/tables/other/1.parquet");
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, ErrorKind::kConfig);
  EXPECT_EQ(provider->asked,
            (std::vector<std::string>{"s3://b/tables/birds/data/1.parquet", "s3://b/tables/birds/",
                                      "s3://b/tables/other/1.parquet"}));
}

TEST_F(S3FileIOTest, ReadRangeMirrorsLocalSemantics) {
  ASSERT_TRUE(io_->Write("s3://b/r", "0123456789"));
  EXPECT_EQ(io_->ReadRange("s3://b/r", 2, 3).value(), "234");
  EXPECT_EQ(fake_->requests().back().headers.Get("Range").value_or(""), "bytes=2-4");
  EXPECT_EQ(io_->ReadRange("s3://b/r", 8, 100).value(), "89");
  EXPECT_EQ(io_->ReadRange("s3://b/r", 10, 5).value(), "");
  EXPECT_EQ(io_->ReadRange("s3://b/r", 3, 0).value(), "");
  EXPECT_EQ(io_->ReadRange("s3://b/missing", 0, 1).error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(io_->ReadRange("s3://b/missing", 0, 0).error().kind, ErrorKind::kNotFound);
}

TEST_F(S3FileIOTest, WriteNewIsConditional) {
  ASSERT_TRUE(io_->WriteNew("s3://b/meta/v1.json", "one"));
  EXPECT_EQ(fake_->requests().back().headers.Get("If-None-Match").value_or(""), "*");
  Status again = io_->WriteNew("s3://b/meta/v1.json", "two");
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().kind, ErrorKind::kAlreadyExists);
  EXPECT_EQ(fake_->objects.at("meta/v1.json"), "one");
}

TEST_F(S3FileIOTest, ReplaceIfTagSendsIfMatchAndRefusesAChangedObject) {
  ASSERT_TRUE(io_->Write("s3://b/current.json", "v1"));
  auto read = io_->ReadTagged("s3://b/current.json");
  ASSERT_TRUE(read.has_value()) << read.error().ToString();
  EXPECT_EQ(read->bytes, "v1");
  ASSERT_FALSE(read->tag.empty());
  ASSERT_TRUE(io_->ReplaceIfTag("s3://b/current.json", "v2", read->tag));
  EXPECT_EQ(fake_->requests().back().headers.Get("If-Match").value_or(""), read->tag);
  // The tag read before v2 no longer matches: nothing is written.
  Status stale = io_->ReplaceIfTag("s3://b/current.json", "v3", read->tag);
  ASSERT_FALSE(stale.has_value());
  EXPECT_EQ(stale.error().kind, ErrorKind::kConflict);
  EXPECT_EQ(io_->Read("s3://b/current.json").value_or(""), "v2");
  Status gone = io_->ReplaceIfTag("s3://b/absent.json", "v1", read->tag);
  ASSERT_FALSE(gone.has_value());
  EXPECT_EQ(gone.error().kind, ErrorKind::kConflict);
}

TEST_F(S3FileIOTest, WriteNewFallsBackToHeadThenPutWhenUnsupported) {
  fake_->honour_if_none_match = false;
  ASSERT_TRUE(io_->WriteNew("s3://b/m", "one"));
  EXPECT_EQ(fake_->objects.at("m"), "one");
  EXPECT_EQ(io_->WriteNew("s3://b/m", "two").error().kind, ErrorKind::kAlreadyExists);
  EXPECT_EQ(fake_->objects.at("m"), "one");
  // Once the store said 501, no more conditional PUTs are tried.
  EXPECT_FALSE(fake_->requests().back().headers.Contains("If-None-Match"));

  conditional_ = ConditionalCreate::kHeadThenPut;
  fake_->honour_if_none_match = true;
  Rebuild();
  std::size_t before = fake_->requests().size();
  ASSERT_TRUE(io_->WriteNew("s3://b/n", "x"));
  std::vector<http::Request> requests = fake_->requests();
  ASSERT_EQ(requests.size(), before + 2);  // HEAD, PUT
  EXPECT_EQ(requests[before].method, http::Method::kHead);
  EXPECT_FALSE(requests[before + 1].headers.Contains("If-None-Match"));
}

TEST_F(S3FileIOTest, ListFollowsContinuationTokensAndKeepsScheme) {
  fake_->page_size = 2;
  for (std::string key : {"p/a", "p/b", "p/c/d", "p/e", "p/f", "q/x"}) {
    ASSERT_TRUE(io_->Write("s3://b/" + key, key));
  }
  Result<std::vector<FileInfo>> listed = io_->List("s3a://b/p/");
  ASSERT_TRUE(listed) << listed.error().ToString();
  std::vector<std::string> locations;
  for (const FileInfo& info : *listed) locations.push_back(info.location);
  EXPECT_EQ(locations, (std::vector<std::string>{"s3a://b/p/a", "s3a://b/p/b", "s3a://b/p/c/d",
                                                 "s3a://b/p/e", "s3a://b/p/f"}));
  EXPECT_EQ((*listed)[2].size, 5u);
  int list_requests = 0;
  for (const http::Request& request : fake_->requests()) {
    if (request.url.find("list-type=2") != std::string::npos) ++list_requests;
  }
  EXPECT_EQ(list_requests, 3);
  EXPECT_TRUE(io_->List("s3://b/none/").value().empty());
}

TEST_F(S3FileIOTest, SmallUploadIsOnePut) {
  std::string file = TempFile("small file");
  ASSERT_TRUE(io_->UploadFile(file, "s3://b/small"));
  EXPECT_EQ(fake_->objects.at("small"), "small file");
  EXPECT_EQ(fake_->requests().size(), 1u);
  EXPECT_EQ(io_->UploadFile("/nonexistent/file", "s3://b/x").error().kind, ErrorKind::kNotFound);
}

TEST_F(S3FileIOTest, LargeUploadIsMultipartInOrder) {
  std::string data;
  for (int i = 0; i < 250; ++i) data += static_cast<char>('a' + i % 26);
  std::string file = TempFile(data);
  ASSERT_TRUE(io_->UploadFile(file, "s3://b/big"));
  EXPECT_EQ(fake_->objects.at("big"), data);  // 16 parts of 16 bytes, the last one 10
  int parts = 0;
  for (const http::Request& request : fake_->requests()) {
    if (request.url.find("partNumber=") != std::string::npos) ++parts;
  }
  EXPECT_EQ(parts, 16);
}

TEST_F(S3FileIOTest, FailedPartAbortsTheUpload) {
  fake_->failing_parts = {5};
  std::string file = TempFile(std::string(200, 'z'));
  Status status = io_->UploadFile(file, "s3://b/big");
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().kind, ErrorKind::kNetwork);
  EXPECT_THAT(status.error().message, HasSubstr("UploadPart"));
  EXPECT_THAT(status.error().message, HasSubstr("was aborted"));
  EXPECT_EQ(fake_->aborted_uploads.size(), 1u);
  EXPECT_FALSE(fake_->objects.contains("big"));
}

TEST_F(S3FileIOTest, SlowDownIsRetried) {
  fake_->Script(ErrorXml(503, "SlowDown"));
  fake_->Script(ErrorXml(503, "SlowDown"));
  ASSERT_TRUE(io_->Write("s3://b/k", "v"));
  EXPECT_EQ(fake_->requests().size(), 3u);

  for (int i = 0; i < 3; ++i) fake_->Script(ErrorXml(503, "SlowDown"));
  Status status = io_->Write("s3://b/k", "v");
  ASSERT_FALSE(status);
  EXPECT_EQ(status.error().kind, ErrorKind::kNetwork);
  EXPECT_THAT(status.error().message, HasSubstr("SlowDown"));
}

TEST_F(S3FileIOTest, RefusedCredentialsAreAuthWithoutSecrets) {
  fake_->Script(ErrorXml(403, "SignatureDoesNotMatch"));
  Result<std::string> read = io_->Read("s3://b/k");
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().kind, ErrorKind::kAuth);
  EXPECT_THAT(read.error().message, HasSubstr("s3://b/k"));
  EXPECT_THAT(read.error().message, Not(HasSubstr("fake-secret-value-123")));
  EXPECT_THAT(read.error().message, Not(HasSubstr("fake-session-token-456")));
}

TEST_F(S3FileIOTest, RejectsBadLocations) {
  EXPECT_EQ(io_->Read("/local/path").error().kind, ErrorKind::kConfig);
  EXPECT_EQ(io_->Write("s3://b/a/../b", "x").error().kind, ErrorKind::kData);
}

TEST(S3StatusErrorTest, MapsStatusesAndCodes) {
  auto kind = [](long status, std::string_view code) {
    return S3StatusError("GET", "s3://b/k", "http://s3.test", ErrorXml(status, code)).kind;
  };
  EXPECT_EQ(kind(403, "AccessDenied"), ErrorKind::kAuth);
  EXPECT_EQ(kind(400, "ExpiredToken"), ErrorKind::kAuth);
  EXPECT_EQ(kind(400, "AuthorizationHeaderMalformed"), ErrorKind::kConfig);
  EXPECT_EQ(kind(301, "PermanentRedirect"), ErrorKind::kConfig);
  EXPECT_EQ(kind(404, "NoSuchKey"), ErrorKind::kNotFound);
  EXPECT_EQ(kind(404, "NoSuchBucket"), ErrorKind::kNotFound);
  EXPECT_EQ(kind(409, "ConditionalRequestConflict"), ErrorKind::kConflict);
  EXPECT_EQ(kind(412, "PreconditionFailed"), ErrorKind::kAlreadyExists);
  EXPECT_EQ(kind(503, "SlowDown"), ErrorKind::kNetwork);
  EXPECT_EQ(kind(429, ""), ErrorKind::kNetwork);
  EXPECT_EQ(kind(400, "InvalidArgument"), ErrorKind::kData);
  Error bucket =
      S3StatusError("PUT", "s3://nob/k", "http://s3.test:9000", ErrorXml(404, "NoSuchBucket"));
  EXPECT_THAT(bucket.message, HasSubstr("bucket does not exist"));
  EXPECT_THAT(bucket.message, HasSubstr("S3 PUT of 's3://nob/k' at http://s3.test:9000 failed"));
}

TEST(S3StatusErrorTest, QuotesOnlyCodeAndMessageRedacted) {
  RegisterSecret("AKIDSECRETISH");
  http::Response response =
      Xml(403,
          "<Error><Code>SignatureDoesNotMatch</Code><Message>bad AKIDSECRETISH</Message>"
          "<AWSAccessKeyId>AKIDSECRETISH</AWSAccessKeyId><StringToSign>AWS4-HMAC-SHA256 "
          "x</StringToSign></Error>");
  Error error = S3StatusError("GET", "s3://b/k", "http://s3.test", response);
  EXPECT_THAT(error.message, HasSubstr("SignatureDoesNotMatch"));
  EXPECT_THAT(error.message, Not(HasSubstr("AKIDSECRETISH")));
  EXPECT_THAT(error.message, Not(HasSubstr("StringToSign")));
}

//! S3FileIO over libcurl against a loopback server, for messages of real failed requests.
class S3FileIOLoopbackTest : public ::testing::Test {
 protected:
  static constexpr std::string_view kAccessKey = "AKIDLOOPBACK7788";
  static constexpr std::string_view kSecret = "loopback-secret-key-9911";
  static constexpr std::string_view kToken = "loopback-session-token-3344";

  std::unique_ptr<S3FileIO> Make(std::string endpoint) {
    S3Options options;
    options.endpoint = std::move(endpoint);
    options.path_style = true;
    options.http.timing = &timing_;
    options.http.retry.max_attempts = 1;
    auto provider = StaticCredentialsProvider::Make({.access_key_id = std::string(kAccessKey),
                                                     .secret_access_key = std::string(kSecret),
                                                     .session_token = std::string(kToken),
                                                     .expiration = std::nullopt});
    EXPECT_TRUE(provider) << provider.error().ToString();
    if (!provider) return nullptr;
    auto io = S3FileIO::Make(std::move(options), std::move(*provider));
    EXPECT_TRUE(io) << io.error().ToString();
    return io ? std::move(*io) : nullptr;
  }

  //! No secret, and not the request's signature, in `message`.
  static void ExpectNoSecrets(const std::string& message, std::string_view signature) {
    EXPECT_THAT(message, Not(HasSubstr(std::string(kAccessKey))));
    EXPECT_THAT(message, Not(HasSubstr(std::string(kSecret))));
    EXPECT_THAT(message, Not(HasSubstr(std::string(kToken))));
    if (!signature.empty()) {
      EXPECT_THAT(message, Not(HasSubstr(std::string(signature))));
    }
  }

  //! The Signature= value of a request's SigV4 Authorization header ("" without one).
  static std::string SignatureOf(const http::testing::ReceivedRequest& request) {
    const std::string authorization(request.headers.Get("Authorization").value_or(""));
    constexpr std::string_view kField = "Signature=";
    const std::size_t at = authorization.find(kField);
    return at == std::string::npos ? "" : authorization.substr(at + kField.size());
  }

  NoWaitTiming timing_;
};

TEST_F(S3FileIOLoopbackTest, RefusedPutNamesEndpointBucketAndKeyWithoutSecrets) {
  // The server echoes what S3 puts in a SignatureDoesNotMatch body: the access key id, the
  // signature it was given and the string to sign.
  http::testing::LoopbackServer server([](const http::testing::ReceivedRequest& request, int) {
    http::testing::Reply reply;
    reply.status = 403;
    reply.body =
        "<Error><Code>SignatureDoesNotMatch</Code><Message>The request signature we "
        "calculated does not match the signature you provided.</Message><AWSAccessKeyId>" +
        std::string(kAccessKey) + "</AWSAccessKeyId><SignatureProvided>" + SignatureOf(request) +
        "</SignatureProvided><StringToSign>AWS4-HMAC-SHA256 x</StringToSign></Error>";
    return reply;
  });
  std::unique_ptr<S3FileIO> io = Make(server.Url(""));
  ASSERT_NE(io, nullptr);
  Status put = io->Write("s3://bucket/dir/key.parquet", "bytes");
  ASSERT_FALSE(put);
  const std::vector<http::testing::ReceivedRequest> received = server.received();
  ASSERT_EQ(received.size(), 1u);
  const std::string signature = SignatureOf(received[0]);
  ASSERT_FALSE(signature.empty()) << "the request carried no SigV4 signature";

  const std::string& message = put.error().message;
  EXPECT_EQ(put.error().kind, ErrorKind::kAuth);
  EXPECT_THAT(message, HasSubstr("S3 PUT of 's3://bucket/dir/key.parquet' at http://127.0.0.1:" +
                                 std::to_string(server.port()) +
                                 " failed (HTTP 403 "
                                 "SignatureDoesNotMatch"));
  ExpectNoSecrets(message, signature);
}

TEST_F(S3FileIOLoopbackTest, TransportFailureNamesEndpointBucketAndKeyWithoutSecrets) {
  const std::string endpoint =
      "http://127.0.0.1:" + std::to_string(http::testing::LoopbackServer::ClosedPort());
  std::unique_ptr<S3FileIO> io = Make(endpoint);
  ASSERT_NE(io, nullptr);
  Result<std::string> read = io->Read("s3://bucket/dir/key.parquet");
  ASSERT_FALSE(read);
  EXPECT_THAT(read.error().message,
              HasSubstr("S3 GET of 's3://bucket/dir/key.parquet' at " + endpoint));
  ExpectNoSecrets(read.error().message, "");
}

}  // namespace
}  // namespace databox::fileio::s3
