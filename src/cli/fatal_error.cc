#include "cli/fatal_error.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "common/exit_code.h"
#include "common/redact.h"
#include "duck/escaped_error.h"

namespace databox::cli {
namespace {

//! What std::current_exception holds, on one line.
std::string EscapedExceptionText() {
  const std::exception_ptr escaped = std::current_exception();
  if (!escaped) return "std::terminate was called without an exception";
  try {
    std::rethrow_exception(escaped);
  } catch (const std::exception& e) {
    return duck::DescribeEscapedError(e.what());
  } catch (...) {
    return "an exception of an unknown type";
  }
}

[[noreturn]] void OnTerminate() {
  const std::string line = Redact(
                               "databox: stopped: an error escaped a library where it could not "
                               "be handled, so the command could not finish: " +
                               EscapedExceptionText()) +
                           "\n";
  std::fflush(stdout);
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
  std::_Exit(ExitCodeNumber(ExitCode::kRunFailed));
}

}  // namespace

void InstallFatalErrorHandler() { std::set_terminate(OnTerminate); }

}  // namespace databox::cli
