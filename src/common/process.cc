#include "common/process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
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

//! Waits for `pid` until `deadline` (or until `stop` returns true, when given); true with the
//! status when it ended.
bool WaitUntil(pid_t pid, std::chrono::steady_clock::time_point deadline, int& status,
               const std::function<bool()>& stop = {}) {
  while (true) {
    pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) return true;
    if (done < 0 && errno != EINTR) {
      status = 0;
      return true;
    }
    if (std::chrono::steady_clock::now() >= deadline) return false;
    if (stop && stop()) return false;
    std::this_thread::sleep_for(kPollInterval);
  }
}

std::unexpected<Error> SpawnError(const std::string& what, const std::string& program, int err) {
  return MakeError(ErrorKind::kInternal,
                   "cannot start " + program + ": " + what + ": " + std::strerror(err));
}

//! The program's process (only system calls: the parent may have other threads): stdin
//! /dev/null, stdout and stderr to the log, its signal mask as databox had it, then exec.
[[noreturn]] void ExecProgram(const sigset_t& mask, int null_fd, int log_fd, int report_fd,
                              const char* cwd, const char* program, char* const argv[],
                              char* const envp[]) {
  ::sigprocmask(SIG_SETMASK, &mask, nullptr);
  int err = 0;
  if (::dup2(null_fd, STDIN_FILENO) < 0 || ::dup2(log_fd, STDOUT_FILENO) < 0 ||
      ::dup2(log_fd, STDERR_FILENO) < 0 || ::chdir(cwd) != 0) {
    err = errno;
  } else {
    ::execve(program, argv, envp);
    err = errno;
  }
  [[maybe_unused]] const ssize_t wrote = ::write(report_fd, &err, sizeof(err));
  _exit(127);
}

//! The forked child (only system calls: the parent may have other threads) keeps the group:
//! it leads a process group of its own, starts the program in it, and waits. When the thread
//! that started it dies (PR_SET_PDEATHSIG, however databox died) it kills the whole group with
//! SIGKILL, so neither the program nor any process the program started (SQLMesh's workers)
//! outlives databox; a parent-death signal alone reaches only the direct child. It ignores the
//! SIGTERM/SIGINT databox sends the group (the program gets them) and ends with the program's
//! exit status (128 + signal when a signal ended it).
[[noreturn]] void KeepGroup(pid_t parent, int null_fd, int log_fd, int report_fd, const char* cwd,
                            const char* program, char* const argv[], char* const envp[]) {
  ::setpgid(0, 0);
  sigset_t waited, original;
  ::sigemptyset(&waited);
  ::sigaddset(&waited, SIGUSR1);
  ::sigaddset(&waited, SIGCHLD);
  ::sigprocmask(SIG_BLOCK, &waited, &original);
  ::prctl(PR_SET_PDEATHSIG, SIGUSR1);
  if (::getppid() != parent) _exit(127);  // the parent died before prctl took effect
  const pid_t child = ::fork();
  if (child == 0) ExecProgram(original, null_fd, log_fd, report_fd, cwd, program, argv, envp);
  ::close(report_fd);  // the parent reads it to its end: the program's exec closes the other
  if (child < 0) _exit(127);
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGTERM, &ignore, nullptr);
  ::sigaction(SIGINT, &ignore, nullptr);
  while (true) {
    const int signal_number = ::sigwaitinfo(&waited, nullptr);
    if (signal_number == SIGUSR1 || ::getppid() != parent) {
      ::kill(-::getpgrp(), SIGKILL);  // this process included
      _exit(137);
    }
    int status = 0;
    if (signal_number == SIGCHLD && ::waitpid(child, &status, WNOHANG) == child) {
      if (WIFEXITED(status)) _exit(WEXITSTATUS(status));
      if (WIFSIGNALED(status)) _exit(128 + WTERMSIG(status));
    }
  }
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
  std::vector<char*> argv;
  for (const auto& arg : spec.argv) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (const auto& entry : env) envp.push_back(const_cast<char*>(entry.c_str()));
  envp.push_back(nullptr);

  const int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  int exec_report[2] = {-1, -1};  // the child writes its exec errno here; closed by exec
  if (null_fd < 0 || ::pipe2(exec_report, O_CLOEXEC) != 0) {
    const int err = errno;
    if (null_fd >= 0) ::close(null_fd);
    ::close(log_fd);
    return SpawnError("pipe", program.string(), err);
  }
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0)
    KeepGroup(parent, null_fd, log_fd, exec_report[1], spec.cwd.c_str(), program.c_str(),
              argv.data(), envp.data());
  const int fork_error = errno;
  ::close(null_fd);
  ::close(log_fd);
  ::close(exec_report[1]);
  if (pid < 0) {
    ::close(exec_report[0]);
    return SpawnError("fork", program.string(), fork_error);
  }
  ::setpgid(pid, pid);  // also here, so the group exists before any kill(-pid) below
  int exec_error = 0;
  ssize_t got = 0;
  do {
    got = ::read(exec_report[0], &exec_error, sizeof(exec_error));
  } while (got < 0 && errno == EINTR);
  ::close(exec_report[0]);
  if (got == static_cast<ssize_t>(sizeof(exec_error))) {
    ::waitpid(pid, nullptr, 0);
    return SpawnError("exec", program.string(), exec_error);
  }

  ProcessOutcome outcome;
  int status = 0;
  if (!WaitUntil(pid, spec.deadline, status, spec.stop)) {
    outcome.stopped = spec.stop && spec.stop();
    outcome.timed_out = !outcome.stopped;
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
