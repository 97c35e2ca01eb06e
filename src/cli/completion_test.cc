// The bash completion script is made from the declarations: every command, option and value
// kind of the tree appears in it, and nothing else.
#include "cli/completion.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "cli/command_line.h"

namespace databox::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(BashCompletionScriptTest, ListsTheTreesCommandsOptionsAndValueKinds) {
  CLI::App root("a tool", "tool");
  std::string text;
  bool flag = false;
  root.add_option("--config", text)->option_text("FILE");
  CLI::App* run = root.add_subcommand("run", "runs");
  run->add_option("SOURCE", text);
  run->add_option("-f,--file", text)->option_text("PATH");
  run->add_option("--to", text)->option_text("DIR");
  run->add_option("--limit", text)->option_text("N");
  run->add_flag("--json", flag);
  CLI::App* catalog = root.add_subcommand("catalog", "catalogs");
  catalog->add_subcommand("list", "lists")->add_option("OUT_DIR", text);
  root.add_subcommand("secret", "hidden")->group("");

  const std::string script = BashCompletionScript(root);
  EXPECT_THAT(script, HasSubstr("    '') echo 'run catalog' ;;\n"));
  EXPECT_THAT(script, HasSubstr("    'catalog') echo 'list' ;;\n"));
  EXPECT_THAT(script, HasSubstr("    'run') echo '-h --help -f --file --to --limit --json' ;;\n"));
  EXPECT_THAT(script, HasSubstr("    '|--config') echo file ;;\n"));
  EXPECT_THAT(script, HasSubstr("    'run|-f') echo file ;;\n"));
  EXPECT_THAT(script, HasSubstr("    'run|--file') echo file ;;\n"));
  EXPECT_THAT(script, HasSubstr("    'run|--to') echo dir ;;\n"));
  EXPECT_THAT(script, HasSubstr("    'run|--limit') echo value ;;\n"));
  EXPECT_THAT(script, HasSubstr("    'run|--json') echo flag ;;\n"));
  EXPECT_THAT(script, HasSubstr("    'run') echo 'value' ;;\n"));  // SOURCE: not completed
  EXPECT_THAT(script, HasSubstr("    'catalog list') echo 'dir' ;;\n"));
  EXPECT_THAT(script, HasSubstr("\n_tool() {\n"));
  EXPECT_THAT(script, HasSubstr("\ncomplete -F _tool tool\n"));
  EXPECT_THAT(script, Not(HasSubstr("secret")));
  EXPECT_THAT(script, Not(HasSubstr("PROGRAM")));
}

TEST(BashCompletionScriptTest, TheRealCommandLineHasEveryCommandAndOption) {
  const CommandLine line(GlobalOptions{});
  const std::string script = BashCompletionScript(line.app());
  std::string commands;
  for (const CLI::App* command : line.app().get_subcommands({})) {
    commands += (commands.empty() ? "" : " ") + command->get_name();
    for (const CLI::Option* option : command->get_options()) {
      for (const std::string& name : option->get_lnames()) {
        EXPECT_NE(script.find("'" + command->get_name() + "|--" + name + "')"), std::string::npos)
            << name;
      }
    }
  }
  EXPECT_NE(script.find("    '') echo '" + commands + "' ;;\n"), std::string::npos) << commands;
  EXPECT_NE(script.find("    'catalog') echo 'bootstrap backup restore recover list describe' ;;\n"),
            std::string::npos);
  EXPECT_THAT(script, HasSubstr("    'refresh|--skip-transform') echo flag ;;\n"));
  EXPECT_THAT(script, HasSubstr("    'query|--file') echo file ;;\n"));
  EXPECT_THAT(script, HasSubstr("    'catalog backup|--to') echo dir ;;\n"));
  EXPECT_THAT(script, HasSubstr("    'init') echo 'dir' ;;\n"));
}

}  // namespace
}  // namespace databox::cli
