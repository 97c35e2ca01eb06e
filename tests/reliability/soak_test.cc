// Soak (docs/reliability.md, "Soak"): one workspace, a bounded loop (a step count and a time
// budget) of what an operator's machine does to it over weeks, in random order:
//  - refreshes (with and without the transform) and `run`s of one source;
//  - the same killed with SIGKILL at a random moment;
//  - two invocations overlapping (either may be refused: exit 1 or 2 naming the holder's pid);
//  - a load on a disk that is full (a real tmpfs state folder, small_disk.h) and then freed;
//  - `maintain --all --remove --older-than 0s` between them.
// After every step, as pyiceberg reads the tables (check_tables.py --serve): every data table
// holds exactly the rows of a clean load (compared without the per-load _dlt_ columns), the
// load tables have one row per load id and as many rows as each other, and every file the
// metadata references exists; no process of the workspace outlives the step. After every
// successful refresh: no staging folder or raw views temporary of a dead process, at most
// keep_load_packages packages per source and none still "extracting". At the end, after
// maintenance, no file in the table folders is unreferenced, and a refresh with its transform
// succeeds. The first steps take each kind once; the seed is printed (DATABOX_SOAK_SEED
// repeats a run).
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "background_run.h"
#include "harness.h"
#include "small_disk.h"
#include "table_checks.h"

namespace databox::reliability {
namespace {

using cli::testing::Contains;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

#if defined(__SANITIZE_ADDRESS__)
constexpr auto kTimeBudget = std::chrono::seconds(150);  // every run is ~1.5x slower
#else
constexpr auto kTimeBudget = std::chrono::seconds(240);
#endif
constexpr int kMaxSteps = 60;
constexpr int kKeepPackages = 3;                        //!< the workspace's keep_load_packages
constexpr auto kStepLimit = std::chrono::seconds(240);  //!< one invocation taking longer hangs
constexpr std::size_t kDiskSize = std::size_t{1} << 30;

enum class Step { kRefresh, kRefreshTransform, kRun, kKill, kOverlap, kDiskFull, kMaintain };
constexpr int kStepKinds = 7;

std::string StepName(Step step) {
  switch (step) {
    case Step::kRefresh:
      return "refresh";
    case Step::kRefreshTransform:
      return "refresh+transform";
    case Step::kRun:
      return "run";
    case Step::kKill:
      return "killed load";
    case Step::kOverlap:
      return "overlap";
    case Step::kDiskFull:
      return "disk full";
    case Step::kMaintain:
      return "maintain";
  }
  return "?";
}

//! True while a process with this id exists.
bool Alive(pid_t pid) { return ::kill(pid, 0) == 0 || errno != ESRCH; }

//! The pid a leftover name carries after `prefix` ("<prefix><pid>-..." or "<prefix><pid>").
std::optional<pid_t> PidAfter(const std::string& name, const std::string& prefix) {
  const auto at = name.find(prefix);
  if (at == std::string::npos) return std::nullopt;
  const std::string rest = name.substr(at + prefix.size());
  const auto digits = rest.find_first_not_of("0123456789");
  if (digits == 0) return std::nullopt;
  return static_cast<pid_t>(std::stol(rest.substr(0, digits)));
}

//! Living processes (other than this one) started for `ws`: their command line names its
//! folder or they work in it.
std::vector<std::string> ProcessesOf(const Workspace& ws) {
  std::vector<std::string> found;
  const std::string dir = ws.dir().string();
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const pid_t pid = static_cast<pid_t>(std::stol(name));
    if (pid == getpid() || LiveParentOf(pid) == -1) continue;
    std::string cmdline = cli::testing::Slurp(entry.path() / "cmdline");
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    std::error_code link_error;
    const std::string cwd = fs::read_symlink(entry.path() / "cwd", link_error).string();
    if (Contains(cmdline, dir) || cwd.starts_with(dir)) found.push_back(name + ": " + cmdline);
  }
  return found;
}

class Soak : public ::testing::Test {
 protected:
  void TearDown() override {
    Tally& tally = TallyFor("soak");
    tally.faults += kills_ + overlaps_ + disk_full_;
    tally.runs += runs_;
    tally.violations += violations_ + (HasFailure() && violations_ == 0 ? 1 : 0);
  }

  void Violation(const std::string& text) {
    ++violations_;
    ADD_FAILURE() << "seed " << seed_ << ", step " << step_ << ": " << text;
  }

