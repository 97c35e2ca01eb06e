#include "publish/target.h"

#include <gtest/gtest.h>

#include "publish/test_util.h"

namespace databox::publish {
namespace {

using TargetTest = testing::PublishTest;

TEST_F(TargetTest, AnEmptyOrMissingFolderIsAcceptedAndClaimed) {
  const Layout layout(Path("pub"));
  auto state = InspectTarget(*io_, layout);
  ASSERT_TRUE(state.has_value()) << state.error().ToString();
  EXPECT_FALSE(state->has_marker);
  EXPECT_FALSE(state->pointer.has_value());
  ASSERT_TRUE(ClaimTarget(*io_, layout).has_value());
  ASSERT_TRUE(ClaimTarget(*io_, layout).has_value());  // a second claim is fine
  state = InspectTarget(*io_, layout);
  ASSERT_TRUE(state.has_value());
  EXPECT_TRUE(state->has_marker);
}

TEST_F(TargetTest, AFolderWithForeignFilesIsRefusedUntouched) {
  const Layout layout(Path("pub"));
  ASSERT_TRUE(io_->Write(Path("pub/notes.txt"), "mine").has_value());
  auto state = InspectTarget(*io_, layout);
  ASSERT_FALSE(state.has_value());
  EXPECT_EQ(state.error().kind, ErrorKind::kConfig);
  EXPECT_NE(state.error().message.find("notes.txt"), std::string::npos);
  auto listed = io_->List(Path("pub") + "/");
  ASSERT_TRUE(listed.has_value());
  EXPECT_EQ(listed->size(), 1u);
}

TEST_F(TargetTest, APointerOfAnotherFormatIsRefused) {
  const Layout layout(Path("pub"));
  ASSERT_TRUE(ClaimTarget(*io_, layout).has_value());
  ASSERT_TRUE(io_->Write(layout.Pointer(), "{\"version\": 1}").has_value());
  auto state = InspectTarget(*io_, layout);
  ASSERT_FALSE(state.has_value());
  EXPECT_EQ(state.error().kind, ErrorKind::kConfig);
}

TEST_F(TargetTest, PointerMovesOnlyFromTheVersionItWasRead) {
  const Layout layout(Path("pub"));
  ASSERT_TRUE(ClaimTarget(*io_, layout).has_value());
  auto empty = InspectTarget(*io_, layout);
  ASSERT_TRUE(empty.has_value());
  ASSERT_TRUE(MovePointer(*io_, layout, *empty, {1, "versions/000001/manifest.json", "t1"}));
  // A second publisher that also started from "no pointer" must not overwrite version 1.
  auto raced = MovePointer(*io_, layout, *empty, {1, "versions/000001/manifest.json", "t1b"});
  ASSERT_FALSE(raced.has_value());
  EXPECT_EQ(raced.error().kind, ErrorKind::kConflict);

  auto at1 = InspectTarget(*io_, layout);
  ASSERT_TRUE(at1.has_value());
  ASSERT_EQ(at1->pointer->version, 1);
  ASSERT_TRUE(MovePointer(*io_, layout, *at1, {2, "versions/000002/manifest.json", "t2"}));
  // A publisher that read version 1 and finishes later must not move the pointer back.
  auto stale = MovePointer(*io_, layout, *at1, {2, "versions/000002/manifest.json", "t2b"});
  ASSERT_FALSE(stale.has_value());
  EXPECT_EQ(stale.error().kind, ErrorKind::kConflict);
  auto now = InspectTarget(*io_, layout);
  ASSERT_TRUE(now.has_value());
  EXPECT_EQ(now->pointer->version, 2);
  EXPECT_EQ(now->pointer->published_at, "t2");
}

}  // namespace
}  // namespace databox::publish
