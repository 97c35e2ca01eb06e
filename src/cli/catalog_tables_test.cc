// Suggestions for a table name that is not in the catalog.
#include "cli/catalog_tables.h"

#include <gtest/gtest.h>

namespace databox::cli {
namespace {

const std::vector<iceberg::TableIdentifier> kTables = {
    {{"raw_noaa"}, "daily_weather"}, {{"raw_noaa"}, "stations"}, {{"raw_usgs"}, "sites"}};

TEST(CatalogTablesTest, SuggestsCloseNamesSameTableNamesAndANamespacesTables) {
  EXPECT_EQ(TableSuggestion("raw_usgs.site", kTables), " (did you mean raw_usgs.sites?)");
  EXPECT_EQ(TableSuggestion("noaa.daily_weather", kTables),
            " (did you mean raw_noaa.daily_weather?)");
  EXPECT_EQ(TableSuggestion("raw_noaa", kTables),
            " (did you mean raw_noaa.daily_weather, raw_noaa.stations?)");
}

TEST(CatalogTablesTest, NothingCloseSendsToTheList) {
  EXPECT_EQ(TableSuggestion("ebird.observations", kTables),
            "; `databox catalog list` lists the tables");
  EXPECT_EQ(TableSuggestion("x", {}), "; `databox catalog list` lists the tables");
}

}  // namespace
}  // namespace databox::cli
