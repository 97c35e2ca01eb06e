#include "http/replay.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "common/test_paths.h"
#include "http/client.h"

namespace databox::http {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

const std::filesystem::path kRecordings = std::filesystem::path(test_paths::RecordingsDir());
const std::string kNoaaData =
    "https://www.ncei.noaa.gov/cdo-web/api/v2/data?datasetid=GHCND&datatypeid=TMAX&"
    "enddate=2026-02-15&includemetadata=true&limit=1000&locationid=FIPS%3A11&offset=0&"
    "startdate=2026-02-08&units=standard";

AttemptLimits ReplayLimits() {
  return AttemptLimits{.timeout = std::chrono::seconds(1),
                       .connect_timeout = std::chrono::seconds(1),
                       .max_response_bytes = 1 << 20};
}

Request Get(std::string url) {
  Request request;
  request.url = std::move(url);
  return request;
}

//! A cassette written by the test, in its own temporary folder.
class CassetteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = std::filesystem::temp_directory_path() /
              ("replay_test_" + std::to_string(::getpid()) + "_" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(folder_);
    std::filesystem::create_directories(folder_);
  }
  void TearDown() override { std::filesystem::remove_all(folder_); }

  std::filesystem::path Write(const std::string& name, const std::string& text) {
    std::filesystem::path path = folder_ / name;
    std::ofstream(path) << text;
    return path;
  }

  std::filesystem::path folder_;
};

std::string Interaction(const std::string& uri, const std::string& body, int status = 200) {
  return "- request:\n    body: null\n    headers: {}\n    method: GET\n    uri: " + uri +
         "\n  response:\n    body:\n      string: '" + body +
         "'\n    headers:\n      Content-Type:\n      - text/plain\n    status:\n      code: " +
         std::to_string(status) + "\n      message: OK\n";
}

TEST(ReplayRecordingsTest, EverySourceFolderAndFileLoads) {
  std::set<std::string> folders;
  for (const auto& folder : std::filesystem::directory_iterator(kRecordings)) {
    if (!folder.is_directory()) continue;
    folders.insert(folder.path().filename().string());
    auto replay = ReplayTransport::Load(folder.path());
    ASSERT_TRUE(replay.has_value()) << replay.error().ToString();
    EXPECT_GT((*replay)->request_count(), 0u) << folder.path();
    for (const auto& file : std::filesystem::directory_iterator(folder.path())) {
      if (file.path().extension() != ".yaml") continue;
      auto one = ReplayTransport::Load(file.path());
      EXPECT_TRUE(one.has_value()) << file.path() << ": " << one.error().ToString();
    }
  }
  // The six routine sources and USFWS (explicit targets only); AVONET is a file, not recorded.
  EXPECT_THAT(folders, ::testing::ElementsAre("ebird", "gbif", "noaa", "usfws", "usgs",
                                              "usgs_earthquakes", "xeno_canto"));
}

TEST(ReplayRecordingsTest, NoaaUrlMatchesInAnyParameterOrderAndWithAnyToken) {
  auto replay = ReplayTransport::Load(kRecordings / "noaa");
  ASSERT_TRUE(replay.has_value()) << replay.error().ToString();
  const std::string shuffled =
      "https://www.ncei.noaa.gov/cdo-web/api/v2/data?units=standard&token=my-real-token&"
      "offset=0&locationid=FIPS:11&limit=1000&startdate=2026-02-08&includemetadata=true&"
      "datatypeid=TMAX&datasetid=GHCND&enddate=2026-02-15";
  for (const std::string& url : {kNoaaData, shuffled}) {
    auto response = (*replay)->Send(Get(url), ReplayLimits());
    ASSERT_TRUE(response.has_value()) << response.error().ToString();
    EXPECT_EQ(response->status, 200);
    EXPECT_THAT(response->body, StartsWith(R"({"metadata":{"resultset":{"offset":1,"count":8,)"));
    EXPECT_THAT(response->body, HasSubstr(R"("station":"GHCND:USC00186350")"));
    EXPECT_EQ(response->headers.Get("content-type"), "application/json");
  }
}

