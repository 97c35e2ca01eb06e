#include "fileio/local/local_file_io.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "fileio/leftovers_test_support.h"

namespace databox::fileio {
namespace {

namespace fs = std::filesystem;

class LocalFileIOTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "fileio_local_XXXXXX").native();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Path(std::string_view rel) const { return (dir_ / rel).native(); }
  static std::string Slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  fs::path dir_;
  LocalFileIO io_;
};

TEST_F(LocalFileIOTest, WriteNewCreatesParentsAndNeverOverwrites) {
  std::string loc = Path("a/b/metadata/00000-x.metadata.json");
  ASSERT_TRUE(io_.WriteNew(loc, "first").has_value());
  EXPECT_EQ(Slurp(loc), "first");

  auto again = io_.WriteNew(loc, "second");
  ASSERT_FALSE(again.has_value());
  EXPECT_EQ(again.error().kind, ErrorKind::kAlreadyExists);
  EXPECT_EQ(Slurp(loc), "first");
  // No temporary files are left behind after either attempt.
  EXPECT_EQ(
      std::distance(fs::directory_iterator(fs::path(loc).parent_path()), fs::directory_iterator()),
      1);
}

TEST_F(LocalFileIOTest, WriteReplacesAndFileUrisWork) {
  std::string loc = "file://" + Path("t/data.bin");
  ASSERT_TRUE(io_.Write(loc, std::string("a\0b", 3)).has_value());
  ASSERT_TRUE(io_.Write(loc, "replaced").has_value());
  EXPECT_EQ(io_.Read(loc).value(), "replaced");
  EXPECT_EQ(io_.Size(loc).value(), 8u);
  EXPECT_EQ(io_.ReadRange(loc, 2, 3).value(), "pla");
  EXPECT_EQ(io_.ReadRange(loc, 6, 100).value(), "ed");
  EXPECT_EQ(io_.ReadRange(loc, 100, 1).value(), "");
}

