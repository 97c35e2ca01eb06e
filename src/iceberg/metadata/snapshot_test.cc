#include "iceberg/metadata/snapshot.h"

#include <gtest/gtest.h>

#include "iceberg/metadata/table_metadata.h"

namespace databox::iceberg {
namespace {

Snapshot MakeSnapshot(int64_t id) {
  return Snapshot{id,
                  std::nullopt,
                  id,
                  1000 + id,
                  "m-" + std::to_string(id) + ".avro",
                  {{"operation", "append"}},
                  std::nullopt};
}

TEST(SnapshotListTest, CopiesBehaveAsIndependentValues) {
  TableMetadata original;
  original.snapshots = {MakeSnapshot(1), MakeSnapshot(2)};
  TableMetadata copy = original;
  EXPECT_EQ(copy.snapshots, original.snapshots);

  copy.snapshots.push_back(MakeSnapshot(3));
  EXPECT_EQ(original.snapshots.size(), 2u);
  EXPECT_EQ(original.SnapshotById(3), nullptr);
  ASSERT_NE(copy.SnapshotById(3), nullptr);
  EXPECT_EQ(copy.SnapshotById(3)->manifest_list, "m-3.avro");
  EXPECT_NE(copy.snapshots, original.snapshots);

  EXPECT_EQ(copy.snapshots.RemoveIf([](const Snapshot& s) { return s.snapshot_id == 1; }), 1u);
  ASSERT_EQ(copy.snapshots.size(), 2u);
  EXPECT_EQ(copy.snapshots.front().snapshot_id, 2);
  EXPECT_EQ(copy.snapshots.back().snapshot_id, 3);
  ASSERT_EQ(original.snapshots.size(), 2u);
  EXPECT_EQ(original.snapshots[0].snapshot_id, 1);
}

TEST(SnapshotListTest, EqualityComparesContentNotSharing) {
  SnapshotList a = {MakeSnapshot(1), MakeSnapshot(2)};
  SnapshotList b = {MakeSnapshot(1), MakeSnapshot(2)};  // built separately: nothing shared
  EXPECT_EQ(a, b);
  SnapshotList c = {MakeSnapshot(1), MakeSnapshot(4)};
  EXPECT_NE(a, c);
  SnapshotList shorter = {MakeSnapshot(1)};
  EXPECT_NE(a, shorter);
  std::vector<int64_t> ids;
  for (const Snapshot& s : a) ids.push_back(s.snapshot_id);
  EXPECT_EQ(ids, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(a.end() - a.begin(), 2);
}

}  // namespace
}  // namespace databox::iceberg
