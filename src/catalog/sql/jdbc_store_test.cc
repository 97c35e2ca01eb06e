#include "catalog/sql/jdbc_store.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>

namespace databox::catalog::sql {
namespace {

namespace fs = std::filesystem;
constexpr int kBusyMs = 10000;

class JdbcStoreTest : public testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "jdbc_store_XXXXXX").native();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
    db_path_ = (dir_ / "catalog.db").native();
    auto store = JdbcStore::Open(db_path_, "cat", kBusyMs);
    ASSERT_TRUE(store.has_value()) << store.error().ToString();
    store_ = std::move(*store);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::unique_ptr<JdbcStore> Connect(const std::string& catalog = "cat") {
    return JdbcStore::Open(db_path_, catalog, kBusyMs).value();
  }

  fs::path dir_;
  std::string db_path_;
  std::unique_ptr<JdbcStore> store_;
};

TEST_F(JdbcStoreTest, NamespacesExistByPropertiesOrTables) {
  ASSERT_TRUE(store_->CreateNamespace({"raw_a"}, {}).has_value());
  EXPECT_EQ(store_->CreateNamespace({"raw_a"}, {}).error().kind, ErrorKind::kAlreadyExists);
  EXPECT_EQ(store_->NamespaceProperties({"raw_a"}).value(),
            (std::map<std::string, std::string>{{"exists", "true"}}));
  ASSERT_TRUE(store_->CreateNamespace({"p", "q"}, {{"owner", "me"}}).has_value());
  EXPECT_TRUE(store_->NamespaceExists({"p"}).value());     // parent of an existing namespace
  EXPECT_FALSE(store_->NamespaceExists({"raw"}).value());  // a string prefix is not a parent
  EXPECT_EQ(store_->ListNamespaces({}).value(),
            (std::vector<iceberg::Namespace>{{"p"}, {"raw_a"}}));
  EXPECT_EQ(store_->ListNamespaces({"p"}).value(), (std::vector<iceberg::Namespace>{{"p", "q"}}));

  ASSERT_TRUE(
      store_->UpdateNamespaceProperties({"p", "q"}, std::vector<std::string>{"owner"}, {{"k", "v"}})
          .has_value());
  EXPECT_EQ(store_->NamespaceProperties({"p", "q"}).value(),
            (std::map<std::string, std::string>{{"k", "v"}}));

  // Another catalog name in the same database sees nothing of ours.
  EXPECT_TRUE(Connect("other")->ListNamespaces({}).value().empty());
}

TEST_F(JdbcStoreTest, DropNamespaceRefusesNonEmpty) {
  ASSERT_TRUE(store_->CreateNamespace({"a"}, {}).has_value());
  ASSERT_TRUE(store_->CreateNamespace({"a", "b"}, {}).has_value());
  EXPECT_EQ(store_->DropNamespace({"a"}).error().kind, ErrorKind::kConflict);
  ASSERT_TRUE(store_->InsertTable({{"a", "b"}, "t"}, "/m0").has_value());
  EXPECT_EQ(store_->DropNamespace({"a", "b"}).error().kind, ErrorKind::kConflict);
  ASSERT_TRUE(store_->DropTable({{"a", "b"}, "t"}).has_value());
  ASSERT_TRUE(store_->DropNamespace({"a", "b"}).has_value());
  ASSERT_TRUE(store_->DropNamespace({"a"}).has_value());
  EXPECT_FALSE(store_->NamespaceExists({"a"}).value());
  EXPECT_EQ(store_->DropNamespace({"a"}).error().kind, ErrorKind::kNotFound);
}

