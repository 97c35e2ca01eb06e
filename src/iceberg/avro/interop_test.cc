// Checks our container files against readers and writers no one here wrote: DuckDB's
// avro extension reads what we write, and we read what pyiceberg's Avro writer writes.
// Needs the project venv (scripts/setup) and the DuckDB extensions in .deps/.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "common/test_paths.h"
#include "iceberg/avro/container_reader.h"
#include "iceberg/avro/container_writer.h"
#include "iceberg/avro/test_util.h"

namespace databox::avro {
namespace {

namespace fs = std::filesystem;

const std::string kPython = test_paths::VenvDir() + "/bin/python";
const std::string kExtensionDir = test_paths::SourceDir() + "/.deps/duckdb/extensions";

class InteropTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kPython))
      GTEST_SKIP() << "no project venv at " << kPython << ": run scripts/setup";
    dir_ = fs::temp_directory_path() / ("databox_avro_interop_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }

  std::string RunPython(std::string_view script, const std::string& args) {
    return RunVenvPython(dir_, script, args);
  }
  static std::string ReadFile(const fs::path& path) { return ReadFileBytes(path); }

  fs::path dir_;
};

TEST_F(InteropTest, DuckDbReadsWhatWeWrite) {
  auto schema = Schema::Parse(R"({"type": "record", "name": "row", "fields": [
    {"name": "id", "type": "long", "field-id": 1},
    {"name": "name", "type": ["null", "string"], "field-id": 2},
    {"name": "score", "type": ["null", "double"], "field-id": 3},
    {"name": "ok", "type": "boolean", "field-id": 4},
    {"name": "small", "type": "int", "field-id": 5},
    {"name": "blob", "type": "bytes", "field-id": 6},
    {"name": "tags", "type": {"type": "array", "items": "int", "element-id": 8}, "field-id": 7},
    {"name": "attrs", "type": {"type": "map", "values": "long"}, "field-id": 9}]})");
  ASSERT_TRUE(schema) << schema.error().ToString();
  constexpr int kRows = 2500;  // several blocks
  for (Codec codec : {Codec::kDeflate, Codec::kNull}) {
    std::string file;
    WriterOptions options;
    options.codec = codec;
    options.block_bytes = 4096;
    options.metadata = {{"format-version", "2"}};
    auto writer = ContainerWriter::Make(*schema, options, &file);
    ASSERT_TRUE(writer) << writer.error().ToString();
    for (int i = 0; i < kRows; ++i) {
      Value row = Value::Record({
          {"id", Value::Long(int64_t{1} << 40 | i)},
          {"name", i % 4 == 0 ? Value::Null() : Value::String("n\xc3\xa9-" + std::to_string(i))},
          {"score", i % 5 == 0 ? Value::Null() : Value::Double(i * 0.5)},
          {"ok", Value::Boolean(i % 2 == 0)},
          {"small", Value::Int(-i)},
          {"blob", Value::Bytes(std::string("\x00\xfe", 2) + static_cast<char>(i % 256))},
          {"tags", Value::ArrayOf({Value::Int(i), Value::Int(i + 1)})},
          {"attrs", Value::Map({{"k" + std::to_string(i % 3), Value::Long(i)}})},
      });
      ASSERT_TRUE(writer->Append(row));
    }
    ASSERT_TRUE(writer->Close());
    const fs::path avro_path = dir_ / "ours.avro";
    const fs::path json_path = dir_ / "duck.json";
    std::ofstream(avro_path, std::ios::binary) << file;
    RunPython(kDuckDbAvroReader,
              avro_path.string() + " " + kExtensionDir + " " + json_path.string());

    const auto result = nlohmann::json::parse(ReadFile(json_path));
    EXPECT_EQ(result["columns"],
              nlohmann::json({"id", "name", "score", "ok", "small", "blob", "tags", "attrs"}));
    const auto& rows = result["rows"];
    ASSERT_EQ(rows.size(), static_cast<size_t>(kRows));
    for (int i = 0; i < kRows; ++i) {
      const auto& r = rows[static_cast<size_t>(i)];
      ASSERT_EQ(r[0], int64_t{1} << 40 | i) << i;
      if (i % 4 == 0) {
        EXPECT_TRUE(r[1].is_null());
      } else {
        EXPECT_EQ(r[1], "n\xc3\xa9-" + std::to_string(i));
      }
      if (i % 5 == 0) {
        EXPECT_TRUE(r[2].is_null());
      } else {
        EXPECT_EQ(r[2], i * 0.5);
      }
      EXPECT_EQ(r[3], i % 2 == 0);
      EXPECT_EQ(r[4], -i);
      char hex[3];
      std::snprintf(hex, sizeof(hex), "%02x", i % 256);
      EXPECT_EQ(r[5], std::string("00fe") + hex);
      EXPECT_EQ(r[6], nlohmann::json({i, i + 1}));
      EXPECT_EQ(r[7], nlohmann::json({{"k" + std::to_string(i % 3), i}}));
    }
  }
}

