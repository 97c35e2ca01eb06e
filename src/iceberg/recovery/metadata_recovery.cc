#include "iceberg/recovery/metadata_recovery.h"

#include <algorithm>

#include "iceberg/metadata/metadata_files.h"
#include "iceberg/metadata/metadata_json.h"
#include "iceberg/table.h"

namespace databox::iceberg {
namespace {

struct Parsed {
  std::string location;
  TableMetadata metadata;
};

//! Ok when every file in `files` exists; else names the first missing one as `what`.
Status RequireFiles(fileio::FileIO& io, std::span<const DataFile> files, std::string_view what) {
  for (const DataFile& file : files) {
    DATABOX_ASSIGN_OR_RETURN(bool exists, io.Exists(file.file_path));
    if (!exists) {
      return MakeError(ErrorKind::kNotFound, "its current snapshot's " + std::string(what) + " " +
                                                 file.file_path + " is missing");
    }
  }
  return Ok();
}

Status CheckMetadataLog(const std::string& location, const TableMetadata& metadata) {
  const std::optional<int> version = MetadataVersion(location);
  for (const MetadataLogEntry& entry : metadata.metadata_log) {
    if (entry.metadata_file == location) {
      return MakeError(ErrorKind::kData, "its metadata-log names the file itself");
    }
    const std::optional<int> logged = MetadataVersion(entry.metadata_file);
    if (version && logged && *logged >= *version) {
      return MakeError(ErrorKind::kData, "its metadata-log names version " +
                                             std::to_string(*logged) + ", not older than its own " +
                                             std::to_string(*version));
    }
  }
  return Ok();
}

Status CheckSequenceNumbers(const TableMetadata& metadata) {
  for (const Snapshot& snapshot : metadata.snapshots) {
    if (snapshot.sequence_number > metadata.last_sequence_number) {
      return MakeError(ErrorKind::kData, "snapshot " + std::to_string(snapshot.snapshot_id) +
                                             " has sequence number " +
                                             std::to_string(snapshot.sequence_number) +
                                             " above last-sequence-number " +
                                             std::to_string(metadata.last_sequence_number));
    }
  }
  return Ok();
}

}  // namespace

Status CheckMetadataConsistent(fileio::FileIO& io, const std::string& location,
                               const TableMetadata& metadata) {
  DATABOX_RETURN_IF_ERROR(metadata.Validate());
  DATABOX_RETURN_IF_ERROR(CheckMetadataLog(location, metadata));
  DATABOX_RETURN_IF_ERROR(CheckSequenceNumbers(metadata));
  const Snapshot* current = metadata.CurrentSnapshot();
  if (current == nullptr) return Ok();
  DATABOX_ASSIGN_OR_RETURN(bool has_list, io.Exists(current->manifest_list));
  if (!has_list) {
    return MakeError(ErrorKind::kNotFound, "its current snapshot's manifest list " +
                                               current->manifest_list + " is missing");
  }
  auto live = LiveFilesOf(io, current);
  if (!live) {
    return MakeError(live.error().kind,
                     "its current snapshot's manifests cannot be read: " + live.error().message);
  }
  DATABOX_RETURN_IF_ERROR(RequireFiles(io, live->data, "data file"));
  return RequireFiles(io, live->deletes, "delete file");
}

Result<MetadataChoice> ChooseMetadataFile(fileio::FileIO& io,
                                          std::span<const std::string> metadata_files,
                                          const std::set<std::string>& marker_confirmed,
                                          const MetadataChoiceOptions& options) {
  MetadataChoice choice;
  std::vector<Parsed> parsed;
  std::set<std::string> logged;  // every file some metadata-log names: committed
  for (const std::string& location : metadata_files) {
    auto text = io.Read(location);
    auto metadata = text ? ParseTableMetadata(*text) : std::unexpected(text.error());
    if (!metadata) {
      choice.refused.push_back({location, "unreadable: " + metadata.error().message});
      continue;
    }
    for (const MetadataLogEntry& entry : metadata->metadata_log) logged.insert(entry.metadata_file);
    parsed.push_back({location, std::move(*metadata)});
  }
  std::ranges::sort(parsed, [](const Parsed& a, const Parsed& b) {
    if (a.metadata.last_updated_ms != b.metadata.last_updated_ms) {
      return a.metadata.last_updated_ms > b.metadata.last_updated_ms;
    }
    return MetadataVersion(a.location).value_or(-1) > MetadataVersion(b.location).value_or(-1);
  });
  for (Parsed& candidate : parsed) {
    std::string confirmed_by;
    if (logged.contains(candidate.location)) {
      confirmed_by = "metadata-log";
    } else if (marker_confirmed.contains(candidate.location)) {
      confirmed_by = "commit marker";
    } else if (options.include_unconfirmed) {
      confirmed_by = "unconfirmed (opted in)";
    } else {
      choice.refused.push_back({candidate.location,
                                "unconfirmed: written by a commit that may not have landed (no "
                                "commit marker or later metadata-log names it)",
                                /*unconfirmed=*/true});
      continue;
    }
    if (auto consistent = CheckMetadataConsistent(io, candidate.location, candidate.metadata);
        !consistent) {
      choice.refused.push_back({candidate.location, "incomplete: " + consistent.error().message});
      continue;
    }
    choice.location = candidate.location;
    choice.confirmed_by = std::move(confirmed_by);
    choice.metadata = std::move(candidate.metadata);
    break;
  }
  return choice;
}

}  // namespace databox::iceberg
