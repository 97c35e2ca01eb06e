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
  EXPECT_EQ(settled->removed, 1);
  EXPECT_TRUE(Exists("400.000001"));
  EXPECT_TRUE(Exists("300.000001"));
  EXPECT_TRUE(Exists("200.000001"));
  EXPECT_FALSE(Exists("100.000001"));
  EXPECT_TRUE(fs::exists(dir_ / "s" / "not-a-load"));
  EXPECT_EQ(LoadPackage::FindResumable(dir_, "s")->load_id(), "200.000001");

  // Once a newer load committed, nothing older resumes and only the newest `keep` stay.
  Make("500.000001", PackageState::kCommitted, true);
  settled = LoadPackage::Settle(dir_, "s", 2);
  ASSERT_TRUE(settled) << settled.error().ToString();
  EXPECT_EQ(settled->removed, 2);
  EXPECT_TRUE(Exists("500.000001"));
  EXPECT_TRUE(Exists("400.000001"));
  EXPECT_FALSE(Exists("200.000001"));
}

}  // namespace
}  // namespace databox::load