constexpr std::string_view kPyIcebergWriter = R"py(
import sys
from pyiceberg.avro.file import AvroOutputFile
from pyiceberg.io.pyarrow import PyArrowFileIO
from pyiceberg.schema import Schema
from pyiceberg.types import NestedField, LongType, StringType, ListType, IntegerType, MapType
from pyiceberg.typedef import Record
schema = Schema(
    NestedField(1, 'id', LongType(), required=True),
    NestedField(2, 'name', StringType(), required=False),
    NestedField(3, 'tags', ListType(4, IntegerType(), element_required=True), required=False),
    NestedField(5, 'props', MapType(6, StringType(), 7, LongType(), value_required=True), required=False))
with AvroOutputFile[Record](PyArrowFileIO().new_output(sys.argv[1]), schema, 'test_record',
                            metadata={'format-version': '2'}) as f:
    f.write_block([Record(1, 'a', [1, 2], {'x': 10}), Record(2, None, None, None)])
    f.write_block([Record(3, 'c', [], {'y': -1, 'z': 0})])
)py";

TEST_F(InteropTest, WeReadWhatPyIcebergWrites) {
  const fs::path avro_path = dir_ / "pyiceberg.avro";
  RunPython(std::string(kPyIcebergWriter), avro_path.string());
  auto reader = ContainerReader::Open(ReadFile(avro_path), avro_path.string());
  ASSERT_TRUE(reader) << reader.error().ToString();
  EXPECT_EQ(reader->codec(), Codec::kDeflate);  // pyiceberg's default manifest compression
  EXPECT_EQ(reader->Metadata("format-version"), "2");
  const AvroNode& root = reader->schema().root_node();
  ASSERT_EQ(root.fields.size(), 4u);
  EXPECT_EQ(root.fields[2].FieldId(), 3);
  const AvroNode& tags =
      reader->schema().node(reader->schema().node(root.fields[2].type).branches[1]);
  EXPECT_EQ(tags.IntAttribute("element-id"), 4);
  const AvroNode& props =
      reader->schema().node(reader->schema().node(root.fields[3].type).branches[1]);
  EXPECT_EQ(props.logical_type, "map");  // Iceberg maps as arrays of key/value records

  auto rows = reader->ReadAll();
  ASSERT_TRUE(rows) << rows.error().ToString();
  ASSERT_EQ(rows->size(), 3u);
  auto kv = [](std::string key, int64_t value) {
    return Value::Record({{"key", Value::String(std::move(key))}, {"value", Value::Long(value)}});
  };
  EXPECT_EQ((*rows)[0],
            Value::Record({
                {"id", Value::Long(1)},
                {"name", Value::Union(1, Value::String("a"))},
                {"tags", Value::Union(1, Value::ArrayOf({Value::Int(1), Value::Int(2)}))},
                {"props", Value::Union(1, Value::ArrayOf({kv("x", 10)}))},
            }))
      << (*rows)[0].DebugString();
  EXPECT_EQ((*rows)[1], Value::Record({
                            {"id", Value::Long(2)},
                            {"name", Value::Union(0, Value::Null())},
                            {"tags", Value::Union(0, Value::Null())},
                            {"props", Value::Union(0, Value::Null())},
                        }))
      << (*rows)[1].DebugString();
  EXPECT_EQ((*rows)[2], Value::Record({
                            {"id", Value::Long(3)},
                            {"name", Value::Union(1, Value::String("c"))},
                            {"tags", Value::Union(1, Value::ArrayOf({}))},
                            {"props", Value::Union(1, Value::ArrayOf({kv("y", -1), kv("z", 0)}))},
                        }))
      << (*rows)[2].DebugString();
}

}  // namespace
}  // namespace databox::avro
