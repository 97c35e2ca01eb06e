// The declarations behind `databox --help`: every command and option is described in one line.
#include "cli/command_line.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

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

}  // namespace
}  // namespace databox::cli
