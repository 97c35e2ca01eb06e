// `databox completion bash` as a user's shell runs it: bash sources the script the built binary
// prints and calls the completion function with COMP_WORDS and COMP_CWORD set as bash sets them
// for a TAB at the end of the words; the test reads COMPREPLY.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli/binary_test_support.h"
#include "common/test_paths.h"

namespace {

namespace fs = std::filesystem;
namespace test_paths = databox::test_paths;
using databox::cli::testing::Contains;
using databox::cli::testing::RunDatabox;
using databox::cli::testing::RunProgram;
using databox::cli::testing::TempFolder;

//! `text` as one single-quoted bash word.
std::string ShellWord(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

//! What bash completes for the words `words` (the last one is the word being typed), run in
//! `cwd`: COMPREPLY, one entry a line, sorted.
std::string Complete(const std::vector<std::string>& words,
                     const fs::path& cwd = fs::current_path()) {
  std::string array;
  for (const std::string& word : words) array += " " + ShellWord(word);
  const std::string script =
      "source <(\"$DATABOX\" completion bash) || exit 3\n"
      "COMP_WORDS=(" +
      array +
      ")\n"
      "COMP_CWORD=" +
      std::to_string(words.size() - 1) +
      "\n"
      "COMP_LINE=\"${COMP_WORDS[*]}\"\nCOMP_POINT=${#COMP_LINE}\n"
      "_databox databox \"${COMP_WORDS[COMP_CWORD]}\" "
      "\"${COMP_WORDS[COMP_CWORD-1]}\" || exit 4\n"
      "printf '%s\\n' \"${COMPREPLY[@]}\" | LC_ALL=C sort\n";
  auto r = RunProgram("/bin/bash", {"--norc", "--noprofile", "-c", script},
                      {"DATABOX=" + test_paths::DataboxBinary()}, cwd);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  return r.out == "\n" ? "" : r.out;
}

TEST(CompletionBinary, CompletesCommandsAndSubcommands) {
  EXPECT_EQ(Complete({"databox", "ref"}), "refresh\n");
  EXPECT_EQ(Complete({"databox", "ca"}), "catalog\n");
  EXPECT_EQ(Complete({"databox", "catalog", ""}),
            "backup\nbootstrap\ndescribe\nlist\nrecover\nrestore\n");
  EXPECT_EQ(Complete({"databox", "runs", "s"}), "show\n");
  EXPECT_EQ(Complete({"databox", "loads", "re"}), "remove\n");
  // --config and its value may come first; `help` takes command names.
  EXPECT_EQ(Complete({"databox", "--config", "x.toml", "sta"}), "status\n");
  EXPECT_EQ(Complete({"databox", "help", "catalog", "b"}), "backup\nbootstrap\n");
  EXPECT_TRUE(Contains(Complete({"databox", ""}), "\ncompletion\n"));
}

TEST(CompletionBinary, CompletesTheOptionsOfTheCommandTyped) {
  EXPECT_EQ(Complete({"databox", "refresh", "--sk"}), "--skip-transform\n");
  EXPECT_EQ(Complete({"databox", "refresh", "--source", "noaa", "--j"}), "--json\n");
  EXPECT_EQ(Complete({"databox", "catalog", "backup", "--"}), "--config\n--help\n--to\n");
  EXPECT_EQ(Complete({"databox", "--co"}), "--config\n");
  EXPECT_EQ(Complete({"databox", "runs", "show", "--co"}), "--config\n");
  // A value that is not a file is not completed: no option offered in its place.
  EXPECT_EQ(Complete({"databox", "refresh", "--max-workers", ""}), "");
  // Without a positional left, a command's options are offered.
  EXPECT_TRUE(Contains(Complete({"databox", "status", ""}), "--json\n"));
}

TEST(CompletionBinary, CompletesFileNamesWhereAFileOrFolderIsTaken) {
  TempFolder dir("databox_completion");
  fs::create_directories(dir.path() / "models");
  std::ofstream(dir.path() / "my.toml") << "";
  std::ofstream(dir.path() / "query.sql") << "";
  EXPECT_EQ(Complete({"databox", "--config", "m"}, dir.path()), "models\nmy.toml\n");
  EXPECT_EQ(Complete({"databox", "status", "--config", "=", "my"}, dir.path()), "my.toml\n");
  EXPECT_EQ(Complete({"databox", "query", "-f", "q"}, dir.path()), "query.sql\n");
  EXPECT_EQ(Complete({"databox", "catalog", "backup", "--to", ""}, dir.path()), "models\n");
  EXPECT_EQ(Complete({"databox", "init", "mo"}, dir.path()), "models\n");
}

TEST(CompletionBinary, OnlyBashIsSupported) {
  auto zsh = RunDatabox({"completion", "zsh"});
  EXPECT_EQ(zsh.exit_code, 2);
  EXPECT_EQ(zsh.err, "databox completion: shell 'zsh' is not supported (supported: bash)\n");
  EXPECT_EQ(zsh.out, "");
  auto missing = RunDatabox({"completion"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_TRUE(Contains(missing.err, "SHELL is required")) << missing.err;
  auto help = RunDatabox({"completion", "--help"});
  EXPECT_TRUE(Contains(help.out, "source <(databox completion bash)")) << help.out;
}

}  // namespace
