// The composition root: turns a registry into the handles a load::Workspace holds (catalog,
// storage, sources). Drivers take plain option structs and never see the registry; the loader
// sees only interfaces. docs/architecture.md.
#pragma once

#include <memory>

#include "common/error.h"
#include "load/workspace.h"
#include "registry/model.h"

namespace databox::platform {

//! Creates the state folder if missing, opens the storage (storage.h) and the catalog: the
//! embedded SQLite one for `type = "sql"`, an Iceberg REST catalog (Polaris) for
//! `type = "rest"`; sources get HTTP clients from the registry (registry_sources.h).
//! `registry` must outlive the workspace.
Result<std::unique_ptr<load::Workspace>> OpenWorkspace(const registry::Registry& registry);

}  // namespace databox::platform
