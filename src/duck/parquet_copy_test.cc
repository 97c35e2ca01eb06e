#include "duck/parquet_copy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "duck/appender.h"
#include "duck/quote.h"
#include "duck/test_support.h"

namespace databox::duck {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(FieldIdsTest, RendersNestedTreeInDuckDbSyntax) {
  std::vector<FieldIdNode> fields = {
      {"a", 1, {}},
      {"s", 2, {{"x", 3, {}}, {"we\"ird", 4, {}}}},
      {"l", 5, {{"element", 6, {}}}},
      {"m", 7, {{"key", 8, {}}, {"value", 9, {}}}},
  };
  EXPECT_EQ(RenderFieldIds(fields),
            "{\"a\": 1, \"s\": {__duckdb_field_id: 2, \"x\": 3, \"we\"\"ird\": 4}, "
            "\"l\": {__duckdb_field_id: 5, \"element\": 6}, "
            "\"m\": {__duckdb_field_id: 7, \"key\": 8, \"value\": 9}}");
}

TEST(FieldIdsTest, ParsesStatsColumnKeys) {
  EXPECT_THAT(ParseStatsColumnKey("\"a\"").value(), ElementsAre("a"));
  EXPECT_THAT(ParseStatsColumnKey("\"s\".\"x\"").value(), ElementsAre("s", "x"));
  EXPECT_THAT(ParseStatsColumnKey("\"we\"\"ird.n\".\"element\"").value(),
              ElementsAre("we\"ird.n", "element"));
  EXPECT_THAT(ParseStatsColumnKey("plain.x").value(), ElementsAre("plain", "x"));
  EXPECT_FALSE(ParseStatsColumnKey("\"open").has_value());
  EXPECT_FALSE(ParseStatsColumnKey("").has_value());
}

//! Rows the test generates itself: the oracle for the statistics.
struct Row {
  int64_t id;
  std::string name;
  bool score_null;
  double score;
};

std::vector<Row> MakeRows(int64_t n) {
  std::vector<Row> rows;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t scrambled = (i * 7919) % 10007;  // not monotone in i
    rows.push_back(Row{scrambled - 500, "name_" + std::to_string(scrambled), i % 5 == 0,
                       static_cast<double>(scrambled) / 4.0});
  }
  return rows;
}

void LoadRows(Connection& conn, const std::vector<Row>& rows) {
  ASSERT_TRUE(conn.Execute("CREATE TABLE src(id BIGINT, name VARCHAR, score DOUBLE)"));
  auto app = Appender::Make(conn, "", "src");
  ASSERT_TRUE(app.has_value()) << app.error().ToString();
  for (const auto& r : rows) {
    ASSERT_TRUE(app->AppendInt64(r.id));
    ASSERT_TRUE(app->AppendString(r.name));
    ASSERT_TRUE(r.score_null ? app->AppendNull() : app->AppendDouble(r.score));
    ASSERT_TRUE(app->EndRow());
  }
  ASSERT_TRUE(app->Close());
}

