// What `databox loads` prints: the load packages of load/load_package.h as one line per package
// (source, load id, state, created, changed, whether --resume takes it, size, error) and as
// JSON. Pure functions of the summaries, so tests give them summaries instead of running loads.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "load/load_package.h"

namespace databox::cli {

//! "0 B", "512 B", "1.5 KiB", "12.0 MiB", "3.2 GiB".
std::string FormatBytes(std::uintmax_t bytes);

//! The table `databox loads` prints: a header and one line per package, in the given order;
//! errors longer than a line are cut (the JSON has them whole). `empty` is printed instead
//! when there is no package.
std::string FormatLoadList(const std::vector<load::PackageSummary>& packages,
                           const std::string& empty);

//! The same as a JSON array, one object per package.
nlohmann::ordered_json LoadListJson(const std::vector<load::PackageSummary>& packages);

}  // namespace databox::cli
