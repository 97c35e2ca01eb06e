#include "load/load_package.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace databox::load {
namespace {

namespace fs = std::filesystem;

class LoadPackageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/load_package_test_XXXXXX";
    dir_ = mkdtemp(pattern);
  }
  void TearDown() override { fs::remove_all(dir_); }

  //! A package of source "s" with load id `id` in `state` (extraction finished first when
  //! `extracted`).
  void Make(const std::string& id, PackageState state, bool extracted = false) {
    auto package = LoadPackage::Create(dir_, "s", id);
    ASSERT_TRUE(package) << package.error().ToString();
    if (extracted) {
      ASSERT_TRUE(package->SetState(PackageState::kExtracted));
    }
    if (state != package->state()) {
      ASSERT_TRUE(package->SetState(state, "boom"));
    }
  }
  nlohmann::json Read(const std::string& id) {
    std::ifstream in(dir_ / "s" / id / "package.json");
    return nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  }
  bool Exists(const std::string& id) { return fs::exists(dir_ / "s" / id); }

  fs::path dir_;
};

TEST_F(LoadPackageTest, SettleMarksUnfinishedPackagesFailedAndKeepsThemResumable) {
  Make("100.000001", PackageState::kCommitted, true);
  Make("200.000001", PackageState::kExtracted, true);  // died between extraction and commit
  Make("300.000001", PackageState::kExtracting);       // died while fetching
  auto settled = LoadPackage::Settle(dir_, "s", 10);
  ASSERT_TRUE(settled) << settled.error().ToString();
  EXPECT_EQ(settled->interrupted, 2);
  EXPECT_EQ(settled->removed, 0);
  EXPECT_EQ(Read("300.000001")["state"], "failed");
  EXPECT_NE(Read("300.000001")["error"].get<std::string>().find("before its extraction finished"),
            std::string::npos);
  EXPECT_EQ(Read("200.000001")["state"], "failed");
  EXPECT_NE(Read("200.000001")["error"].get<std::string>().find("--resume"), std::string::npos);
  auto resumable = LoadPackage::FindResumable(dir_, "s");
  ASSERT_TRUE(resumable) << resumable.error().ToString();
  EXPECT_EQ(resumable->load_id(), "200.000001");
  EXPECT_EQ(Read("100.000001")["state"], "committed");
}

TEST_F(LoadPackageTest, SettleKeepsTheNewestAndTheResumableOne) {
  Make("100.000001", PackageState::kCommitted, true);
  Make("200.000001", PackageState::kFailed, true);  // resumable: extraction had finished
  Make("300.000001", PackageState::kFailed);
  Make("400.000001", PackageState::kFailed);
  fs::create_directories(dir_ / "s" / "not-a-load");  // not a package: left alone
  auto settled = LoadPackage::Settle(dir_, "s", 2);
  ASSERT_TRUE(settled) << settled.error().ToString();
  // The resumable one is older than two failed ones and still stays, as one of the two kept:
  // the source never holds more packages than it keeps.
  EXPECT_EQ(settled->removed, 2);
  EXPECT_TRUE(Exists("400.000001"));
  EXPECT_FALSE(Exists("300.000001"));
  EXPECT_TRUE(Exists("200.000001"));
  EXPECT_FALSE(Exists("100.000001"));
  EXPECT_TRUE(fs::exists(dir_ / "s" / "not-a-load"));
  EXPECT_EQ(LoadPackage::FindResumable(dir_, "s")->load_id(), "200.000001");

  // Once a newer load committed, nothing older resumes and only the newest `keep` stay.
  Make("500.000001", PackageState::kCommitted, true);
  settled = LoadPackage::Settle(dir_, "s", 2);
  ASSERT_TRUE(settled) << settled.error().ToString();
  EXPECT_EQ(settled->removed, 1);
  EXPECT_TRUE(Exists("500.000001"));
  EXPECT_TRUE(Exists("400.000001"));
  EXPECT_FALSE(Exists("200.000001"));
}

// A load that died (or met a full disk) between creating its package folder and recording the
// first state leaves a folder without package.json: nothing in it resumes, so the next load
// removes it even when it is among the newest.
TEST_F(LoadPackageTest, SettleRemovesAPackageFolderWithoutAState) {
  Make("100.000001", PackageState::kCommitted, true);
  fs::create_directories(dir_ / "s" / "200.000001" / "extract");
  auto settled = LoadPackage::Settle(dir_, "s", 5);
  ASSERT_TRUE(settled) << settled.error().ToString();
  EXPECT_EQ(settled->removed, 1);
  EXPECT_FALSE(Exists("200.000001"));
  EXPECT_TRUE(Exists("100.000001"));
}

