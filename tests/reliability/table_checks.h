// What the reliability suite asks of the tables after a fault (test-only): the sources every
// crash-style test loads, the request that makes pyiceberg (check_tables.py --serve) read them,
// and the invariants a source's tables must keep whatever happened to a load.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace databox::reliability {

//! The six recorded routine sources of the example registry.
extern const std::vector<std::string> kRoutineSources;

//! The namespace of `source`'s raw tables.
inline std::string Ns(const std::string& source) { return "raw_" + source; }

//! A PyicebergServer request for every table of `sources` in `state_dir`, with content digests,
//! the two load tables keyed by load id, and the file census when `files`.
nlohmann::json ContentRequest(const std::filesystem::path& state_dir,
                              const std::vector<std::string>& sources, bool files);

//! What is wrong with one source's `tables` (its namespace's "tables", as the reader answered)
//! compared with a clean load's `reference` tables: a data table whose rows differ (lost,
//! duplicated or changed), an unexpected table, a load id twice in _dlt_loads or
//! _dlt_load_status, the two with different row counts. When `complete` (the source has loaded
//! successfully), also a missing data table and no load status row. Empty when all is well.
std::vector<std::string> ContentProblems(const std::string& source, const nlohmann::json& tables,
                                         const nlohmann::json& reference, bool complete);

}  // namespace databox::reliability
