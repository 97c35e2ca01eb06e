// The load package list: sizes as people read them, one aligned line per package, and JSON.
#include "cli/load_list.h"

#include <gtest/gtest.h>

namespace databox::cli {
namespace {

load::PackageSummary Package(std::string load_id, load::PackageState state) {
  load::PackageSummary p;
  p.source = "noaa";
  p.load_id = std::move(load_id);
  p.state = state;
  p.created_at = "2026-11-30T02:00:00.000Z";
  p.changed_at = "2026-11-30T02:00:09.000Z";
  return p;
}

TEST(LoadListTest, SizesReadInBinaryUnits) {
  EXPECT_EQ(FormatBytes(0), "0 B");
  EXPECT_EQ(FormatBytes(1023), "1023 B");
  EXPECT_EQ(FormatBytes(1536), "1.5 KiB");
  EXPECT_EQ(FormatBytes(12ull * 1024 * 1024), "12.0 MiB");
  EXPECT_EQ(FormatBytes(5ull * 1024 * 1024 * 1024 * 1024), "5120.0 GiB");
}

TEST(LoadListTest, EveryPackageIsOneLineWithItsResumeMarkAndError) {
  auto failed = Package("1796004658.717857", load::PackageState::kFailed);
  failed.extracted = true;
  failed.resumable = true;
  failed.bytes = 2048;
  failed.error =
      "interrupted (SIGINT) after its extraction, before the commit (`databox run "
      "noaa --resume` finishes it)";
  auto committed = Package("1796000000.000001", load::PackageState::kCommitted);
  committed.bytes = 10;
  EXPECT_EQ(FormatLoadList({failed, committed}, "none\n"),
            "SOURCE  LOAD ID            STATE      CREATED                   CHANGED            "
            "       RESUME  SIZE     ERROR\n"
            "noaa    1796004658.717857  failed     2026-11-30T02:00:00.000Z  "
            "2026-11-30T02:00:09.000Z  yes     2.0 KiB  interrupted (SIGINT) after its "
            "extraction, before the commit (`databox run no...\n"
            "noaa    1796000000.000001  committed  2026-11-30T02:00:00.000Z  "
            "2026-11-30T02:00:09.000Z  -       10 B     -\n");
  EXPECT_EQ(FormatLoadList({}, "no load packages\n"), "no load packages\n");

  const auto json = LoadListJson({failed, committed});
  ASSERT_EQ(json.size(), 2u);
  EXPECT_EQ(json[0]["state"], "failed");
  EXPECT_EQ(json[0]["resumable"], true);
  EXPECT_EQ(json[0]["extracted"], true);
  EXPECT_EQ(json[0]["bytes"], 2048);
  EXPECT_EQ(json[0]["error"], failed.error);  // whole, not cut
  EXPECT_EQ(json[0]["created_at"], "2026-11-30T02:00:00.000Z");
  EXPECT_TRUE(json[1]["error"].is_null());
  EXPECT_EQ(json[1]["resumable"], false);
}

}  // namespace
}  // namespace databox::cli
