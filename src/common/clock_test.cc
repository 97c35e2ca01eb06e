// ISO 8601 dates and UTC times read back: real calendar dates only, the forms we write and the
// "+00:00" form others write.
#include "common/clock.h"

#include <gtest/gtest.h>

namespace databox {
namespace {

using std::chrono::day;
using std::chrono::month;
using std::chrono::sys_days;
using std::chrono::year;
using std::chrono::year_month_day;

TEST(ClockTest, IsoDatesAreRealCalendarDates) {
  EXPECT_EQ(IsoToDate("2026-11-30"), sys_days(year_month_day{year(2026), month(11), day(30)}));
  EXPECT_EQ(IsoToDate("2024-02-29"), sys_days(year_month_day{year(2024), month(2), day(29)}));
  for (const char* bad : {"", "2026-11-3", "2026-11-30T00:00:00Z", "2025-02-29", "2026-13-01",
                          "2026/11/30", "-026-11-30", "2026-1-130", " 2026-11-30"}) {
    EXPECT_EQ(IsoToDate(bad), std::nullopt) << bad;
  }
}

TEST(ClockTest, IsoTimesParseToMillisAndBadOnesDoNot) {
  EXPECT_EQ(IsoToMillis("1970-01-01T00:00:01.5Z"), 1500);
  EXPECT_EQ(IsoToMillis("1970-01-02T00:00:00Z"), 86'400'000);
  EXPECT_EQ(IsoToMillis("1970-01-02T00:00:00+00:00"), 86'400'000);
  EXPECT_EQ(IsoToMillis("1970-01-01T00:00:00.123456Z"), 123);
  EXPECT_EQ(*IsoToMillis("2026-11-30T02:10:58.659Z") - *IsoToMillis("2026-11-30T02:09:57.000Z"),
            61'659);
  for (const char* bad :
       {"", "2026-11-30", "2026-13-01T00:00:00Z", "2026-11-30T02:10:58", "2026-11-30T02:10:58.x9Z",
        "2026-02-30T00:00:00Z", "2026-11-30T24:00:00Z", "2026-11-30T02:10:58+01:00",
        "2026-11-30T02:10:58.Z", "2026-11-30 02:10:58Z"}) {
    EXPECT_EQ(IsoToMillis(bad), std::nullopt) << bad;
  }
}

}  // namespace
}  // namespace databox