TEST(ReplayRecordingsTest, RecordedKeyValueIsIgnored) {
  auto replay = ReplayTransport::Load(kRecordings / "xeno_canto");
  ASSERT_TRUE(replay.has_value()) << replay.error().ToString();
  auto response = (*replay)->Send(
      Get("https://xeno-canto.org/api/3/recordings?query=cnt%3A%22United%20States%22%20loc%3A"
          "%22Arizona%22%20grp%3Abirds&per_page=2&page=1&key=abcdef0123"),
      ReplayLimits());
  ASSERT_TRUE(response.has_value()) << response.error().ToString();
  EXPECT_THAT(response->body, HasSubstr(R"("numRecordings": "11711")"));
}

TEST(ReplayRecordingsTest, UnrecordedUrlIsNotFoundAndNamesTheClosest) {
  auto replay = ReplayTransport::Load(kRecordings / "noaa");
  ASSERT_TRUE(replay.has_value()) << replay.error().ToString();
  std::string other = kNoaaData;
  other.replace(other.find("offset=0"), 8, "offset=1000");
  auto response = (*replay)->Send(Get(other), ReplayLimits());
  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.error().kind, ErrorKind::kNotFound);
  EXPECT_THAT(response.error().message, HasSubstr("never uses the network"));
  EXPECT_THAT(response.error().message, HasSubstr("\n  " + std::string("GET ") + kNoaaData));
  // A different method does not match either.
  Request post = Get(kNoaaData);
  post.method = Method::kPost;
  EXPECT_FALSE((*replay)->Send(post, ReplayLimits()).has_value());
}

TEST(ReplayRecordingsTest, ServesThroughTheClientWithoutRetryingMisses) {
  auto replay = ReplayTransport::Load(kRecordings / "usgs_earthquakes");
  ASSERT_TRUE(replay.has_value()) << replay.error().ToString();
  HttpClient client = HttpClient::WithTransport(std::move(*replay));
  auto feed =
      client.Get("https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/all_day.geojson");
  ASSERT_TRUE(feed.has_value()) << feed.error().ToString();
  EXPECT_THAT(feed->body, HasSubstr("FeatureCollection"));
  auto miss =
      client.Get("https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/all_week.geojson");
  ASSERT_FALSE(miss.has_value());
  EXPECT_EQ(miss.error().kind, ErrorKind::kNotFound);
  EXPECT_THAT(miss.error().message,
              StartsWith("GET https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/all_week"));
}

TEST_F(CassetteTest, RepeatedRequestsAreServedInOrderThenTheLastRepeats) {
  Write("a.yaml", "interactions:\n" + Interaction("https://h/x?p=1", "first") +
                      Interaction("https://h/x?p=1", "second") +
                      Interaction("https://h/x?p=1", "third", 503) + "version: 1\n");
  auto replay = ReplayTransport::Load(folder_);
  ASSERT_TRUE(replay.has_value()) << replay.error().ToString();
  std::vector<std::string> bodies;
  for (int i = 0; i < 4; ++i)
    bodies.push_back((*replay)->Send(Get("https://H/x?p=1"), ReplayLimits())->body);
  EXPECT_EQ(bodies, (std::vector<std::string>{"first", "second", "third", "third"}));
}

TEST_F(CassetteTest, ConcurrentClientsShareTheSequence) {
  Write("a.yaml", "interactions:\n" + Interaction("https://h/x", "first") +
                      Interaction("https://h/x", "second") + "version: 1\n");
  auto replay = ReplayTransport::Load(folder_);
  ASSERT_TRUE(replay.has_value()) << replay.error().ToString();
  std::mutex mutex;
  std::map<std::string, int> counts;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 25; ++i) {
        auto response = (*replay)->Send(Get("https://h/x"), ReplayLimits());
        std::lock_guard lock(mutex);
        ++counts[response ? response->body : "error"];
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(counts, (std::map<std::string, int>{{"first", 1}, {"second", 99}}));
}

TEST_F(CassetteTest, CopiesOfACassetteReplayLikeOne) {
  std::string cassette = "interactions:\n" + Interaction("https://h/y", "one") +
                         Interaction("https://h/y", "two") + "version: 1\n";
  Write("a.yaml", cassette);
  Write("b.yaml", cassette);
  auto replay = ReplayTransport::Load(folder_);
  ASSERT_TRUE(replay.has_value()) << replay.error().ToString();
  std::vector<std::string> bodies;
  for (int i = 0; i < 3; ++i)
    bodies.push_back((*replay)->Send(Get("https://h/y"), ReplayLimits())->body);
  EXPECT_EQ(bodies, (std::vector<std::string>{"one", "two", "two"}));
}

