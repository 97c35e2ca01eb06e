#include "source/usfws_setup.h"

#include <memory>
#include <mutex>

#include "http/curl_transport.h"
#include "http/replay.h"

namespace databox::source {

UsfwsRunOptions UsfwsOptionsFromRegistry(const registry::TargetSettings& settings) {
  UsfwsRunOptions options;
  options.max_images_per_target = settings.max_images_per_target;
  options.request_max_attempts = settings.request_max_attempts;
  options.detail_workers = settings.detail_workers;
  options.contact = settings.contact;
  return options;
}

TransportMaker UsfwsTransports(const registry::ProjectSettings& project,
                               const registry::Source& source) {
  if (project.http.replay_dir) {
    struct Shared {
      std::mutex mutex;
      std::shared_ptr<http::Transport> replay;
    };
    auto shared = std::make_shared<Shared>();
    const auto folder = *project.http.replay_dir / source.name;
    const std::string name = source.name;
    return [shared, folder, name]() -> Result<std::shared_ptr<http::Transport>> {
      std::lock_guard lock(shared->mutex);
      if (!shared->replay) {
        auto loaded = http::ReplayTransport::Load(folder);
        if (!loaded) {
          return std::unexpected(loaded.error().WithContext(
              "source " + name + ": replay needs recordings in " + folder.string()));
        }
        shared->replay = std::shared_ptr<http::Transport>(std::move(*loaded));
      }
      return shared->replay;
    };
  }
  http::CurlOptions curl;
  curl.user_agent = project.http.user_agent;  // the request's User-Agent header overrides it
  curl.verify_tls = project.http.verify_tls;
  return [curl]() -> Result<std::shared_ptr<http::Transport>> {
    DATABOX_ASSIGN_OR_RETURN(auto transport, http::CurlTransport::Make(curl));
    return std::shared_ptr<http::Transport>(std::move(transport));
  };
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
