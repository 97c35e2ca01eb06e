#include "serve/serve_schedule.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <ctime>
#include <string>

#include "common/clock.h"

namespace databox::serve {
namespace {

using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

//! The time of an ISO 8601 UTC text ("2026-12-02T23:50:00Z").
SystemTime At(const std::string& iso) {
  const auto millis = IsoToMillis(iso);
  EXPECT_TRUE(millis.has_value()) << iso;
  return SystemTime(milliseconds(millis.value_or(0)));
}

std::string Iso(SystemTime at) {
  return MillisIso(std::chrono::duration_cast<milliseconds>(at.time_since_epoch()).count());
}

//! Sets TZ (a POSIX rule, so no zone database is needed) for one test, then restores it.
class LocalZone {
 public:
  explicit LocalZone(const char* rule) {
    if (const char* old = std::getenv("TZ")) saved_ = old;
    setenv("TZ", rule, 1);
    tzset();
  }
  ~LocalZone() {
    if (saved_) {
      setenv("TZ", saved_->c_str(), 1);
    } else {
      unsetenv("TZ");
    }
    tzset();
  }

 private:
  std::optional<std::string> saved_;
};

TEST(ServeSchedule, NextDailyRunIsTheFirstTimeStrictlyAfterNowAcrossMidnight) {
  LocalZone utc("UTC0");
  const std::vector<int> times = {6 * 60, 23 * 60 + 45};  // 06:00, 23:45
  EXPECT_EQ(Iso(NextDailyRun(times, At("2026-12-02T05:59:59Z"))), "2026-12-02T06:00:00.000Z");
  EXPECT_EQ(Iso(NextDailyRun(times, At("2026-12-02T06:00:00Z"))), "2026-12-02T23:45:00.000Z");
  EXPECT_EQ(Iso(NextDailyRun(times, At("2026-12-02T12:00:00Z"))), "2026-12-02T23:45:00.000Z");
  EXPECT_EQ(Iso(NextDailyRun(times, At("2026-12-02T23:50:00Z"))), "2026-12-03T06:00:00.000Z");
  // Across the end of a month and of a year.
  EXPECT_EQ(Iso(NextDailyRun(times, At("2026-12-31T23:46:00Z"))), "2027-01-01T06:00:00.000Z");
  EXPECT_EQ(Iso(NextDailyRun({0}, At("2026-02-28T00:00:00Z"))), "2026-03-01T00:00:00.000Z");
}

TEST(ServeSchedule, NextDailyRunIsInLocalTime) {
  LocalZone zone("XST-1");  // UTC+1 all year
  // 05:30 UTC is 06:30 local: 06:00 local has passed, so tomorrow 06:00 local = 05:00 UTC.
  EXPECT_EQ(Iso(NextDailyRun({6 * 60}, At("2026-12-02T05:30:00Z"))), "2026-12-03T05:00:00.000Z");
  // 23:30 UTC is 00:30 local of the next day: 06:00 local that day.
  EXPECT_EQ(Iso(NextDailyRun({6 * 60}, At("2026-12-02T23:30:00Z"))), "2026-12-03T05:00:00.000Z");
  EXPECT_EQ(Iso(NextDailyRun({30}, At("2026-12-02T23:20:00Z"))), "2026-12-02T23:30:00.000Z");
}

TEST(ServeSchedule, EveryCountsWholeIntervalsFromTheStart) {
  auto schedule = ParseServeSchedule("30m", {});
  ASSERT_TRUE(schedule.has_value()) << schedule.error().message;
  EXPECT_EQ(schedule->Describe(), "every 30m");
  const SystemTime start = At("2026-12-02T08:00:00Z");
  EXPECT_EQ(Iso(schedule->NextRun(start, start)), "2026-12-02T08:30:00.000Z");
  EXPECT_EQ(Iso(schedule->NextRun(start, start + minutes(30))), "2026-12-02T09:00:00.000Z");
  // Run times missed (a refresh longer than the interval) are not made up.
  EXPECT_EQ(Iso(schedule->NextRun(start, start + hours(2) + seconds(1))),
            "2026-12-02T10:30:00.000Z");
}

TEST(ServeSchedule, AtTakesRepeatedAndCommaSeparatedTimesSortedOnce) {
  auto schedule = ParseServeSchedule("", {"18:00,06:00", "06:00", "00:05"});
  ASSERT_TRUE(schedule.has_value()) << schedule.error().message;
  EXPECT_EQ(schedule->at_minutes, (std::vector<int>{5, 6 * 60, 18 * 60}));
  EXPECT_EQ(schedule->Describe(), "daily at 00:05, 06:00, 18:00 (local time)");
  EXPECT_TRUE(ParseServeSchedule("", {}).value().empty());
}

TEST(ServeSchedule, RefusesBadValuesNamingTheOption) {
  const auto message = [](const std::string& every, const std::vector<std::string>& at) {
    auto parsed = ParseServeSchedule(every, at);
    EXPECT_FALSE(parsed.has_value()) << every;
    return parsed ? std::string() : parsed.error().message;
  };
  EXPECT_EQ(message("1h", {"06:00"}),
            "--every and --at exclude each other: choose an interval or times of day");
  EXPECT_EQ(message("2 weeks", {}), "--every: '2 weeks' is not a duration like 30m, 6h, 1d");
  EXPECT_EQ(message("0", {}), "--every: '0' is under 1s: give 1s or more");
  for (const char* bad : {"6:00", "24:00", "06:60", "06-00", "", "06:00 "}) {
    EXPECT_EQ(message("", {bad}),
              "--at: '" + std::string(bad) + "' is not a time of day HH:MM (00:00 to 23:59)");
  }
  EXPECT_EQ(message("", {"06:00,"}), "--at: '' is not a time of day HH:MM (00:00 to 23:59)");
}

}  // namespace
}  // namespace databox::serve