TEST_F(LocalFileIOTest, MissingObjectsAreNotFound) {
  std::string loc = Path("nope");
  EXPECT_FALSE(io_.Exists(loc).value());
  EXPECT_EQ(io_.Read(loc).error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(io_.Size(loc).error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(io_.Delete(loc).error().kind, ErrorKind::kNotFound);
  EXPECT_THAT(io_.Read(loc).error().message, ::testing::HasSubstr(loc));
}

TEST_F(LocalFileIOTest, DeleteRemoves) {
  std::string loc = Path("x");
  ASSERT_TRUE(io_.Write(loc, "1").has_value());
  EXPECT_TRUE(io_.Exists(loc).value());
  ASSERT_TRUE(io_.Delete(loc).has_value());
  EXPECT_FALSE(io_.Exists(loc).value());
}

TEST_F(LocalFileIOTest, RemoveEmptyFoldersKeepsFoldersThatHoldFiles) {
  fs::create_directories(dir_ / "t" / "data" / "deep");
  fs::create_directories(dir_ / "u" / "data");
  ASSERT_TRUE(io_.WriteNew(Path("u/data/f.parquet"), "x"));
  ASSERT_TRUE(io_.RemoveEmptyFolders(Path("t")));
  EXPECT_FALSE(fs::exists(dir_ / "t"));
  ASSERT_TRUE(io_.RemoveEmptyFolders(Path("u")));
  EXPECT_TRUE(fs::exists(dir_ / "u" / "data" / "f.parquet"));
  EXPECT_TRUE(io_.RemoveEmptyFolders(Path("missing")));
}

TEST_F(LocalFileIOTest, UploadFileCopiesAndKeepsSource) {
  std::string src = Path("staging/part-0.parquet");
  fs::create_directories(fs::path(src).parent_path());
  std::string payload(3 * 1024 * 1024 + 17, 'p');  // spans several copy buffers
  std::ofstream(src, std::ios::binary) << payload;
  std::string dst = Path("warehouse/ns/t/data/part-0.parquet");
  ASSERT_TRUE(io_.UploadFile(src, dst).has_value());
  EXPECT_EQ(Slurp(dst), payload);
  EXPECT_TRUE(fs::exists(src));
  EXPECT_EQ(io_.UploadFile(Path("missing"), dst).error().kind, ErrorKind::kNotFound);
}

TEST_F(LocalFileIOTest, ListMatchesByPrefixRecursivelyInLocationForm) {
  for (const char* rel :
       {"w/t/metadata/00000-a.metadata.json", "w/t/metadata/00001-b.metadata.json",
        "w/t/data/x/f.parquet", "w/t2/data/g.parquet", "w/other"}) {
    ASSERT_TRUE(io_.Write(Path(rel), "12345").has_value());
  }
  auto t = io_.List(Path("w/t/"));
  ASSERT_TRUE(t.has_value()) << t.error().ToString();
  ASSERT_EQ(t->size(), 3u);
  EXPECT_EQ((*t)[0].location, Path("w/t/data/x/f.parquet"));
  EXPECT_EQ((*t)[0].size, 5u);

  // A prefix that is not a folder matches like an object-store key prefix.
  auto prefix = io_.List("file://" + Path("w/t"));
  ASSERT_TRUE(prefix.has_value());
  ASSERT_EQ(prefix->size(), 4u);
  EXPECT_EQ((*prefix)[3].location, "file://" + Path("w/t2/data/g.parquet"));

  auto meta = io_.List(Path("w/t/metadata/00001"));
  ASSERT_EQ(meta->size(), 1u);
  EXPECT_TRUE(io_.List(Path("absent/")).value().empty());
}

TEST_F(LocalFileIOTest, RejectsUnsafeLocations) {
  EXPECT_EQ(io_.Write(Path("a/../../escape"), "x").error().kind, ErrorKind::kData);
  EXPECT_EQ(io_.Read("relative/path").error().kind, ErrorKind::kConfig);
  EXPECT_FALSE(fs::exists(dir_.parent_path() / "escape"));
}

TEST_F(LocalFileIOTest, WriteNewBatchWritesEveryFileAndNeverOverwrites) {
  const std::vector<NewObject> batch = {{Path("b/meta/m1.avro"), "one"},
                                        {Path("b/meta/snap.avro"), "two"},
                                        {"file://" + Path("b/other/x.json"), "three"}};
  ASSERT_TRUE(io_.WriteNewBatch(batch).has_value());
  EXPECT_EQ(Slurp(Path("b/meta/m1.avro")), "one");
  EXPECT_EQ(Slurp(Path("b/meta/snap.avro")), "two");
  EXPECT_EQ(Slurp(Path("b/other/x.json")), "three");
  // An existing name fails the batch at that object; the object before it is written.
  const std::vector<NewObject> clash = {{Path("b/meta/new.avro"), "new"},
                                        {Path("b/meta/m1.avro"), "changed"}};
  auto rejected = io_.WriteNewBatch(clash);
  ASSERT_FALSE(rejected.has_value());
  EXPECT_EQ(rejected.error().kind, ErrorKind::kAlreadyExists);
  EXPECT_EQ(Slurp(Path("b/meta/m1.avro")), "one");
  EXPECT_EQ(Slurp(Path("b/meta/new.avro")), "new");
  // No temporary file is left behind (List would hide one: count the folder itself).
  EXPECT_EQ(std::distance(fs::directory_iterator(Path("b/meta")), fs::directory_iterator()), 3);
}

TEST_F(LocalFileIOTest, OnlyListWithTemporaryFilesShowsLeftTemporaryFiles) {
  ASSERT_TRUE(io_.Write(Path("t/a.json"), "a").has_value());
  const std::string left = Path("t/.b.json.databox-tmp-Xy12Zq");  // as a killed writer leaves it
  std::ofstream(left) << "partial";
  EXPECT_EQ(io_.List(Path("t/")).value().size(), 1u);
  auto all = io_.ListWithTemporaryFiles(Path("t/"));
  ASSERT_TRUE(all.has_value()) << all.error().ToString();
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].location, left);
  EXPECT_EQ((*all)[0].size, 7u);
}

