// Failpoints: a test hook that kills the process with SIGKILL at a named point of a load, so
// the reliability suite can prove crash consistency at exactly the moments that matter
// (docs/reliability.md, "Crash consistency").
//
// Armed only by the environment, read once per process:
//   DATABOX_FAILPOINT=<name>[:<nth>]   raise SIGKILL the nth time (default 1) <name> is reached
//   DATABOX_FAILPOINT_TRACE=<file>     append "<name>\n" to <file> each time any point is reached
// With neither set, Failpoint() returns after one test of a flag initialized on first use.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "common/error.h"

namespace databox {

//! Every point the code calls, in the order a load reaches them.
inline constexpr std::string_view kFailpointNames[] = {
    "after-extract",             //!< extraction finished, package marked extracted
    "after-data-files",          //!< one table's Parquet data files written (per table)
    "after-manifest-write",      //!< a snapshot's manifests and manifest list written (per table)
    "before-catalog-swap",       //!< new metadata written, catalog pointer not yet swapped (REST:
                                 //!< the commit request not yet sent)
    "before-commit-marker",      //!< the catalog accepted a commit, its marker not yet written
    "after-catalog-swap",        //!< the catalog accepted the commit, not yet returned
    "before-package-committed",  //!< commit done, load package not yet marked committed
    "before-run-history",        //!< load finished, run history record not yet appended
    "publish-after-file",        //!< publish: one data or delete file at the target (per file)
    "publish-after-table",       //!< publish: one raw table's metadata written (per table)
    "publish-before-pointer",    //!< publish: version written and validated, pointer not moved
    "publish-after-pointer",     //!< publish: pointer moved, old versions not yet removed
};

//! Kills the process with SIGKILL when DATABOX_FAILPOINT arms `name` and this is its nth hit.
void Failpoint(std::string_view name);

//! A parsed DATABOX_FAILPOINT value: which point, and on which hit it fires.
struct FailpointSpec {
  std::string name;
  int64_t nth = 1;  //!< 1 = the first time the point is reached
};

//! Parses "<name>[:<nth>]"; `name` must be one of kFailpointNames and nth >= 1.
Result<FailpointSpec> ParseFailpointSpec(std::string_view text);

}  // namespace databox
