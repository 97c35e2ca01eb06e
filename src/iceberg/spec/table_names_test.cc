#include "iceberg/spec/table_names.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace databox::iceberg {
namespace {

TableNames Prefix(std::string prefix) {
  auto names = TableNames::Make(std::move(prefix));
  EXPECT_TRUE(names.has_value()) << names.error().ToString();
  return names.value_or(TableNames());
}

TEST(TableNames, WithoutPrefixEveryNameIsItsOwn) {
  const TableNames identity;
  EXPECT_FALSE(identity.Maps());
  EXPECT_EQ(identity.ToServer("_dlt_loads").value(), "_dlt_loads");
  EXPECT_EQ(identity.ToServer("dbx_anything").value(), "dbx_anything");
  EXPECT_EQ(identity.FromServer("dbx_dlt_loads"), "dbx_dlt_loads");
  EXPECT_FALSE(Prefix("").Maps());
}

TEST(TableNames, LeadingUnderscoreGetsThePrefix) {
  const TableNames names = Prefix("dbx");
  EXPECT_TRUE(names.Maps());
  EXPECT_EQ(names.ToServer("_dlt_loads").value(), "dbx_dlt_loads");
  EXPECT_EQ(names.ToServer("_dlt_load_status").value(), "dbx_dlt_load_status");
  EXPECT_EQ(names.ToServer("__double").value(), "dbx__double");
  EXPECT_EQ(names.ToServer("events").value(), "events");
  EXPECT_EQ(names.ToServer("events__tags").value(), "events__tags");
  EXPECT_EQ(names.ToServer("dbx").value(), "dbx");          // the prefix alone is an ordinary name
  EXPECT_EQ(names.ToServer("dbxlike").value(), "dbxlike");  // only P + '_' is reserved
}

TEST(TableNames, ServerNamesReadBack) {
  const TableNames names = Prefix("dbx");
  EXPECT_EQ(names.FromServer("dbx_dlt_loads"), "_dlt_loads");
  EXPECT_EQ(names.FromServer("dbx__double"), "__double");
  EXPECT_EQ(names.FromServer("events"), "events");
  EXPECT_EQ(names.FromServer("dbxlike"), "dbxlike");
  EXPECT_EQ(names.FromServer("dbx"), "dbx");
}

TEST(TableNames, EveryNameRoundTripsAndNoTwoShareAServerName) {
  const TableNames names = Prefix("s3t");
  const std::vector<std::string> databox_names = {
      "_dlt_loads", "_dlt_load_status", "_dlt_version", "_x",   "_",
      "events",     "events__tags",     "s3t",          "s3tx", "x_s3t_y",
      "s3"};
  std::vector<std::string> server_names;
  for (const std::string& name : databox_names) {
    auto server = names.ToServer(name);
    ASSERT_TRUE(server.has_value()) << name;
    EXPECT_NE(server->front(), '_') << name << " -> " << *server;
    EXPECT_EQ(names.FromServer(*server), name);
    EXPECT_EQ(std::ranges::count(server_names, *server), 0) << *server;
    server_names.push_back(*server);
  }
}

TEST(TableNames, ReservedNamesAreRefused) {
  const TableNames names = Prefix("dbx");
  auto refused = names.ToServer("dbx_dlt_loads");
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, ErrorKind::kConfig);
  EXPECT_NE(refused.error().message.find("'dbx_dlt_loads' is reserved"), std::string::npos)
      << refused.error().message;
  EXPECT_NE(refused.error().message.find("underscore_table_prefix"), std::string::npos);
  auto refused_id = names.ToServer(TableIdentifier{{"raw_x"}, "dbx_t"});
  ASSERT_FALSE(refused_id.has_value());
  EXPECT_NE(refused_id.error().message.find("table raw_x.dbx_t"), std::string::npos)
      << refused_id.error().message;
}

TEST(TableNames, IdentifiersKeepTheirNamespace) {
  const TableNames names = Prefix("dbx");
  const TableIdentifier id{{"raw_usgs"}, "_dlt_loads"};
  auto server = names.ToServer(id);
  ASSERT_TRUE(server.has_value());
  EXPECT_EQ(*server, (TableIdentifier{{"raw_usgs"}, "dbx_dlt_loads"}));
  EXPECT_EQ(names.FromServer(*server), id);
}

TEST(TableNames, PrefixMustStartWithALetterAndHoldOnlyLowercaseAndDigits) {
  for (const char* bad :
       {"_x", "9x", "Dbx", "db_x", "db-x", "d.x", "dbx_", "abcdefghijklmnopqrstuvwxyzabcdefg"}) {
    auto made = TableNames::Make(bad);
    ASSERT_FALSE(made.has_value()) << bad;
    EXPECT_EQ(made.error().kind, ErrorKind::kConfig);
    EXPECT_NE(made.error().message.find(bad), std::string::npos) << made.error().message;
  }
  EXPECT_TRUE(TableNames::Make("a").has_value());
  EXPECT_TRUE(TableNames::Make("abcdefghijklmnopqrstuvwxyzabcdef").has_value());  // 32
  EXPECT_TRUE(TableNames::Make("t3").has_value());
}

}  // namespace
}  // namespace databox::iceberg
