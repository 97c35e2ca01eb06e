// What most commands start from: the registry loaded from --config and the workspace opened.
#pragma once

#include <memory>

#include "cli/command.h"
#include "common/error.h"
#include "load/workspace.h"
#include "registry/model.h"

namespace databox::cli {

struct Session {
  registry::Registry registry;
  std::unique_ptr<load::Workspace> workspace;  //!< points into `registry`
};

//! Loads the registry and opens the workspace; on failure prints the problem prefixed with
//! "databox <command>: " and returns nullptr (the caller exits 2).
std::unique_ptr<Session> OpenSession(const GlobalOptions& global, const std::string& command);

}  // namespace databox::cli
