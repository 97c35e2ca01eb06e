// Catalog recovery drills (docs/catalog_recovery.md), against the built binary and real files,
// checked with pyiceberg (check_tables.py --serve) as an independent reader:
//  - refreshes of recorded sources (merges, noaa's replaced `datasets`, a column added to
//    noaa's daily weather by the second refresh) and a snapshot expiry,
//    then the catalog file is deleted and `catalog recover --from-warehouse --apply` rebuilds
//    it: every table at the same metadata file, snapshot, schema and rows as before, and the
//    next refresh adds no duplicates;
//  - a refresh killed before its catalog swap: its complete new metadata files are reported as
//    unconfirmed and not chosen;
//  - a refresh killed after its swap but before its commit marker (the documented window): the
//    committed files are reported unconfirmed, and --include-unconfirmed takes them;
//  - an old backup restored with --roll-forward keeps the commits made after it.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "catalog_drill.h"

namespace databox::reliability {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

class CatalogRecoveryDrill : public CatalogDrill {
 protected:
  CatalogRecoveryDrill() : CatalogDrill("catalog_recover") {}

  void Refresh(const std::vector<std::string>& env = {}) {
    auto refreshed = ws_.Databox(DrillRefreshArgs(), env);
    ASSERT_EQ(refreshed.exit_code, 0) << refreshed.out << refreshed.err;
  }

  //! A refresh killed at failpoint `point` (its first hit), of every drill source or of `only`.
  void RefreshKilledAt(const std::string& point, const std::string& only = "") {
    auto args = only.empty()
                    ? DrillRefreshArgs()
                    : std::vector<std::string>{"refresh", "--skip-transform", "--source", only};
    auto killed = ws_.Databox(args, {"DATABOX_FAILPOINT=" + point});
    ASSERT_NE(killed.exit_code, 0) << killed.out << killed.err;
    ASSERT_NE(killed.err.find("failpoint " + point), std::string::npos) << killed.err;
  }

  //! `databox catalog recover --from-warehouse --json` with `flags`; its JSON report.
  json Recover(const std::vector<std::string>& flags, int expected_exit = 0) {
    std::vector<std::string> args = {"catalog", "recover", "--from-warehouse", "--json"};
    args.insert(args.end(), flags.begin(), flags.end());
    auto run = ws_.Databox(args);
    EXPECT_EQ(run.exit_code, expected_exit) << run.out << run.err;
    return json::parse(run.out, nullptr, /*allow_exceptions=*/false);
  }

  //! Table -> the metadata location the report chose.
  static std::map<std::string, std::string> Chosen(const json& report) {
    std::map<std::string, std::string> chosen;
    for (const auto& t : report["tables"]) {
      if (t["metadata_location"].is_string()) chosen[t["table"]] = t["metadata_location"];
    }
    return chosen;
  }

  //! Locations the report refused as unconfirmed.
  static std::set<std::string> Unconfirmed(const json& report) {
    std::set<std::string> out;
    for (const auto& t : report["tables"]) {
      for (const auto& r : t["refused"]) {
        if (r["unconfirmed"] == true) out.insert(r["metadata_location"].get<std::string>());
      }
    }
    return out;
  }

  //! The catalog points every table at `pointers` and pyiceberg sees `before` (snapshot,
  //! parent, load id, schema, rows and row digest of every table, _dlt_ tables too); the next
  //! refresh then keeps the rows and adds no duplicate load.
  void ExpectRecovered(const std::map<std::string, std::string>& pointers, const json& before,
                       const std::string& how) {
    EXPECT_EQ(Pointers(), pointers);
    const fs::path view = FreshView("expected-view");
    EXPECT_EQ(Read(view), before);
    Refresh();
    const json next = Read(view);
    ExpectConsistent(next, "after the refresh on the " + how + " catalog");
    ExpectSameContent(before, next);
  }