TEST_F(JdbcStoreTest, TableRowsInsertRenameDrop) {
  iceberg::TableIdentifier t{{"ns"}, "t"};
  iceberg::TableIdentifier u{{"ns"}, "u"};
  ASSERT_TRUE(store_->InsertTable(t, "/m0").has_value());
  EXPECT_EQ(store_->InsertTable(t, "/m1").error().kind, ErrorKind::kAlreadyExists);
  ASSERT_TRUE(store_->InsertTable(u, "/u0").has_value());
  EXPECT_EQ(store_->ListTables({"ns"}).value(), (std::vector<iceberg::TableIdentifier>{t, u}));
  EXPECT_EQ(store_->MetadataLocation(t).value(), "/m0");
  EXPECT_EQ(store_->RenameTable(t, u).error().kind, ErrorKind::kAlreadyExists);
  iceberg::TableIdentifier v{{"ns2"}, "v"};
  ASSERT_TRUE(store_->RenameTable(t, v).has_value());
  EXPECT_FALSE(store_->MetadataLocation(t).value().has_value());
  EXPECT_EQ(store_->MetadataLocation(v).value(), "/m0");
  EXPECT_EQ(store_->RenameTable(t, v).error().kind, ErrorKind::kNotFound);
  ASSERT_TRUE(store_->DropTable(v).has_value());
  EXPECT_EQ(store_->DropTable(v).error().kind, ErrorKind::kNotFound);
}

TEST_F(JdbcStoreTest, CompareAndSwapDetectsConcurrentCommitAcrossConnections) {
  iceberg::TableIdentifier t{{"ns"}, "t"};
  ASSERT_TRUE(store_->InsertTable(t, "/m0").has_value());
  auto other = Connect();
  // Both planned on /m0; the second to swap must lose.
  ASSERT_TRUE(other->SwapMetadataLocation({t, "/m0", "/m1-other"}).has_value());
  auto lost = store_->SwapMetadataLocation({t, "/m0", "/m1-mine"});
  ASSERT_FALSE(lost.has_value());
  EXPECT_EQ(lost.error().kind, ErrorKind::kConflict);
  EXPECT_EQ(store_->MetadataLocation(t).value(), "/m1-other");
  // A swap to the same location re-asserts the version without touching the row.
  EXPECT_EQ(store_->SwapMetadataLocation({t, "/m0", "/m0"}).error().kind, ErrorKind::kConflict);
  ASSERT_TRUE(store_->SwapMetadataLocation({t, "/m1-other", "/m1-other"}).has_value());
  // Planned on the current location, it lands.
  ASSERT_TRUE(store_->SwapMetadataLocation({t, "/m1-other", "/m2"}).has_value());
  EXPECT_EQ(other->MetadataLocation(t).value(), "/m2");
}

TEST_F(JdbcStoreTest, MultiTableSwapIsAllOrNothing) {
  iceberg::TableIdentifier a{{"ns"}, "a"}, b{{"ns"}, "b"};
  ASSERT_TRUE(store_->InsertTable(a, "/a0").has_value());
  ASSERT_TRUE(store_->InsertTable(b, "/b0").has_value());
  ASSERT_TRUE(Connect()->SwapMetadataLocation({b, "/b0", "/b1-other"}).has_value());

  std::vector<LocationSwap> swaps = {{a, "/a0", "/a1"}, {b, "/b0", "/b1"}};
  auto result = store_->SwapMetadataLocations(swaps);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().kind, ErrorKind::kConflict);
  EXPECT_EQ(store_->MetadataLocation(a).value(), "/a0");  // a's swap was rolled back
  EXPECT_EQ(store_->MetadataLocation(b).value(), "/b1-other");

  // A create in a transaction fails if the table appeared meanwhile.
  std::vector<LocationSwap> creates = {{a, "/a0", "/a1"}, {b, std::nullopt, "/b-new"}};
  EXPECT_EQ(store_->SwapMetadataLocations(creates).error().kind, ErrorKind::kConflict);
  EXPECT_EQ(store_->MetadataLocation(a).value(), "/a0");

  swaps[1].expected = "/b1-other";
  ASSERT_TRUE(store_->SwapMetadataLocations(swaps).has_value());
  EXPECT_EQ(store_->MetadataLocation(a).value(), "/a1");
  EXPECT_EQ(store_->MetadataLocation(b).value(), "/b1");
}

}  // namespace
}  // namespace databox::catalog::sql
