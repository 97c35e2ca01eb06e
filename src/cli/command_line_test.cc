// The declarations behind `databox --help`: every command and option is described in one line.
#include "cli/command_line.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>
#include <vector>

#include "refresh/run_history.h"
#include "refresh/run_status.h"

namespace databox::cli {
namespace {

//! Every (sub)command under `app`, with the names they are called by.
void Collect(const CLI::App& app, const std::string& name,
             std::vector<std::pair<std::string, const CLI::App*>>& out) {
  out.emplace_back(name, &app);
  for (const CLI::App* sub : app.get_subcommands({})) {
    Collect(*sub, name + " " + sub->get_name(), out);
  }
}

std::vector<std::pair<std::string, const CLI::App*>> AllApps(const CommandLine& line) {
  std::vector<std::pair<std::string, const CLI::App*>> apps;
  Collect(line.app(), "databox", apps);
  return apps;
}

bool OneLine(const std::string& text) {
  return !text.empty() && text.find('\n') == std::string::npos;
}

TEST(CommandLine, DeclaresEveryCommandAndHelp) {
  CommandLine line(GlobalOptions{});
  std::set<std::string> declared;
  for (const CLI::App* sub : line.app().get_subcommands({})) declared.insert(sub->get_name());
  for (const Command& command : AllCommands()) {
    EXPECT_TRUE(declared.contains(command.name)) << command.name;
  }
  EXPECT_TRUE(declared.contains("help"));
  EXPECT_EQ(declared.size(), AllCommands().size() + 1);
}

TEST(CommandLine, EveryCommandAndOptionHasAOneLineDescription) {
  CommandLine line(GlobalOptions{});
  for (const auto& [name, app] : AllApps(line)) {
    if (app != &line.app()) {
      EXPECT_TRUE(OneLine(app->get_description())) << name;
    }
    for (const CLI::Option* option : app->get_options()) {
      EXPECT_TRUE(OneLine(option->get_description()))
          << name << " " << option->get_name() << ": '" << option->get_description() << "'";
    }
  }
}

TEST(CommandLine, EveryCommandAcceptsConfigAndHelp) {
  CommandLine line(GlobalOptions{});
  for (const auto& [name, app] : AllApps(line)) {
    EXPECT_NE(app->get_option_no_throw("--config"), nullptr) << name;
    EXPECT_NE(app->get_option_no_throw("-h"), nullptr) << name;
    EXPECT_NE(app->get_option_no_throw("--help"), nullptr) << name;
  }
}

//! The `databox NAME` of every (sub)command's help, by the name of the command whose help it is.
std::vector<std::pair<std::string, std::string>> CommandsNamed(const CommandLine& line) {
  static const std::regex kNamed("`databox ([a-z][a-z_-]*)");
  std::vector<std::pair<std::string, std::string>> named;
  for (const auto& [name, app] : AllApps(line)) {
    const std::string help = app->help();
    for (auto it = std::sregex_iterator(help.begin(), help.end(), kNamed);
         it != std::sregex_iterator(); ++it) {
      named.emplace_back(name, (*it)[1].str());
    }
  }
  return named;
}

std::set<std::string> NamedIn(const std::vector<std::pair<std::string, std::string>>& named,
                              const std::string& help_of) {
  std::set<std::string> out;
  for (const auto& [name, command] : named) {
    if (name == help_of) out.insert(command);
  }
  return out;
}

//! The first word of each item of a "phase ... (a, b, or c for ...)" list in `help`.
std::set<std::string> PhasesNamed(const std::string& help) {
  static const std::regex kList("phase[^(.\n]*\\(([^)]*)\\)");
  static const std::regex kItem("(?:^|,)\\s*(?:or\\s+)?([a-z_]+)");
  std::set<std::string> phases;
  for (auto list = std::sregex_iterator(help.begin(), help.end(), kList);
       list != std::sregex_iterator(); ++list) {
    const std::string items = (*list)[1].str();
    for (auto item = std::sregex_iterator(items.begin(), items.end(), kItem);
         item != std::sregex_iterator(); ++item) {
      phases.insert((*item)[1].str());
    }
  }
  return phases;
}

// Help cannot drift from the code: every `databox NAME` a help text names is a command, the
// commands that write the run history are the ones `runs` and `status` name, and the phases
// `runs show` lists are the phases a run record holds.
TEST(CommandLine, HelpNamesTheCommandsAndPhasesThatExist) {
  CommandLine line(GlobalOptions{});
  std::set<std::string> commands = {"help"};
  for (const Command& command : AllCommands()) commands.insert(command.name);
  const auto named = CommandsNamed(line);
  for (const auto& [name, command] : named) {
    EXPECT_TRUE(commands.contains(command)) << name << " --help names `databox " << command << "`";
  }
  const std::set<std::string> runs_names = NamedIn(named, "databox runs");
  for (std::string_view recorded : refresh::kRunCommands) {
    EXPECT_TRUE(commands.contains(std::string(recorded))) << recorded;
    EXPECT_TRUE(runs_names.contains(std::string(recorded)))
        << "databox runs --help does not name `databox " << recorded << "`";
  }
  for (const std::string& command : runs_names) {
    EXPECT_TRUE(std::ranges::find(refresh::kRunCommands, command) != refresh::kRunCommands.end())
        << "databox runs --help names `databox " << command << "`, which records no run";
  }
  // `status` shows the transform of the runs that have one.
  EXPECT_EQ(NamedIn(named, "databox status"), (std::set<std::string>{"refresh", "transform"}));

  std::set<std::string> phases;
  // The phases a source's run record names: all but the transform, which has a status of its own.
  for (load::Phase phase : load::kPhases) {
    if (phase != load::Phase::kTransform) phases.insert(std::string(load::PhaseName(phase)));
  }
  for (const auto& [name, app] : AllApps(line)) {
    for (const std::string& phase : PhasesNamed(app->help())) {
      EXPECT_TRUE(phases.contains(phase)) << name << " --help names a phase '" << phase << "'";
    }
  }
  const CLI::App* show = nullptr;
  for (const auto& [name, app] : AllApps(line)) {
    if (name == "databox runs show") show = app;
  }
  ASSERT_NE(show, nullptr);
  EXPECT_EQ(PhasesNamed(show->help()), phases);
}

}  // namespace
}  // namespace databox::cli