  //! The registry's noaa daily weather resource gains a column, `quality_note` (what an
  //! operator does when a source starts sending a field): the next refresh adds it to
  //! raw_noaa.daily_weather (schema evolution, a new schema id in its metadata).
  void EvolveNoaaDailyWeather() {
    const fs::path registry = ws_.dir() / "databox.toml";
    std::ifstream in(registry, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string select = "record->>'$.attributes' AS attributes,\n";
    const size_t at = text.find(select);
    ASSERT_NE(at, std::string::npos) << "the example's daily weather transform changed";
    text.insert(at + select.size(), "       'evolved' AS quality_note,\n");
    std::ofstream(registry, std::ios::binary) << text;
  }

  //! The columns of `table` ("raw_noaa.daily_weather") in a pyiceberg view.
  static std::string SchemaOf(const json& view, const std::string& ns, const std::string& table) {
    return view["namespaces"][ns]["tables"][table]["schema"].get<std::string>();
  }

  //! The state folder under another path: pyiceberg keeps a connection per path, and its
  //! connection to a deleted catalog file could still read the old content.
  fs::path FreshView(const std::string& name) {
    const fs::path view = ws_.dir() / name;
    fs::create_directory_symlink(ws_.state_dir(), view);
    return view;
  }
};

TEST_F(CatalogRecoveryDrill, RecoverFromTheWarehouseAloneKeepsEveryCommit) {
  Refresh();
  const json first = Read(ws_.state_dir());
  ASSERT_EQ(SchemaOf(first, "raw_noaa", "daily_weather").find("quality_note"), std::string::npos);
  EvolveNoaaDailyWeather();
  Refresh();
  auto expired = ws_.Databox({"maintain", "--all", "--expire-snapshots", "--retain-last", "1",
                              "--remove", "--older-than", "0m"});
  ASSERT_EQ(expired.exit_code, 0) << expired.out << expired.err;
  ASSERT_NE(expired.out.find("expired"), std::string::npos) << expired.out;
  EXPECT_NE(expired.out.find("commit markers: "), std::string::npos) << expired.out;
  const json before = Read(ws_.state_dir());
  ExpectConsistent(before, "before losing the catalog");
  ASSERT_NE(SchemaOf(before, "raw_noaa", "daily_weather").find("quality_note"), std::string::npos)
      << "the evolved recordings added no column: "
      << SchemaOf(before, "raw_noaa", "daily_weather");
  const auto pointers = Pointers();
  ASSERT_GE(pointers.size(), 6u);

  LoseTheCatalog();
  const json dry = Recover({});
  ASSERT_TRUE(dry.is_object());
  EXPECT_EQ(dry["applied"], false);
  EXPECT_EQ(Chosen(dry), pointers) << dry.dump(2);
  for (const auto& t : dry["tables"]) EXPECT_EQ(t["action"], "register") << t.dump();
  EXPECT_FALSE(fs::exists(ws_.state_dir() / "catalog.sqlite")) << "a dry run created the catalog";

  const auto start = Clock::now();
  const json applied = Recover({"--apply"});
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_EQ(Chosen(applied), pointers);
  std::cout << "catalog recover --from-warehouse --apply: " << applied["tables"].size()
            << " tables from " << applied["metadata_files"] << " metadata files and "
            << applied["commit_markers"] << " commit markers in " << seconds
            << " s (the command's own timing: " << applied["seconds"] << " s)\n";
  ExpectRecovered(pointers, before, "recovered");
}

TEST_F(CatalogRecoveryDrill, ACommitKilledBeforeItsSwapIsNotRecovered) {
  Refresh();
  const json before = Read(ws_.state_dir());
  const auto pointers = Pointers();
  RefreshKilledAt("before-catalog-swap");
  ASSERT_EQ(Pointers(), pointers) << "the killed commit must not have landed";

  LoseTheCatalog();
  const json dry = Recover({});
  EXPECT_EQ(Chosen(dry), pointers) << dry.dump(2);
  const auto unconfirmed = Unconfirmed(dry);
  ASSERT_FALSE(unconfirmed.empty()) << "the killed commit wrote metadata files: " << dry.dump(2);
  for (const auto& location : unconfirmed) {
    EXPECT_NE(location.find("/metadata/"), std::string::npos) << location;
  }
  Recover({"--apply"});
  EXPECT_EQ(Pointers(), pointers);
  EXPECT_EQ(Read(FreshView("recovered-view")), before);
}

TEST_F(CatalogRecoveryDrill, ACommitKilledBeforeItsMarkerIsUnconfirmedUntilOptedIn) {
  Refresh();
  const auto first = Pointers();
  // One source: with two, the other source's commit can be between writing its metadata files
  // and its swap when the kill comes; its files are then rightly unconfirmed too, and an
  // opted-in recovery would take them although they never landed (the documented risk).
  RefreshKilledAt("before-commit-marker", "usgs");
  const auto committed = Pointers();
  std::set<std::string> landed;  // what the killed commit swapped in, without a marker
  for (const auto& [table, location] : committed) {
    if (!first.contains(table) || first.at(table) != location) landed.insert(location);
  }
  ASSERT_FALSE(landed.empty());

  LoseTheCatalog();
  const json dry = Recover({});
  EXPECT_EQ(Unconfirmed(dry), landed) << dry.dump(2);
  const json opted = Recover({"--include-unconfirmed", "--apply"});
  EXPECT_EQ(Chosen(opted), committed) << opted.dump(2);
  EXPECT_EQ(Pointers(), committed);
}

TEST_F(CatalogRecoveryDrill, AnOldBackupRolledForwardKeepsTheCommitsAfterIt) {
  Refresh();
  auto backup = ws_.Databox({"catalog", "backup", "--to", (ws_.dir() / "backups").string()});
  ASSERT_EQ(backup.exit_code, 0) << backup.out << backup.err;
  const auto at_backup = Pointers();
  Refresh();
  const json latest = Read(ws_.state_dir());
  const auto pointers = Pointers();
  ASSERT_NE(pointers, at_backup) << "the second refresh committed nothing";

  LoseTheCatalog();
  fs::path folder;
  for (const auto& entry : fs::directory_iterator(ws_.dir() / "backups")) folder = entry.path();
  const auto start = Clock::now();
  auto restored = ws_.Databox({"catalog", "restore", folder.string(), "--roll-forward"});
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  ASSERT_EQ(restored.exit_code, 0) << restored.out << restored.err;
  EXPECT_NE(restored.out.find("rolled forward"), std::string::npos) << restored.out;
  std::cout << "catalog restore --roll-forward of " << pointers.size() << " tables: " << seconds
            << " s\n";
  ExpectRecovered(pointers, latest, "rolled forward");
}

}  // namespace
}  // namespace databox::reliability
