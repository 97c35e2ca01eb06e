// The live display as a user sees it: the built binary on a pseudo-terminal, so it believes it
// draws on a terminal. Frames move while sources extract, a failing source's error shows up as
// it happens (before the summary), elapsed times are drawn, and colour follows NO_COLOR.
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "cli/example_project_test_support.h"
#include "common/test_paths.h"

namespace {

namespace fs = std::filesystem;
namespace test_paths = databox::test_paths;
using databox::cli::testing::Contains;
using databox::cli::testing::CopyRecordingsWithFailingSource;
using databox::cli::testing::ExampleProjectTest;
using databox::cli::testing::kRecordings;

struct PtyRun {
  int exit_code = -1;
  std::string screen;  //!< everything written to the terminal, escapes included
};

//! Runs the built databox with `args` on a new pseudo-terminal (120 columns) with `env` added.
PtyRun RunOnPty(const std::vector<std::string>& args, const std::vector<std::string>& env,
                const fs::path& cwd) {
  PtyRun result;
  int master = -1;
  struct winsize size {};
  size.ws_col = 120;
  size.ws_row = 40;
  const std::string& binary = test_paths::DataboxBinary();
  const pid_t pid = ::forkpty(&master, nullptr, nullptr, &size);
  if (pid < 0) return result;
  if (pid == 0) {
    if (::chdir(cwd.c_str()) != 0) ::_exit(126);
    ::unsetenv("NO_COLOR");
    ::setenv("TERM", "xterm", 1);
    for (const std::string& entry : env) ::putenv(::strdup(entry.c_str()));
    std::vector<char*> argv{const_cast<char*>(binary.c_str())};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(binary.c_str(), argv.data());
    ::_exit(127);
  }
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(master, buffer, sizeof buffer);
    if (n <= 0) break;  // EIO once the child has closed the terminal
    result.screen.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(master);
  int status = 0;
  ::waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

class LiveDisplay : public ExampleProjectTest {
 protected:
  PtyRun Databox(const std::vector<std::string>& args, const std::vector<std::string>& env = {}) {
    return RunOnPty(Args(args), env, dir_);
  }
};

TEST_F(LiveDisplay, FramesMoveDuringExtractionAndAFailureShowsBeforeTheSummary) {
  recordings_ = dir_ / "recordings";
  CopyRecordingsWithFailingSource(kRecordings, recordings_, "noaa");
  WriteRegistry();
  PtyRun r = Databox({"refresh", "--skip-transform", "--source", "gbif", "--source", "noaa",
                      "--max-workers", "1"});
  EXPECT_EQ(r.exit_code, 1) << r.screen;
  const auto summary = r.screen.find("\nrun ");
  ASSERT_NE(summary, std::string::npos) << r.screen;
  const std::string live = r.screen.substr(0, summary);
  // A frame drawn while gbif was still extracting, after its first response: requests moved.
  EXPECT_TRUE(std::regex_search(
      live, std::regex(R"(gbif +\x1b\[33mrunning \d+s\x1b\[0m +extract +requests=1 )")))
      << live;
  // noaa's error is on screen before the summary, with the phase it failed in.
  EXPECT_TRUE(std::regex_search(live, std::regex(R"(noaa.*FAILED.* \[extract\] .*500)"))) << live;
  // gbif ended with its elapsed time and the rows it wrote, in green.
  EXPECT_TRUE(
      std::regex_search(live, std::regex(R"(\x1b\[32mdone \d+\.\d{3}s\x1b\[0m.* rows=\d+)")))
      << live;
}

TEST_F(LiveDisplay, NoColourWithNoColorSet) {
  WriteRegistry();
  PtyRun r = Databox({"run", "gbif"}, {"NO_COLOR=1"});
  EXPECT_EQ(r.exit_code, 0) << r.screen;
  EXPECT_TRUE(std::regex_search(r.screen, std::regex(R"(gbif +done \d+\.\d{3}s .* rows=\d+)")))
      << r.screen;
  EXPECT_FALSE(Contains(r.screen, "\x1b[32m")) << r.screen;
  EXPECT_FALSE(Contains(r.screen, "\x1b[0m")) << r.screen;
}

}  // namespace
