#include "cli/commands.h"

#include "cli/command.h"

namespace databox::cli {

std::vector<Command> AllCommands() {
  std::vector<Command> commands;
  commands.push_back(ValidateCommand());
  commands.push_back(SourcesCommand());
  commands.push_back(RunCommand());
  commands.push_back(RefreshCommand());
  commands.push_back(StatusCommand());
  commands.push_back(InspectCommand());
  commands.push_back(QueryCommand());
  commands.push_back(CatalogCommand());
  commands.push_back(MaintainCommand());
  return commands;
}

}  // namespace databox::cli
