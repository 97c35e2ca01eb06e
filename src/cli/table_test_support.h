// Iceberg values for the tests of what the CLI prints about tables (test-only header).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "iceberg/manifest/manifest.h"
#include "iceberg/metadata/snapshot.h"

namespace databox::cli::testing {

inline iceberg::Snapshot MakeSnapshot(int64_t id, int64_t millis,
                                      std::map<std::string, std::string> summary) {
  iceberg::Snapshot snapshot;
  snapshot.snapshot_id = id;
  snapshot.timestamp_ms = millis;
  snapshot.summary = std::move(summary);
  return snapshot;
}

inline iceberg::DataFile MakeDataFile(std::string path, int64_t records, int64_t bytes) {
  iceberg::DataFile file;
  file.file_path = std::move(path);
  file.record_count = records;
  file.file_size_in_bytes = bytes;
  return file;
}

}  // namespace databox::cli::testing
