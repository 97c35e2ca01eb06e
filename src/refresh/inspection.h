// Inspection: after a source loaded, its authoritative tables are read back from the catalog.
#pragma once

#include <string>
#include <vector>

#include "load/workspace.h"
#include "registry/model.h"

namespace databox::refresh {

//! Problems with `source` after the load `load_id` (empty = passed): every table of every
//! enabled resource (root and declared child tables) exists with a current snapshot, and
//! raw_<source>._dlt_load_status holds `load_id` with status 0.
std::vector<std::string> InspectSource(load::Workspace& workspace, const registry::Source& source,
                                       const std::string& load_id);

}  // namespace databox::refresh
