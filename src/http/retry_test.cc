#include "http/retry.h"

#include <gtest/gtest.h>

namespace databox::http {
namespace {

using std::chrono::milliseconds;

TEST(BackoffDelayTest, DoublesThenCapsWithFullJitter) {
  RetryPolicy policy;
  policy.base_delay = milliseconds(100);
  policy.max_delay = milliseconds(1000);
  EXPECT_EQ(BackoffDelay(policy, 0, 1.0), milliseconds(100));
  EXPECT_EQ(BackoffDelay(policy, 3, 1.0), milliseconds(800));
  EXPECT_EQ(BackoffDelay(policy, 4, 1.0), milliseconds(1000));
  EXPECT_EQ(BackoffDelay(policy, 60, 1.0), milliseconds(1000));
  EXPECT_EQ(BackoffDelay(policy, 3, 0.25), milliseconds(200));
  EXPECT_EQ(BackoffDelay(policy, 3, 0.0), milliseconds(0));
}

TEST(ParseRetryAfterTest, Seconds) {
  auto now = std::chrono::system_clock::now();
  EXPECT_EQ(ParseRetryAfter("120", now), milliseconds(120000));
  EXPECT_EQ(ParseRetryAfter(" 0 ", now), milliseconds(0));
  EXPECT_EQ(ParseRetryAfter("-5", now), std::nullopt);
  EXPECT_EQ(ParseRetryAfter("soon", now), std::nullopt);
  EXPECT_EQ(ParseRetryAfter("", now), std::nullopt);
}

TEST(ParseRetryAfterTest, HttpDatesInAllThreeFormats) {
  // 1994-11-06T08:49:37Z, the example of RFC 9110.
  auto now = std::chrono::system_clock::from_time_t(784111777 - 60);
  EXPECT_EQ(ParseRetryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now), milliseconds(60000));
  EXPECT_EQ(ParseRetryAfter("Sunday, 06-Nov-94 08:49:37 GMT", now), milliseconds(60000));
  EXPECT_EQ(ParseRetryAfter("Sun Nov  6 08:49:37 1994", now), milliseconds(60000));
  // A date in the past means "now".
  EXPECT_EQ(ParseRetryAfter("Sun, 06 Nov 1994 08:48:00 GMT", now), milliseconds(0));
}

}  // namespace
}  // namespace databox::http
