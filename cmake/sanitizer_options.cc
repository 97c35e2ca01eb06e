// Linked into every executable of a DATABOX_SANITIZE build (top-level CMakeLists.txt): the
// sanitizer runtimes call these for their default options; ASAN_OPTIONS / UBSAN_OPTIONS /
// LSAN_OPTIONS from the environment still override them.
//
// abort_on_error: a finding ends the process with SIGABRT, not exit code 1, so a test that
// expects a clean failure (`databox` exiting 1 on bad input) cannot mistake a sanitizer report
// for the expected error. detect_leaks: leaks fail the run too (the default on x86-64 Linux,
// stated so that it is a decision).

extern "C" {

const char* __asan_default_options() { return "abort_on_error=1:detect_leaks=1"; }
const char* __ubsan_default_options() { return "abort_on_error=1:print_stacktrace=1"; }
const char* __lsan_default_options() { return "abort_on_error=1"; }

// The one suppression (docs/reliability.md, section 5): DuckDB's excel extension (read_xlsx,
// COPY ... (FORMAT xlsx)) closes the file handles of its zip stream with an explicit destructor
// call and never frees them (96 bytes per workbook opened). The stack of that allocation stops
// inside libduckdb.so, which has no frame pointers, so the allocating function is the frame to
// match. Our code cannot leak such a handle: DuckDB's C API never hands FileHandles out.
const char* __lsan_default_suppressions() { return "leak:duckdb::LocalFileSystem::OpenFile\n"; }

}  // extern "C"
