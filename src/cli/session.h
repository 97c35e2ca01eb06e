// What most commands start from: the registry loaded from --config and the workspace opened.
#pragma once

#include <memory>
#include <optional>

#include "cli/command.h"
#include "common/error.h"
#include "load/workspace.h"
#include "load/workspace_lock.h"
#include "registry/model.h"

namespace databox::cli {

struct Session {
  registry::Registry registry;
  std::optional<load::WorkspaceLock> lock;     //!< held while the session lives (before workspace)
  std::unique_ptr<load::Workspace> workspace;  //!< points into `registry`
};

//! Loads the registry and opens the workspace; on failure prints the problem prefixed with
//! "databox <command>: " and returns nullptr (the caller exits 2). With `use`, takes the
//! workspace lock first (load/workspace_lock.h); refused, it prints why, ending "nothing was
//! started", and opens nothing.
std::unique_ptr<Session> OpenSession(const GlobalOptions& global, const std::string& command,
                                     std::optional<load::WorkspaceUse> use = std::nullopt);

}  // namespace databox::cli
