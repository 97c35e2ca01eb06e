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
  commands.push_back(Command{
      CommandSpec{"catalog",
                  "Catalog administration",
                  "databox catalog bootstrap",
                  "bootstrap: create the Polaris catalog, catalog role and grants (idempotent).",
                  {},
                  1,
                  1},
      nullptr, "the Polaris management client is issue #6"});
  return commands;
}

}  // namespace databox::cli
