// Injection and traversal: names and values that look like SQL or paths stay
// data. A transform column named like an injection loads under its dlt-normalized name without
// touching the sibling table it names; values with quotes, newlines and SQL text round-trip
// byte for byte (read back by pyiceberg and by `databox query`), also as merge keys; source and
// resource names that are paths are rejected by validation before anything is written.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness.h"

namespace databox::reliability {
namespace {

using cli::testing::Contains;
using nlohmann::json;

// The transform names a column `x"; DROP TABLE y; --` while the same source has a table `y`.
constexpr char kInjectionTransform[] = R"(SELECT CAST(record->>'$.id' AS BIGINT) AS id,
       record->>'$.name' AS "x""; DROP TABLE y; --",
       record->>'$.name' AS name
FROM records)";

// dlt's snake_case naming of `x"; DROP TABLE y; --` (checked with dlt 1.x
// NamingConvention.normalize_identifier): non-alphanumerics -> "_", runs collapsed, each
// trailing underscore -> "x".
constexpr char kNormalizedInjectionColumn[] = "x_drop_table_yxxx";

constexpr char kTableY[] = R"(
[[source.resource]]
name = "y"
path = "/y"
records_path = "results"
primary_key = ["code"]
write_disposition = "merge"
)";

const std::vector<std::string> kTrickyValues = {
    "it's \"quoted\"",
    "line1\nline2\r\nline3",
    "tab\there \\ backslash",
    "'); DROP TABLE y; --",
    "\"; DELETE FROM _dlt_load_status; --",
    "Zürich — 東京 🐦",
    "../../etc/passwd",
};

//! A page {"results": [{"id": i+1, "name": values[i]}...]} of items.
std::string ItemsPage(const std::vector<std::string>& values) {
  json results = json::array();
  for (std::size_t i = 0; i < values.size(); ++i) {
    results.push_back({{"id", i + 1}, {"name", values[i]}});
  }
  return json{{"results", results}}.dump();
}

//! A page of y: every tricky value as a primary key `code`, with `note` = prefix + index.
std::string YPage(const std::string& note_prefix) {
  json results = json::array();
  for (std::size_t i = 0; i < kTrickyValues.size(); ++i) {
    results.push_back({{"code", kTrickyValues[i]}, {"note", note_prefix + std::to_string(i)}});
  }
  return json{{"results", results}}.dump();
}

class Injection : public ::testing::Test {
 protected:
  void SetUp() override { ws_.WriteRegistry(FaultySourceToml(kInjectionTransform, kTableY)); }
  void TearDown() override {
    Tally& tally = TallyFor("injection");
    tally.faults += faults_;
    tally.runs += runs_;
    if (HasFailure()) tally.violations += 1;
  }
  //! Serves items (all values on page 1, an empty page 2) and y, then runs the source.
  RunResult Load(const std::vector<std::string>& items, const std::string& y_note) {
    ws_.WriteCassette("faulty", {Respond(FaultyItemsUri(1), ItemsPage(items)),
                                 Respond(FaultyItemsUri(2), R"({"results":[]})"),
                                 Respond("https://faulty.example.test/api/y", YPage(y_note))});
    ++runs_;
    return ws_.Databox({"run", "faulty"}, {kFaultyKeyEnv});
  }

  Workspace ws_{"injection_" +
                std::string(::testing::UnitTest::GetInstance()->current_test_info()->name())};
  int runs_ = 0;
  int faults_ = 0;
};

TEST_F(Injection, ColumnNamedLikeSqlLoadsUnderItsNormalizedNameAndTheNamedTableSurvives) {
  faults_ = 1;
  RunResult r = Load({"a", "b"}, "n");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  ReaderView view = ReadWithPyiceberg(ws_.state_dir(), "raw_faulty",
                                      {std::string("items=id,") + kNormalizedInjectionColumn});
  ASSERT_TRUE(view.error.empty()) << view.error;
  ASSERT_TRUE(view.tables.contains("y")) << view.tables.dump();
  EXPECT_EQ(view.tables["y"]["rows"], kTrickyValues.size());
  EXPECT_EQ(view.tables["items"]["keys"], json::parse(R"([[1, "a"], [2, "b"]])"));
  RunResult inspect = ws_.Databox({"inspect", "raw_faulty.items"});
  EXPECT_TRUE(Contains(inspect.out, kNormalizedInjectionColumn)) << inspect.out;
}

