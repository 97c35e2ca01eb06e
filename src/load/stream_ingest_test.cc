#include "load/stream_ingest.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace databox::load {
namespace {

normalize::ResourceHints Hints() {
  normalize::ResourceHints hints;
  hints.resource = "events";
  hints.table_name = "events";
  return hints;
}

constexpr const char* kLoadId = "1700000000.000001";

//! Root ids R0, R1, ... in the order records are normalized (one worker only).
normalize::NormalizerOptions CountingIds() {
  auto ids = std::make_shared<int>(0);
  normalize::NormalizerOptions options;
  options.row_id_generator = [ids] { return "R" + std::to_string((*ids)++); };
  return options;
}

//! A file in the test's temporary folder, removed at the end.
struct TempFile {
  std::filesystem::path path;
  explicit TempFile(const std::string& content) {
    path = std::filesystem::temp_directory_path() /
           ("stream_ingest_test_" + std::to_string(::getpid()) + "_" +
            std::to_string(reinterpret_cast<uintptr_t>(this)) + ".ndjson");
    std::ofstream(path, std::ios::binary) << content;
  }
  ~TempFile() { std::filesystem::remove(path); }
};

//! Rows per table, concatenated over hand-overs: table name -> batches in order.
std::map<std::string, std::vector<normalize::TableBatch>> Drain(NdjsonBatchStream& stream) {
  std::map<std::string, std::vector<normalize::TableBatch>> out;
  while (true) {
    auto batches = stream.Next();
    EXPECT_TRUE(batches) << batches.error().ToString();
    if (!batches || batches->empty()) break;
    for (auto& batch : *batches) out[batch.schema.name].push_back(std::move(batch));
  }
  return out;
}

//! Checks that the streamed batches hold what one normalizer fed `records` in order holds: the
//! same tables, schemas and values per column.
void ExpectSameAsOneNormalizer(std::map<std::string, std::vector<normalize::TableBatch>> streamed,
                               const std::vector<normalize::TableSchema>& streamed_schemas,
                               const std::vector<std::string>& records,
                               normalize::NormalizerOptions options) {
  auto made = normalize::Normalizer::Make(Hints(), kLoadId, std::move(options));
  ASSERT_TRUE(made);
  auto& direct = **made;
  for (const std::string& record : records) {
    ASSERT_TRUE(direct.Add(normalize::Json::parse(record)));
  }
  const auto want_schemas = direct.Schemas();
  ASSERT_EQ(streamed_schemas.size(), want_schemas.size());
  for (std::size_t t = 0; t < want_schemas.size(); ++t) {
    EXPECT_EQ(streamed_schemas[t].name, want_schemas[t].name);
    EXPECT_EQ(streamed_schemas[t].columns, want_schemas[t].columns) << want_schemas[t].name;
  }
  const auto expected = direct.Flush();
  ASSERT_EQ(streamed.size(), expected.size());
  for (const normalize::TableBatch& want : expected) {
    const auto& got = streamed[want.schema.name];
    ASSERT_FALSE(got.empty()) << want.schema.name;
    for (std::size_t c = 0; c < want.columns.size(); ++c) {
      normalize::ColumnValues joined = normalize::ValuesFor(want.schema.columns[c].data_type);
      for (const auto& batch : got) {
        std::visit(
            [&](auto& into) {
              using Values = std::decay_t<decltype(into)>;
              constexpr bool kStrings = std::is_same_v<Values, normalize::StringValues>;
              if (c >= batch.columns.size()) {  // added after this batch: its rows hold NULL
                if constexpr (kStrings) {
                  into.append_nulls(batch.num_rows);
                } else {
                  into.resize(into.size() + batch.num_rows);
                }
                return;
              }
              EXPECT_EQ(batch.schema.columns[c], want.schema.columns[c]);
              const auto& part = std::get<Values>(batch.columns[c]);
              if constexpr (kStrings) {
                for (const auto& value : part) {
                  if (value) {
                    into.push_back(*value);
                  } else {
                    into.push_null();
                  }
                }
              } else {
                into.insert(into.end(), part.begin(), part.end());
              }
            },
            joined);
      }
      EXPECT_TRUE(joined == want.columns[c])
          << want.schema.name << "." << want.schema.columns[c].name;
    }
  }
}

// The stream must give the rows a direct nlohmann-parsed feed gives, across many small
// hand-overs (flush_rows 7), with empty lines, CRLF endings and no newline at the end.
TEST(NdjsonBatchStream, SameRowsAsFeedingParsedRecords) {
  std::string content;
  std::vector<std::string> records;
  for (int i = 0; i < 500; ++i) {
    records.push_back(R"({"id": )" + std::to_string(i) + R"(, "name": "n)" + std::to_string(i) +
                      R"(", "tags": ["a", "b"], "geo": {"lat": )" + std::to_string(i * 0.5) + "}}");
    content += records.back() + (i % 3 == 0 ? "\r\n" : "\n");
    if (i % 50 == 0) content += "\n";
  }
  content.pop_back();  // the last line has no newline
  TempFile file(content);

  // One worker, blocks of a few lines: root ids are drawn in record order.
  auto stream = NdjsonBatchStream::Start(file.path.string(), Hints(), kLoadId, CountingIds(),
                                         {.flush_rows = 7, .max_queued = 2, .block_bytes = 300});
  ASSERT_TRUE(stream) << stream.error().ToString();
  auto streamed = Drain(**stream);
  EXPECT_EQ((*stream)->stats().records, 500);
  EXPECT_GT((*stream)->stats().blocks, 50);
  ExpectSameAsOneNormalizer(std::move(streamed), (*stream)->Schemas(), records, CountingIds());
}