  //! A random load: a refresh (with its transform when `transform`) or a run of one source.
  std::vector<std::string> RandomLoad(bool transform) {
    const int pick = std::uniform_int_distribution<int>(0, 99)(rng_);
    if (pick < 40) return {"refresh", "--skip-transform"};
    if (pick < 55 && transform) return {"refresh"};
    return {"run", kRoutineSources[std::uniform_int_distribution<std::size_t>(0, 5)(rng_)]};
  }

  //! What a load's duration is remembered under: "run", "refresh" or "refresh+transform".
  static std::string Kind(const std::vector<std::string>& args) {
    if (args.front() != "refresh") return args.front();
    return args.size() > 1 ? "refresh" : "refresh+transform";
  }

  //! A random moment inside the last successful load of the same kind (so that most kills
  //! land while it works).
  int KillDelayMs(const std::vector<std::string>& args) {
    const auto known = duration_ms_.find(Kind(args));
    const int duration = known == duration_ms_.end() ? 1000 : known->second;
    return std::uniform_int_distribution<int>(20, std::max(100, duration * 9 / 10))(rng_);
  }

  std::string Describe(const std::vector<std::string>& args) {
    std::string text = "databox";
    for (const auto& a : args) text += " " + a;
    return text;
  }

  //! Runs `args` to its end (bounded); its exit code, or nullopt when it hung (then killed).
  std::optional<int> RunToEnd(const Workspace& ws, const std::vector<std::string>& args,
                              std::string* output) {
    const auto started = Clock::now();
    BackgroundDatabox run(ws, args, "step" + std::to_string(step_));
    ++runs_;
    std::optional<int> code = run.WaitFor(kStepLimit);
    *output = run.Output();
    if (!code) Violation(Describe(args) + " did not end within its bound:\n" + *output);
    if (code == 0) {
      duration_ms_[Kind(args)] = static_cast<int>(
          std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count());
    }
    return code;
  }

  //! A finished invocation's exit code is one a user can act on: 0, or 1/2 with a message;
  //! never a signal, never a raw traceback.
  void CheckEnded(int code, const std::string& what, const std::string& output) {
    if (code == -1) Violation(what + " died from a signal:\n" + output);
    if (code != 0 && code != 1 && code != 2) {
      Violation(what + " exited " + std::to_string(code) + ":\n" + output);
    }
    if (Contains(output, "Traceback")) Violation(what + " printed a raw traceback:\n" + output);
  }

  //! The invariants every step must leave, whatever happened in it.
  json CheckTables(const Workspace& ws) {
    const json view = reader_->Ask(ContentRequest(ws.state_dir(), kRoutineSources, /*files=*/true));
    if (view.contains("error")) {
      Violation("pyiceberg cannot read the tables: " + view["error"].dump());
      return view;
    }
    for (const auto& s : kRoutineSources) {
      for (const auto& problem : ContentProblems(s, view["namespaces"][Ns(s)]["tables"],
                                                 reference_["namespaces"][Ns(s)]["tables"],
                                                 /*complete=*/true)) {
        Violation(problem);
      }
    }
    for (const auto& missing : view["files"]["missing"]) {
      Violation("a file the metadata references is gone: " + missing.get<std::string>());
    }
    return view;
  }

  //! No process of the workspace outlives a step (a killed databox's sqlmesh child included).
  void CheckNoProcessLeft(const Workspace& ws) {
    const auto deadline = Clock::now() + std::chrono::seconds(10);
    std::vector<std::string> left = ProcessesOf(ws);
    while (!left.empty() && Clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      left = ProcessesOf(ws);
    }
    for (const auto& p : left) {
      Violation("a process outlived its step: " + p);
      ::kill(static_cast<pid_t>(std::stol(p)), SIGKILL);  // it would hold the test's pipes
    }
  }

  //! After a successful refresh: what crashes left is gone and packages follow the retention.
  void CheckLeftovers(const Workspace& ws) {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(ws.state_dir(), ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      const std::string name = it->path().filename().string();
      for (const char* prefix : {".databox-staging-", ".duckdb.tmp-"}) {
        const auto pid = PidAfter(name, prefix);
        if (pid && !Alive(*pid)) {
          Violation("a dead process's leftover survived a successful refresh: " +
                    it->path().string());
        }
      }
    }
    for (const auto& s : kRoutineSources) {
      int packages = 0;
      for (const auto& entry : fs::directory_iterator(ws.state_dir() / "loads" / s, ec)) {
        if (!entry.is_directory()) continue;
        ++packages;
        const json package =
            json::parse(cli::testing::Slurp(entry.path() / "package.json"), nullptr, false);
        if (package.is_discarded()) {
          Violation("package " + entry.path().string() +
                    " has no readable package.json after a successful refresh");
        } else if (package.value("state", "") == "extracting") {
          Violation("package " + entry.path().string() +
                    " is still extracting after a successful refresh");
        }
      }
      if (packages > kKeepPackages) {
        Violation(s + " keeps " + std::to_string(packages) +
                  " load packages (keep_load_packages = " + std::to_string(kKeepPackages) + ")");
      }
    }
  }

