// Running the built `databox` binary from tests (test-only header).
#pragma once

#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "common/test_paths.h"

namespace databox::cli::testing {

namespace fs = std::filesystem;

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string Slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

//! Runs the program at `binary` (an absolute path) with `args` and extra environment entries
//! ("NAME=value") in `cwd`.
inline RunResult RunProgram(const std::string& binary, const std::vector<std::string>& args,
                            const std::vector<std::string>& env = {},
                            const fs::path& cwd = fs::current_path()) {
  const fs::path dir = fs::temp_directory_path() / ("databox_cli_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path out = dir / "out", err = dir / "err";
  pid_t pid = fork();
  if (pid == 0) {
    int fo = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int fe = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fo, 1);
    dup2(fe, 2);
    if (chdir(cwd.c_str()) != 0) _exit(127);
    for (const auto& e : env) putenv(const_cast<char*>(e.c_str()));
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(binary.c_str()));
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = Slurp(out);
  r.err = Slurp(err);
  fs::remove_all(dir);
  return r;
}

//! A copy of the recordings folder `from` (one folder per source) in `to`, in which every
//! response of `failing_source` is an HTTP 500.
inline void CopyRecordingsWithFailingSource(const fs::path& from, const fs::path& to,
                                            const std::string& failing_source) {
  for (const auto& entry : fs::directory_iterator(from)) {
    if (!entry.is_directory()) continue;
    const fs::path target = to / entry.path().filename();
    fs::create_directories(target);
    for (const auto& file : fs::directory_iterator(entry.path())) {
      std::string text = Slurp(file.path());
      if (entry.path().filename() == failing_source) {
        text = std::regex_replace(text, std::regex("code: 200"), "code: 500");
      }
      std::ofstream(target / file.path().filename()) << text;
    }
  }
}

//! Runs the built databox with `args` and extra environment entries ("NAME=value").
inline RunResult RunDatabox(const std::vector<std::string>& args,
                            const std::vector<std::string>& env = {},
                            const fs::path& cwd = fs::current_path()) {
  return RunProgram(test_paths::DataboxBinary(), args, env, cwd);
}

//! A fresh folder under the system temp dir, removed with its contents on destruction.
class TempFolder {
 public:
  explicit TempFolder(const std::string& prefix) {
    std::string pattern = (fs::temp_directory_path() / (prefix + "_XXXXXX")).string();
    if (::mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TempFolder() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;

  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

inline bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace databox::cli::testing
