// Manifests against independent implementations: we read what pyiceberg writes for a
// partitioned table with two appends, and DuckDB's avro extension reads what we write.
// Needs the project venv (scripts/setup) and the DuckDB extensions in .deps/.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/test_paths.h"
#include "iceberg/avro/test_util.h"
#include "iceberg/manifest/manifest.h"
#include "iceberg/manifest/manifest_list.h"

namespace databox::iceberg {
namespace {

namespace fs = std::filesystem;

class ManifestInteropTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(test_paths::VenvDir() + "/bin/python"))
      GTEST_SKIP() << "no venv: run scripts/setup";
    dir_ = fs::temp_directory_path() / ("databox_manifest_interop_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }

  static std::string LocalPath(const std::string& uri) {
    return uri.starts_with("file://") ? uri.substr(std::string_view("file://").size()) : uri;
  }
  static std::string Hex(const std::string& bytes) {
    std::string out = avro::Hex(bytes);
    std::erase(out, ' ');
    return out;
  }

  fs::path dir_;
};

constexpr std::string_view kPyIcebergTable = R"py(
import json, sys, os
import pyarrow as pa
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.schema import Schema
from pyiceberg.types import NestedField, LongType, StringType, DoubleType
from pyiceberg.partitioning import PartitionSpec, PartitionField
from pyiceberg.transforms import IdentityTransform
wh = sys.argv[1]
cat = SqlCatalog("t", uri=f"sqlite:///{wh}/cat.db", warehouse=f"file://{wh}")
cat.create_namespace("ns")
schema = Schema(NestedField(1, "id", LongType(), required=False), NestedField(2, "region", StringType(), required=False),
                NestedField(3, "v", DoubleType(), required=False))
spec = PartitionSpec(PartitionField(source_id=2, field_id=1000, transform=IdentityTransform(), name="region"))
t = cat.create_table("ns.t", schema=schema, partition_spec=spec)
arrow = schema.as_arrow()
t.append(pa.table({"id": [1, 2], "region": ["eu", "us"], "v": [0.5, 1.5]}, schema=arrow))
t.append(pa.table({"id": [3, 4, 5], "region": ["eu", None, "eu"], "v": [2.5, None, 3.0]}, schema=arrow))
t = cat.load_table("ns.t")
snap = t.current_snapshot()
out = {"manifest_list": snap.manifest_list, "manifests": []}
for m in snap.manifests(t.io):
    entries = []
    for e in m.fetch_manifest_entry(t.io, discard_deleted=False):
        df = e.data_file
        entries.append({"status": int(e.status), "snapshot_id": e.snapshot_id, "sequence_number": e.sequence_number,
                        "file_sequence_number": e.file_sequence_number, "file_path": df.file_path,
                        "file_format": str(df.file_format.value), "record_count": df.record_count,
                        "file_size_in_bytes": df.file_size_in_bytes, "region": df.partition[0],
                        "null_value_counts": {str(k): v for k, v in (df.null_value_counts or {}).items()},
                        "lower_bounds": {str(k): v.hex() for k, v in (df.lower_bounds or {}).items()}})
    out["manifests"].append({"manifest_path": m.manifest_path, "manifest_length": m.manifest_length,
        "partition_spec_id": m.partition_spec_id, "content": int(m.content), "sequence_number": m.sequence_number,
        "min_sequence_number": m.min_sequence_number, "added_snapshot_id": m.added_snapshot_id,
        "added_files_count": m.added_files_count, "added_rows_count": m.added_rows_count,
        "existing_files_count": m.existing_files_count,
        "partitions": [{"contains_null": p.contains_null, "lower_bound": p.lower_bound.hex() if p.lower_bound else None,
                        "upper_bound": p.upper_bound.hex() if p.upper_bound else None} for p in (m.partitions or [])],
        "entries": entries})
json.dump(out, open(sys.argv[2], "w"))
)py";