  void DoStep(const Workspace& ws, SmallDisk& disk, Step step) {
    std::string output;
    if (step == Step::kRefresh || step == Step::kRefreshTransform || step == Step::kRun) {
      std::vector<std::string> args =
          step == Step::kRefresh ? std::vector<std::string>{"refresh", "--skip-transform"}
          : step == Step::kRefreshTransform ? std::vector<std::string>{"refresh"}
                                            : RandomLoad(false);
      if (step == Step::kRun && args.front() != "run") args = {"run", "gbif"};
      const auto code = RunToEnd(ws, args, &output);
      if (code && *code != 0) Violation(Describe(args) + " failed alone:\n" + output);
      if (code == 0 && args.front() == "refresh") CheckLeftovers(ws);
      return;
    }
    if (step == Step::kKill) {
      const auto args = RandomLoad(true);
      const int delay = KillDelayMs(args);
      BackgroundDatabox run(ws, args, "step" + std::to_string(step_));
      ++runs_;
      if (const auto code = run.WaitFor(std::chrono::milliseconds(delay))) {
        CheckEnded(*code, Describe(args) + " (ended before its kill)", run.Output());
        return;
      }
      run.Kill();
      run.Wait();
      ++kills_;
      return;
    }
    if (step == Step::kOverlap) {
      const bool first_overlap = overlaps_ == 0;
      const auto a = first_overlap ? std::vector<std::string>{"refresh", "--skip-transform"}
                                   : RandomLoad(true);
      const auto b = first_overlap ? a : RandomLoad(true);
      const int delay = first_overlap ? 50 : std::uniform_int_distribution<int>(0, 400)(rng_);
      BackgroundDatabox first(ws, a, "step" + std::to_string(step_) + "a");
      std::this_thread::sleep_for(std::chrono::milliseconds(delay));
      BackgroundDatabox second(ws, b, "step" + std::to_string(step_) + "b");
      runs_ += 2;
      ++overlaps_;
      bool refused = false;
      for (const auto& [run, args] : {std::pair{&first, &a}, std::pair{&second, &b}}) {
        const auto code = run->WaitFor(kStepLimit);
        const std::string what = Describe(*args) + " (overlapping)";
        if (!code) {
          Violation(what + " did not end within its bound:\n" + run->Output());
          continue;
        }
        CheckEnded(*code, what, run->Output());
        if (*code != 0) {
          refused = true;
          if (!Contains(run->Output(), "pid ")) {
            Violation(what + " failed without naming the process in its way:\n" + run->Output());
          }
        }
      }
      overlaps_refused_ += refused ? 1 : 0;
      return;
    }
    if (step == Step::kDiskFull) {
      static const std::size_t kFree[] = {8u << 10, 32u << 10, 128u << 10, 512u << 10, 2u << 20};
      const std::size_t free = kFree[std::uniform_int_distribution<int>(0, 4)(rng_)];
      const auto args = RandomLoad(false);
      if (!disk.LeaveFree(free)) {
        Violation("cannot fill the small disk");
        return;
      }
      ++disk_full_;
      const auto code = RunToEnd(ws, args, &output);
      disk.Unfill();
      if (code) {
        CheckEnded(*code, Describe(args) + " with " + std::to_string(free >> 10) + " KB free",
                   output);
        disk_full_failed_ += *code != 0 ? 1 : 0;
      }
      return;
    }
    const std::vector<std::string> args = {"maintain", "--all", "--remove", "--older-than", "0s"};
    const auto code = RunToEnd(ws, args, &output);
    ++maintenance_;
    if (code && *code != 0) Violation(Describe(args) + " failed:\n" + output);
  }

