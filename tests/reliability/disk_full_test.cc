// A full disk (docs/reliability.md, "Round two"). The state folder of a workspace is a real
// small file system: a tmpfs mounted in a private mount namespace of this test process (as root
// directly; otherwise inside a new user namespace), which databox inherits. A filler file leaves
// exactly the free space a case needs, so every write databox makes meets a real ENOSPC.
//  - little space left after a first `run` (64 KB in the reported case; here the steps range
//    from 4 to 48 KB): when preflight fails it leaves nothing behind that breaks a later refresh
//    (before: a 0-byte databox.duckdb every later refresh failed on until it was deleted by hand).
//  - little free space on a second load: whatever fails, the raw views file is never replaced
//    by an incomplete one (before: with 1 MB free, an empty database without views, and a stray
//    .tmp-N.wal, with exit 0), and once space is freed the next refresh succeeds.
// If no private mount can be made here, the tests FAIL (never skip) saying why.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "harness.h"

namespace databox::reliability {
namespace {

using cli::testing::Contains;

const std::vector<std::string> kSources = {"ebird",     "gbif", "noaa", "usgs", "usgs_earthquakes",
                                           "xeno_canto"};

void WriteFile(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

//! Moves this process into a private mount namespace (once); "" or why it could not.
std::string EnterPrivateMountNamespace() {
  static const std::string error = [] {
    const uid_t uid = geteuid();
    const gid_t gid = getegid();
    if (uid != 0) {
      if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) {
        return std::string("unshare(CLONE_NEWUSER | CLONE_NEWNS): ") + std::strerror(errno);
      }
      WriteFile("/proc/self/setgroups", "deny");
      WriteFile("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1");
      WriteFile("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1");
    } else if (unshare(CLONE_NEWNS) != 0) {
      return std::string("unshare(CLONE_NEWNS): ") + std::strerror(errno);
    }
    if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
      return std::string("making / private: ") + std::strerror(errno);
    }
    return std::string();
  }();
  return error;
}

//! A tmpfs of `size` bytes mounted on `dir` for the object's lifetime.
class SmallDisk {
 public:
  SmallDisk(const fs::path& dir, std::size_t size) : dir_(dir) {
    error_ = EnterPrivateMountNamespace();
    if (!error_.empty()) return;
    fs::create_directories(dir_);
    const std::string options = "size=" + std::to_string(size) + ",mode=0755";
    if (mount("tmpfs", dir_.c_str(), "tmpfs", 0, options.c_str()) != 0) {
      error_ = "mount tmpfs on " + dir_.string() + ": " + std::strerror(errno);
      return;
    }
    mounted_ = true;
  }
  ~SmallDisk() {
    if (mounted_) umount2(dir_.c_str(), MNT_DETACH);
  }
  SmallDisk(const SmallDisk&) = delete;
  SmallDisk& operator=(const SmallDisk&) = delete;

