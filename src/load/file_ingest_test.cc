// `databox ingest`'s loader on the embedded SQLite catalog and a local warehouse: every format
// and compression, the write dispositions, the status rows, and bad input that commits nothing.
// Compressed inputs are made by the gzip and zstd programs, Parquet by DuckDB.
#include "load/file_ingest.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "duck/connection.h"
#include "duck/database.h"
#include "duck/quote.h"
#include "iceberg/data/merge.h"
#include "iceberg/table.h"
#include "load/test_util.h"
#include "platform/workspace.h"
#include "registry/registry.h"

namespace databox::load {
namespace {

namespace fs = std::filesystem;

constexpr const char* kThreeEvents =
    R"({"id": 1, "name": "a", "tags": ["x", "y"]}
{"id": 2, "name": "b", "tags": []}
{"id": 3, "name": "c", "tags": ["z"]}
)";

class FileIngestTest : public testing::ExampleWorkspaceTest {
 protected:
  FileIngestTest() : ExampleWorkspaceTest("databox_ingest") {}
  void SetUp() override {
    ExampleWorkspaceTest::SetUp();
    fs::create_directories(dir_ / "in");
  }

  fs::path Write(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / "in" / name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  //! `program` (gzip or zstd) compresses `path` into path + `suffix`.
  fs::path Compress(const fs::path& path, const std::string& program, const std::string& suffix) {
    const std::string command = program + " -q -k -f '" + path.string() + "'";
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    return fs::path(path.string() + suffix);
  }

  Result<SourceLoadResult> Ingest(
      std::vector<fs::path> files, const std::string& table,
      registry::WriteDisposition disposition = registry::WriteDisposition::kAppend,
      std::vector<std::string> primary_key = {}) {
    IngestRequest request;
    request.files = std::move(files);
    request.table = table;
    request.disposition = disposition;
    request.primary_key = std::move(primary_key);
    request.workers = 2;
    return IngestFiles(*workspace_, request);
  }

  //! One ingest into raw_dump.`table` per file (name, text), in order, then `sql_over_t` over
  //! raw_dump.`checked` (`table` when empty): its first cell, or the first failed ingest's message.
  std::string AfterEachIngest(const std::vector<std::pair<std::string, std::string>>& files,
                              const std::string& table, const std::string& sql_over_t,
                              const std::string& checked = "") {
    for (const auto& [name, text] : files) {
      auto loaded = Ingest({Write(name, text)}, "raw_dump." + table);
      if (!loaded) return loaded.error().message;
    }
    return Scalar("raw_dump", checked.empty() ? table : checked, sql_over_t);
  }

  std::optional<iceberg::Table> Table(const std::string& ns, const std::string& table) {
    auto t = iceberg::Table::Load(workspace_->catalog(), workspace_->file_io(),
                                  iceberg::TableIdentifier{{ns}, table});
    if (!t) return std::nullopt;
    return std::move(*t);
  }

  //! Parquet files under the warehouse.
  std::size_t ParquetFiles() const {
    std::size_t count = 0;
    for (const auto& entry : fs::recursive_directory_iterator(dir_ / "warehouse")) {
      count += entry.path().extension() == ".parquet" ? 1 : 0;
    }
    return count;
  }

  //! Runs `sql_over_t` with `t` bound to the table's live rows; returns the first cell.
  std::string Scalar(const std::string& ns, const std::string& table,
                     const std::string& sql_over_t) {
    auto t = Table(ns, table);
    EXPECT_TRUE(t.has_value()) << ns << "." << table;
    return t ? testing::ScalarOver(*t, sql_over_t) : "";
  }
};

TEST_F(FileIngestTest, NdjsonAppendsTwiceWithChildTableAndStatusRow) {
  const fs::path file = Write("events.ndjson", kThreeEvents);
  auto first = Ingest({file}, "raw_dump.events");
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(Scalar("raw_dump", "events", "SELECT count(*) FROM t"), "3");
  EXPECT_EQ(Scalar("raw_dump", "events__tags", "SELECT count(*) FROM t"), "3");
  EXPECT_EQ(Scalar("raw_dump", "events", "SELECT name FROM t WHERE id = 2"), "b");
  EXPECT_EQ(Scalar("raw_dump", "events", "SELECT DISTINCT _dlt_load_id FROM t"), first->load_id);
  EXPECT_EQ(Scalar("raw_dump", "_dlt_load_status",
                   "SELECT status || ' ' || rows_loaded || ' ' || schema_name FROM t WHERE "
                   "load_id = '" +
                       first->load_id + "'"),
            "0 6 dump");
  EXPECT_EQ(Scalar("raw_dump", "_dlt_loads", "SELECT count(*) FROM t"), "1");

  auto second = Ingest({file}, "raw_dump.events");
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_NE(second->load_id, first->load_id);
  EXPECT_EQ(Scalar("raw_dump", "events", "SELECT count(*) FROM t"), "6");
  EXPECT_EQ(Scalar("raw_dump", "events__tags", "SELECT count(*) FROM t"), "6");
  EXPECT_EQ(Scalar("raw_dump", "_dlt_load_status", "SELECT count(*) FROM t"), "2");
  // The data and the status row of one load are one snapshot each, with the load id.
  auto events = Table("raw_dump", "events");
  ASSERT_TRUE(events.has_value());
  EXPECT_EQ(events->metadata().snapshots.size(), 2u);
  EXPECT_EQ(events->metadata().CurrentSnapshot()->summary.at(iceberg::kLoadIdSummaryKey),
            second->load_id);
}

TEST_F(FileIngestTest, SeveralFilesInOneLoad) {
  const fs::path a = Write("a.jsonl", R"({"id": 1})"
                                      "\n");
  const fs::path b = Write("b.json", R"({"id": 2, "extra": "new column"})"
                                     "\n");
  auto loaded = Ingest({a, b}, "raw_dump.parts");
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(Scalar("raw_dump", "parts", "SELECT count(*) || ' ' || count(extra) FROM t"), "2 1");
  EXPECT_EQ(Scalar("raw_dump", "parts", "SELECT count(DISTINCT _dlt_load_id) FROM t"), "1");
}

TEST_F(FileIngestTest, CsvWithDetectedTypes) {
  const fs::path file = Write("readings.csv",
                              "station,temperature,count\n"
                              "a1,12.5,3\n"
                              "b2,-1.25,4\n");
  auto loaded = Ingest({file}, "raw_dump.readings");
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(Scalar("raw_dump", "readings", "SELECT count(*) FROM t"), "2");
  EXPECT_EQ(Scalar("raw_dump", "readings", "SELECT sum(count) FROM t"), "7");
  EXPECT_EQ(Scalar("raw_dump", "readings", "SELECT typeof(temperature) FROM t LIMIT 1"), "DOUBLE");
  EXPECT_EQ(Scalar("raw_dump", "readings", "SELECT station FROM t WHERE count = 4"), "b2");
}

// CSV goes straight from DuckDB's reader into the data files: the types DuckDB detects are kept
// (through NDJSON text the timestamp and the date became text), headers get the normalizer's
// snake_case names, and each row gets _dlt_load_id and a random 14-character _dlt_id.
TEST_F(FileIngestTest, CsvDirectKeepsDetectedTypesAndNamesColumnsLikeTheNormalizer) {
  const fs::path file = Write("direct.csv",
                              "Station Code,observedAt,day,temperatureC,Count,ok\n"
                              "a1,2024-03-01T10:00:00Z,2024-03-01,12.5,3,true\n"
                              "b2,2024-03-01T11:30:00Z,2024-03-02,-1.25,4,false\n"
                              "c3,2024-03-01T12:00:00Z,2024-03-03,,5,true\n");
  auto loaded = Ingest({file}, "raw_dump.direct");
  ASSERT_TRUE(loaded) << loaded.error().message;
  auto types = [&](const std::string& columns) {
    return Scalar("raw_dump", "direct", "SELECT concat_ws(' ', " + columns + ") FROM t LIMIT 1");
  };
  EXPECT_EQ(types("typeof(station_code), typeof(observed_at), typeof(day), "
                  "typeof(temperature_c), typeof(count), typeof(ok)"),
            "VARCHAR TIMESTAMP WITH TIME ZONE DATE DOUBLE BIGINT BOOLEAN");
  EXPECT_EQ(Scalar("raw_dump", "direct",
                   "SELECT sum(count) || ' ' || count(temperature_c) || ' ' || "
                   "count(*) FILTER (WHERE ok) FROM t"),
            "12 2 2");
  EXPECT_EQ(Scalar("raw_dump", "direct",
                   "SELECT epoch(observed_at)::BIGINT FROM t WHERE station_code = 'b2'"),
            "1709292600");
  EXPECT_EQ(Scalar("raw_dump", "direct",
                   "SELECT count(DISTINCT _dlt_id) || ' ' || min(length(_dlt_id)) || ' ' || "
                   "max(length(_dlt_id)) || ' ' || any_value(_dlt_load_id) FROM t"),
            "3 14 14 " + loaded->load_id);
  EXPECT_EQ(Scalar("raw_dump", "_dlt_load_status",
                   "SELECT rows_loaded FROM t WHERE load_id = '" + loaded->load_id + "'"),
            "3");

  // Replace with another CSV: only its rows are left, in the same columns.
  auto replaced = Ingest({Write("again.csv", "Station Code,Count\nz9,40\n")}, "raw_dump.direct",
                         registry::WriteDisposition::kReplace);
  ASSERT_TRUE(replaced) << replaced.error().message;
  EXPECT_EQ(Scalar("raw_dump", "direct",
                   "SELECT count(*) || ' ' || sum(count) || ' ' || count(observed_at) FROM t"),
            "1 40 0");
}

// A CSV column the table already has with another type (here a date column of a table whose
// dates came as text, as the normalizer and CSV ingests before the direct path make them) goes
// through the normalizer, which loads the values as the table types them.
TEST_F(FileIngestTest, CsvIntoAColumnTypedOtherwiseIsNormalized) {
  ASSERT_TRUE(Ingest({Write("a.ndjson", R"({"day": "2024-03-01", "n": 1})"
                                        "\n")},
                     "raw_dump.mixed"));
  auto loaded = Ingest({Write("b.csv", "day,n\n2024-03-02,2\n2024-03-03,3\n")}, "raw_dump.mixed");
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(Scalar("raw_dump", "mixed", "SELECT count(*) || ' ' || sum(n) FROM t"), "3 6");
  EXPECT_EQ(Scalar("raw_dump", "mixed", "SELECT any_value(typeof(day)) || ' ' || max(day) FROM t"),
            "VARCHAR 2024-03-03");
}

TEST_F(FileIngestTest, MalformedCsvNamesTheFileAndCommitsNothing) {
  ASSERT_TRUE(Ingest({Write("good.csv", "id,name\n1,a\n")}, "raw_dump.rows"));
  const auto before = Table("raw_dump", "rows")->metadata().current_snapshot_id;
  // Past the rows DuckDB's sniffer samples (20,480), so the dialect is still told right.
  std::string text = "id,name\n";
  for (int i = 0; i < 30'000; ++i) text += std::to_string(i) + ",n" + std::to_string(i) + "\n";
  text += "30000,x,unexpected\n";
  const fs::path bad = Write("bad.csv", text);
  const std::size_t files_before = ParquetFiles();
  auto loaded = Ingest({Write("good2.csv", "id,name\n2,b\n"), bad}, "raw_dump.rows");
  ASSERT_FALSE(loaded);
  EXPECT_NE(loaded.error().message.find(bad.string()), std::string::npos) << loaded.error().message;
  EXPECT_NE(loaded.error().message.find(bad.string() + ":30002: "), std::string::npos)
      << loaded.error().message;
  EXPECT_EQ(Table("raw_dump", "rows")->metadata().current_snapshot_id, before);
  EXPECT_EQ(Scalar("raw_dump", "rows", "SELECT count(*) FROM t"), "1");
  EXPECT_EQ(ParquetFiles(), files_before);  // good2.csv's file is deleted
}

// A short file with a row of more fields than the header: DuckDB's sniffer alone would read it
// as one text column (or skip the lines before the consistent ones); it is refused at the row.
TEST_F(FileIngestTest, CsvRowWithExtraFieldInAShortFileIsRefusedAtItsLine) {
  const fs::path bad = Write("bad3.csv", "id,name,value\n1,a,2,extra\n2,b,3\n");
  auto loaded = Ingest({bad}, "raw_dump.short");
  ASSERT_FALSE(loaded);
  EXPECT_EQ(loaded.error().kind, ErrorKind::kData);
  EXPECT_EQ(loaded.error().message.rfind(bad.string() + ":2: ", 0), 0) << loaded.error().message;
  EXPECT_FALSE(Table("raw_dump", "short").has_value());
}

TEST_F(FileIngestTest, CsvRowWithExtraFieldAmongFiftyIsRefusedAtItsLine) {
  std::string text = "id,name,value\n";
  for (int i = 1; i <= 50; ++i) {
    text += std::to_string(i) + ",n" + std::to_string(i) + "," + std::to_string(2 * i);
    text += i == 20 ? ",extra\n" : "\n";
  }
  const fs::path bad = Write("bad51.csv", text);
  auto loaded = Ingest({bad}, "raw_dump.fifty");
  ASSERT_FALSE(loaded);
  EXPECT_EQ(loaded.error().message.rfind(bad.string() + ":21: ", 0), 0) << loaded.error().message;
  EXPECT_FALSE(Table("raw_dump", "fifty").has_value());
}

// A bad row past the sniffer's sample fails while the data files are written: the files are
// deleted and so are the folders they left, so a failed first ingest leaves no table folder.
TEST_F(FileIngestTest, CsvBadRowFarDownLeavesNoEmptyFolder) {
  std::string text = "id,name\n";
  for (int i = 0; i < 25'000; ++i) text += std::to_string(i) + ",n" + std::to_string(i) + "\n";
  text += "25000,x,unexpected\n";
  const fs::path bad = Write("far.csv", text);
  auto loaded = Ingest({bad}, "raw_dump.far");
  ASSERT_FALSE(loaded);
  EXPECT_NE(loaded.error().message.find(bad.string() + ":25002: "), std::string::npos)
      << loaded.error().message;
  std::error_code ec;
  for (const auto& entry : fs::recursive_directory_iterator(dir_ / "warehouse", ec)) {
    EXPECT_EQ(entry.path().string().find("far"), std::string::npos) << entry.path();
  }
}

// The normalizer's path (merge) reads CSV as strictly as the direct path.
TEST_F(FileIngestTest, CsvRowWithExtraFieldIsRefusedOnTheNormalizersPath) {
  const fs::path bad = Write("bad3.csv", "id,name,value\n1,a,2,extra\n2,b,3\n");
  auto loaded = Ingest({bad}, "raw_dump.keyed", registry::WriteDisposition::kMerge, {"id"});
  ASSERT_FALSE(loaded);
  EXPECT_EQ(loaded.error().message.rfind(bad.string() + ":2: ", 0), 0) << loaded.error().message;
}

// A semicolon file is read as its own dialect, not refused.
TEST_F(FileIngestTest, CsvWithSemicolonsIsReadAsSuch) {
  auto loaded = Ingest({Write("semi.csv", "id;name\n1;a\n2;b\n")}, "raw_dump.semi");
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(Scalar("raw_dump", "semi", "SELECT count(*) || ' ' || max(name) FROM t"), "2 b");
}

// A second ingest with a wider number type meets the first one's columns as a second file of
// one ingest does: the values that do not fit the column go to dlt's variant column.
TEST_F(FileIngestTest, SecondIngestWithDecimalsMakesAVariantColumnNotAnError) {
  EXPECT_EQ(AfterEachIngest({{"a.ndjson", "{\"temp_c\": 20}\n{\"temp_c\": 21}\n"},
                             {"b.ndjson", "{\"temp_c\": 21.5}\n{\"temp_c\": 22}\n"}},
                            "temps",
                            "SELECT count(*) || ' ' || sum(temp_c) || ' ' || "
                            "sum(temp_c__v_double) FROM t"),
            "4 63 21.5");
  // The same two files in one ingest give the same columns.
  auto one =
      Ingest({Write("c.ndjson", "{\"temp_c\": 20}\n"), Write("d.ndjson", "{\"temp_c\": 1.5}\n")},
             "raw_dump.together");
  ASSERT_TRUE(one) << one.error().message;
  EXPECT_EQ(
      Scalar("raw_dump", "together", "SELECT sum(temp_c) || ' ' || sum(temp_c__v_double) FROM t"),
      "20 1.5");
}

// A CSV whose column the table has as bigint, now with decimals, goes the normalizer's way and
// meets the table's columns too.
TEST_F(FileIngestTest, CsvWithDecimalsIntoABigintColumnMakesAVariantColumn) {
  EXPECT_EQ(AfterEachIngest({{"a.csv", "id,temp_c\n1,20\n"}, {"b.csv", "id,temp_c\n2,21.5\n"}},
                            "csvtemps",
                            "SELECT count(*) || ' ' || sum(temp_c) || ' ' || "
                            "sum(temp_c__v_double) FROM t"),
            "2 20 21.5");
}

// A child table's values of another type make a variant column there, as in the root table.
TEST_F(FileIngestTest, SecondIngestWithDecimalsInAListMakesAVariantColumnInItsChildTable) {
  EXPECT_EQ(AfterEachIngest({{"a.ndjson", "{\"id\": 1, \"temps\": [20, 21]}\n"},
                             {"b.ndjson", "{\"id\": 2, \"temps\": [21.5, 22]}\n"}},
                            "lists",
                            "SELECT count(*) || ' ' || sum(value) || ' ' || "
                            "sum(value__v_double) FROM t",
                            "lists__temps"),
            "4 63 21.5");
}

// Iceberg's narrower int and float columns (a table another engine made) widen to the long and
// double the normalizer writes; a value neither holds goes to a variant column.
TEST_F(FileIngestTest, IntAndFloatColumnsWidenAndOtherValuesMakeVariantColumns) {
  std::vector<iceberg::NestedField> fields(2);
  fields[0].id = 1;
  fields[0].name = "n";
  fields[0].type = iceberg::Type::Int();
  fields[1].id = 2;
  fields[1].name = "x";
  fields[1].type = iceberg::Type::Float();
  auto& catalog = workspace_->catalog();
  ASSERT_TRUE(catalog.CreateNamespace(iceberg::Namespace{"raw_dump"}, {}));
  ASSERT_TRUE(catalog.CreateTable(
      iceberg::TableIdentifier{{"raw_dump"}, "narrow"}, iceberg::Schema(0, std::move(fields), {}),
      iceberg::PartitionSpec::Unpartitioned(), iceberg::SortOrder::Unsorted(), {}, std::nullopt));
  auto loaded = Ingest({Write("n.ndjson", "{\"n\": 3000000000, \"x\": 2}\n{\"n\": 1.5}\n")},
                       "raw_dump.narrow");
  ASSERT_TRUE(loaded) << loaded.error().message;
  auto table = Table("raw_dump", "narrow");
  ASSERT_TRUE(table.has_value());
  EXPECT_EQ(table->schema().FindFieldByName("n")->type.ToString(), "long");
  EXPECT_EQ(table->schema().FindFieldByName("x")->type.ToString(), "double");
  EXPECT_EQ(Scalar("raw_dump", "narrow",
                   "SELECT sum(n) || ' ' || sum(x) || ' ' || sum(n__v_double) FROM t"),
            "3000000000 2.0 1.5");
}

TEST_F(FileIngestTest, EmptyNdjsonWritesNothing) {
  auto loaded = Ingest({Write("empty.ndjson", "")}, "raw_dump.nothing");
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_TRUE(loaded->tables.empty());
  EXPECT_EQ(loaded->notes, std::vector<std::string>{"no rows in the input, nothing written"});
  EXPECT_FALSE(Table("raw_dump", "nothing").has_value());
  EXPECT_FALSE(Table("raw_dump", "_dlt_loads").has_value());
}

TEST_F(FileIngestTest, Parquet) {
  const fs::path file = dir_ / "in" / "rows.parquet";
  {
    auto db = duck::Database::Open("");
    auto conn = duck::Connection::Open(*db);
    ASSERT_TRUE(
        conn->Execute("COPY (SELECT range AS id, 'n' || range AS label FROM range(5)) "
                      "TO " +
                      duck::QuoteLiteral(file.string()) + " (FORMAT parquet)"));
  }
  auto loaded = Ingest({file}, "raw_dump.rows");
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(Scalar("raw_dump", "rows", "SELECT count(*) || ' ' || sum(id) FROM t"), "5 10");
  EXPECT_EQ(Scalar("raw_dump", "rows", "SELECT label FROM t WHERE id = 3"), "n3");
}

// A nested Parquet column does not fit a flat table: the file goes through the normalizer,
// which makes the list a child table.
TEST_F(FileIngestTest, NestedParquetIsNormalizedIntoChildTables) {
  const fs::path file = dir_ / "in" / "nested.parquet";
  {
    auto db = duck::Database::Open("");
    auto conn = duck::Connection::Open(*db);
    ASSERT_TRUE(conn->Execute("COPY (SELECT range AS id, ['a', 'b'] AS tags FROM range(3)) TO " +
                              duck::QuoteLiteral(file.string()) + " (FORMAT parquet)"));
  }
  auto loaded = Ingest({file}, "raw_dump.nested");
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(Scalar("raw_dump", "nested", "SELECT count(*) || ' ' || sum(id) FROM t"), "3 3");
  EXPECT_EQ(Scalar("raw_dump", "nested__tags", "SELECT count(*) FROM t"), "6");
}

TEST_F(FileIngestTest, GzipAndZstdInput) {
  const fs::path ndjson = Write("events.ndjson", kThreeEvents);
  const fs::path csv = Write("r.csv", "a,b\n1,x\n2,y\n");
  auto loaded = Ingest({Compress(ndjson, "gzip", ".gz"), Compress(ndjson, "zstd", ".zst")},
                       "raw_dump.events");
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(Scalar("raw_dump", "events", "SELECT count(*) FROM t"), "6");
  auto csvs = Ingest({Compress(csv, "gzip", ".gz"), Compress(csv, "zstd", ".zst")}, "raw_dump.r");
  ASSERT_TRUE(csvs) << csvs.error().message;
  EXPECT_EQ(Scalar("raw_dump", "r", "SELECT count(*) || ' ' || sum(a) FROM t"), "4 6");
}

TEST_F(FileIngestTest, CorruptCompressedInputNamesTheFile) {
  const fs::path file = Write("broken.ndjson.zst", "this is not zstd data");
  auto loaded = Ingest({file}, "raw_dump.events");
  ASSERT_FALSE(loaded);
  EXPECT_NE(loaded.error().message.find("broken.ndjson.zst"), std::string::npos)
      << loaded.error().message;
  EXPECT_NE(loaded.error().message.find("zstd"), std::string::npos) << loaded.error().message;
  EXPECT_FALSE(Table("raw_dump", "events").has_value());
}

TEST_F(FileIngestTest, ReplaceKeepsOnlyTheNewRows) {
  ASSERT_TRUE(Ingest({Write("a.ndjson", kThreeEvents)}, "raw_dump.events"));
  auto replaced = Ingest({Write("b.ndjson", R"({"id": 9, "name": "z", "tags": ["q"]})"
                                            "\n")},
                         "raw_dump.events", registry::WriteDisposition::kReplace);
  ASSERT_TRUE(replaced) << replaced.error().message;
  EXPECT_EQ(Scalar("raw_dump", "events", "SELECT count(*) || ' ' || max(id) FROM t"), "1 9");
  EXPECT_EQ(Scalar("raw_dump", "events__tags", "SELECT count(*) FROM t"), "1");
  EXPECT_EQ(Scalar("raw_dump", "_dlt_load_status", "SELECT count(*) FROM t"), "2");
}

//! Records `from` to `to` (exclusive) as NDJSON lines; from `extra_from` on each has a column
//! "extra" more.
std::string Records(int from, int to, int extra_from) {
  std::string text;
  for (int i = from; i < to; ++i) {
    text += "{\"id\": " + std::to_string(i) + ", \"name\": \"n" + std::to_string(i) + "\"";
    if (i >= extra_from) text += ", \"extra\": \"e" + std::to_string(i) + "\"";
    text += "}\n";
  }
  return text;
}

// Append and replace write data files while the input is read: the rows held in memory stay
// bounded by the batches in flight (a few batches), not by the input; a column that appears in
// the middle of a file ends the table's current data file and the next ones have it.
TEST_F(FileIngestTest, StreamedAppendHoldsFewBatchesAndGrowsTheSchemaMidFile) {
  const fs::path a = Write("a.ndjson", Records(0, 10'000, 1'000'000));
  const fs::path b = Write("b.ndjson", Records(10'000, 20'000, 12'000));
  constexpr int64_t kBatch = 500;
  int64_t most_held = 0;
  int reports = 0;
  auto ingest = [&](std::vector<fs::path> files, const std::string& table) {
    IngestRequest request;
    request.files = std::move(files);
    request.table = table;
    request.workers = 1;
    request.batch_rows = kBatch;
    request.on_progress = [&](const IngestProgress& progress) {
      most_held = std::max(most_held, progress.rows_held);
      ++reports;
    };
    return IngestFiles(*workspace_, request);
  };
  auto loaded = ingest({a, b}, "raw_dump.grown");
  ASSERT_TRUE(loaded) << loaded.error().message;
  EXPECT_EQ(reports, 3);  // after each file, at the commit
  // The queue holds 2 batches, the COPY's scan one more; buffering the files would hold 10,000.
  EXPECT_LE(most_held, 4 * kBatch);
  EXPECT_EQ(Scalar("raw_dump", "grown",
                   "SELECT count(*) || ' ' || count(extra) || ' ' || min(id) || ' ' || max(id) || "
                   "' ' || min(CASE WHEN extra IS NOT NULL THEN id END) FROM t"),
            "20000 8000 0 19999 12000");
  EXPECT_EQ(Scalar("raw_dump", "grown", "SELECT count(*) FROM t WHERE extra <> 'e' || id"), "0");
  auto table = Table("raw_dump", "grown");
  ASSERT_TRUE(table.has_value());
  // One file before the new column, one after.
  EXPECT_EQ(table->metadata().CurrentSnapshot()->summary.at("added-data-files"), "2");

  // Into the existing table: the column it lacks is added with the id the files were written with.
  ASSERT_TRUE(ingest({a}, "raw_dump.plain"));
  most_held = 0;
  auto grown = ingest({b}, "raw_dump.plain");
  ASSERT_TRUE(grown) << grown.error().message;
  EXPECT_LE(most_held, 4 * kBatch);
  EXPECT_EQ(Scalar("raw_dump", "plain", "SELECT count(*) || ' ' || count(extra) FROM t"),
            "20000 8000");
  EXPECT_EQ(Scalar("raw_dump", "_dlt_load_status",
                   "SELECT rows_loaded FROM t WHERE load_id = '" + grown->load_id + "'"),
            "10000");
}

TEST_F(FileIngestTest, MergeUpdatesRowsByPrimaryKey) {
  ASSERT_TRUE(Ingest({Write("a.ndjson", R"({"id": 1, "name": "a", "tags": ["x"]}
{"id": 2, "name": "b", "tags": ["old"]}
{"id": 3, "name": "c", "tags": ["z"]}
)")},
                     "raw_dump.events", registry::WriteDisposition::kMerge, {"id"}));
  auto merged = Ingest({Write("b.ndjson", R"({"id": 2, "name": "B", "tags": ["w"]}
{"id": 4, "name": "d", "tags": []}
)")},
                       "raw_dump.events", registry::WriteDisposition::kMerge, {"id"});
  ASSERT_TRUE(merged) << merged.error().message;
  EXPECT_EQ(Scalar("raw_dump", "events", "SELECT count(*) FROM t"), "4");
  EXPECT_EQ(Scalar("raw_dump", "events", "SELECT name FROM t WHERE id = 2"), "B");
  EXPECT_EQ(Scalar("raw_dump", "events", "SELECT count(*) FROM t WHERE id = 2"), "1");
  // Row 2's old child row went with it; rows 1 and 3 keep theirs.
  EXPECT_EQ(
      Scalar("raw_dump", "events__tags", "SELECT string_agg(value, ',' ORDER BY value) FROM t"),
      "w,x,z");
}

TEST_F(FileIngestTest, MergeNeedsTheKeyTheTableWasCreatedWith) {
  ASSERT_TRUE(Ingest({Write("a.ndjson", kThreeEvents)}, "raw_dump.plain"));
  const auto plain = Table("raw_dump", "plain")->metadata().current_snapshot_id;
  auto keyless = Ingest({Write("b.ndjson", kThreeEvents)}, "raw_dump.plain",
                        registry::WriteDisposition::kMerge, {"id"});
  ASSERT_FALSE(keyless);
  EXPECT_NE(keyless.error().message.find("was created without a primary key"), std::string::npos)
      << keyless.error().message;
  EXPECT_EQ(Table("raw_dump", "plain")->metadata().current_snapshot_id, plain);

  ASSERT_TRUE(Ingest({Write("c.ndjson", kThreeEvents)}, "raw_dump.keyed",
                     registry::WriteDisposition::kMerge, {"id"}));
  auto other = Ingest({Write("d.ndjson", kThreeEvents)}, "raw_dump.keyed",
                      registry::WriteDisposition::kMerge, {"name"});
  ASSERT_FALSE(other);
  EXPECT_NE(other.error().message.find("has the primary key id, not name"), std::string::npos)
      << other.error().message;
  EXPECT_EQ(Scalar("raw_dump", "keyed", "SELECT count(*) FROM t"), "3");
}

//! `databox ingest --partition` on the embedded SQLite catalog: `terms` (registry syntax).
std::vector<registry::PartitionTerm> Terms(const std::vector<std::string>& terms) {
  std::vector<registry::PartitionTerm> out;
  for (const std::string& text : terms) out.push_back(*registry::ParsePartitionTerm(text));
  return out;
}

TEST_F(FileIngestTest, ChangedPartitionAddsASpecAndMergeOnReadWaitsForTheSpecRewrite) {
  auto ingest = [&](const std::string& name, const std::string& text,
                    std::vector<std::string> terms, std::optional<registry::MergeMode> mode = {}) {
    IngestRequest request;
    request.files = {Write(name, text)};
    request.table = "raw_dump.evolving";
    request.disposition = registry::WriteDisposition::kMerge;
    request.primary_key = {"id"};
    request.merge_mode = mode;
    request.partition = Terms(terms);
    request.workers = 2;
    return IngestFiles(*workspace_, request);
  };
  ASSERT_TRUE(ingest("a.ndjson", "{\"id\": 1, \"g\": \"x\"}\n{\"id\": 2, \"g\": \"y\"}\n", {"g"}));
  auto again =
      ingest("b.ndjson", "{\"id\": 2, \"g\": \"z\", \"n\": 5}\n{\"id\": 3, \"g\": \"x\"}\n",
             {"bucket[4](id)", "truncate[1](g)", "n"});
  ASSERT_TRUE(again) << again.error().message;
  auto table = Table("raw_dump", "evolving");
  ASSERT_TRUE(table);
  const iceberg::TableMetadata& md = table->metadata();
  ASSERT_EQ(md.partition_specs.size(), 2u);
  EXPECT_EQ(md.default_spec_id, 1);
  ASSERT_EQ(md.DefaultSpec()->fields.size(), 3u);
  EXPECT_EQ(md.DefaultSpec()->fields[0].field_id, 1001);
  EXPECT_EQ(md.DefaultSpec()->fields[2].name, "n");  // a column this load added
  EXPECT_EQ(md.last_partition_id, 1003);
  // Copy-on-write rewrote id 2's old-spec file under the new spec; id 1's file kept spec 0.
  EXPECT_EQ(Scalar("raw_dump", "evolving", "SELECT string_agg(id || g, ',' ORDER BY id) FROM t"),
            "1x,2z,3x");
  auto live = table->Live();
  ASSERT_TRUE(live);
  EXPECT_EQ(iceberg::DataFilesOutsideSpec(*live, 1).size(), 1u);

  const auto before = md.current_snapshot_id;
  auto refused =
      ingest("c.ndjson", "{\"id\": 3, \"g\": \"w\"}\n", {"bucket[4](id)", "truncate[1](g)", "n"},
             registry::MergeMode::kMergeOnRead);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("--rewrite-specs"), std::string::npos)
      << refused.error().message;
  EXPECT_EQ(Table("raw_dump", "evolving")->metadata().current_snapshot_id, before);

  auto db = duck::Database::Open("");
  auto conn = duck::Connection::Open(*db);
  auto rewrite = iceberg::PrepareSpecRewrite(*conn, *Table("raw_dump", "evolving"));
  ASSERT_TRUE(rewrite && *rewrite) << (rewrite ? "nothing to rewrite" : rewrite.error().message);
  ASSERT_TRUE((*rewrite)->Commit(workspace_->catalog()));
  auto after = ingest("d.ndjson", "{\"id\": 3, \"g\": \"w\"}\n",
                      {"bucket[4](id)", "truncate[1](g)", "n"}, registry::MergeMode::kMergeOnRead);
  ASSERT_TRUE(after) << after.error().message;
  EXPECT_EQ(Scalar("raw_dump", "evolving", "SELECT string_agg(id || g, ',' ORDER BY id) FROM t"),
            "1x,2z,3w");
  live = Table("raw_dump", "evolving")->Live();
  ASSERT_TRUE(live);
  EXPECT_TRUE(iceberg::DataFilesOutsideSpec(*live, 1).empty());
  EXPECT_FALSE(live->deletes.empty());
  // No partition given: the spec stays.
  ASSERT_TRUE(ingest("e.ndjson", "{\"id\": 4, \"g\": \"v\"}\n", {}));
  EXPECT_EQ(Table("raw_dump", "evolving")->metadata().default_spec_id, 1);
}

TEST_F(FileIngestTest, MalformedLineNamesFileAndLineAndCommitsNothing) {
  ASSERT_TRUE(Ingest({Write("good.ndjson", kThreeEvents)}, "raw_dump.events"));
  const auto before = Table("raw_dump", "events")->metadata().current_snapshot_id;
  const fs::path good = Write("good2.ndjson", kThreeEvents);
  const fs::path bad = Write("bad.ndjson", R"({"id": 7, "name": "g"}
{"id": 8, "name": "h"}
{"id": 9, "name": 
{"id": 10}
)");
  // Parquet files under the warehouse: the ones the failed ingest wrote are deleted.
  const std::size_t files_before = ParquetFiles();
  auto loaded = Ingest({good, bad}, "raw_dump.events");
  ASSERT_FALSE(loaded);
  EXPECT_NE(loaded.error().message.find(bad.string() + ":3"), std::string::npos)
      << loaded.error().message;
  EXPECT_EQ(Table("raw_dump", "events")->metadata().current_snapshot_id, before);
  EXPECT_EQ(ParquetFiles(), files_before);
  EXPECT_EQ(Scalar("raw_dump", "events", "SELECT count(*) FROM t"), "3");
  EXPECT_EQ(Scalar("raw_dump", "_dlt_load_status", "SELECT count(*) FROM t"), "1");
}

TEST_F(FileIngestTest, MalformedLineInGzipNamesTheGivenFile) {
  const fs::path bad = Write("bad.ndjson", "{\"id\": 1}\n[not json\n");
  auto loaded = Ingest({Compress(bad, "gzip", ".gz")}, "raw_dump.events");
  ASSERT_FALSE(loaded);
  EXPECT_NE(loaded.error().message.find(bad.string() + ".gz:2"), std::string::npos)
      << loaded.error().message;
  EXPECT_FALSE(Table("raw_dump", "events").has_value());
}

IngestRequest RequestOf(fs::path file, std::string table) {
  IngestRequest request;
  request.files = {std::move(file)};
  request.table = std::move(table);
  return request;
}

TEST_F(FileIngestTest, BadRequestsAreRefusedBeforeReading) {
  const fs::path file = Write("e.ndjson", kThreeEvents);
  auto check = [&](const IngestRequest& request, const std::string& expected) {
    auto checked = CheckIngestRequest(request);
    ASSERT_FALSE(checked) << expected;
    EXPECT_NE(checked.error().message.find(expected), std::string::npos) << checked.error().message;
  };
  check(RequestOf(file, "dump.events"), "raw_<name>.<table>");
  check(RequestOf(file, "raw_dump.Events"), "not a valid table name");
  check(RequestOf(file, "raw_.events"), "not a valid table name");
  check(RequestOf(dir_ / "in" / "missing.ndjson", "raw_dump.events"), "does not exist");
  check(RequestOf(Write("data.txt", "x"), "raw_dump.events"), "--format");
  IngestRequest merge = RequestOf(file, "raw_dump.events");
  merge.disposition = registry::WriteDisposition::kMerge;
  check(merge, "--primary-key");
  IngestRequest forced = RequestOf(Write("data.txt", "{\"id\": 1}\n"), "raw_dump.events");
  forced.format = IngestFormat::kNdjson;
  EXPECT_TRUE(CheckIngestRequest(forced));
}

}  // namespace
}  // namespace databox::load