TEST(CopyToParquetTest, NestedColumnsGetFieldIdsAndStats) {
  auto mem = testing::OpenMemoryDb();
  const auto rows = MakeRows(1000);
  LoadRows(mem.conn, rows);
  testing::TempDir dir;
  const std::string file = dir.File("data.parquet");

  ParquetCopyOptions options;
  options.field_ids = {
      {"id", 1, {}},
      {"s", 2, {{"name", 3, {}}, {"score", 4, {}}}},
      {"l", 5, {{"element", 6, {}}}},
      {"m", 7, {{"key", 8, {}}, {"value", 9, {}}}},
  };
  auto files = CopyToParquet(mem.conn,
                             "SELECT id, {'name': name, 'score': score} AS s, [id, id * 2] AS l, "
                             "MAP([name], [id]) AS m FROM src",
                             file, options);
  ASSERT_TRUE(files.has_value()) << files.error().ToString();
  ASSERT_EQ(files->size(), 1u);
  const ParquetFileStats& stats = files->front();
  EXPECT_EQ(stats.path, file);
  EXPECT_EQ(stats.record_count, rows.size());
  EXPECT_EQ(stats.file_size_bytes, std::filesystem::file_size(file));
  EXPECT_GT(stats.footer_size_bytes, 0u);

  // Field ids as an independent reader (DuckDB's parquet_schema) sees them in the file.
  auto schema = mem.conn.Query("SELECT name, field_id FROM parquet_schema(" + std::string("'") +
                               file + "') WHERE field_id IS NOT NULL");
  ASSERT_TRUE(schema.has_value()) << schema.error().ToString();
  std::map<std::string, int64_t> ids;
  for (RowRef r : *schema) ids[r.GetString(0).value()] = r.GetInt64(1).value();
  EXPECT_EQ(ids, (std::map<std::string, int64_t>{{"id", 1},
                                                 {"s", 2},
                                                 {"name", 3},
                                                 {"score", 4},
                                                 {"l", 5},
                                                 {"element", 6},
                                                 {"m", 7},
                                                 {"key", 8},
                                                 {"value", 9}}));

  // Expected statistics, computed here from the generated rows.
  int64_t min_id = rows[0].id, max_id = rows[0].id;
  std::string min_name = rows[0].name, max_name = rows[0].name;
  uint64_t null_scores = 0;
  for (const auto& r : rows) {
    min_id = std::min(min_id, r.id);
    max_id = std::max(max_id, r.id);
    min_name = std::min(min_name, r.name);
    max_name = std::max(max_name, r.name);
    null_scores += r.score_null ? 1 : 0;
  }
  const int64_t min_element = std::min(min_id, min_id * 2);
  const int64_t max_element = std::max(max_id, max_id * 2);

  std::vector<std::string> keys;
  for (const auto& [key, _] : stats.columns) keys.push_back(key);
  EXPECT_THAT(keys, ElementsAre("id", "l.element", "m.key", "m.value", "s.name", "s.score"));

  const auto& id = stats.columns.at("id");
  EXPECT_THAT(id.path, ElementsAre("id"));
  EXPECT_EQ(id.min, std::to_string(min_id));
  EXPECT_EQ(id.max, std::to_string(max_id));
  EXPECT_EQ(id.null_count, 0u);
  EXPECT_EQ(id.num_values, rows.size());
  ASSERT_TRUE(id.column_size_bytes.has_value());
  EXPECT_GT(*id.column_size_bytes, 0u);

  const auto& name = stats.columns.at("s.name");
  EXPECT_THAT(name.path, ElementsAre("s", "name"));
  EXPECT_EQ(name.min, min_name);
  EXPECT_EQ(name.max, max_name);

  const auto& score = stats.columns.at("s.score");
  EXPECT_EQ(score.null_count, null_scores);
  EXPECT_EQ(score.has_nan, false);

  const auto& element = stats.columns.at("l.element");
  EXPECT_EQ(element.min, std::to_string(min_element));
  EXPECT_EQ(element.max, std::to_string(max_element));
  EXPECT_EQ(element.num_values, 2 * rows.size());

  EXPECT_EQ(stats.columns.at("m.key").min, min_name);
  EXPECT_EQ(stats.columns.at("m.value").max, std::to_string(max_id));
}

TEST(CopyToParquetTest, AllNullColumnHasNoMinMax) {
  auto mem = testing::OpenMemoryDb();
  testing::TempDir dir;
  auto files =
      CopyToParquet(mem.conn, "SELECT NULL::INTEGER AS n FROM range(3)", dir.File("n.parquet"));
  ASSERT_TRUE(files.has_value()) << files.error().ToString();
  const auto& n = files->at(0).columns.at("n");
  EXPECT_FALSE(n.min.has_value());
  EXPECT_FALSE(n.max.has_value());
  EXPECT_EQ(n.null_count, 3u);
}

TEST(CopyToParquetTest, DictionarySizeLimitKeepsDictionariesForFewDistinctValuesOnly) {
  auto mem = testing::OpenMemoryDb();
  testing::TempDir dir;
  ParquetCopyOptions options;
  options.dictionary_size_limit = 100;
  auto files = CopyToParquet(mem.conn,
                             "SELECT 'code_' || (i % 7) AS few, 'id_' || (i // 10) AS many "
                             "FROM range(10000) t(i)",
                             dir.File("dict.parquet"), options);
  ASSERT_TRUE(files.has_value()) << files.error().ToString();
  // DuckDB's own reading of the file's column chunks (DICTIONARY in the encodings of a chunk
  // written with a dictionary).
  auto encodings = mem.conn.Query(
      "SELECT path_in_schema, bool_or(encodings LIKE '%DICTIONARY%') FROM parquet_metadata(" +
      QuoteLiteral(dir.File("dict.parquet")) + ") GROUP BY 1 ORDER BY 1");
  ASSERT_TRUE(encodings.has_value()) << encodings.error().message;
  ASSERT_EQ(encodings->row_count(), 2u);
  EXPECT_EQ(encodings->GetString(0, 0).value_or(""), "few");
  EXPECT_EQ(encodings->GetAsString(1, 0).value_or(""), "true") << "7 values: a dictionary";
  EXPECT_EQ(encodings->GetString(0, 1).value_or(""), "many");
  EXPECT_EQ(encodings->GetAsString(1, 1).value_or(""), "false")
      << "1000 values: plain (DuckDB's default limit would take them)";
}

TEST(CopyToParquetTest, LongStringBoundsStillBracketTheValues) {
  auto mem = testing::OpenMemoryDb();
  testing::TempDir dir;
  const std::string base(1000, 'a');
  auto files = CopyToParquet(mem.conn, "SELECT repeat('a', 1000) || i AS s FROM range(3) t(i)",
                             dir.File("long.parquet"));
  ASSERT_TRUE(files.has_value()) << files.error().ToString();
  const auto& s = files->at(0).columns.at("s");
  ASSERT_TRUE(s.min.has_value() && s.max.has_value());
  EXPECT_LE(*s.min, base + "0");
  EXPECT_GE(*s.max, base + "2");
}

