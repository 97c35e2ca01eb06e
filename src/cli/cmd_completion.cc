// `databox completion SHELL`: prints the shell completion script made from the command tree
// (completion.h) on standard output.
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/completion.h"
#include "cli/output.h"
#include "common/exit_code.h"

namespace databox::cli {

Command CompletionCommand() {
  return Command{
      "completion", "Print the shell completion script (bash)",
      "Enable it in the current shell with `source <(databox completion bash)`, or for\n"
      "every new shell by saving it:\n"
      "  databox completion bash > ~/.local/share/bash-completion/completions/databox\n"
      "It completes commands, subcommands, options, and file or folder names where an\n"
      "option or argument takes a FILE, PATH or DIR (not source or table names). It is made\n"
      "from this binary's own commands, so it matches them.",
      [](CLI::App& app) -> Runner {
        auto shell = std::make_shared<std::string>();
        app.add_option("SHELL", *shell, "the shell: " + std::string(kCompletionShells))->required();
        const CLI::App* root = app.get_parent();  // the whole command line, parsed by then
        return [shell, root](const GlobalOptions&) {
          if (*shell != "bash") {
            Err("databox completion: shell '" + *shell +
                "' is not supported (supported: " + std::string(kCompletionShells) + ")\n");
            return ExitCode::kUsage;
          }
          Out(BashCompletionScript(*root));
          return ExitCode::kOk;
        };
      }};
}

}  // namespace databox::cli