// Several workers normalize blocks at once while the records change shape: columns appear,
// types conflict (variant columns), a number column first holds integers in one block and
// floats in another, a child table appears late. Whatever blocks ran alongside, the batches and
// schemas equal one normalizer's. Records carry their own _dlt_id, so every id is fixed.
TEST(NdjsonBatchStream, ParallelBlocksGiveOneNormalizersResult) {
  std::vector<std::string> records;
  std::string content;
  for (int i = 0; i < 3000; ++i) {
    std::string r = R"({"_dlt_id": "r)" + std::to_string(i) + R"(", "id": )" + std::to_string(i);
    if (i % 7 == 3) r += R"(, "b": )" + std::to_string(i);
    if (i % 7 == 5) r += R"(, "b": "s)" + std::to_string(i) + "\"";
    if (i >= 400 && i % 11 == 0) r += R"(, "c": )" + std::to_string(i / 11) + ".5";
    if (i >= 400 && i % 11 == 1) r += R"(, "c": )" + std::to_string(i);
    if (i >= 1200) r += R"(, "late": {"x": )" + std::to_string(i) + "}";
    if (i >= 1500 && i % 5 == 0) r += R"(, "events": [{"k": )" + std::to_string(i) + "}, {}]";
    if (i % 13 == 0) r += R"(, "tags": [")" + std::to_string(i) + R"(", null])";
    r += "}";
    records.push_back(r);
    content += r + "\n";
  }
  TempFile file(content);
  for (std::size_t workers : {2u, 3u}) {
    auto stream = NdjsonBatchStream::Start(
        file.path.string(), Hints(), kLoadId, {},
        {.flush_rows = 100, .max_queued = 2, .workers = workers, .block_bytes = 2000});
    ASSERT_TRUE(stream) << stream.error().ToString();
    auto streamed = Drain(**stream);
    const auto stats = (*stream)->stats();
    EXPECT_EQ(stats.records, 3000);
    EXPECT_GT(stats.blocks, 50);
    ExpectSameAsOneNormalizer(std::move(streamed), (*stream)->Schemas(), records, {});
  }
}

// A bad line fails the stream with the file, the line and the record number, counted over the
// whole file whichever block and worker met it.
TEST(NdjsonBatchStream, BadLineNamesFileAndLine) {
  std::string content;
  for (int i = 1; i <= 400; ++i) {
    content += i == 301 ? "{\"id\": \n" : "{\"id\": " + std::to_string(i) + "}\n";
    if (i % 100 == 0) content += "\n";  // empty lines count as lines, not records
  }
  TempFile file(content);
  for (std::size_t workers : {1u, 2u}) {
    auto stream = NdjsonBatchStream::Start(file.path.string(), Hints(), kLoadId, {},
                                           {.workers = workers, .block_bytes = 64});
    ASSERT_TRUE(stream);
    Result<std::vector<normalize::TableBatch>> next;
    do {
      next = (*stream)->Next();
    } while (next && !next->empty());
    ASSERT_FALSE(next) << "the bad line must fail the stream";
    EXPECT_EQ(next.error().kind, ErrorKind::kData);
    EXPECT_NE(next.error().message.find(file.path.string() + ":304"), std::string::npos)
        << next.error().message;
    EXPECT_NE(next.error().message.find("(record 301)"), std::string::npos) << next.error().message;
  }
}

// A line longer than a block stays whole.
TEST(NdjsonBatchStream, LinesLongerThanABlockStayWhole) {
  const std::string long_text(100'000, 'x');
  TempFile file("{\"id\": 1}\n{\"id\": 2, \"text\": \"" + long_text + "\"}\n{\"id\": 3}");
  auto stream = NdjsonBatchStream::Start(file.path.string(), Hints(), kLoadId, {},
                                         {.workers = 2, .block_bytes = 16});
  ASSERT_TRUE(stream);
  auto streamed = Drain(**stream);
  ASSERT_EQ((*stream)->stats().records, 3);
  std::vector<std::optional<std::string>> texts;
  for (const auto& batch : streamed["events"]) {
    const auto* column = batch.schema.FindColumn("text");
    const std::size_t at = column == nullptr ? 0 : column - batch.schema.columns.data();
    for (std::size_t r = 0; r < batch.num_rows; ++r) {
      const auto value = column == nullptr
                             ? std::nullopt
                             : std::get<normalize::StringValues>(batch.columns[at])[r];
      texts.push_back(value ? std::optional<std::string>(*value) : std::nullopt);
    }
  }
  EXPECT_EQ(texts,
            (std::vector<std::optional<std::string>>{std::nullopt, long_text, std::nullopt}));
}

TEST(NdjsonBatchStream, MissingFileIsNotFound) {
  auto stream = NdjsonBatchStream::Start("/nonexistent/databox/input.ndjson", Hints(), kLoadId);
  ASSERT_FALSE(stream);
  EXPECT_EQ(stream.error().kind, ErrorKind::kNotFound);
}

TEST(NdjsonBatchStream, AnEmptyFileGivesNoBatches) {
  TempFile file("");
  auto stream = NdjsonBatchStream::Start(file.path.string(), Hints(), kLoadId, {}, {.workers = 2});
  ASSERT_TRUE(stream);
  auto next = (*stream)->Next();
  ASSERT_TRUE(next);
  EXPECT_TRUE(next->empty());
  EXPECT_EQ((*stream)->stats().records, 0);
}

}  // namespace
}  // namespace databox::load
