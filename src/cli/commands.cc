#include "cli/commands.h"

#include <charconv>
#include <string>

#include "cli/command.h"

namespace databox::cli {

std::vector<Command> AllCommands() {
  std::vector<Command> commands;
  commands.push_back(InitCommand());
  commands.push_back(ValidateCommand());
  commands.push_back(SourcesCommand());
  commands.push_back(RunCommand());
  commands.push_back(IngestCommand());
  commands.push_back(RefreshCommand());
  commands.push_back(TransformCommand());
  commands.push_back(StatusCommand());
  commands.push_back(RunsCommand());
  commands.push_back(ReportCommand());
  commands.push_back(ServeCommand());
  commands.push_back(LoadsCommand());
  commands.push_back(InspectCommand());
  commands.push_back(QueryCommand());
  commands.push_back(CatalogCommand());
  commands.push_back(MaintainCommand());
  commands.push_back(PublishCommand());
  commands.push_back(CompletionCommand());
  return commands;
}

CLI::Validator WholeNumberAtLeastOne() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        int value = 0;
        const char* end = text.data() + text.size();
        auto [rest, ec] = std::from_chars(text.data(), end, value);
        if (ec != std::errc() || rest != end || value < 1) {
          return "'" + text + "' is not a whole number >= 1";
        }
        return "";
      },
      "N>=1");
}

}  // namespace databox::cli
