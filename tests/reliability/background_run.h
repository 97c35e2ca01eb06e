// A `databox` started without waiting (test-only header): concurrent runs, kills while it
// works, and the processes it started.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/test_paths.h"
#include "harness.h"

namespace databox::reliability {

class BackgroundDatabox {
 public:
  //! Starts `databox --config <ws registry> args...` in `ws`'s folder with `env` added; stdout
  //! and stderr go to <ws>/<name>.out.
  BackgroundDatabox(const Workspace& ws, const std::vector<std::string>& args,
                    const std::string& name, const std::vector<std::string>& env = {})
      : out_(ws.dir() / (name + ".out")) {
    std::vector<std::string> argv = {test_paths::DataboxBinary(), "--config",
                                     (ws.dir() / "databox.toml").string()};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<std::string> full_env = {"DATABOX_VENV_DIR=" + test_paths::VenvDir()};
    full_env.insert(full_env.end(), env.begin(), env.end());
    pid_ = fork();
    if (pid_ == 0) {
      const int fd = open(out_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      dup2(fd, 1);
      dup2(fd, 2);
      if (chdir(ws.dir().c_str()) != 0) _exit(127);
      for (auto& e : full_env) putenv(e.data());
      std::vector<char*> raw;
      for (auto& a : argv) raw.push_back(a.data());
      raw.push_back(nullptr);
      execv(test_paths::DataboxBinary().c_str(), raw.data());
      _exit(127);
    }
  }
  ~BackgroundDatabox() {
    if (!exit_code_) {
      Kill();
      Wait();
    }
  }
  BackgroundDatabox(const BackgroundDatabox&) = delete;
  BackgroundDatabox& operator=(const BackgroundDatabox&) = delete;

  pid_t pid() const { return pid_; }
  //! Waits for the end: the exit status, or -1 when a signal ended it.
  int Wait() {
    if (!exit_code_) {
      int status = 0;
      waitpid(pid_, &status, 0);
      exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    return *exit_code_;
  }
  //! The exit status if it ended within `limit`.
  std::optional<int> WaitFor(std::chrono::milliseconds limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (!exit_code_) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        break;
      }
      if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return exit_code_;
  }
  void Kill() const { ::kill(pid_, SIGKILL); }
  //! Its output so far.
  std::string Output() const { return cli::testing::Slurp(out_); }

 private:
  std::filesystem::path out_;
  pid_t pid_ = -1;
  std::optional<int> exit_code_;
};

//! The parent pid of `pid` from /proc, or -1 when it is gone; a zombie counts as gone.
inline pid_t LiveParentOf(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  if (!std::getline(in, stat)) return -1;
  const auto close = stat.rfind(')');  // the command name may hold spaces and parentheses
  if (close == std::string::npos || close + 4 >= stat.size()) return -1;
  const char state = stat[close + 2];
  if (state == 'Z' || state == 'X') return -1;
  return static_cast<pid_t>(std::stol(stat.substr(close + 4)));
}

//! Living processes whose parent is `pid`.
inline std::vector<pid_t> ChildrenOf(pid_t pid) {
  std::vector<pid_t> children;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const pid_t candidate = static_cast<pid_t>(std::stol(name));
    if (LiveParentOf(candidate) == pid) children.push_back(candidate);
  }
  return children;
}

}  // namespace databox::reliability
