#include "cli/fatal_error.h"

#include <gtest/gtest.h>

#include <exception>
#include <stdexcept>

#include "common/redact.h"

namespace databox::cli {
namespace {

//! What DuckDB's iceberg extension does with a failed manifest read while an error unwinds: an
//! exception reaches std::terminate.
[[noreturn]] void TerminateWhileHandling(const char* what) {
  try {
    throw std::runtime_error(what);
  } catch (...) {
    std::terminate();
  }
}

TEST(FatalErrorDeathTest, AnEscapedExceptionEndsWithOneRedactedLineAndStatusOne) {
  EXPECT_EXIT(
      {
        InstallFatalErrorHandler();
        RegisterSecret("s3cr3t-token");
        TerminateWhileHandling(
            R"({"exception_type":"HTTP","exception_message":"HTTP GET error reading 'http://h/s3cr3t-token/m1.avro' (HTTP 404 Not Found)\n\nNoSuchKey"})");
      },
      ::testing::ExitedWithCode(1),
      "^databox: stopped: .*could not finish: HTTP error: HTTP GET error reading "
      "'http://h/\\*\\*\\*/m1.avro' \\(HTTP 404 Not Found\\) NoSuchKey\n$");
}

TEST(FatalErrorDeathTest, WithoutAnExceptionItSaysSo) {
  EXPECT_EXIT(
      {
        InstallFatalErrorHandler();
        std::terminate();
      },
      ::testing::ExitedWithCode(1), "databox: stopped: .*without an exception");
}

}  // namespace
}  // namespace databox::cli