TEST_F(ManifestInteropTest, ReadsPyIcebergManifests) {
  const fs::path expected_path = dir_ / "expected.json";
  avro::RunVenvPython(dir_, kPyIcebergTable, dir_.string() + " " + expected_path.string());
  const auto expected = nlohmann::json::parse(avro::ReadFileBytes(expected_path));
  const std::string list_path = expected["manifest_list"];
  auto list = ReadManifestList(avro::ReadFileBytes(LocalPath(list_path)), list_path);
  ASSERT_TRUE(list) << list.error().ToString();
  ASSERT_EQ(list->size(), expected["manifests"].size());
  ASSERT_EQ(list->size(), 2u);  // pyiceberg's fast append keeps one manifest per append
  int total_entries = 0;
  for (size_t i = 0; i < list->size(); ++i) {
    const ManifestFile& m = (*list)[i];
    const auto& e = expected["manifests"][i];
    EXPECT_EQ(m.manifest_path, e["manifest_path"]);
    EXPECT_EQ(m.manifest_length, e["manifest_length"]);
    EXPECT_EQ(m.partition_spec_id, e["partition_spec_id"]);
    EXPECT_EQ(static_cast<int>(m.content), e["content"]);
    EXPECT_EQ(m.sequence_number, e["sequence_number"].get<int64_t>());
    EXPECT_EQ(m.min_sequence_number, e["min_sequence_number"].get<int64_t>());
    EXPECT_EQ(m.added_snapshot_id, e["added_snapshot_id"]);
    EXPECT_EQ(m.added_files_count, e["added_files_count"]);
    EXPECT_EQ(m.added_rows_count, e["added_rows_count"]);
    EXPECT_EQ(m.existing_files_count, e["existing_files_count"]);
    ASSERT_EQ(m.partitions.size(), e["partitions"].size());
    for (size_t p = 0; p < m.partitions.size(); ++p) {
      EXPECT_EQ(m.partitions[p].contains_null, e["partitions"][p]["contains_null"]);
      EXPECT_EQ(Hex(m.partitions[p].lower_bound.value_or("")), e["partitions"][p]["lower_bound"]);
      EXPECT_EQ(Hex(m.partitions[p].upper_bound.value_or("")), e["partitions"][p]["upper_bound"]);
    }

    auto manifest = ReadManifest(avro::ReadFileBytes(LocalPath(m.manifest_path)), m);
    ASSERT_TRUE(manifest) << manifest.error().ToString();
    EXPECT_EQ(manifest->format_version, 2);
    const auto& entries = e["entries"];
    ASSERT_EQ(manifest->entries.size(), entries.size());
    for (size_t j = 0; j < entries.size(); ++j) {
      const ManifestEntry& got = manifest->entries[j];
      const auto& want = entries[j];
      ++total_entries;
      EXPECT_EQ(static_cast<int>(got.status), want["status"]);
      // pyiceberg leaves these null in ADDED entries; both sides inherit them.
      EXPECT_EQ(got.snapshot_id, want["snapshot_id"].get<int64_t>());
      EXPECT_EQ(got.sequence_number, want["sequence_number"].get<int64_t>());
      EXPECT_EQ(got.file_sequence_number, want["file_sequence_number"].get<int64_t>());
      EXPECT_EQ(got.data_file.file_path, want["file_path"]);
      EXPECT_EQ(got.data_file.file_format, want["file_format"]);
      EXPECT_EQ(got.data_file.record_count, want["record_count"]);
      EXPECT_EQ(got.data_file.file_size_in_bytes, want["file_size_in_bytes"]);
      ASSERT_EQ(got.data_file.partition.size(), 1u);
      if (want["region"].is_null()) {
        EXPECT_EQ(got.data_file.partition[0], std::nullopt);
      } else {
        EXPECT_EQ(got.data_file.partition[0], Literal::String(want["region"]));
      }
      for (const auto& [key, count] : want["null_value_counts"].items()) {
        EXPECT_EQ(got.data_file.null_value_counts.at(std::stoi(key)), count.get<int64_t>());
      }
      EXPECT_EQ(got.data_file.null_value_counts.size(), want["null_value_counts"].size());
      for (const auto& [key, hex] : want["lower_bounds"].items()) {
        EXPECT_EQ(Hex(got.data_file.lower_bounds.at(std::stoi(key))), hex);
      }
    }
  }
  EXPECT_EQ(total_entries, 4);  // eu + us, then eu + null
}

