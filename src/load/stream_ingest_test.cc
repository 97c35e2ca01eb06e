#include "load/stream_ingest.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace databox::load {
namespace {

normalize::ResourceHints Hints() {
  normalize::ResourceHints hints;
  hints.resource = "events";
  hints.table_name = "events";
  return hints;
}

std::unique_ptr<normalize::Normalizer> MakeNormalizer() {
  auto ids = std::make_shared<int>(0);
  normalize::NormalizerOptions options;
  options.row_id_generator = [ids] { return "R" + std::to_string((*ids)++); };
  auto made = normalize::Normalizer::Make(Hints(), "1700000000.000001", options);
  EXPECT_TRUE(made) << made.error().ToString();
  return std::move(*made);
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

  auto stream = NdjsonBatchStream::Start(file.path.string(), MakeNormalizer(),
                                         {.flush_rows = 7, .max_queued = 2});
  ASSERT_TRUE(stream) << stream.error().ToString();
  auto streamed = Drain(**stream);
  EXPECT_EQ((*stream)->stats().records, 500);

  auto direct = MakeNormalizer();
  for (const std::string& record : records) {
    ASSERT_TRUE(direct->Add(normalize::Json::parse(record)));
  }
  const auto expected = direct->Flush();
  ASSERT_EQ(streamed.size(), expected.size());
  for (const normalize::TableBatch& want : expected) {
    const auto& got = streamed[want.schema.name];
    ASSERT_FALSE(got.empty()) << want.schema.name;
    for (std::size_t c = 0; c < want.columns.size(); ++c) {
      normalize::ColumnValues joined = normalize::ValuesFor(want.schema.columns[c].data_type);
      for (const auto& batch : got) {
        std::visit(
            [&](auto& into) {
              const auto& part = std::get<std::decay_t<decltype(into)>>(batch.columns[c]);
              into.insert(into.end(), part.begin(), part.end());
            },
            joined);
      }
      EXPECT_TRUE(joined == want.columns[c])
          << want.schema.name << "." << want.schema.columns[c].name;
    }
  }
}

TEST(NdjsonBatchStream, BadLineNamesFileAndLine) {
  TempFile file("{\"id\": 1}\n{\"id\": 2}\n{\"id\": \n{\"id\": 4}\n");
  auto stream = NdjsonBatchStream::Start(file.path.string(), MakeNormalizer());
  ASSERT_TRUE(stream);
  Result<std::vector<normalize::TableBatch>> next;
  do {
    next = (*stream)->Next();
  } while (next && !next->empty());
  ASSERT_FALSE(next) << "the bad line must fail the stream";
  EXPECT_EQ(next.error().kind, ErrorKind::kData);
  EXPECT_NE(next.error().message.find(file.path.string() + ":3"), std::string::npos)
      << next.error().message;
}

TEST(NdjsonBatchStream, MissingFileIsNotFound) {
  auto stream = NdjsonBatchStream::Start("/nonexistent/databox/input.ndjson", MakeNormalizer());
  ASSERT_FALSE(stream);
  EXPECT_EQ(stream.error().kind, ErrorKind::kNotFound);
}

}  // namespace
}  // namespace databox::load
