// Run states: the names docs/run_history.md lists, their parsers, and what an unknown name gives.
#include "refresh/run_status.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace databox::refresh {
namespace {

template <typename Enum, typename Parse>
void ExpectRoundTrip(const std::vector<std::pair<Enum, std::string>>& named,
                     std::string_view (*name_of)(Enum), Parse parse) {
  for (const auto& [value, name] : named) {
    EXPECT_EQ(name_of(value), name);
    auto parsed = parse(name);
    ASSERT_TRUE(parsed.has_value()) << name << ": " << parsed.error().ToString();
    EXPECT_EQ(*parsed, value) << name;
  }
}

TEST(RunStatusTest, SourceStatusesAreTheDocumentedWords) {
  ExpectRoundTrip<SourceStatus>({{SourceStatus::kOk, "ok"},
                                 {SourceStatus::kFailed, "failed"},
                                 {SourceStatus::kNotStarted, "not_started"},
                                 {SourceStatus::kInterrupted, "interrupted"}},
                                SourceStatusName, ParseSourceStatus);
}

TEST(RunStatusTest, TransformStatusesAreTheDocumentedWords) {
  ExpectRoundTrip<TransformStatus>({{TransformStatus::kOk, "ok"},
                                    {TransformStatus::kFailed, "failed"},
                                    {TransformStatus::kNotRun, "not_run"},
                                    {TransformStatus::kSkipped, "skipped"},
                                    {TransformStatus::kInterrupted, "interrupted"}},
                                   TransformStatusName, ParseTransformStatus);
}

TEST(RunStatusTest, UnknownNamesAreDataErrorsThatNameTheTextAndTheChoices) {
  auto status = ParseSourceStatus("skipped");
  ASSERT_FALSE(status.has_value());
  EXPECT_EQ(status.error().kind, ErrorKind::kData);
  EXPECT_EQ(status.error().message,
            "unknown source status 'skipped': expected one of 'ok', 'failed', 'not_started', "
            "'interrupted'");

  auto transform = ParseTransformStatus("OK");
  ASSERT_FALSE(transform.has_value());
  EXPECT_EQ(transform.error().kind, ErrorKind::kData);
  EXPECT_NE(transform.error().message.find("'OK'"), std::string::npos);
}

}  // namespace
}  // namespace databox::refresh
