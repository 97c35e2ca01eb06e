#include "http/redirects.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/redact.h"
#include "http/client.h"
#include "http/loopback_server_test_support.h"

namespace databox::http {
namespace {

using ::testing::HasSubstr;
using testing::LoopbackServer;
using ::testing::Not;
using testing::ReceivedRequest;
using testing::Reply;

constexpr char kSecret[] = "tok-5ecret-value-0001";

Reply Redirect(int status, std::string location) {
  Reply reply;
  reply.status = status;
  reply.headers.Add("Location", std::move(location));
  return reply;
}

Reply Page(std::string body) {
  Reply reply;
  reply.body = std::move(body);
  return reply;
}

HttpClient Client(RedirectPolicy policy = {}) {
  ClientOptions options;
  options.retry.max_attempts = 1;
  options.redirects = std::move(policy);
  auto client = HttpClient::Make(std::move(options));
  EXPECT_TRUE(client.has_value());
  return std::move(*client);
}

Request WithToken(std::string url) {
  Request request;
  request.url = std::move(url);
  request.headers.Add("X-eBirdApiToken", kSecret);
  return request;
}

//! Every header value and target the server received, as one text.
std::string Seen(const LoopbackServer& server) {
  std::string text;
  for (const ReceivedRequest& request : server.received()) {
    text += request.target + "\n";
    for (const auto& [name, value] : request.headers.fields()) text += name + ": " + value + "\n";
  }
  return text;
}

TEST(OriginTest, SchemeHostAndDefaultPort) {
  auto origin = OriginOf("HTTPS://Api.Example.org/v1?x=1");
  ASSERT_TRUE(origin.has_value()) << origin.error().message;
  EXPECT_EQ(origin->ToString(), "https://api.example.org:443");
  EXPECT_EQ(OriginOf("http://127.0.0.1:8080/a")->ToString(), "http://127.0.0.1:8080");
  EXPECT_NE(*OriginOf("http://127.0.0.1:8080/"), *OriginOf("http://127.0.0.2:8080/"));
  EXPECT_NE(*OriginOf("http://127.0.0.1:8080/"), *OriginOf("http://127.0.0.1:8081/"));
  EXPECT_NE(*OriginOf("http://h.org/"), *OriginOf("https://h.org/"));
  EXPECT_EQ(*OriginOf("http://h.org/"), *OriginOf("http://h.org:80/x"));
  EXPECT_FALSE(OriginOf("ftp://h.org/x").has_value());
  EXPECT_FALSE(OriginOf("/relative").has_value());
}

TEST(OriginTest, ResolvesRelativeLocations) {
  EXPECT_EQ(*ResolveLocation("http://h.org/a/b?q=1", "/c"), "http://h.org/c");
  EXPECT_EQ(*ResolveLocation("http://h.org/a/b", "c?d=1"), "http://h.org/a/c?d=1");
  EXPECT_EQ(*ResolveLocation("http://h.org/a", "https://other.org/x"), "https://other.org/x");
}

TEST(OriginTest, WithoutCredentialsDropsHeadersParamsAndUserInfo) {
  RegisterSecret("custom-5ecret-in-a-plain-header");
  Request request;
  request.url = "http://user:pw@h.org/x?token=abc&page=2&api_key=zz";
  request.headers.Add("Authorization", "Bearer abcdef");
  request.headers.Add("X-Amz-Date", "20260101T000000Z");
  request.headers.Add("X-Custom", "custom-5ecret-in-a-plain-header");
  request.headers.Add("Accept", "application/json");
  Request bare = WithoutCredentials(request);
  EXPECT_EQ(bare.url, "http://h.org/x?page=2");
  ASSERT_EQ(bare.headers.fields().size(), 1u);
  EXPECT_EQ(bare.headers.fields()[0].first, "Accept");
}

TEST(RedirectTest, SameOriginKeepsCredentials) {
  LoopbackServer server([](const ReceivedRequest& request, int) {
    return request.target == "/old" ? Redirect(302, "/new") : Page("here");
  });
  auto response = Client().Send(WithToken(server.Url("/old")));
  ASSERT_TRUE(response.has_value()) << response.error().message;
  EXPECT_EQ(response->body, "here");
  ASSERT_EQ(server.received().size(), 2u);
  EXPECT_EQ(server.received()[1].headers.Get("X-eBirdApiToken"), kSecret);
}

TEST(RedirectTest, AnotherOriginIsRefusedNamingBothAndGetsNothing) {
  LoopbackServer other([](const ReceivedRequest&, int) { return Page("other data"); }, "127.0.0.2");
  LoopbackServer origin(
      [&](const ReceivedRequest&, int) { return Redirect(302, other.Url("/steal")); });
  RedirectPolicy policy;
  policy.allow_setting = "redirect_hosts of source ebird";
  auto response = Client(policy).Send(WithToken(origin.Url("/data")));
  ASSERT_FALSE(response.has_value());
  EXPECT_EQ(response.error().kind, ErrorKind::kConfig);
  const std::string origin_name = "http://127.0.0.1:" + std::to_string(origin.port());
  const std::string other_name = "http://127.0.0.2:" + std::to_string(other.port());
  EXPECT_THAT(response.error().message, HasSubstr(origin_name));
  EXPECT_THAT(response.error().message, HasSubstr(other_name));
  EXPECT_THAT(response.error().message,
              HasSubstr("add \"127.0.0.2\" to redirect_hosts of source ebird"));
  EXPECT_THAT(response.error().message, Not(HasSubstr(kSecret)));
  EXPECT_TRUE(other.received().empty());
}

TEST(RedirectTest, AllowedHostIsFollowedWithoutCredentials) {
  LoopbackServer other([](const ReceivedRequest&, int) { return Page("other data"); }, "127.0.0.2");
  LoopbackServer origin([&](const ReceivedRequest&, int) {
    return Redirect(307, other.Url(std::string("/x?token=") + kSecret + "&page=3"));
  });
  RedirectPolicy policy;
  policy.allowed_hosts = {"127.0.0.2"};
  Request request = WithToken(origin.Url("/data?token=") + kSecret);
  request.headers.Add("Authorization", std::string("Bearer ") + kSecret);
  auto response = Client(policy).Send(std::move(request));
  ASSERT_TRUE(response.has_value()) << response.error().message;
  EXPECT_EQ(response->body, "other data");
  ASSERT_EQ(other.received().size(), 1u);
  EXPECT_EQ(other.received()[0].target, "/x?page=3");
  EXPECT_THAT(Seen(other), Not(HasSubstr(kSecret)));
}

TEST(RedirectTest, HttpsToHttpIsRefusedEvenForAnAllowedHost) {
  Response redirect;
  redirect.status = 302;
  redirect.headers.Add("Location", "http://cdn.example.org/file");
  struct Once final : Transport {
    Response answer;
    int calls = 0;
    Result<Response> Send(const Request&, const AttemptLimits&) override {
      ++calls;
      return answer;
    }
  };
  auto inner = std::make_shared<Once>();
  inner->answer = redirect;
  RedirectPolicy policy;
  policy.allowed_hosts = {"cdn.example.org"};
  RedirectTransport transport(inner, policy);
  auto response = transport.Send(WithToken("https://api.example.org/x"), AttemptLimits{});
  ASSERT_FALSE(response.has_value());
  EXPECT_THAT(response.error().message, HasSubstr("from https to http is refused"));
  EXPECT_EQ(inner->calls, 1);
}

TEST(RedirectTest, MoreThanFiveRedirectsAreRefused) {
  LoopbackServer server(
      [&](const ReceivedRequest& request, int) { return Redirect(302, request.target + "x"); });
  auto response = Client().Send(WithToken(server.Url("/a")));
  ASSERT_FALSE(response.has_value());
  EXPECT_THAT(response.error().message, HasSubstr("redirected more than 5 times"));
  EXPECT_EQ(server.received().size(), 6u);
}

TEST(RedirectTest, SeeOtherTurnsAPostIntoAGet) {
  LoopbackServer server([](const ReceivedRequest& request, int) {
    return request.target == "/form" ? Redirect(303, "/result") : Page(request.method);
  });
  Request request;
  request.method = Method::kPost;
  request.url = server.Url("/form");
  request.body = "a=1";
  auto response = Client().Send(std::move(request));
  ASSERT_TRUE(response.has_value()) << response.error().message;
  EXPECT_EQ(response->body, "GET");
}

TEST(RedirectTest, NotFollowingReturnsTheRedirect) {
  LoopbackServer server([](const ReceivedRequest&, int) { return Redirect(302, "/new"); });
  RedirectPolicy policy;
  policy.follow = false;
  Request request = WithToken(server.Url("/old"));
  request.allow_error_status = true;
  auto response = Client(policy).Send(std::move(request));
  ASSERT_TRUE(response.has_value()) << response.error().message;
  EXPECT_EQ(response->status, 302);
  EXPECT_EQ(server.received().size(), 1u);
}

}  // namespace
}  // namespace databox::http
