#include "cli/session.h"

#include "cli/output.h"
#include "platform/workspace.h"
#include "registry/registry.h"

namespace databox::cli {

std::unique_ptr<Session> OpenSession(const GlobalOptions& global, const std::string& command,
                                     std::optional<load::WorkspaceUse> use,
                                     const RegistryCheck& before_open) {
  auto session = std::make_unique<Session>();
  auto loaded = registry::LoadRegistry(global.config_path);
  if (!loaded) {
    Err("databox " + command + ": " + loaded.error().message + "\n");
    return nullptr;
  }
  session->registry = std::move(*loaded);
  if (before_open && !before_open(session->registry)) return nullptr;
  if (use) {
    auto lock = load::WorkspaceLock::Acquire(session->registry.project.state_dir, *use, command);
    if (!lock) {
      Err("databox " + command + ": " + lock.error().message + "; nothing was started\n");
      return nullptr;
    }
    session->lock = std::move(*lock);
  }
  auto workspace = platform::OpenWorkspace(session->registry);
  if (!workspace) {
    Err("databox " + command + ": " + workspace.error().message + "\n");
    return nullptr;
  }
  session->workspace = std::move(*workspace);
  return session;
}

bool PreflightPassed(const std::string& command, const std::vector<std::string>& problems) {
  if (problems.empty()) return true;
  Err("databox " + command + ": preflight failed; nothing was started:\n");
  for (const std::string& problem : problems) Err("  - " + problem + "\n");
  return false;
}

}  // namespace databox::cli
