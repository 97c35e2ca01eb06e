// Iceberg v2 manifest lists (table spec "Manifest Lists"): one Avro record per manifest
// of a snapshot, with counts and per-partition-field summaries used for pruning.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/error.h"
#include "iceberg/avro/codec.h"

namespace databox::iceberg {

enum class ManifestContent : int32_t { kData = 0, kDeletes = 1 };

//! field_summary (element 508): bounds are binary single-value serializations.
struct PartitionFieldSummary {
  bool contains_null = false;              //!< 509
  std::optional<bool> contains_nan;        //!< 518
  std::optional<std::string> lower_bound;  //!< 510
  std::optional<std::string> upper_bound;  //!< 511
  friend bool operator==(const PartitionFieldSummary&, const PartitionFieldSummary&) = default;
};

//! manifest_file: one manifest-list entry.
struct ManifestFile {
  std::string manifest_path;                         //!< 500
  int64_t manifest_length = 0;                       //!< 501
  int32_t partition_spec_id = 0;                     //!< 502
  ManifestContent content = ManifestContent::kData;  //!< 517
  //! 515; nullopt = not yet assigned: the list writer writes the snapshot's number.
  std::optional<int64_t> sequence_number;
  //! 516; nullopt = not yet assigned (all entries new): the snapshot's number.
  std::optional<int64_t> min_sequence_number;
  int64_t added_snapshot_id = 0;                  //!< 503
  int32_t added_files_count = 0;                  //!< 504
  int32_t existing_files_count = 0;               //!< 505
  int32_t deleted_files_count = 0;                //!< 506
  int64_t added_rows_count = 0;                   //!< 512
  int64_t existing_rows_count = 0;                //!< 513
  int64_t deleted_rows_count = 0;                 //!< 514
  std::vector<PartitionFieldSummary> partitions;  //!< 507, one per partition field
  std::optional<std::string> key_metadata;        //!< 519
  friend bool operator==(const ManifestFile&, const ManifestFile&) = default;
};

//! The Avro schema JSON of a v2 manifest list (field ids per the spec).
const std::string& ManifestListAvroSchema();

struct ManifestListOptions {
  int64_t snapshot_id = 0;
  std::optional<int64_t> parent_snapshot_id;
  //! The snapshot's sequence number; replaces unassigned manifest sequence numbers.
  int64_t sequence_number = 0;
  avro::Codec codec = avro::Codec::kDeflate;
};

//! Encodes a v2 manifest list file (metadata: snapshot-id, parent-snapshot-id,
//! sequence-number, format-version).
Result<std::string> WriteManifestList(std::span<const ManifestFile> manifests,
                                      const ManifestListOptions& options);

//! Decodes a manifest list (v1 or v2; v1 lists get content data and sequence numbers 0).
//! `name` labels errors (the file's location).
Result<std::vector<ManifestFile>> ReadManifestList(std::string data, const std::string& name);

}  // namespace databox::iceberg
