// Writes one version's Iceberg metadata for a planned raw table (table_plan.h) at the target:
// its manifests (our manifest writer, every live entry EXISTING with its sequence numbers),
// the manifest list, v1.metadata.json and version-hint.text, all under
// <version folder>/tables/<ns>/<table>/metadata/. Every location they name is a target
// location: the table location, the manifest list, the manifests and the data and delete files.
// The metadata keeps the source's schemas, specs, sort orders, UUID and current snapshot (its
// id, sequence number, time and summary; no parent); the history before it, statistics files and
// properties naming the publisher's folders are left out.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/error.h"
#include "fileio/file_io.h"
#include "iceberg/manifest/manifest.h"
#include "publish/layout.h"
#include "publish/table_plan.h"

namespace databox::publish {

//! `deletes`: the rewritten delete files (delete_rewrite.h) by their source location.
//! `private_prefixes`: locations of the publisher (warehouse, state folder) no property or
//! summary value may name. Returns the metadata file's location.
Result<std::string> WriteTableMetadata(const TablePlan& plan,
                                       const std::map<std::string, iceberg::DataFile>& deletes,
                                       const std::vector<std::string>& private_prefixes,
                                       fileio::FileIO& target_io, const Layout& layout,
                                       int64_t version);

}  // namespace databox::publish