TEST_F(LocalFileIOTest, TheFirstWriteIntoAFolderRemovesTemporaryFilesOfDeadProcessesOnly) {
  const std::string dead = std::to_string(fileio::testing::DeadPid());
  const std::string live = std::to_string(::getpid());
  std::error_code ec;
  fs::create_directories(dir_ / "m", ec);
  const std::string dead_temp = Path("m/.databox-tmp-" + dead + "-v2.metadata.json-AbCdEf");
  const std::string live_temp = Path("m/.databox-tmp-" + live + "-v3.metadata.json-GhIjKl");
  const std::string older_form = Path("m/.v1.metadata.json.databox-tmp-Xy12Zq");
  for (const auto& f : {dead_temp, live_temp, older_form}) std::ofstream(f) << "partial";
  ASSERT_TRUE(io_.Write(Path("m/v4.metadata.json"), "{}").has_value());
  EXPECT_FALSE(fs::exists(dead_temp)) << "a dead writer's temporary file is still there";
  EXPECT_TRUE(fs::exists(live_temp)) << "a live writer's temporary file was removed";
  EXPECT_TRUE(fs::exists(older_form)) << "a name without a pid is maintenance's, not the writer's";
  // The write's own temporary file carries this process's pid and is gone once published.
  auto all = io_.ListWithTemporaryFiles(Path("m/"));
  ASSERT_TRUE(all.has_value()) << all.error().ToString();
  EXPECT_EQ(all->size(), 3u);
}

TEST_F(LocalFileIOTest, ListReportsModificationTimes) {
  ASSERT_TRUE(io_.Write(Path("m/old.bin"), "x").has_value());
  ASSERT_TRUE(io_.Write(Path("m/new.bin"), "y").has_value());
  // Back-date one file with utimensat(2) and compare with the seconds stat(2) reports.
  const struct timespec times[2] = {{1000000000, 0}, {1000000000, 500000000}};
  ASSERT_EQ(::utimensat(AT_FDCWD, Path("m/old.bin").c_str(), times, 0), 0);
  struct stat st {};
  ASSERT_EQ(::stat(Path("m/new.bin").c_str(), &st), 0);
  auto listed = io_.List(Path("m/"));
  ASSERT_TRUE(listed.has_value()) << listed.error().ToString();
  ASSERT_EQ(listed->size(), 2u);
  EXPECT_EQ((*listed)[1].location, Path("m/old.bin"));
  EXPECT_EQ((*listed)[1].modified_ms, std::optional<int64_t>(1000000000500));
  ASSERT_TRUE((*listed)[0].modified_ms.has_value());
  EXPECT_EQ(*(*listed)[0].modified_ms / 1000, static_cast<int64_t>(st.st_mtim.tv_sec));
}

TEST_F(LocalFileIOTest, ConcurrentWriteNewHasExactlyOneWinner) {
  constexpr int kWriters = 8;
  std::string loc = Path("race/00001-same.metadata.json");
  std::vector<pid_t> children;
  for (int i = 0; i < kWriters; ++i) {
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      LocalFileIO io;
      auto st = io.WriteNew(loc, "writer " + std::to_string(i));
      ::_exit(st ? 0 : (st.error().kind == ErrorKind::kAlreadyExists ? 1 : 2));
    }
    children.push_back(pid);
  }
  int winners = 0, losers = 0;
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    if (WEXITSTATUS(status) == 0) ++winners;
    if (WEXITSTATUS(status) == 1) ++losers;
  }
  EXPECT_EQ(winners, 1);
  EXPECT_EQ(losers, kWriters - 1);
  EXPECT_THAT(Slurp(loc), ::testing::StartsWith("writer "));
  EXPECT_EQ(io_.List(Path("race/")).value().size(), 1u);
}

}  // namespace
}  // namespace databox::fileio
