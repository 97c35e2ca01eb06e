// The USFWS kind: its options of `databox run` checked with their messages (--resume refused,
// then the target list, then the run options, [source.targets] overridden), the Source it makes
// with and without targets, and its tables typed as the source writes them.
#include "sources/usfws/usfws_kind.h"

#include <gtest/gtest.h>

#include "duck/test_support.h"
#include "source/source_test_support.h"
#include "sources/usfws/usfws_options.h"
#include "sources/usfws/usfws_rows.h"

namespace databox::source {
namespace {

class UsfwsKindTest : public ::testing::Test {
 protected:
  void SetUp() override {
    source_.name = "usfws";
    source_.kind = registry::SourceKind::kTargeted;
    source_.targets = registry::TargetSettings{};
    source_.targets->detail_workers = 2;
    targets_ = dir_.File("targets.csv");
    testing::WriteBytes(targets_,
                        "species_code,common_name,scientific_name\n"
                        "rufhum,Rufous Hummingbird,Selasphorus rufus\n");
  }

  //! The message of CheckRun's error, or "ok".
  std::string Checked(const KindOptions& options, bool resume = false) {
    Status checked = kind_.CheckRun(source_, options, resume);
    return checked ? "ok" : checked.error().message;
  }

  UsfwsKind kind_;
  registry::Source source_;
  duck::testing::TempDir dir_;
  std::string targets_;
};

TEST_F(UsfwsKindTest, RunsAreCheckedResumeFirstThenTheTargetsThenTheRunOptions) {
  EXPECT_EQ(Checked({{kTargetsOption, targets_}}, true),
            "--resume does not apply to targeted sources; run again");
  EXPECT_EQ(Checked({}),
            "refusing to run without a caller-supplied target list; pass --targets FILE (a CSV "
            "file with the header 'species_code,common_name,scientific_name', see "
            "docs/sources.md)");
  EXPECT_EQ(Checked({{kTargetsOption, targets_}, {kDetailWorkersOption, "9"}}),
            "usfws: detail_workers = 9 is out of range; use 1..4");
  EXPECT_EQ(Checked({{kTargetsOption, targets_}, {kDetailWorkersOption, "2x"}}),
            "--detail-workers '2x' is not a whole number");
  EXPECT_EQ(Checked({{kTargetsOption, targets_}}), "ok");
}

TEST_F(UsfwsKindTest, TheCommandLineOverridesTheRegistrysRunOptions) {
  auto request = TargetedRequestFrom(
      source_, {{kTargetsOption, targets_}, {kRunIdOption, "run-1"}, {kMaxImagesOption, "7"}});
  ASSERT_TRUE(request) << request.error().message;
  ASSERT_EQ(request->targets.size(), 1u);
  EXPECT_EQ(request->targets[0].code, "rufhum");
  EXPECT_EQ(request->options.run_id, "run-1");
  EXPECT_EQ(request->options.loaded_at, std::nullopt);
  EXPECT_EQ(request->options.max_images_per_target, 7);
  EXPECT_EQ(request->options.detail_workers, 2);  // [source.targets]
  EXPECT_EQ(request->options.request_max_attempts, 6);
}

TEST_F(UsfwsKindTest, WithoutTargetsTheSourceRefusesToRunAndABrokenListIsNotMade) {
  Network network;
  network.transports = [] { return MakeError(ErrorKind::kInternal, "no transport here"); };
  auto none = kind_.Make(source_, SourceInput{}, network);
  ASSERT_TRUE(none) << none.error().message;
  ASSERT_FALSE((*none)->CanRun().has_value());
  EXPECT_EQ((*none)->CanRun().error().message,
            "source usfws runs only with caller-supplied targets: `databox run usfws --targets "
            "FILE`");

  auto broken =
      kind_.Make(source_, SourceInput{{{kTargetsOption, dir_.File("missing.csv")}}}, network);
  ASSERT_FALSE(broken);
  EXPECT_EQ(broken.error().kind, ErrorKind::kIo);
}

TEST_F(UsfwsKindTest, ItsTablesAreTypedAsTheSourceWritesThem) {
  for (const registry::Resource& own : UsfwsResources()) {
    registry::Resource declared;
    declared.name = own.name;
    declared.primary_key = {"declared_key"};
    const registry::Resource typed = kind_.DeclaredResource(declared);
    EXPECT_EQ(typed.column_order, own.column_order) << own.name;
    EXPECT_EQ(typed.columns.size(), own.columns.size()) << own.name;
    EXPECT_EQ(typed.primary_key, declared.primary_key) << own.name;
  }
  registry::Resource other;
  other.name = "not_a_usfws_table";
  EXPECT_TRUE(kind_.DeclaredResource(other).column_order.empty());
}

}  // namespace
}  // namespace databox::source
