#include "common/process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <thread>

extern char** environ;

namespace databox {
namespace {

constexpr std::chrono::milliseconds kPollInterval{20};

bool IsExecutable(const std::filesystem::path& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

//! "NAME=value" strings: the inherited environment with `overrides` applied.
std::vector<std::string> MergedEnvironment(const std::map<std::string, std::string>& overrides) {
  std::vector<std::string> out;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string entry(*e);
    const std::string name = entry.substr(0, entry.find('='));
    if (!overrides.contains(name)) out.push_back(std::move(entry));
  }
  for (const auto& [name, value] : overrides) out.push_back(name + "=" + value);
  return out;
}

int ExitCodeOf(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

//! Waits for `pid` until `deadline`; true with the status when it ended.
bool WaitUntil(pid_t pid, std::chrono::steady_clock::time_point deadline, int& status) {
  while (true) {
    pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) return true;
    if (done < 0 && errno != EINTR) {
      status = 0;
      return true;
    }
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(kPollInterval);
  }
}

std::unexpected<Error> SpawnError(const std::string& what, const std::string& program, int err) {
  return MakeError(ErrorKind::kInternal,
                   "cannot start " + program + ": " + what + ": " + std::strerror(err));
}

}  // namespace

Result<std::filesystem::path> ResolveProgram(const std::string& program, const std::string& path,
                                             const std::string& hint) {
  if (program.find('/') != std::string::npos) return std::filesystem::path(program);
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    const std::string dir = path.substr(start, end - start);
    const std::filesystem::path candidate =
        std::filesystem::path(dir.empty() ? "." : dir) / program;
    if (IsExecutable(candidate)) return candidate;
    start = end + 1;
  }
  return MakeError(ErrorKind::kNotFound, "program '" + program + "' not found on PATH (" + path +
                                             ")" + (hint.empty() ? "" : ": " + hint));
}

Result<ProcessOutcome> RunProcess(const ProcessSpec& spec) {
  if (spec.argv.empty() || spec.argv.front().empty()) {
    return MakeError(ErrorKind::kConfig, "the " + spec.what + " command is empty");
  }
  const std::vector<std::string> env = MergedEnvironment(spec.env);
  std::string path_value;
  for (const auto& entry : env) {
    if (entry.starts_with("PATH=")) path_value = entry.substr(5);
  }
  DATABOX_ASSIGN_OR_RETURN(std::filesystem::path program,
                           ResolveProgram(spec.argv.front(), path_value, spec.not_found_hint));

  int log_fd = ::open(spec.log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (log_fd < 0) {
    return MakeError(ErrorKind::kIo, "cannot open the " + spec.what + " log " +
                                         spec.log_path.string() + ": " + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attr);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, log_fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, log_fd, STDERR_FILENO);
  posix_spawn_file_actions_addchdir_np(&actions, spec.cwd.c_str());
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);  // its own group, so a timeout stops its children too

  std::vector<char*> argv;
  for (const auto& arg : spec.argv) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (const auto& entry : env) envp.push_back(const_cast<char*>(entry.c_str()));
  envp.push_back(nullptr);

  pid_t pid = 0;
  int rc = ::posix_spawn(&pid, program.c_str(), &actions, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(log_fd);
  if (rc != 0) return SpawnError("posix_spawn", program.string(), rc);

  ProcessOutcome outcome;
  int status = 0;
  if (!WaitUntil(pid, spec.deadline, status)) {
    outcome.timed_out = true;
    ::kill(-pid, SIGTERM);
    if (!WaitUntil(pid, std::chrono::steady_clock::now() + spec.kill_grace, status)) {
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
    }
  }
  outcome.exit_code = ExitCodeOf(status);
  return outcome;
}

std::string FileTail(const std::filesystem::path& path, size_t max_bytes) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return "";
  const std::streamoff size = in.tellg();
  const std::streamoff start = size > static_cast<std::streamoff>(max_bytes)
                                   ? size - static_cast<std::streamoff>(max_bytes)
                                   : 0;
  in.seekg(start);
  std::string text(static_cast<size_t>(size - start), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (start > 0) {
    size_t newline = text.find('\n');
    if (newline != std::string::npos && newline + 1 < text.size()) text.erase(0, newline + 1);
  }
  return text;
}

}  // namespace databox
