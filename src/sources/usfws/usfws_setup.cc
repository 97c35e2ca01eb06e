#include "sources/usfws/usfws_setup.h"

#include <mutex>

namespace databox::source {

UsfwsRunOptions UsfwsOptionsFromRegistry(const registry::TargetSettings& settings) {
  UsfwsRunOptions options;
  options.max_images_per_target = settings.max_images_per_target;
  options.request_max_attempts = settings.request_max_attempts;
  options.detail_workers = settings.detail_workers;
  options.contact = settings.contact;
  return options;
}

void RecordedWaits::SleepFor(std::chrono::milliseconds duration) {
  std::lock_guard lock(mutex_);
  waits_.push_back(duration);
}

std::string RecordedWaits::Summary() const {
  std::lock_guard lock(mutex_);
  std::string out;
  for (const auto wait : waits_) {
    if (!out.empty()) out += ", ";
    const auto millis = wait.count();
    out += millis % 1000 == 0 ? std::to_string(millis / 1000)
                              : std::to_string(millis / 1000) + "." +
                                    std::to_string(millis % 1000 + 1000).substr(1);
  }
  return out.empty() ? out : out + " s";
}

}  // namespace databox::source