TEST_F(CassetteTest, InflatesBinaryGzipBodies) {
  // base64 of gzip('{"hello": "replay"}'), made with Python's gzip module.
  auto path = Write("z.yaml",
                    "interactions:\n- request:\n    method: GET\n    uri: https://h/z\n"
                    "  response:\n    body:\n      string: !!binary |\n"
                    "        H4sIAAAAAAAC/6tWykjNyclXslJQKkotyEmsVKoFAJ+AHOITAAAA\n"
                    "    headers:\n      Content-Encoding:\n      - gzip\n"
                    "    status:\n      code: 200\n      message: OK\n");
  auto replay = ReplayTransport::Load(path);
  ASSERT_TRUE(replay.has_value()) << replay.error().ToString();
  auto response = (*replay)->Send(Get("https://h/z"), ReplayLimits());
  ASSERT_TRUE(response.has_value()) << response.error().ToString();
  EXPECT_EQ(response->body, R"({"hello": "replay"})");
}

TEST_F(CassetteTest, NonBase64BinaryBodyIsAClearError) {
  // Bytes 0x8f 0xd4 inside a !!binary body (a replay_fuzz crash under ASan, in yaml-cpp's
  // base64 decoder).
  auto path = Write("nb.yaml",
                    "interactions:\n- request:\n    method: GET\n    uri: https://h/nb\n"
                    "  response:\n    body:\n      string: !!binary |\n"
                    "        H4sIAAAA\x8f\xd4W\n"
                    "    headers: {}\n"
                    "    status:\n      code: 200\n      message: OK\n");
  auto replay = ReplayTransport::Load(path);
  ASSERT_FALSE(replay.has_value());
  EXPECT_EQ(replay.error().kind, ErrorKind::kData);
  EXPECT_THAT(replay.error().message, HasSubstr("nb.yaml"));
  EXPECT_THAT(replay.error().message, HasSubstr("not base64"));
}

TEST_F(CassetteTest, EmptyBinaryBodyIsEmpty) {
  // An empty !!binary scalar (replay_fuzz under UBSan: yaml-cpp's Binary::data() indexes an
  // empty vector).
  auto path = Write("eb.yaml",
                    "interactions:\n- request:\n    method: GET\n    uri: https://h/eb\n"
                    "  response:\n    body:\n      string: !!binary ''\n"
                    "    headers: {}\n"
                    "    status:\n      code: 200\n      message: OK\n");
  auto replay = ReplayTransport::Load(path);
  ASSERT_TRUE(replay.has_value()) << replay.error().ToString();
  auto response = (*replay)->Send(Get("https://h/eb"), ReplayLimits());
  ASSERT_TRUE(response.has_value()) << response.error().ToString();
  EXPECT_EQ(response->body, "");
}

TEST_F(CassetteTest, BadInputsAreClearErrors) {
  EXPECT_EQ(ReplayTransport::Load(folder_ / "missing.yaml").error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(ReplayTransport::Load(folder_).error().kind, ErrorKind::kNotFound);  // empty folder
  auto broken = ReplayTransport::Load(Write("bad.yaml", "interactions: [\n"));
  ASSERT_FALSE(broken.has_value());
  EXPECT_EQ(broken.error().kind, ErrorKind::kData);
  EXPECT_THAT(broken.error().message, HasSubstr("bad.yaml"));
  auto not_vcr = ReplayTransport::Load(Write("other.yaml", "a: 1\n"));
  ASSERT_FALSE(not_vcr.has_value());
  EXPECT_THAT(not_vcr.error().message, HasSubstr("no 'interactions' list"));
}

TEST(ReplayMatchKeyTest, NormalizesQueryAndDropsCredentials) {
  EXPECT_EQ(ReplayMatchKey(Method::kGet, "HTTPS://Example.org/A?b=2&a=1&token=x&a=0#frag"),
            "GET https://example.org/A?a=0&a=1&b=2");
  EXPECT_EQ(ReplayMatchKey(Method::kGet, "https://h?q=a+b"),
            ReplayMatchKey(Method::kGet, "https://h/?q=a%20b"));
  EXPECT_NE(ReplayMatchKey(Method::kGet, "https://h/p?datasetKey=1"),
            ReplayMatchKey(Method::kGet, "https://h/p?datasetKey=2"));
}

}  // namespace
}  // namespace databox::http
