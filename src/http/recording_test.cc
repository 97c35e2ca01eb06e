#include "http/recording.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "common/redact.h"
#include "http/curl_transport.h"
#include "http/loopback_server_test_support.h"
#include "http/replay.h"

namespace databox::http {
namespace {

using ::testing::HasSubstr;
using testing::LoopbackServer;
using ::testing::Not;
using testing::ReceivedRequest;
using testing::Reply;

constexpr char kKey[] = "query-secret-7f3a";
constexpr char kToken[] = "header-secret-91cc";

AttemptLimits Limits() {
  return {std::chrono::seconds(10), std::chrono::seconds(5), std::size_t{1} << 20};
}

std::string Slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class RecordingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/recording_test_XXXXXX";
    dir_ = mkdtemp(pattern);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path dir_;
};

TEST_F(RecordingTest, RecordedExchangesReplayWithoutAnySecret) {
  RegisterSecret(kKey);
  RegisterSecret(kToken);
  // The server echoes the request target (with the query key) and answers one binary body.
  LoopbackServer server([](const ReceivedRequest& request, int) {
    if (request.target.starts_with("/bytes")) {
      return Reply{.status = 200,
                   .headers = {{"Content-Type", "image/png"}},
                   .body = std::string("\x89PNG\r\n\x1a\n\xff\x00\x01", 11)};
    }
    return Reply{.status = request.target.starts_with("/missing") ? 404 : 200,
                 .headers = {{"Content-Type", "application/json"}, {"X-Echo-Token", kToken}},
                 .body = "{\"seen\": \"" + request.target + "\", \"items\": [1, 2]}"};
  });
  const std::filesystem::path cassette = dir_ / "new_source" / "recorded.yaml";
  auto curl = CurlTransport::Make();
  ASSERT_TRUE(curl.has_value()) << curl.error().message;
  RecordingTransport recorder(std::shared_ptr<Transport>(std::move(*curl)), cassette);

  std::vector<Request> requests;
  for (const std::string target : {"/items?page=1&key=", "/missing?key=", "/bytes?key="}) {
    Request request;
    request.url = server.Url(target + kKey);
    request.headers.Set("X-Api-Key", kToken);
    request.headers.Set("Accept", "application/json");
    requests.push_back(request);
  }
  std::vector<Response> live;
  for (const Request& request : requests) {
    auto response = recorder.Send(request, Limits());
    ASSERT_TRUE(response.has_value()) << response.error().message;
    live.push_back(*response);
  }
  EXPECT_EQ(live[1].status, 404);

  const std::string text = Slurp(cassette);
  EXPECT_THAT(text, HasSubstr("interactions:"));
  EXPECT_THAT(text, Not(HasSubstr(kKey)));
  EXPECT_THAT(text, Not(HasSubstr(kToken)));
  EXPECT_THAT(text, HasSubstr("X-Api-Key"));
  EXPECT_THAT(text, HasSubstr("!!binary"));

  auto replay = ReplayTransport::Load(cassette.parent_path());
  ASSERT_TRUE(replay.has_value()) << replay.error().message;
  EXPECT_EQ((*replay)->request_count(), 3u);
  for (std::size_t i = 0; i < requests.size(); ++i) {
    auto replayed = (*replay)->Send(requests[i], Limits());
    ASSERT_TRUE(replayed.has_value()) << replayed.error().message;
    EXPECT_EQ(replayed->status, live[i].status);
    if (i == 2) {
      EXPECT_EQ(replayed->body, live[i].body);  // binary bytes survive the cassette
    } else {
      EXPECT_EQ(replayed->body, Redact(live[i].body));  // the echoed key is masked
      EXPECT_THAT(replayed->body, Not(HasSubstr(kKey)));
    }
  }
  EXPECT_EQ(server.received().size(), 3u);  // the replay sent nothing
}

TEST_F(RecordingTest, TransportFailuresAreNotRecorded) {
  auto curl = CurlTransport::Make();
  ASSERT_TRUE(curl.has_value());
  const std::filesystem::path cassette = dir_ / "x" / "recorded.yaml";
  RecordingTransport recorder(std::shared_ptr<Transport>(std::move(*curl)), cassette);
  Request request;
  request.url = "http://127.0.0.1:" + std::to_string(LoopbackServer::ClosedPort()) + "/nothing";
  auto response = recorder.Send(request, Limits());
  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.error().kind, ErrorKind::kNetwork);
  EXPECT_FALSE(std::filesystem::exists(cassette));
}

}  // namespace
}  // namespace databox::http
