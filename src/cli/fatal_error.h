// The last resort when an exception leaves code that may not throw and the C++ runtime calls
// std::terminate (seen with DuckDB's iceberg extension reading a table whose manifest is gone):
// one clear line on stderr and exit status 1 instead of the runtime's "terminate called ..." and
// an abort. The command's work stops where it was, as after a kill: a run is not recorded in the
// run history, and the next load of the source finds its unfinished load package and marks it
// failed (docs/load_package.md).
#pragma once

namespace databox::cli {

//! Makes std::terminate print "databox: stopped: <the exception, redacted>" on stderr and end the
//! process with status 1 (ExitCode::kRunFailed). Called once, first thing in Main.
void InstallFatalErrorHandler();

}  // namespace databox::cli
