#include "iceberg/produce/produce_attempt.h"

#include <utility>

#include "fileio/location.h"
#include "iceberg/produce/snapshot_producer.h"

namespace databox::iceberg {

Result<ProduceAttempt> ProduceAttempt::Start(const TableMetadata& base, int64_t snapshot_id,
                                             int number) {
  const Schema* schema = base.CurrentSchema();
  const PartitionSpec* default_spec = base.DefaultSpec();
  if (schema == nullptr || default_spec == nullptr) {
    return MakeError(ErrorKind::kData, "table " + base.location + " has no current schema or spec");
  }
  return ProduceAttempt(base, *schema, *default_spec, snapshot_id, number);
}

ProduceAttempt::ProduceAttempt(const TableMetadata& base, const Schema& schema,
                               const PartitionSpec& spec, int64_t snapshot_id, int number)
    : base_(&base),
      schema_(&schema),
      default_spec_(&spec),
      snapshot_id_(snapshot_id),
      number_(number),
      metadata_dir_(fileio::JoinLocation(base.location, "metadata")) {}

std::string ProduceAttempt::NewManifestLocation() const {
  return fileio::JoinLocation(metadata_dir_, NewUuid() + "-m" + std::to_string(number_) + ".avro");
}

Result<ManifestFile> ProduceAttempt::EncodeReusedManifest(const std::vector<ManifestEntry>& entries,
                                                          ManifestContent content) {
  return EncodeManifestFile(NewManifestLocation(), *schema_, *default_spec_, snapshot_id_, entries,
                            pending_, content);
}

Result<ManifestFile> ProduceAttempt::EncodeManifest(const PartitionSpec& spec,
                                                    const std::vector<ManifestEntry>& entries,
                                                    ManifestContent content) {
  const std::string location = NewManifestLocation();
  DATABOX_ASSIGN_OR_RETURN(
      ManifestFile file,
      EncodeManifestFile(location, *schema_, spec, snapshot_id_, entries, pending_, content));
  files_.push_back(location);
  return file;
}

Result<std::string> ProduceAttempt::WriteAll(fileio::FileIO& io,
                                             const std::vector<ManifestFile>& manifests,
                                             const Snapshot& snapshot) {
  const std::string list_location =
      fileio::JoinLocation(metadata_dir_, "snap-" + std::to_string(snapshot_id_) + "-" +
                                              std::to_string(number_) + "-" + NewUuid() + ".avro");
  ManifestListOptions list_options{.snapshot_id = snapshot_id_,
                                   .parent_snapshot_id = snapshot.parent_snapshot_id,
                                   .sequence_number = snapshot.sequence_number,
                                   .codec = avro::Codec::kDeflate};
  DATABOX_ASSIGN_OR_RETURN(std::string list_bytes, WriteManifestList(manifests, list_options));
  pending_.push_back({list_location, std::move(list_bytes)});
  if (auto written = io.WriteNewBatch(pending_); !written) {
    // Nothing of this attempt is referenced: remove what did get written.
    for (const auto& object : pending_) (void)io.Delete(object.location);
    return std::unexpected(written.error());
  }
  files_.push_back(list_location);
  return list_location;
}

}  // namespace databox::iceberg