// The rule --resume follows, asked directly: newest first, the first extracted package unless
// a committed one comes before it, and never more than one.
TEST(ResumeRuleTest, TakesTheNewestExtractedPackageNotBehindACommittedOne) {
  ResumeRule rule;
  EXPECT_FALSE(rule.Takes(PackageState::kFailed, /*extracted=*/false));
  EXPECT_FALSE(rule.Takes(PackageState::kExtracting, false));
  EXPECT_TRUE(rule.Takes(PackageState::kFailed, true));
  EXPECT_FALSE(rule.Takes(PackageState::kExtracted, true));  // only one is taken
  EXPECT_FALSE(rule.Takes(PackageState::kFailed, true));

  ResumeRule behind_commit;
  EXPECT_FALSE(behind_commit.Takes(PackageState::kFailed, false));
  EXPECT_FALSE(behind_commit.Takes(PackageState::kCommitted, true));
  EXPECT_FALSE(behind_commit.Takes(PackageState::kExtracted, true));  // older than a commit

  ResumeRule extracted_first;
  EXPECT_TRUE(extracted_first.Takes(PackageState::kExtracted, true));
}

TEST_F(LoadPackageTest, ListShowsEveryPackageNewestFirstAndWhichOneResumes) {
  Make("100.000001", PackageState::kCommitted, true);
  Make("200.500000", PackageState::kFailed, true);  // resumable: extraction had finished
  Make("300.000001", PackageState::kFailed);        // newer, but never extracted
  { std::ofstream(dir_ / "s" / "300.000001" / "extract" / "page.json") << std::string(1000, 'x'); }
  fs::create_directories(dir_ / "s" / "not-a-load");
  fs::create_directories(dir_ / "t");

  EXPECT_EQ(PackageSources(dir_), (std::vector<std::string>{"s", "t"}));
  EXPECT_TRUE(ListPackages(dir_, "t").empty());
  EXPECT_TRUE(ListPackages(dir_, "absent").empty());
  const std::vector<PackageSummary> listed = ListPackages(dir_, "s");
  ASSERT_EQ(listed.size(), 3u);
  EXPECT_EQ(listed[0].load_id, "300.000001");
  EXPECT_EQ(listed[0].state, PackageState::kFailed);
  EXPECT_FALSE(listed[0].resumable);
  EXPECT_EQ(listed[0].error, "boom");
  EXPECT_GE(listed[0].bytes, 1000u);  // the page plus package.json
  EXPECT_EQ(listed[1].load_id, "200.500000");
  EXPECT_TRUE(listed[1].resumable);
  EXPECT_TRUE(listed[1].extracted);
  EXPECT_EQ(listed[1].created_at, "1970-01-01T00:03:20.500Z");
  EXPECT_EQ(listed[1].source, "s");
  EXPECT_EQ(listed[2].state, PackageState::kCommitted);
  EXPECT_FALSE(listed[2].resumable);
  EXPECT_EQ(listed[2].changed_at.size(), std::string("2026-11-30T02:03:04.123Z").size());
  // The listing and --resume agree.
  EXPECT_EQ(LoadPackage::FindResumable(dir_, "s")->load_id(), listed[1].load_id);
}

TEST_F(LoadPackageTest, RemoveTakesOnePackageAndNamesTheClosestIdOtherwise) {
  Make("100.000001", PackageState::kCommitted, true);
  Make("200.000001", PackageState::kFailed);
  ASSERT_TRUE(RemovePackage(dir_, "s", "200.000001"));
  EXPECT_FALSE(Exists("200.000001"));
  EXPECT_TRUE(Exists("100.000001"));

  const Status typo = RemovePackage(dir_, "s", "100.00001");
  ASSERT_FALSE(typo);
  EXPECT_EQ(typo.error().kind, ErrorKind::kNotFound);
  EXPECT_NE(typo.error().message.find("did you mean 100.000001?"), std::string::npos)
      << typo.error().message;
  const Status far = RemovePackage(dir_, "s", "999");
  ASSERT_FALSE(far);
  EXPECT_NE(far.error().message.find("its newest is 100.000001"), std::string::npos)
      << far.error().message;
  const Status none = RemovePackage(dir_, "absent", "1.0");
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("no load packages"), std::string::npos);
  EXPECT_TRUE(Exists("100.000001"));
}

TEST(InterruptedErrorTest, SaysWhetherResumeFinishesIt) {
  EXPECT_EQ(InterruptedError("noaa", "SIGINT", false),
            "interrupted (SIGINT) before its extraction finished");
  EXPECT_EQ(InterruptedError("noaa", "SIGTERM", true),
            "interrupted (SIGTERM) after its extraction, before the commit (`databox run noaa "
            "--resume` finishes it)");
}

}  // namespace
}  // namespace databox::load
