#include "http/client.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <ctime>

#include "http/loopback_server_test_support.h"

namespace databox::http {
namespace {

using std::chrono::milliseconds;
using ::testing::HasSubstr;
using testing::LoopbackServer;
using ::testing::Not;
using testing::ReceivedRequest;
using testing::Reply;

//! Records sleeps instead of sleeping; time moves only when the client sleeps.
class FakeTiming final : public RetryTiming {
 public:
  std::chrono::steady_clock::time_point Now() override { return now_; }
  std::chrono::system_clock::time_point WallNow() override { return wall_; }
  void SleepFor(milliseconds duration) override {
    sleeps.push_back(duration);
    now_ += duration;
    wall_ += duration;
  }
  double Random() override { return random; }

  std::vector<milliseconds> sleeps;
  double random = 0.5;

 private:
  std::chrono::steady_clock::time_point now_{};
  std::chrono::system_clock::time_point wall_ = std::chrono::system_clock::from_time_t(1767225600);
};

Reply Answer(int status, std::string body = "", Headers headers = {}) {
  Reply reply;
  reply.status = status;
  reply.headers = std::move(headers);
  reply.body = std::move(body);
  return reply;
}

Request MakeRequest(Method method, std::string url) {
  Request request;
  request.method = method;
  request.url = std::move(url);
  return request;
}

RetryPolicy Policy(int max_attempts, milliseconds base = milliseconds(500),
                   milliseconds max = milliseconds(30000),
                   milliseconds budget = milliseconds(120000)) {
  RetryPolicy policy;
  policy.max_attempts = max_attempts;
  policy.base_delay = base;
  policy.max_delay = max;
  policy.total_budget = budget;
  return policy;
}

class HttpClientTest : public ::testing::Test {
 protected:
  HttpClient MakeClient(RetryPolicy retry = {}) {
    ClientOptions options;
    options.retry = retry;
    options.timing = &timing_;
    auto client = HttpClient::Make(options);
    EXPECT_TRUE(client.has_value());
    return std::move(*client);
  }

