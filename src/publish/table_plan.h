// What publishing one raw table takes (docs/publish.md, "Raw tables"): the live entries of its
// current snapshot, read from the source's manifests with their sequence numbers, and for each
// data or delete file the shared location it gets at the target.
//
// Data files are copied byte for byte. Position delete files are rewritten (delete_rewrite.h):
// their rows name data files by location, so a verbatim copy would name the publisher's
// warehouse and delete nothing at the target.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"
#include "fileio/file_io.h"
#include "iceberg/manifest/manifest.h"
#include "iceberg/metadata/table_metadata.h"
#include "iceberg/spec/table_identifier.h"
#include "publish/layout.h"

namespace databox::publish {

//! The live entries of one source manifest.
struct ManifestGroup {
  int32_t partition_spec_id = 0;
  iceberg::ManifestContent content = iceberg::ManifestContent::kData;
  std::vector<iceberg::ManifestEntry> entries;  //!< sequence numbers and snapshot ids explicit
};

struct TablePlan {
  std::string ns;
  std::string table;
  iceberg::TableMetadata metadata;  //!< the source's, as the catalog holds it
  std::vector<ManifestGroup> groups;
  //! Source location -> target location of every live data and delete file.
  std::map<std::string, std::string> targets;
  //! Live rows by the manifests: data records minus position deletes.
  int64_t rows = 0;
};

//! Reads the current snapshot's manifest list and manifests of `metadata` through `source_io`.
//! A table without a snapshot gets an empty plan.
Result<TablePlan> PlanTable(const iceberg::TableIdentifier& id,
                            const iceberg::TableMetadata& metadata, fileio::FileIO& source_io,
                            const Layout& layout);

}  // namespace databox::publish
