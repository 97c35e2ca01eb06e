// Iceberg v2 manifests (table spec "Manifests"): Avro files of manifest_entry records,
// each tracking one data or delete file with its partition tuple and column stats.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"
#include "iceberg/avro/codec.h"
#include "iceberg/avro/container_writer.h"
#include "iceberg/manifest/manifest_list.h"
#include "iceberg/spec/literal.h"
#include "iceberg/spec/partition_spec.h"
#include "iceberg/spec/schema.h"

namespace databox::iceberg {

enum class ManifestEntryStatus : int32_t { kExisting = 0, kAdded = 1, kDeleted = 2 };
enum class DataFileContent : int32_t { kData = 0, kPositionDeletes = 1, kEqualityDeletes = 2 };

//! data_file (field 2). Bounds are binary single-value serializations (Appendix D).
struct DataFile {
  DataFileContent content = DataFileContent::kData;  //!< 134
  std::string file_path;                             //!< 100
  std::string file_format = "PARQUET";               //!< 101
  //! 102: one value per partition field, in spec order; nullopt = null.
  std::vector<std::optional<Literal>> partition;
  int64_t record_count = 0;                           //!< 103
  int64_t file_size_in_bytes = 0;                     //!< 104
  std::map<int32_t, int64_t> column_sizes;            //!< 108 (k117/v118)
  std::map<int32_t, int64_t> value_counts;            //!< 109 (k119/v120)
  std::map<int32_t, int64_t> null_value_counts;       //!< 110 (k121/v122)
  std::map<int32_t, int64_t> nan_value_counts;        //!< 137 (k138/v139)
  std::map<int32_t, std::string> lower_bounds;        //!< 125 (k126/v127)
  std::map<int32_t, std::string> upper_bounds;        //!< 128 (k129/v130)
  std::optional<std::string> key_metadata;            //!< 131
  std::optional<std::vector<int64_t>> split_offsets;  //!< 132 (element 133)
  std::optional<std::vector<int32_t>> equality_ids;   //!< 135 (element 136)
  std::optional<int32_t> sort_order_id;               //!< 140
  friend bool operator==(const DataFile&, const DataFile&) = default;
};

//! manifest_entry. Null ids/sequence numbers of ADDED entries are inherited on read
//! from the manifest-list entry (they are unknown until the commit).
struct ManifestEntry {
  ManifestEntryStatus status = ManifestEntryStatus::kAdded;  //!< 0
  std::optional<int64_t> snapshot_id;                        //!< 1
  std::optional<int64_t> sequence_number;                    //!< 3
  std::optional<int64_t> file_sequence_number;               //!< 4
  DataFile data_file;                                        //!< 2
  friend bool operator==(const ManifestEntry&, const ManifestEntry&) = default;
};

//! The Avro schema JSON of a v2 manifest whose partition tuple has `partition_type`.
Result<std::string> ManifestAvroSchema(const Type& partition_type);

//! Streams manifest entries into an Avro container and accumulates the manifest-list
//! entry (counts, partition summaries, min sequence number) for the written manifest.
class ManifestWriter {
 public:
  //! `snapshot_id` is the snapshot adding this manifest (added_snapshot_id).
  static Result<ManifestWriter> Make(const Schema& table_schema, const PartitionSpec& spec,
                                     ManifestContent content, int64_t snapshot_id, avro::Sink sink,
                                     avro::Codec codec = avro::Codec::kDeflate);

  Status Add(const ManifestEntry& entry);
  //! Flushes the file and returns its manifest-list entry (manifest_length = bytes written).
  Result<ManifestFile> Finish(std::string manifest_path);

 private:
  ManifestWriter(avro::ContainerWriter writer, Type partition_type, ManifestFile summary)
      : writer_(std::move(writer)),
        partition_type_(std::move(partition_type)),
        summary_(std::move(summary)) {}

  avro::ContainerWriter writer_;
  Type partition_type_;                                //!< struct of the partition fields
  ManifestFile summary_;                               //!< accumulated manifest-list entry
  std::vector<std::optional<Literal>> lower_, upper_;  //!< per partition field
};

//! A decoded manifest.
struct Manifest {
  std::string schema_json;          //!< header "schema" (table schema JSON)
  std::string partition_spec_json;  //!< header "partition-spec" (fields array JSON)
  int32_t partition_spec_id = 0;    //!< header "partition-spec-id"
  ManifestContent content = ManifestContent::kData;
  int32_t format_version = 1;  //!< header "format-version" (1 if absent)
  std::vector<ManifestEntry> entries;
};

//! Decodes a manifest; partition values are typed by the spec and schema in the file's
//! header. Null snapshot ids and sequence numbers are inherited from `list_entry`.
Result<Manifest> ReadManifest(std::string data, const ManifestFile& list_entry);

}  // namespace databox::iceberg