  FakeTiming timing_;
};

TEST_F(HttpClientTest, GetReturnsBodyAndHeadersLookedUpCaseInsensitively) {
  LoopbackServer server([](const ReceivedRequest&, int) {
    return Answer(200, "hello", {{"X-Thing", "v1"}});
  });
  HttpClient client = MakeClient();
  auto response = client.Get(server.Url("/a?b=1"), {{"Accept", "application/json"}});
  ASSERT_TRUE(response.has_value()) << response.error().ToString();
  EXPECT_EQ(response->status, 200);
  EXPECT_EQ(response->body, "hello");
  EXPECT_EQ(response->headers.Get("x-thing"), "v1");
  ASSERT_EQ(server.received().size(), 1u);
  EXPECT_EQ(server.received()[0].target, "/a?b=1");
  EXPECT_EQ(server.received()[0].headers.Get("accept"), "application/json");
}

TEST_F(HttpClientTest, ReusesOneConnectionAcrossRequests) {
  LoopbackServer server([](const ReceivedRequest&, int) { return Answer(200, "x"); });
  HttpClient client = MakeClient();
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(client.Get(server.Url("/")).has_value());
  EXPECT_EQ(server.connections(), 1);
}

TEST_F(HttpClientTest, SendsMethodAndBody) {
  LoopbackServer server([](const ReceivedRequest&, int) { return Answer(201); });
  HttpClient client = MakeClient();
  Request post = MakeRequest(Method::kPost, server.Url("/p"));
  post.body = R"({"a":1})";
  post.headers.Add("Content-Type", "application/json");
  ASSERT_TRUE(client.Send(post).has_value());
  ASSERT_TRUE(client.Send(MakeRequest(Method::kPut, server.Url("/empty"))).has_value());
  auto received = server.received();
  ASSERT_EQ(received.size(), 2u);
  EXPECT_EQ(received[0].method, "POST");
  EXPECT_EQ(received[0].body, R"({"a":1})");
  EXPECT_EQ(received[0].headers.Get("content-type"), "application/json");
  EXPECT_EQ(received[1].method, "PUT");
  EXPECT_EQ(received[1].headers.Get("content-length"), "0");
}

TEST_F(HttpClientTest, RetriesOn500And503ThenSucceeds) {
  LoopbackServer server([](const ReceivedRequest&, int index) {
    return index == 0 ? Answer(500) : index == 1 ? Answer(503) : Answer(200, "done");
  });
  HttpClient client = MakeClient(Policy(5, milliseconds(100)));
  auto response = client.Get(server.Url("/"));
  ASSERT_TRUE(response.has_value()) << response.error().ToString();
  EXPECT_EQ(response->body, "done");
  EXPECT_EQ(server.received().size(), 3u);
  // Full jitter with random 0.5: half of 100 ms, then half of 200 ms.
  EXPECT_EQ(timing_.sleeps, (std::vector<milliseconds>{milliseconds(50), milliseconds(100)}));
}

TEST_F(HttpClientTest, HonoursRetryAfterSecondsOn429) {
  LoopbackServer server([](const ReceivedRequest&, int index) {
    return index == 0 ? Answer(429, "slow down", {{"Retry-After", "7"}}) : Answer(200);
  });
  HttpClient client = MakeClient();
  ASSERT_TRUE(client.Get(server.Url("/")).has_value());
  EXPECT_EQ(timing_.sleeps, std::vector<milliseconds>{milliseconds(7000)});
}

TEST_F(HttpClientTest, HonoursRetryAfterHttpDate) {
  // The fake wall clock starts at 2026-01-01T00:00:00Z; ask for 30 s later.
  LoopbackServer server([](const ReceivedRequest&, int index) {
    return index == 0 ? Answer(503, "", {{"Retry-After", "Thu, 01 Jan 2026 00:00:30 GMT"}})
                      : Answer(200);
  });
  HttpClient client = MakeClient();
  ASSERT_TRUE(client.Get(server.Url("/")).has_value());
  EXPECT_EQ(timing_.sleeps, std::vector<milliseconds>{milliseconds(30000)});
}

TEST_F(HttpClientTest, StopsWhenRetryAfterExceedsBudget) {
  LoopbackServer server([](const ReceivedRequest&, int) {
    return Answer(503, "maintenance", {{"Retry-After", "600"}});
  });
  HttpClient client =
      MakeClient(Policy(5, milliseconds(500), milliseconds(30000), std::chrono::seconds(10)));
  auto response = client.Get(server.Url("/x"));
  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.error().kind, ErrorKind::kNetwork);
  EXPECT_THAT(response.error().message, HasSubstr("after 1 attempt "));
  EXPECT_THAT(response.error().message, HasSubstr("last status 503"));
  EXPECT_THAT(response.error().message, HasSubstr("retry budget"));
  EXPECT_THAT(response.error().message, HasSubstr("GET " + server.Url("/x")));
  EXPECT_EQ(server.received().size(), 1u);
  EXPECT_TRUE(timing_.sleeps.empty());
}

TEST_F(HttpClientTest, BackoffStopsAtTotalBudget) {
  LoopbackServer server([](const ReceivedRequest&, int) { return Answer(502); });
  timing_.random = 0.999;  // waits of ~1 s each (base = max = 1 s)
  HttpClient client =
      MakeClient(Policy(10, milliseconds(1000), milliseconds(1000), milliseconds(2500)));
  auto response = client.Get(server.Url("/"));
  ASSERT_FALSE(response.has_value());
  // Attempts at 0 s, ~1 s, ~2 s; a wait to ~3 s would pass the 2.5 s budget.
  EXPECT_EQ(server.received().size(), 3u);
  EXPECT_THAT(response.error().message, HasSubstr("after 3 attempts"));
}

TEST_F(HttpClientTest, GivesUpAfterMaxAttempts) {
  LoopbackServer server([](const ReceivedRequest&, int) { return Answer(503); });
  HttpClient client = MakeClient(Policy(3));
  auto response = client.Get(server.Url("/"));
  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.error().kind, ErrorKind::kNetwork);
  EXPECT_THAT(response.error().message, HasSubstr("after 3 attempts (last status 503)"));
  EXPECT_EQ(server.received().size(), 3u);
  EXPECT_EQ(timing_.sleeps.size(), 2u);
}