  const std::string& error() const { return error_; }
  std::size_t Free() const {
    struct statvfs st {};
    statvfs(dir_.c_str(), &st);
    return static_cast<std::size_t>(st.f_bavail) * st.f_frsize;
  }
  //! Fills the disk until `free` bytes are left (the filler replaces an earlier one).
  bool LeaveFree(std::size_t free) {
    Unfill();
    const std::size_t available = Free();
    if (available <= free) return true;
    const int fd = open(Filler().c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return false;
    const bool ok = fallocate(fd, 0, 0, static_cast<off_t>(available - free)) == 0;
    close(fd);
    return ok;
  }
  void Unfill() {
    std::error_code ignored;
    fs::remove(Filler(), ignored);
  }

 private:
  fs::path Filler() const { return dir_ / "filler"; }
  fs::path dir_;
  std::string error_;
  bool mounted_ = false;
};

//! Files directly in the state folder whose name holds ".tmp" (a publish's leftovers).
std::vector<std::string> TempLeftovers(const Workspace& ws) {
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(ws.state_dir())) {
    const std::string name = entry.path().filename().string();
    if (name.find(".tmp") != std::string::npos) found.push_back(name);
  }
  return found;
}

class DiskFull : public ::testing::Test {
 protected:
  void TearDown() override {
    Tally& tally = TallyFor("disk_full");
    tally.faults += faults_;
    tally.runs += runs_;
    if (HasFailure()) tally.violations += 1;
  }
  RunResult Refresh(const Workspace& ws) {
    ++runs_;
    return ws.Databox({"refresh", "--skip-transform"});
  }
  //! Every source's raw views answer a query.
  void ExpectEveryRawViewReadable(const Workspace& ws, const std::string& when) {
    for (const auto& s : kSources) {
      RunResult r = ws.Databox(
          {"query", "SELECT count(*) AS n FROM polaris_aws.raw_" + s + "._dlt_loads", "--json"});
      EXPECT_EQ(r.exit_code, 0) << when << ": raw_" << s << " is not readable\n" << r.err;
    }
  }
  int faults_ = 0;
  int runs_ = 0;
};

TEST_F(DiskFull, PreflightOnAFullDiskLeavesNothingThatBreaksTheNextRefresh) {
  // Which free space makes preflight (and not the catalog before it, nor a load after it) fail
  // depends on the file systems' block use; the steps cover the range, and at least one must
  // reach the preflight failure for the test to mean anything.
  int preflight_failures = 0;
  for (const std::size_t free : {4u << 10, 8u << 10, 16u << 10, 24u << 10, 32u << 10, 48u << 10}) {
    const std::string when = std::to_string(free >> 10) + " KB free";
    Workspace ws("disk_preflight_" + std::to_string(free >> 10));
    ws.WriteRegistry();
    for (const auto& s : kSources) ws.UseSharedRecordings(s);
    SmallDisk disk(ws.state_dir(), 64 << 20);
    ASSERT_TRUE(disk.error().empty()) << "cannot make a small file system here: " << disk.error();
    // The catalog exists but the analytics database does not yet (a first `run`), so that the
    // refresh gets as far as preflight, which creates the analytics database.
    RunResult run = ws.Databox({"run", "gbif"});
    ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
    const fs::path analytics = ws.state_dir() / "databox.duckdb";
    ASSERT_FALSE(fs::exists(analytics)) << "the case needs preflight to create " << analytics;
    ASSERT_TRUE(disk.LeaveFree(free)) << when;
    ++faults_;
    RunResult full = Refresh(ws);
    ASSERT_NE(full.exit_code, -1) << when << ": databox died from a signal\n" << full.err;
    if (Contains(full.err, "preflight failed; nothing was started") &&
        Contains(full.err, "analytics database")) {
      ++preflight_failures;
      EXPECT_EQ(full.exit_code, 2) << when << "\n" << full.err;
      EXPECT_FALSE(fs::exists(analytics)) << when << ": preflight left the database it created";
    }
    for (const auto& entry : fs::recursive_directory_iterator(ws.state_dir())) {
      if (entry.path().filename() == "filler" || !entry.is_regular_file()) continue;
      EXPECT_FALSE(entry.path().extension() == ".duckdb" && entry.file_size() == 0)
          << when << ": empty database left behind: " << entry.path();
      EXPECT_FALSE(Contains(entry.path().filename().string(), "preflight"))
          << when << ": probe left by preflight: " << entry.path();
    }
    disk.Unfill();
    RunResult freed = Refresh(ws);
    EXPECT_EQ(freed.exit_code, 0) << when << ", after space was freed\n" << freed.out << freed.err;
  }
  EXPECT_GE(preflight_failures, 1) << "no step made preflight fail on the analytics database";
}

TEST_F(DiskFull, RawViewsAreNeverPublishedIncompleteWhateverSpaceIsLeft) {
  Workspace ws("disk_views");
  ws.WriteRegistry();
  for (const auto& s : kSources) ws.UseSharedRecordings(s);
  SmallDisk disk(ws.state_dir(), 256 << 20);
  ASSERT_TRUE(disk.error().empty()) << "cannot make a small file system here: " << disk.error();
  RunResult first = Refresh(ws);
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  // From "loads fail" to "only the views file does not fit" (1 MB: the reported case).
  for (const std::size_t free : {1u << 20, 768u << 10, 1536u << 10, 512u << 10}) {
    ++faults_;
    const std::string when = "second load with " + std::to_string(free >> 10) + " KB free";
    ASSERT_TRUE(disk.LeaveFree(free)) << when;
    RunResult r = Refresh(ws);
    ASSERT_NE(r.exit_code, -1) << when << ": databox died from a signal\n" << r.err;
    const std::string all = r.out + r.err;
    if (r.exit_code == 0) {
      EXPECT_FALSE(Contains(all, "raw views")) << when << "\n" << all;
    } else {
      EXPECT_EQ(r.exit_code, 1) << when << "\n" << all;
    }
    EXPECT_TRUE(TempLeftovers(ws).empty())
        << when << ": left " << ::testing::PrintToString(TempLeftovers(ws));
    disk.Unfill();
    // The views file is the old complete one or a new complete one.
    ExpectEveryRawViewReadable(ws, when);
  }
  RunResult freed = Refresh(ws);
  EXPECT_EQ(freed.exit_code, 0) << "after space was freed\n" << freed.out << freed.err;
  ExpectEveryRawViewReadable(ws, "after space was freed");
}

}  // namespace
}  // namespace databox::reliability