  std::mt19937_64 rng_;
  unsigned long long seed_ = 0;
  int step_ = 0;
  std::optional<PyicebergServer> reader_;
  json reference_;
  std::map<std::string, int> duration_ms_;  //!< Kind() -> the last successful one's duration
  int runs_ = 0;
  int kills_ = 0;
  int overlaps_ = 0;
  int overlaps_refused_ = 0;
  int disk_full_ = 0;
  int disk_full_failed_ = 0;
  int maintenance_ = 0;
  int violations_ = 0;
};

TEST_F(Soak, RandomRefreshesRunsKillsOverlapsAndAFullDiskNeverBreakTheWorkspace) {
  const auto start = Clock::now();
  const char* seed_text = std::getenv("DATABOX_SOAK_SEED");
  seed_ = seed_text ? std::strtoull(seed_text, nullptr, 10) : std::random_device()();
  rng_.seed(seed_);

  // The soak workspace's state folder is a small disk of its own; the reader starts after the
  // mount so that it sees it.
  Workspace ws("soak");
  for (const auto& s : kRoutineSources) ws.UseSharedRecordings(s);
  ws.WriteRegistry();
  ws.AddProjectSetting("keep_load_packages = " + std::to_string(kKeepPackages));
  SmallDisk disk(ws.state_dir(), kDiskSize);
  ASSERT_TRUE(disk.error().empty()) << "cannot make a small file system here: " << disk.error();
  reader_.emplace();

  // What a clean load holds, from a workspace of its own.
  Workspace clean("soak_reference");
  for (const auto& s : kRoutineSources) clean.UseSharedRecordings(s);
  clean.WriteRegistry();
  RunResult reference_run = clean.Databox({"refresh", "--skip-transform"});
  ASSERT_EQ(reference_run.exit_code, 0) << reference_run.out << reference_run.err;
  reference_ = reader_->Ask(ContentRequest(clean.state_dir(), kRoutineSources, /*files=*/false));
  ASSERT_FALSE(reference_.contains("error")) << reference_.dump();

  std::string output;
  const auto first = RunToEnd(ws, {"refresh", "--skip-transform"}, &output);
  ASSERT_EQ(first, 0) << output;
  CheckTables(ws);

  std::vector<Step> opening;
  for (int k = 0; k < kStepKinds; ++k) opening.push_back(static_cast<Step>(k));
  std::shuffle(opening.begin(), opening.end(), rng_);
  std::discrete_distribution<int> kind({20, 8, 14, 26, 16, 10, 6});
  std::map<std::string, int> steps_of_kind;
  for (step_ = 1; step_ <= kMaxSteps && Clock::now() - start < kTimeBudget; ++step_) {
    const Step step = step_ <= kStepKinds ? opening[step_ - 1] : static_cast<Step>(kind(rng_));
    ++steps_of_kind[StepName(step)];
    DoStep(ws, disk, step);
    CheckNoProcessLeft(ws);
    CheckTables(ws);
    if (violations_ > 10) break;  // the first ones tell the story
  }
  const int steps = step_ - 1;

  // The end of the soak: maintenance leaves no unreferenced file, and a full refresh works.
  const std::vector<std::string> maintain = {"maintain", "--all", "--remove", "--older-than", "0s"};
  const auto maintained = RunToEnd(ws, maintain, &output);
  EXPECT_EQ(maintained, 0) << output;
  const json view = CheckTables(ws);
  if (!view.contains("error")) {
    for (const auto& f : view["files"]["unreferenced"]) {
      Violation("after maintenance a file no metadata references is still there: " +
                f.get<std::string>());
    }
  }
  const auto last = RunToEnd(ws, {"refresh"}, &output);
  EXPECT_EQ(last, 0) << output;
  EXPECT_TRUE(Contains(output, "transform: ok")) << output;
  CheckLeftovers(ws);
  CheckNoProcessLeft(ws);

  EXPECT_GE(steps, kStepKinds) << "the time budget ended the soak before every kind of step ran";
  EXPECT_GE(overlaps_refused_, 1) << "no overlap ever met another invocation";
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::cout << "soak: seed " << seed_ << ", " << steps << " steps in " << static_cast<int>(seconds)
            << " s, " << runs_ << " databox runs, " << kills_ << " SIGKILLs, " << overlaps_
            << " overlaps (" << overlaps_refused_ << " with a refusal), " << disk_full_
            << " full-disk loads (" << disk_full_failed_ << " failed cleanly), " << maintenance_
            << " maintenance removals, " << violations_ << " violations\n  steps:";
  for (const auto& [name, n] : steps_of_kind) std::cout << " " << name << " " << n << ";";
  std::cout << "\n";
}

}  // namespace
}  // namespace databox::reliability