TEST_F(HttpClientTest, PostIsNotResentAfter500UnlessMarkedIdempotent) {
  LoopbackServer server(
      [](const ReceivedRequest&, int index) { return index < 2 ? Answer(500) : Answer(200); });
  HttpClient client = MakeClient();
  auto once = client.Send(MakeRequest(Method::kPost, server.Url("/commit")));
  ASSERT_FALSE(once.has_value());
  EXPECT_EQ(once.error().kind, ErrorKind::kNetwork);
  EXPECT_EQ(server.received().size(), 1u);
  Request token = MakeRequest(Method::kPost, server.Url("/token"));
  token.idempotent = true;
  auto retried = client.Send(token);
  ASSERT_TRUE(retried.has_value()) << retried.error().ToString();
  EXPECT_EQ(server.received().size(), 3u);
}

TEST_F(HttpClientTest, PostIsResentAfter429) {
  LoopbackServer server(
      [](const ReceivedRequest&, int index) { return index == 0 ? Answer(429) : Answer(200); });
  HttpClient client = MakeClient();
  ASSERT_TRUE(client.Send(MakeRequest(Method::kPost, server.Url("/"))).has_value());
  EXPECT_EQ(server.received().size(), 2u);
}

TEST_F(HttpClientTest, ConnectionRefusedIsRetriedThenNetworkError) {
  HttpClient client = MakeClient(Policy(2));
  std::string url = "http://127.0.0.1:" + std::to_string(LoopbackServer::ClosedPort()) + "/x";
  auto response = client.Get(url);
  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.error().kind, ErrorKind::kNetwork);
  EXPECT_THAT(response.error().message, HasSubstr("GET " + url + " failed after 2 attempts"));
  EXPECT_EQ(timing_.sleeps.size(), 1u);
}

TEST_F(HttpClientTest, SlowServerTimesOut) {
  LoopbackServer server([](const ReceivedRequest&, int) {
    Reply reply = Answer(200, "late");
    reply.delay = milliseconds(3000);
    return reply;
  });
  HttpClient client = MakeClient(Policy(1));
  auto started = std::chrono::steady_clock::now();
  Request slow = MakeRequest(Method::kGet, server.Url("/slow"));
  slow.timeout = milliseconds(300);
  auto response = client.Send(slow);
  auto took = std::chrono::steady_clock::now() - started;
  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.error().kind, ErrorKind::kNetwork);
  EXPECT_THAT(response.error().message, HasSubstr("timed out"));
  EXPECT_LT(took, std::chrono::milliseconds(2500));
}

std::string Gzip(const std::string& data) {
  z_stream stream{};
  EXPECT_EQ(deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY),
            Z_OK);
  std::string out(deflateBound(&stream, data.size()) + 32, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&stream, Z_FINISH), Z_STREAM_END);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

TEST_F(HttpClientTest, DecodesGzipBodies) {
  std::string json = R"({"results":[)" + std::string(5000, ' ') + "]}";
  LoopbackServer server([&](const ReceivedRequest&, int) {
    return Answer(200, Gzip(json), {{"Content-Encoding", "gzip"}});
  });
  HttpClient client = MakeClient();
  auto response = client.Get(server.Url("/"));
  ASSERT_TRUE(response.has_value()) << response.error().ToString();
  EXPECT_EQ(response->body, json);
  EXPECT_THAT(std::string(server.received()[0].headers.Get("Accept-Encoding").value_or("")),
              HasSubstr("gzip"));
}

TEST_F(HttpClientTest, StoredObjectBytesAreNotDecoded) {
  // SeaweedFS answers a GET of an object uploaded with aws-chunked with that Content-Encoding;
  // the bytes are the object as stored, so object storage asks for them undecoded.
  LoopbackServer server([](const ReceivedRequest&, int) {
    return Answer(200, "{\"a\":1}", {{"Content-Encoding", "aws-chunked"}});
  });
  HttpClient client = MakeClient();
  Request stored = MakeRequest(Method::kGet, server.Url("/"));
  stored.decode_content = false;
  auto response = client.Send(stored);
  ASSERT_TRUE(response.has_value()) << response.error().ToString();
  EXPECT_EQ(response->body, "{\"a\":1}");
  EXPECT_FALSE(server.received()[0].headers.Get("Accept-Encoding").has_value());
  // Decoding on (the default) cannot read it.
  EXPECT_FALSE(client.Send(MakeRequest(Method::kGet, server.Url("/"))).has_value());
}