// A row group ends at row_group_size_bytes where insertion order is not kept; where it is,
// DuckDB would refuse the option, so it is left out and the COPY still runs.
TEST(CopyToParquetTest, RowGroupBytesCapRowGroupsWithoutInsertionOrder) {
  auto mem = testing::OpenMemoryDb();
  testing::TempDir dir;
  ParquetCopyOptions options;
  options.row_group_size_bytes = 1 << 20;
  const std::string select = "SELECT i, repeat(md5(i::VARCHAR), 8) AS h FROM range(200000) t(i)";
  auto groups = [&](const std::string& file) {
    auto counted =
        mem.conn.Query("SELECT count(DISTINCT row_group_id) FROM parquet_metadata('" + file + "')");
    EXPECT_TRUE(counted) << counted.error().message;
    return counted ? counted->GetInt64(0, 0).value_or(-1) : -1;
  };
  const std::string ordered = (dir.path() / "ordered.parquet").string();
  ASSERT_TRUE(CopyToParquet(mem.conn, select, ordered, options));
  EXPECT_EQ(groups(ordered), 2) << "122,880 rows per group by default";
  ASSERT_TRUE(mem.conn.Execute("SET preserve_insertion_order = false"));
  const std::string capped = (dir.path() / "capped.parquet").string();
  ASSERT_TRUE(CopyToParquet(mem.conn, select, capped, options));
  EXPECT_GT(groups(capped), 10) << "~50 MB of rows in groups of 1 MB";
}

TEST(CopyToParquetTest, RollsIntoSeveralFilesAtTargetSize) {
  auto mem = testing::OpenMemoryDb();
  testing::TempDir dir;
  const std::string out = (dir.path() / "table").string();
  ParquetCopyOptions options;
  options.field_ids = {{"i", 1, {}}, {"h", 2, {}}};
  options.row_group_size = 10000;
  options.file_size_bytes = 200000;
  options.file_name_pattern = "part_{i}";
  const int64_t total = 60000;
  auto files = CopyToParquet(
      mem.conn, "SELECT i, md5(i::VARCHAR) AS h FROM range(" + std::to_string(total) + ") t(i)",
      out, options);
  ASSERT_TRUE(files.has_value()) << files.error().ToString();
  ASSERT_GT(files->size(), 1u);

  uint64_t rows = 0;
  int64_t min_i = INT64_MAX;
  int64_t max_i = INT64_MIN;
  for (const auto& f : *files) {
    EXPECT_EQ(std::filesystem::path(f.path).parent_path(), std::filesystem::path(out));
    EXPECT_THAT(std::filesystem::path(f.path).filename().string(), HasSubstr("part_"));
    EXPECT_EQ(f.file_size_bytes, std::filesystem::file_size(f.path));
    rows += f.record_count;
    min_i = std::min<int64_t>(min_i, std::stoll(f.columns.at("i").min.value()));
    max_i = std::max<int64_t>(max_i, std::stoll(f.columns.at("i").max.value()));
  }
  EXPECT_EQ(rows, static_cast<uint64_t>(total));
  EXPECT_EQ(min_i, 0);
  EXPECT_EQ(max_i, total - 1);
  uint64_t on_disk = 0;
  for (const auto& entry : std::filesystem::directory_iterator(out)) {
    (void)entry;
    ++on_disk;
  }
  EXPECT_EQ(on_disk, files->size());

  // Writing again into the non-empty directory is refused unless overwrite is asked for.
  auto again = CopyToParquet(mem.conn, "SELECT 1 AS i, 'x' AS h", out, options);
  ASSERT_FALSE(again.has_value());
  EXPECT_THAT(again.error().message, HasSubstr(out));
  options.overwrite = true;
  auto replaced = CopyToParquet(mem.conn, "SELECT 1 AS i, 'x' AS h", out, options);
  ASSERT_TRUE(replaced.has_value()) << replaced.error().ToString();
  EXPECT_EQ(replaced->size(), 1u);
}

TEST(CopyToParquetTest, BadOptionsAndSqlAreReported) {
  auto mem = testing::OpenMemoryDb();
  testing::TempDir dir;
  ParquetCopyOptions options;
  options.compression = "zstd) TO 'x'";
  auto bad_codec = CopyToParquet(mem.conn, "SELECT 1", dir.File("a.parquet"), options);
  ASSERT_FALSE(bad_codec.has_value());
  EXPECT_EQ(bad_codec.error().kind, ErrorKind::kConfig);

  auto bad_sql = CopyToParquet(mem.conn, "SELECT * FROM nowhere", dir.File("b.parquet"));
  ASSERT_FALSE(bad_sql.has_value());
  EXPECT_THAT(bad_sql.error().message, HasSubstr("writing Parquet to " + dir.File("b.parquet")));
  EXPECT_THAT(bad_sql.error().message, HasSubstr("nowhere"));
}

}  // namespace
}  // namespace databox::duck
