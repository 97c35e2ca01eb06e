// ProduceAttempt: what the steps of one SnapshotProducer::Produce call on one base share: the
// snapshot id, the current schema and default spec, where new manifests go, and the files the
// attempt encodes, which are written together at its end (FileIO::WriteNewBatch: one folder sync
// for all of them on local storage), after the manifest list.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/error.h"
#include "fileio/file_io.h"
#include "iceberg/manifest/manifest.h"
#include "iceberg/manifest/manifest_list.h"
#include "iceberg/metadata/snapshot.h"
#include "iceberg/metadata/table_metadata.h"

namespace databox::iceberg {

class ProduceAttempt {
 public:
  //! Attempt `number` (1 for the first) at snapshot `snapshot_id` on `base`, which must outlive
  //! it. kData when the base has no current schema or default spec.
  static Result<ProduceAttempt> Start(const TableMetadata& base, int64_t snapshot_id, int number);

  const TableMetadata& base() const { return *base_; }
  const Schema& schema() const { return *schema_; }
  int64_t snapshot_id() const { return snapshot_id_; }

  //! Encodes a manifest of `entries` under the default spec that later attempts reuse (the
  //! added files): written with this attempt's files but not one of them.
  Result<ManifestFile> EncodeReusedManifest(const std::vector<ManifestEntry>& entries,
                                            ManifestContent content);
  //! Encodes a manifest of `entries` under `spec` that only this attempt lists (a rewritten or
  //! merged manifest): one of its files().
  Result<ManifestFile> EncodeManifest(const PartitionSpec& spec,
                                      const std::vector<ManifestEntry>& entries,
                                      ManifestContent content = ManifestContent::kData);

  //! Writes the manifest list of `snapshot` listing `manifests`, together with every manifest
  //! encoded so far. On failure nothing written stays (what was written is removed). Returns
  //! the list's location, then one of files().
  Result<std::string> WriteAll(fileio::FileIO& io, const std::vector<ManifestFile>& manifests,
                               const Snapshot& snapshot);

  //! The files written for this base only (rewritten and merged manifests, the list).
  const std::vector<std::string>& files() const { return files_; }

 private:
  ProduceAttempt(const TableMetadata& base, const Schema& schema, const PartitionSpec& spec,
                 int64_t snapshot_id, int number);
  //! "<metadata>/<uuid>-m<attempt>.avro".
  std::string NewManifestLocation() const;

  const TableMetadata* base_;
  const Schema* schema_;
  const PartitionSpec* default_spec_;
  int64_t snapshot_id_;
  int number_;
  std::string metadata_dir_;
  std::vector<fileio::NewObject> pending_;  //!< encoded, written by WriteAll
  std::vector<std::string> files_;
};

}  // namespace databox::iceberg
