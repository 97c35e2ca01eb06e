#include "sources/usfws/usfws_http.h"

#include <gtest/gtest.h>

#include "sources/usfws/test_util.h"

namespace databox::source {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using testing::RecordingTiming;
using testing::ScriptedSite;

const std::string kUrl = "https://www.fws.gov/media/x";

std::expected<std::string, FetchError> Get(ScriptedSite& site, RecordingTiming& timing,
                                           int attempts = 6, std::size_t limit = 100) {
  UsfwsFetcher fetcher(site, RequestPolicy{.max_attempts = attempts, .user_agent = "Databox test"},
                       timing);
  return fetcher.Get(kUrl, limit);
}

TEST(UsfwsRetryWaitTest, DoublesFromOneSecondUpToThirty) {
  EXPECT_EQ(RetryWait(1, std::nullopt), seconds(1));
  EXPECT_EQ(RetryWait(2, std::nullopt), seconds(2));
  EXPECT_EQ(RetryWait(5, std::nullopt), seconds(16));
  EXPECT_EQ(RetryWait(6, std::nullopt), seconds(30));
  EXPECT_EQ(RetryWait(40, std::nullopt), seconds(30));
}

TEST(UsfwsRetryWaitTest, RetryAfterRaisesTheWaitUpToThirty) {
  EXPECT_EQ(RetryWait(1, seconds(7)), seconds(7));
  EXPECT_EQ(RetryWait(4, seconds(7)), seconds(8));  // the backoff is longer
  EXPECT_EQ(RetryWait(1, seconds(100000)), seconds(30));
}

TEST(UsfwsFetcherTest, SixTransportFailuresWaitOneTwoFourEightSixteen) {
  ScriptedSite site;  // nothing scripted: every request is a replay miss
  RecordingTiming timing;
  auto got = Get(site, timing);
  ASSERT_FALSE(got.has_value());
  EXPECT_EQ(got.error().failure, FetchFailure::kRetriesExhausted);
  EXPECT_EQ(got.error().attempts, 6);
  EXPECT_EQ(site.CountOf(kUrl), 6);
  EXPECT_EQ(timing.WaitSeconds(), (std::vector<int64_t>{1, 2, 4, 8, 16}));
  EXPECT_EQ(got.error().reason.find("fws.gov"), std::string::npos);
}

TEST(UsfwsFetcherTest, RetryAfterSecondsAndDates) {
  const auto cases = std::vector<std::pair<std::string, int64_t>>{
      {"7", 7},
      {"999999", 30},
      {"invalid", 1},
      {"Mon, 03 Aug 2026 00:00:20 GMT", 20},  // 20 s after the fixed wall clock
      {"Mon, 03 Aug 2026 00:02:00 GMT", 30},
      {"Sun, 02 Aug 2026 00:00:00 GMT", 1}};
  for (const auto& [header, wait] : cases) {
    ScriptedSite site;
    site.Add(kUrl, 429, "slow down", http::Headers{{"Retry-After", header}});
    site.Add(kUrl, 200, "page");
    RecordingTiming timing;
    auto got = Get(site, timing);
    ASSERT_TRUE(got.has_value()) << header;
    EXPECT_EQ(*got, "page");
    EXPECT_EQ(timing.WaitSeconds(), std::vector<int64_t>{wait}) << header;
  }
}

TEST(UsfwsFetcherTest, ServerErrorsAreRetriedOtherStatusesAreNot) {
  ScriptedSite site;
  site.Add(kUrl, 503, "busy");
  site.Add(kUrl, 500, "oops");
  site.Add(kUrl, 200, "page");
  RecordingTiming timing;
  EXPECT_EQ(Get(site, timing).value_or(""), "page");
  EXPECT_EQ(timing.WaitSeconds(), (std::vector<int64_t>{1, 2}));

  ScriptedSite missing;
  missing.Add(kUrl, 404, "gone");
  RecordingTiming no_wait;
  auto got = Get(missing, no_wait);
  ASSERT_FALSE(got.has_value());
  EXPECT_EQ(got.error().failure, FetchFailure::kFinal);
  EXPECT_EQ(got.error().reason, "HTTP 404");
  EXPECT_EQ(missing.CountOf(kUrl), 1);
  EXPECT_TRUE(no_wait.WaitSeconds().empty());
}

TEST(UsfwsFetcherTest, OneAttemptMeansNoRetry) {
  ScriptedSite site;
  site.Add(kUrl, 502, "bad gateway");
  RecordingTiming timing;
  auto got = Get(site, timing, /*attempts=*/1);
  ASSERT_FALSE(got.has_value());
  EXPECT_EQ(got.error().failure, FetchFailure::kRetriesExhausted);
  EXPECT_EQ(site.CountOf(kUrl), 1);
}

TEST(UsfwsFetcherTest, BodyLimitsFailAtOnce) {
  const auto final_reason = [](http::Response response) {
    ScriptedSite site;
    site.Add(kUrl, std::move(response));
    RecordingTiming timing;
    auto got = Get(site, timing, 6, /*limit=*/10);
    EXPECT_EQ(site.CountOf(kUrl), 1);
    if (got) return std::string("succeeded");
    EXPECT_EQ(got.error().failure, FetchFailure::kFinal);
    return got.error().reason;
  };
  EXPECT_EQ(final_reason({200, {{"Content-Length", "11"}}, "x"}),
            "Content-Length 11 is over the limit of 10 bytes");
  EXPECT_EQ(final_reason({200, {{"Content-Length", "ten"}}, "x"}),
            "Content-Length is not a non-negative integer");
  EXPECT_EQ(final_reason({200, {{"Content-Length", "-1"}}, "x"}),
            "Content-Length is not a non-negative integer");
  EXPECT_EQ(final_reason({200, {}, "01234567890"}), "body is over the limit of 10 bytes");
  EXPECT_EQ(final_reason({200, {}, ""}), "empty body");
  EXPECT_EQ(final_reason({200, {{"Content-Length", "10"}}, "0123456789"}), "succeeded");
}

TEST(UsfwsFetcherTest, ATransportThatRefusesALargeBodyIsFinal) {
  ScriptedSite site;
  site.AddError(kUrl, http::ResponseTooLargeError(10));
  RecordingTiming timing;
  auto got = Get(site, timing);
  ASSERT_FALSE(got.has_value());
  EXPECT_EQ(got.error().failure, FetchFailure::kFinal);
  EXPECT_EQ(site.CountOf(kUrl), 1);
}

TEST(UsfwsFetcherTest, SendsAcceptAndUserAgent) {
  ScriptedSite site;
  site.Add(kUrl, 200, "page");
  RecordingTiming timing;
  ASSERT_TRUE(Get(site, timing).has_value());
  const http::Request sent = site.requests().front();
  EXPECT_EQ(sent.headers.Get("Accept"), "application/json, text/html");
  EXPECT_EQ(sent.headers.Get("User-Agent"), "Databox test");
  EXPECT_EQ(sent.method, http::Method::kGet);
}

}  // namespace
}  // namespace databox::source
