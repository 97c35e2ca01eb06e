// Paths of the checkout and the build that tests need (test-only header). They are defined in
// files CMake generates for each build folder (cmake/TestPaths.cmake), linked as the libraries
// databox_test_paths and databox_test_binary: no compile command names the checkout's path, so a
// clone at another path reuses the objects ccache keeps of every test file.
#pragma once

#include <string>

namespace databox::test_paths {

//! The root of the checkout (CMake's PROJECT_SOURCE_DIR).
const std::string& SourceDir();
//! The recorded source responses the tests replay (DATABOX_RECORDINGS_DIR, fixtures/recordings).
const std::string& RecordingsDir();
//! The project virtualenv (DATABOX_VENV_DIR, .venv).
const std::string& VenvDir();
//! Where scripts/setup puts the downloaded dependencies (DATABOX_DEPS_DIR, .deps).
const std::string& DepsDir();
//! The build folder (CMake's PROJECT_BINARY_DIR).
const std::string& BuildDir();
//! The databox binary the test runs: this build's (databox_test_binary), or another a test
//! program names itself (tests/reliability: DATABOX_RELIABILITY_BINARY).
const std::string& DataboxBinary();

}  // namespace databox::test_paths
