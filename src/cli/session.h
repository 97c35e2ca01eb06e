// What most commands start from: the registry loaded from --config and the workspace opened.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

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

//! A check of the loaded registry before anything is opened or created: false (having printed
//! why) refuses the command.
using RegistryCheck = std::function<bool(const registry::Registry& registry)>;

//! Loads the registry and opens the workspace; on failure prints the problem prefixed with
//! "databox <command>: " and returns nullptr (the caller exits 2). With `use`, takes the
//! workspace lock first (load/workspace_lock.h); refused, it prints why, ending "nothing was
//! started", and opens nothing. `before_open` (when set) runs on the registry before the lock
//! and the workspace, which create the state folder: when it refuses nothing is created.
std::unique_ptr<Session> OpenSession(const GlobalOptions& global, const std::string& command,
                                     std::optional<load::WorkspaceUse> use = std::nullopt,
                                     const RegistryCheck& before_open = {});

//! Prints a refused preflight ("databox <command>: preflight failed; nothing was started:" and
//! one line per problem) on stderr; true when there is no problem.
bool PreflightPassed(const std::string& command, const std::vector<std::string>& problems);

}  // namespace databox::cli
