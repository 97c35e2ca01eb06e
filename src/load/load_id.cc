#include "load/load_id.h"

#include <atomic>
#include <cinttypes>
#include <cstdio>

namespace databox::load {

std::string LoadIdAt(std::chrono::system_clock::time_point at) {
  const int64_t micros =
      std::chrono::duration_cast<std::chrono::microseconds>(at.time_since_epoch()).count();
  char buf[48];
  std::snprintf(buf, sizeof buf, "%" PRId64 ".%06" PRId64, micros / 1000000, micros % 1000000);
  return buf;
}

std::string NewLoadId() {
  static std::atomic<int64_t> last_micros{0};
  int64_t now = std::chrono::duration_cast<std::chrono::microseconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count();
  int64_t prev = last_micros.load();
  while (true) {
    const int64_t next = now > prev ? now : prev + 1;
    if (last_micros.compare_exchange_weak(prev, next)) {
      now = next;
      break;
    }
  }
  return LoadIdAt(std::chrono::system_clock::time_point(std::chrono::microseconds(now)));
}

}  // namespace databox::load
