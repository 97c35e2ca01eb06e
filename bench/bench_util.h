// Helpers shared by the benchmark programs (not product code): fail-fast unwrapping of
// Result/Status, wall-clock seconds, peak RSS, and a temporary warehouse with an embedded
// SQLite catalog on local disk.
#pragma once

#include <stdlib.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "catalog/sql/sql_catalog.h"
#include "common/error.h"
#include "fileio/local/local_file_io.h"
#include "iceberg/spec/types.h"

namespace databox::bench {

using Clock = std::chrono::steady_clock;

inline double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

//! The value of `result`, or exits with `what` and the error: a benchmark has no recovery.
template <typename T>
T Must(Result<T> result, const char* what) {
  if (!result) {
    std::fprintf(stderr, "%s: %s\n", what, result.error().ToString().c_str());
    std::exit(1);
  }
  return std::move(*result);
}

inline void Must(Status status, const char* what) {
  if (!status) {
    std::fprintf(stderr, "%s: %s\n", what, status.error().ToString().c_str());
    std::exit(1);
  }
}

//! The value at quantile `q` (0..1) of `values` (nearest rank; 0.5: the median, the upper
//! middle value of an even count). `values` must not be empty.
inline double Quantile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  const size_t rank = static_cast<size_t>(q * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(rank, values.size() - 1)];
}

//! A schema field of a benchmark table (optional unless `required`).
inline iceberg::NestedField Field(int32_t id, const char* name, iceberg::Type type,
                                  bool required = false) {
  return iceberg::NestedField{
      .id = id, .name = name, .required = required, .type = type, .doc = {}};
}

//! Peak resident set size of this process so far, in MB.
inline double PeakRssMb() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

//! A temporary folder holding a local warehouse and its SQLite catalog, removed on exit.
struct Warehouse {
  std::filesystem::path dir;                          //!< the temporary folder
  std::shared_ptr<fileio::LocalFileIO> io;            //!< local file IO
  std::unique_ptr<catalog::sql::SqlCatalog> catalog;  //!< catalog "bench" in dir/c.db

  //! Creates the folder (under `parent`, or the system temp folder when empty), the catalog
  //! and namespace `bench`.
  static std::unique_ptr<Warehouse> Make(const std::string& parent = "") {
    const std::filesystem::path base =
        parent.empty() ? std::filesystem::temp_directory_path() : std::filesystem::path(parent);
    std::string templ = (base / "databox_bench_XXXXXX").native();
    if (::mkdtemp(templ.data()) == nullptr) {
      std::fprintf(stderr, "cannot create a temporary folder under %s\n", base.c_str());
      std::exit(1);
    }
    auto w = std::make_unique<Warehouse>();
    w->dir = templ;
    w->io = std::make_shared<fileio::LocalFileIO>();
    w->catalog =
        Must(catalog::sql::SqlCatalog::Open({.name = "bench",
                                             .uri = "sqlite:///" + (w->dir / "c.db").native(),
                                             .warehouse = "file://" + (w->dir / "wh").native()},
                                            w->io),
             "open catalog");
    Must(w->catalog->CreateNamespace({"bench"}, {}), "create namespace");
    return w;
  }

  //! Location of table `name` in namespace `bench`.
  std::string Location(const std::string& name) const {
    return "file://" + (dir / "wh" / "bench" / name).native();
  }

  Warehouse() = default;
  Warehouse(const Warehouse&) = delete;
  Warehouse& operator=(const Warehouse&) = delete;
  ~Warehouse() {
    if (dir.empty()) return;
    catalog.reset();
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
};

}  // namespace databox::bench
