// Test support for the catalog drills (catalog_backup_test.cc, catalog_recover_test.cc): a
// workspace with the recorded sources usgs and noaa, and pyiceberg (check_tables.py --serve)
// as the independent reader of their namespaces.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness.h"

namespace databox::reliability {

inline const std::vector<std::string> kDrillSources = {"usgs", "noaa"};

//! `databox refresh --skip-transform --source usgs --source noaa`.
inline std::vector<std::string> DrillRefreshArgs() {
  std::vector<std::string> args = {"refresh", "--skip-transform"};
  for (const auto& s : kDrillSources) args.insert(args.end(), {"--source", s});
  return args;
}

class CatalogDrill : public testing::Test {
 protected:
  explicit CatalogDrill(const std::string& name) : ws_(name) {}

  void SetUp() override {
    for (const auto& s : kDrillSources) ws_.UseSharedRecordings(s);
    ws_.WriteRegistry();
  }

  //! pyiceberg's view of the sources' namespaces in the catalog of `state_dir`.
  nlohmann::json Read(const fs::path& state_dir) {
    nlohmann::json request = {{"state_dir", state_dir.string()},
                              {"namespaces", nlohmann::json::array()},
                              {"keys", nlohmann::json::object()},
                              {"content", true},
                              {"files", false}};
    for (const auto& s : kDrillSources) {
      request["namespaces"].push_back("raw_" + s);
      request["keys"]["raw_" + s + "._dlt_loads"] = {"load_id"};
      request["keys"]["raw_" + s + "._dlt_load_status"] = {"load_id"};
    }
    return reader_.Ask(request);
  }

  //! Every source has tables; load ids are unique and both system tables agree.
  void ExpectConsistent(const nlohmann::json& view, const std::string& when) {
    ASSERT_FALSE(view.contains("error")) << when << ": " << view.dump();
    for (const auto& s : kDrillSources) {
      const nlohmann::json& tables = view["namespaces"]["raw_" + s]["tables"];
      ASSERT_TRUE(tables.contains("_dlt_loads")) << when << ": raw_" << s << " " << tables.dump();
      for (const char* t : {"_dlt_loads", "_dlt_load_status"}) {
        EXPECT_EQ(tables[t]["duplicate_keys"], 0) << when << ": raw_" << s << "." << t;
      }
      EXPECT_EQ(tables["_dlt_loads"]["rows"], tables["_dlt_load_status"]["rows"])
          << when << ": raw_" << s;
    }
  }

  //! Every source table (not _dlt_) of `next` holds the rows it held in `before`.
  static void ExpectSameContent(const nlohmann::json& before, const nlohmann::json& next) {
    for (const auto& s : kDrillSources) {
      const std::string ns = "raw_" + s;
      for (const auto& [name, entry] : before["namespaces"][ns]["tables"].items()) {
        if (name.starts_with("_dlt_")) continue;
        EXPECT_EQ(next["namespaces"][ns]["tables"][name]["content_digest"], entry["content_digest"])
            << ns << "." << name << ": the same recorded input must leave the same rows";
      }
    }
  }

  //! Deletes the catalog database with its WAL files.
  void LoseTheCatalog() {
    for (const char* suffix : {"", "-wal", "-shm"}) {
      fs::remove(ws_.state_dir() / (std::string("catalog.sqlite") + suffix));
    }
  }

  //! Every table of the sources' namespaces -> its metadata location in the catalog.
  std::map<std::string, std::string> Pointers() const {
    std::map<std::string, std::string> all;
    for (const auto& s : kDrillSources) {
      for (const auto& [name, location] : ws_.Tables("raw_" + s))
        all["raw_" + s + "." + name] = location;
    }
    return all;
  }

  Workspace ws_;
  PyicebergServer reader_;
};

}  // namespace databox::reliability
