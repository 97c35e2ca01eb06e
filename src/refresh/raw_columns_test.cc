// The raw columns snapshot: its diff (added, removed, retyped columns; new and vanished tables),
// its JSON form and its file.
#include "refresh/raw_columns.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace databox::refresh {
namespace {

namespace fs = std::filesystem;

const std::vector<RawColumn> kWeather = {{"date", "string"}, {"tmax", "double"}, {"id", "long"}};

TEST(RawColumnsDiffTest, SameColumnsAreNoChange) {
  EXPECT_TRUE(
      DiffRawColumns({{"raw_noaa.daily_weather", kWeather}}, {{"raw_noaa.daily_weather", kWeather}})
          .empty());
}

TEST(RawColumnsDiffTest, AColumnOrderChangeIsNoChange) {
  const std::vector<RawColumn> reordered = {kWeather[2], kWeather[0], kWeather[1]};
  EXPECT_TRUE(DiffRawColumns({{"t", kWeather}}, {{"t", reordered}}).empty());
}

TEST(RawColumnsDiffTest, NamesAddedRemovedAndRetypedColumns) {
  const std::vector<RawColumn> now = {
      {"date", "string"}, {"tmax", "string"}, {"prcp", "double"}, {"snow", "long"}};
  const auto changes =
      DiffRawColumns({{"raw_noaa.daily_weather", kWeather}}, {{"raw_noaa.daily_weather", now}});
  ASSERT_EQ(changes.size(), 1u);
  const RawTableChange& change = changes[0];
  EXPECT_EQ(change.table, "raw_noaa.daily_weather");
  EXPECT_EQ(change.kind, RawTableChange::Kind::kColumns);
  EXPECT_EQ(change.added,
            (std::vector<RawColumn>{{"prcp", "double"}, {"snow", "long"}}));  // now's order
  EXPECT_EQ(change.removed, (std::vector<RawColumn>{{"id", "long"}}));
  ASSERT_EQ(change.retyped.size(), 1u);
  EXPECT_EQ(change.retyped[0].name, "tmax");
  EXPECT_EQ(change.retyped[0].before, "double");
  EXPECT_EQ(change.retyped[0].now, "string");
}

TEST(RawColumnsDiffTest, NewAndVanishedTablesAreListedWithTheirColumnsSortedByName) {
  const RawColumns before = {{"raw_b.gone", {{"x", "long"}}}, {"raw_c.same", kWeather}};
  const RawColumns now = {{"raw_a.new", {{"y", "string"}}}, {"raw_c.same", kWeather}};
  const auto changes = DiffRawColumns(before, now);
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes[0].table, "raw_a.new");
  EXPECT_EQ(changes[0].kind, RawTableChange::Kind::kNewTable);
  EXPECT_EQ(changes[0].added, (std::vector<RawColumn>{{"y", "string"}}));
  EXPECT_EQ(changes[1].table, "raw_b.gone");
  EXPECT_EQ(changes[1].kind, RawTableChange::Kind::kGone);
  EXPECT_EQ(changes[1].removed, (std::vector<RawColumn>{{"x", "long"}}));
}

class RawColumnsFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("databox_raw_columns_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(RawColumnsFileTest, ASavedSnapshotReadsBackTheSame) {
  const RawColumnsSnapshot snapshot{"2026-12-02T10:00:00.000Z",
                                    {{"raw_noaa.daily_weather", kWeather}, {"raw_x.empty", {}}}};
  const fs::path path = dir_ / "transform_raw_columns.json";
  ASSERT_TRUE(SaveRawColumnsSnapshot(path, snapshot));
  EXPECT_FALSE(fs::exists(path.string() + ".tmp"));
  auto read = LoadRawColumnsSnapshot(path);
  ASSERT_TRUE(read.has_value()) << read.error().ToString();
  ASSERT_TRUE(read->has_value());
  EXPECT_EQ((*read)->saved_at, snapshot.saved_at);
  EXPECT_EQ((*read)->tables, snapshot.tables);
}

TEST_F(RawColumnsFileTest, AMissingFileIsNoSnapshot) {
  auto read = LoadRawColumnsSnapshot(dir_ / "nothing.json");
  ASSERT_TRUE(read.has_value()) << read.error().ToString();
  EXPECT_FALSE(read->has_value());
}

TEST_F(RawColumnsFileTest, ABrokenFileIsADataErrorNamingIt) {
  const fs::path path = dir_ / "broken.json";
  std::ofstream(path) << "{\"saved_at\": ";
  auto read = LoadRawColumnsSnapshot(path);
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error().kind, ErrorKind::kData);
  EXPECT_NE(read.error().message.find("broken.json"), std::string::npos) << read.error().message;

  std::ofstream(path) << R"({"saved_at": "t", "tables": {"a": [{"name": "x"}]}})";
  read = LoadRawColumnsSnapshot(path);
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error().kind, ErrorKind::kData);
  EXPECT_NE(read.error().message.find("broken.json"), std::string::npos) << read.error().message;
}

}  // namespace
}  // namespace databox::refresh
