#include "cli/cli.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/output.h"
#include "duck/version.h"

namespace databox::cli {
namespace {

constexpr const char* kVersion = "0.1.0";

std::string TopLevelHelp(const std::vector<Command>& commands) {
  std::string out =
      "Usage: databox [--config FILE] COMMAND [options]\n"
      "\n"
      "Databox loads public environmental data into Apache Iceberg tables and runs SQLMesh\n"
      "models over them in DuckDB.\n"
      "\n"
      "Commands:\n";
  for (const auto& c : commands) {
    std::string name = c.spec.name;
    out += "  " + name + std::string(10 - name.size(), ' ') + c.spec.summary +
           (c.run ? "" : " [not built yet]") + "\n";
  }
  out +=
      "\n"
      "Global options:\n"
      "  --config FILE  the registry (default: $DATABOX_CONFIG, else ./databox.toml)\n"
      "  --version      print the Databox and DuckDB versions\n"
      "  --help         show this help; `databox COMMAND --help` for a command\n"
      "\n"
      "Exit codes: 0 success, 1 a run failed (source, inspection or transform),\n"
      "2 usage, configuration or preflight error.\n";
  return out;
}

//! The command line's exit code.
ExitCode Dispatch(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  GlobalOptions global;
  if (const char* env = std::getenv("DATABOX_CONFIG"); env != nullptr && *env != '\0') {
    global.config_path = env;
  }
  const std::vector<Command> commands = AllCommands();

  std::size_t i = 0;
  for (; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--help" || arg == "-h") {
      Out(TopLevelHelp(commands));
      return ExitCode::kOk;
    }
    if (arg == "--version") {
      Out(std::string("databox ") + kVersion + " (DuckDB " + duck::LibraryVersion() + ")\n");
      return ExitCode::kOk;
    }
    if (arg == "--config") {
      if (i + 1 >= args.size()) {
        Err("databox: --config needs a FILE\n");
        return ExitCode::kUsage;
      }
      global.config_path = args[++i];
      continue;
    }
    if (arg.rfind("--config=", 0) == 0) {
      global.config_path = arg.substr(9);
      continue;
    }
    break;
  }
  if (i >= args.size()) {
    Err(TopLevelHelp(commands));
    return ExitCode::kUsage;
  }
  const std::string name = args[i];
  for (const auto& command : commands) {
    if (command.spec.name != name) continue;
    std::vector<std::string> rest(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
    auto parsed = ParseArgs(command.spec, rest);
    if (!parsed) {
      Err("databox " + name + ": " + parsed.error().message + "\n");
      return ExitCode::kUsage;
    }
    if (parsed->Has("help")) {
      Out(FormatCommandHelp(command.spec));
      return ExitCode::kOk;
    }
    if (!command.run) {
      Err("databox " + name + ": not built yet (" + command.not_built_reason + ")\n");
      return ExitCode::kUsage;
    }
    return command.run(global, *parsed);
  }
  Err("databox: unknown command '" + name + "' (see `databox --help`)\n");
  return ExitCode::kUsage;
}

}  // namespace

int Main(int argc, char** argv) { return ExitCodeNumber(Dispatch(argc, argv)); }

}  // namespace databox::cli
