#include "cli/command_line.h"

#include <algorithm>
#include <cctype>
#include <memory>
#include <optional>
#include <utility>

#include "cli/cli.h"
#include "cli/output.h"
#include "common/edit_distance.h"
#include "duck/version.h"

namespace databox::cli {

const char* DataboxVersion() { return "0.1.0"; }

namespace {

constexpr const char* kDescription =
    "Databox loads public environmental data into Apache Iceberg tables and runs SQLMesh\n"
    "models over them in DuckDB.";
constexpr const char* kFooter =
    "`databox COMMAND --help` or `databox help COMMAND` shows a command's options.\n"
    "\n"
    "Exit codes: 0 success, 1 a run failed (source, inspection or transform),\n"
    "2 usage, configuration or preflight error, 130 (Ctrl-C) or 143 (SIGTERM) a `run`,\n"
    "`refresh` or `transform` stopped by that signal (its run is recorded as interrupted).";
constexpr const char* kConfigHelp = "the registry (default: $DATABOX_CONFIG, else ./databox.toml)";
constexpr std::size_t kHelpColumn = 32;

//! CLI11's help layout, with a blank line between a command's description and its usage line.
class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_description(const CLI::App* app) const override {
    std::string text = CLI::Formatter::make_description(app);
    return text.empty() ? text : text + "\n";
  }
};

//! "databox catalog bootstrap" for the bootstrap subcommand.
std::string FullName(const CLI::App& app) {
  std::string name = app.get_name();
  for (const CLI::App* up = app.get_parent(); up != nullptr; up = up->get_parent()) {
    name = up->get_name() + " " + name;
  }
  return name;
}

const CLI::App* FindSubcommand(const CLI::App& app, const std::string& name) {
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (sub->get_name() == name) return sub;
  }
  return nullptr;
}

//! Every (sub)command `app` and its subcommands accept --config; they are listed as commands.
void DeclareConfig(CLI::App& app, GlobalOptions& global) {
  app.add_option("--config", global.config_path, kConfigHelp)->option_text("FILE");
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    sub->group("Commands");
    DeclareConfig(*sub, global);
  }
}

//! The app and the subcommands the command line chose, outermost first.
std::vector<const CLI::App*> Chosen(const CLI::App& app) {
  std::vector<const CLI::App*> chain = {&app};
  while (!chain.back()->get_subcommands().empty()) {
    chain.push_back(chain.back()->get_subcommands().front());
  }
  return chain;
}

//! The first argument `app` took no declaration for, if any.
std::optional<std::string> FirstLeftOver(const CLI::App& app) {
  for (const std::string& arg : app.remaining()) {
    if (arg != "--") return arg;
  }
  return std::nullopt;
}

//! The names of `app`'s subcommands.
std::vector<std::string> SubcommandNames(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
  return names;
}

std::string Unexpected(const CLI::App& app, const std::string& arg) {
  if (arg.size() > 1 && arg.front() == '-') return "unknown option '" + arg + "'";
  if (!app.get_subcommands({}).empty()) {
    return "unknown command '" + arg + "'" + DidYouMean(arg, SubcommandNames(app));
  }
  return "unexpected argument '" + arg + "'";
}

}  // namespace

CommandLine::CommandLine(GlobalOptions defaults)
    : app_(kDescription, "databox"), global_(std::move(defaults)) {
  // Subcommands inherit these settings, so they come first.
  app_.formatter(std::make_shared<HelpFormatter>());
  app_.get_formatter()->column_width(kHelpColumn);
  app_.get_formatter()->label("SUBCOMMAND", "COMMAND");
  app_.set_help_flag("-h,--help", "show this help and exit");
  app_.option_defaults()->disable_flag_override();  // --json=yes is an error, as before
  app_.require_subcommand(0, 1);
  for (const Command& command : AllCommands()) {
    CLI::App* sub = app_.add_subcommand(command.name, command.summary);
    sub->footer(command.description);
    runners_[sub] = command.declare(*sub);
  }
  CLI::App* help = app_.add_subcommand(
      "help", "Show the help of databox or of COMMAND (as `databox COMMAND --help`)");
  help->add_option("COMMAND", help_path_, "the command: `run`, `catalog bootstrap`, ...");
  help_ = help;
  DeclareConfig(app_, global_);
  app_.set_version_flag(
      "--version",
      [] {
        return std::string("databox ") + DataboxVersion() + " (DuckDB " + duck::LibraryVersion() +
               ")";
      },
      "print the Databox and DuckDB versions");
  app_.footer(kFooter);
}

ExitCode CommandLine::Run(std::vector<std::string> args) {
  std::reverse(args.begin(), args.end());  // CLI11 takes the last argument first
  try {
    app_.parse(args);
  } catch (const CLI::CallForHelp&) {
    Out(app_.help());  // the help of the innermost chosen command
    return ExitCode::kOk;
  } catch (const CLI::CallForVersion& version) {
    Out(std::string(version.what()) + "\n");
    return ExitCode::kOk;
  } catch (const CLI::ParseError& error) {
    return UsageError(error);
  }
  const std::vector<CLI::App*> chosen = app_.get_subcommands();
  if (chosen.empty()) {
    Err(app_.help());
    return ExitCode::kUsage;
  }
  if (chosen.front() == help_) return Help(help_path_);
  return runners_.at(chosen.front())(global_);
}

ExitCode CommandLine::Help(const std::vector<std::string>& path) const {
  const CLI::App* app = &app_;
  for (const std::string& name : path) {
    const CLI::App* sub = FindSubcommand(*app, name);
    if (sub == nullptr) {
      Err("databox help: unknown command '" + name + "'" + DidYouMean(name, SubcommandNames(*app)) +
          " (see `" + FullName(*app) + " --help`)\n");
      return ExitCode::kUsage;
    }
    app = sub;
  }
  // What app_.help() prints for `databox PATH --help`.
  Out(app->get_formatter()->make_help(app, FullName(*app), CLI::AppFormatMode::Normal));
  return ExitCode::kOk;
}

ExitCode CommandLine::UsageError(const CLI::ParseError& error) const {
  const std::vector<const CLI::App*> chosen = Chosen(app_);
  const CLI::App* where = chosen.back();
  std::string problem = error.what();
  // An argument nothing took explains the error best (a required positional may be missing
  // because an unknown option stood in its place), so it is named first.
  for (const CLI::App* app : chosen) {
    if (auto arg = FirstLeftOver(*app)) {
      where = app;
      problem = Unexpected(*app, *arg);
      break;
    }
  }
  // CLI11 writes "A subcommand is required": lower case follows ": " (but "SOURCE is ...").
  if (problem.size() > 1 && std::isupper(static_cast<unsigned char>(problem[0])) &&
      !std::isupper(static_cast<unsigned char>(problem[1]))) {
    problem[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(problem[0])));
  }
  const std::string name = FullName(*where);
  Err(name + ": " + problem + " (see `" + name + " --help`)\n");
  return ExitCode::kUsage;
}

}  // namespace databox::cli