TEST_F(Injection, ValuesWithQuotesNewlinesAndSqlRoundTripIncludingAsMergeKeys) {
  faults_ = static_cast<int>(kTrickyValues.size()) * 2;
  RunResult first = Load(kTrickyValues, "first-");
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  // Second load: same keys (every tricky value), new notes: a merge must update in place.
  RunResult second = Load(kTrickyValues, "second-");
  ASSERT_EQ(second.exit_code, 0) << second.out << second.err;

  ReaderView view =
      ReadWithPyiceberg(ws_.state_dir(), "raw_faulty", {"items=id,name", "y=code,note"});
  ASSERT_TRUE(view.error.empty()) << view.error;
  json expected_items = json::array();
  for (std::size_t i = 0; i < kTrickyValues.size(); ++i) {
    expected_items.push_back({i + 1, kTrickyValues[i]});
  }
  EXPECT_EQ(view.tables["items"]["keys"], expected_items);
  EXPECT_EQ(view.tables["y"]["rows"], kTrickyValues.size());
  EXPECT_EQ(view.tables["y"]["duplicate_keys"], 0);
  for (const auto& row : view.tables["y"]["keys"]) {
    EXPECT_TRUE(row[1].get<std::string>().starts_with("second-")) << row.dump();
  }
  EXPECT_EQ(view.tables["_dlt_load_status"]["rows"], 2);

  // The same values through the analytics database and the CLI's JSON output.
  const auto rows = ws_.QueryRows("SELECT name FROM polaris_aws.raw_faulty.items ORDER BY id");
  ASSERT_TRUE(rows.has_value());
  ASSERT_EQ(rows->size(), kTrickyValues.size());
  for (std::size_t i = 0; i < rows->size(); ++i) {
    const json row = json::parse((*rows)[i], nullptr, false);
    ASSERT_FALSE(row.is_discarded()) << "not JSON: " << (*rows)[i];
    EXPECT_EQ(row["name"], kTrickyValues[i]);
  }
}

TEST_F(Injection, PathLikeSourceAndResourceNamesAreRejectedBeforeAnythingIsWritten) {
  faults_ = 3;
  const std::string base = FaultySourceToml();
  const std::vector<std::pair<std::string, std::string>> edits = {
      {"name = \"faulty\"", "name = \"../etc\""},
      {"name = \"items\"", "name = \"../etc\""},
      {"name = \"items\"", "name = \"items/../../etc\""},
  };
  for (const auto& [from, to] : edits) {
    std::string toml = base;
    toml.replace(toml.find(from), from.size(), to);
    ws_.WriteRegistry(toml);
    ++runs_;
    RunResult validate = ws_.Databox({"validate"});
    EXPECT_EQ(validate.exit_code, 2) << to << "\n" << validate.out << validate.err;
    EXPECT_TRUE(Contains(validate.out + validate.err, "../etc")) << validate.out << validate.err;
    ++runs_;
    RunResult run = ws_.Databox({"run", "../etc"});
    EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  }
  ++runs_;
  RunResult inspect = ws_.Databox({"inspect", "raw_faulty.../../etc"});
  EXPECT_NE(inspect.exit_code, 0);
  EXPECT_NE(inspect.exit_code, -1) << "crashed";
  // Nothing was created: no state, and no folder next to the workspace.
  EXPECT_FALSE(fs::exists(ws_.state_dir() / "warehouse"));
  EXPECT_FALSE(fs::exists(ws_.dir() / "etc"));
  EXPECT_FALSE(fs::exists(ws_.dir().parent_path() / "etc"));
}

}  // namespace
}  // namespace databox::reliability
