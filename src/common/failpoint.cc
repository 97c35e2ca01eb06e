#include "common/failpoint.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdlib>
#include <memory>

namespace databox {
namespace {

//! What the environment asked for; built once, on the first Failpoint() call.
struct Armed {
  std::optional<FailpointSpec> spec;  //!< the point that kills, if any
  int trace_fd = -1;                  //!< DATABOX_FAILPOINT_TRACE, opened for appending
  std::atomic<int64_t> hits{0};       //!< times spec->name was reached (loads run in threads)
  bool any() const { return spec.has_value() || trace_fd >= 0; }
};

void WriteAll(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = write(fd, text.data(), text.size());
    if (n <= 0) return;
    text.remove_prefix(static_cast<size_t>(n));
  }
}

Armed* FromEnvironment() {
  const char* spec = std::getenv("DATABOX_FAILPOINT");
  const char* trace = std::getenv("DATABOX_FAILPOINT_TRACE");
  if ((spec == nullptr || *spec == '\0') && (trace == nullptr || *trace == '\0')) return nullptr;
  auto armed = std::make_unique<Armed>();  // released: lives until the process ends
  if (spec != nullptr && *spec != '\0') {
    auto parsed = ParseFailpointSpec(spec);
    if (parsed) {
      armed->spec = std::move(*parsed);
    } else {
      WriteAll(2, "databox: DATABOX_FAILPOINT ignored: " + parsed.error().message + "\n");
    }
  }
  if (trace != nullptr && *trace != '\0') {
    armed->trace_fd = open(trace, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  }
  return armed->any() ? armed.release() : nullptr;
}

}  // namespace

Result<FailpointSpec> ParseFailpointSpec(std::string_view text) {
  FailpointSpec spec;
  const auto colon = text.find(':');
  spec.name = std::string(text.substr(0, colon));
  if (colon != std::string_view::npos) {
    const std::string_view nth = text.substr(colon + 1);
    const auto [end, ec] = std::from_chars(nth.data(), nth.data() + nth.size(), spec.nth);
    if (ec != std::errc() || end != nth.data() + nth.size() || spec.nth < 1) {
      return MakeError(ErrorKind::kConfig, "failpoint '" + std::string(text) +
                                               "': the hit count after ':' must be a whole "
                                               "number >= 1");
    }
  }
  if (std::find(std::begin(kFailpointNames), std::end(kFailpointNames), spec.name) ==
      std::end(kFailpointNames)) {
    std::string known;
    for (std::string_view name : kFailpointNames)
      known += (known.empty() ? "" : ", ") + std::string(name);
    return MakeError(ErrorKind::kConfig,
                     "unknown failpoint '" + spec.name + "'; known points: " + known);
  }
  return spec;
}

void Failpoint(std::string_view name) {
  static Armed* const armed = FromEnvironment();
  if (armed == nullptr) return;
  if (armed->trace_fd >= 0) WriteAll(armed->trace_fd, std::string(name) + "\n");
  if (!armed->spec || armed->spec->name != name) return;
  const int64_t hit = ++armed->hits;
  if (hit != armed->spec->nth) return;
  WriteAll(2, "databox: failpoint " + std::string(name) + " hit " + std::to_string(hit) +
                  ": raising SIGKILL (DATABOX_FAILPOINT)\n");
  raise(SIGKILL);
}

}  // namespace databox
