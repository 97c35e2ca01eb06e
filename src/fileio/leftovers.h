// Leftovers of writers that died: a temporary file or folder whose name carries the pid of the
// process that made it (<prefix><pid>[-...]) is removable once that process is gone. Writers in
// a live process (this one included) are never touched, so concurrent writers are safe.
#pragma once

#include <filesystem>
#include <string_view>

namespace databox::fileio {

//! The pid in `name` = <prefix><pid>, <prefix><pid>-... or <prefix><pid>....; 0 when the name is
//! not one.
long PidOfLeftover(std::string_view name, std::string_view prefix);

//! Removes every entry of `dir` named <prefix><pid>, <prefix><pid>-... or <prefix><pid>.... (a
//! ".wal" beside a temporary database) whose pid names no live process; folders with all they
//! hold. Best effort: entries that cannot be removed are left. Returns how many were removed.
int RemoveLeftoversOfDeadProcesses(const std::filesystem::path& dir, std::string_view prefix);

//! RemoveLeftoversOfDeadProcesses the first time this process asks for `dir` and `prefix`,
//! nothing after that: a folder written into many times (a table's data or metadata folder) is
//! listed once per process. Thread-safe.
void RemoveLeftoversOfDeadProcessesOnce(const std::filesystem::path& dir, std::string_view prefix);

}  // namespace databox::fileio