TEST_F(ManifestInteropTest, DuckDbReadsOurManifestAndList) {
  Schema table_schema(0, {NestedField{1, "id", false, Type::Long(), std::nullopt},
                          NestedField{2, "day", false, Type::Date(), std::nullopt}});
  PartitionSpec spec;
  spec.spec_id = 3;
  spec.fields.push_back(PartitionField{2, 1000, "day", Transform::Identity()});
  const fs::path manifest_path = dir_ / "m0.avro";
  std::ofstream out(manifest_path, std::ios::binary);
  auto writer = ManifestWriter::Make(
      table_schema, spec, ManifestContent::kData, 42, [&out](std::string_view b) -> Status {
        out.write(b.data(), static_cast<std::streamsize>(b.size()));
        return out ? Ok() : MakeError(ErrorKind::kIo, "write failed");
      });
  ASSERT_TRUE(writer) << writer.error().ToString();
  for (int i = 0; i < 3; ++i) {
    DataFile f;
    f.file_path = "s3://b/t/data/f" + std::to_string(i) + ".parquet";
    f.partition.emplace_back(Literal::Date(19000 + i));
    f.record_count = 10 * (i + 1);
    f.file_size_in_bytes = 4096;
    f.value_counts = {{1, 10 * (i + 1)}};
    ASSERT_TRUE(
        writer->Add({ManifestEntryStatus::kAdded, std::nullopt, std::nullopt, std::nullopt, f}));
  }
  auto list_entry = writer->Finish(manifest_path.string());
  ASSERT_TRUE(list_entry) << list_entry.error().ToString();
  out.close();
  ManifestListOptions options{42, std::nullopt, 5, avro::Codec::kDeflate};
  auto list_bytes = WriteManifestList(std::span(&*list_entry, 1), options);
  ASSERT_TRUE(list_bytes);
  const fs::path list_path = dir_ / "snap-42.avro";
  std::ofstream(list_path, std::ios::binary) << *list_bytes;

  const std::string ext_dir = test_paths::SourceDir() + "/.deps/duckdb/extensions";
  const fs::path json_path = dir_ / "duck.json";
  avro::RunVenvPython(dir_, avro::kDuckDbAvroReader,
                      manifest_path.string() + " " + ext_dir + " " + json_path.string());
  const auto manifest = nlohmann::json::parse(avro::ReadFileBytes(json_path));
  EXPECT_EQ(manifest["columns"], nlohmann::json({"status", "snapshot_id", "sequence_number",
                                                 "file_sequence_number", "data_file"}));
  ASSERT_EQ(manifest["rows"].size(), 3u);
  for (int i = 0; i < 3; ++i) {
    const auto& row = manifest["rows"][static_cast<size_t>(i)];
    EXPECT_EQ(row[0], 1);
    EXPECT_TRUE(row[1].is_null());
    EXPECT_TRUE(row[2].is_null());
    const auto& data_file = row[4];
    EXPECT_EQ(data_file["file_path"], "s3://b/t/data/f" + std::to_string(i) + ".parquet");
    EXPECT_EQ(data_file["file_format"], "PARQUET");
    EXPECT_EQ(data_file["record_count"], 10 * (i + 1));
    EXPECT_EQ(data_file["content"], 0);
    // date logical type: 19000 days after 1970-01-01 is 2022-01-08.
    const char* const kDays[] = {"2022-01-08", "2022-01-09", "2022-01-10"};
    EXPECT_EQ(data_file["partition"]["day"], kDays[i]) << data_file.dump();
    // DuckDB reads Iceberg's logicalType "map" arrays as MAPs.
    EXPECT_EQ(data_file["value_counts"], nlohmann::json({{"1", 10 * (i + 1)}}));
  }

  avro::RunVenvPython(dir_, avro::kDuckDbAvroReader,
                      list_path.string() + " " + ext_dir + " " + json_path.string());
  const auto list = nlohmann::json::parse(avro::ReadFileBytes(json_path));
  ASSERT_EQ(list["rows"].size(), 1u);
  const auto& columns = list["columns"];
  const auto& row = list["rows"][0];
  auto column = [&](std::string_view name) -> const nlohmann::json& {
    for (size_t c = 0; c < columns.size(); ++c) {
      if (columns[c] == name) return row[c];
    }
    ADD_FAILURE() << "no column " << name;
    return row[0];
  };
  EXPECT_EQ(column("manifest_path"), manifest_path.string());
  EXPECT_EQ(column("manifest_length"), static_cast<int64_t>(fs::file_size(manifest_path)));
  EXPECT_EQ(column("partition_spec_id"), 3);
  EXPECT_EQ(column("sequence_number"), 5);
  EXPECT_EQ(column("min_sequence_number"), 5);
  EXPECT_EQ(column("added_snapshot_id"), 42);
  EXPECT_EQ(column("added_files_count"), 3);
  EXPECT_EQ(column("added_rows_count"), 60);
  // Bounds are the 4-byte little-endian binary form of the dates 19000 and 19002.
  EXPECT_EQ(
      column("partitions"),
      nlohmann::json::parse(
          R"([{"contains_null": false, "contains_nan": false, "lower_bound": "384a0000", "upper_bound": "3a4a0000"}])"));
}

}  // namespace
}  // namespace databox::iceberg