TEST_F(HttpClientTest, BodyOverTheCapIsADataError) {
  LoopbackServer server(
      [](const ReceivedRequest&, int) { return Answer(200, std::string(10000, 'a')); });
  HttpClient client = MakeClient();
  Request capped = MakeRequest(Method::kGet, server.Url("/"));
  capped.max_response_bytes = 1000;
  auto response = client.Send(capped);
  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.error().kind, ErrorKind::kData);
  EXPECT_THAT(response.error().message, HasSubstr("cap of 1000 bytes"));
  EXPECT_EQ(server.received().size(), 1u);  // not retried
}

TEST_F(HttpClientTest, DecodedBodyOverTheCapIsADataError) {
  // Small on the wire, large once decoded: the cap applies to what the caller receives.
  LoopbackServer server([](const ReceivedRequest&, int) {
    return Answer(200, Gzip(std::string(200000, 'a')), {{"Content-Encoding", "gzip"}});
  });
  HttpClient client = MakeClient();
  Request capped = MakeRequest(Method::kGet, server.Url("/"));
  capped.max_response_bytes = 50000;
  auto response = client.Send(capped);
  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.error().kind, ErrorKind::kData);
  EXPECT_THAT(response.error().message, HasSubstr("cap of 50000 bytes"));
}

TEST_F(HttpClientTest, MapsStatusesToErrorKinds) {
  LoopbackServer server([](const ReceivedRequest& request, int) {
    return Answer(std::stoi(request.target.substr(1)), "why");
  });
  HttpClient client = MakeClient();
  EXPECT_EQ(client.Get(server.Url("/401")).error().kind, ErrorKind::kAuth);
  EXPECT_EQ(client.Get(server.Url("/403")).error().kind, ErrorKind::kAuth);
  EXPECT_EQ(client.Get(server.Url("/404")).error().kind, ErrorKind::kNotFound);
  auto bad = client.Get(server.Url("/400"));
  EXPECT_EQ(bad.error().kind, ErrorKind::kData);
  EXPECT_THAT(bad.error().message, HasSubstr("HTTP 400 (body: why)"));
}

TEST_F(HttpClientTest, AllowErrorStatusReturnsTheResponse) {
  LoopbackServer server([](const ReceivedRequest&, int) {
    return Answer(409, R"({"error":{"type":"CommitFailedException"}})");
  });
  HttpClient client = MakeClient();
  Request commit = MakeRequest(Method::kPost, server.Url("/commit"));
  commit.allow_error_status = true;
  auto response = client.Send(commit);
  ASSERT_TRUE(response.has_value()) << response.error().ToString();
  EXPECT_EQ(response->status, 409);
  EXPECT_THAT(response->body, HasSubstr("CommitFailedException"));
}

TEST_F(HttpClientTest, ErrorsNeverContainCredentials) {
  const std::string url_key = "url-key-7f3a9c";
  const std::string header_key = "hdr-key-51be02";
  const std::string bearer = "bearer-tok-a8d2e1";
  // A misbehaving server that echoes everything it got.
  LoopbackServer server([](const ReceivedRequest& request, int) {
    std::string echo = request.target;
    for (const auto& [name, value] : request.headers.fields()) echo += " " + name + "=" + value;
    return Answer(400, echo);
  });
  HttpClient client = MakeClient();
  Request request = MakeRequest(Method::kGet, server.Url("/q?api_key=" + url_key + "&page=2"));
  request.headers.Add("X-Api-Key", header_key);
  request.headers.Add("Authorization", "Bearer " + bearer);
  auto response = client.Send(request);
  ASSERT_FALSE(response.has_value());
  const std::string& message = response.error().message;
  EXPECT_THAT(message, HasSubstr("api_key=***&page=2"));
  EXPECT_THAT(message, Not(HasSubstr(url_key)));
  EXPECT_THAT(message, Not(HasSubstr(header_key)));
  EXPECT_THAT(message, Not(HasSubstr(bearer)));

  auto refused = client.Get("http://127.0.0.1:" + std::to_string(LoopbackServer::ClosedPort()) +
                            "/q?token=" + url_key);
  ASSERT_FALSE(refused.has_value());
  EXPECT_THAT(refused.error().message, Not(HasSubstr(url_key)));
  EXPECT_THAT(refused.error().message, HasSubstr("token=***"));
}

}  // namespace
}  // namespace databox::http
