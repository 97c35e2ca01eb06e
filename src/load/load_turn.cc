#include "load/load_turn.h"

namespace databox::load {

Result<LoadTurn> TakeLoadTurn(const Workspace& workspace, const std::string& source) {
  // A second load of this name waits for nothing and fails here, before it fetches, stages or
  // commits anything.
  DATABOX_ASSIGN_OR_RETURN(SourceLock lock,
                           SourceLock::Acquire(SourceLocksDir(workspace.state_dir()), source));
  // Unfinished packages are marked, old ones go.
  DATABOX_ASSIGN_OR_RETURN(
      const LoadPackage::Settled settled,
      LoadPackage::Settle(workspace.loads_dir(), source,
                          workspace.registry().project.keep_load_packages - 1));
  return LoadTurn{std::move(lock), settled};
}

}  // namespace databox::load
