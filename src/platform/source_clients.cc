#include "platform/source_clients.h"

#include <memory>
#include <mutex>

#include "http/curl_transport.h"
#include "http/recording.h"
#include "http/redirects.h"
#include "http/replay.h"

namespace databox::platform {
namespace {

std::chrono::milliseconds Millis(double seconds) {
  return std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
}

http::RedirectPolicy SourceRedirectPolicy(const registry::Source& source) {
  http::RedirectPolicy policy;
  policy.allowed_hosts = source.redirect_hosts;
  policy.allow_setting = "redirect_hosts of source " + source.name;
  return policy;
}

}  // namespace

std::filesystem::path RecordedCassette(const registry::Source& source) {
  return source.replay_dir.value_or(std::filesystem::path()) / "recorded.yaml";
}

http::ClientOptions SourceClientOptions(const registry::ProjectSettings& project,
                                        const registry::Source& source) {
  const registry::HttpSettings& h = project.http;
  http::ClientOptions options;
  options.timeout = Millis(source.timeout_s.value_or(h.timeout_s));
  options.connect_timeout = Millis(h.connect_timeout_s);
  options.retry.max_attempts = source.retries.value_or(h.retries) + 1;
  options.retry.base_delay = Millis(source.backoff_initial_s.value_or(h.backoff_initial_s));
  options.retry.max_delay = Millis(source.backoff_max_s.value_or(h.backoff_max_s));
  options.redirects = SourceRedirectPolicy(source);
  return options;
}

namespace {

//! A client of `source` with `options`: replaying, recording or live, as the source says.
Result<http::HttpClient> MakeClientWith(const registry::ProjectSettings& project,
                                        const registry::Source& source,
                                        http::ClientOptions options) {
  if (source.replay()) {
    const auto folder = *source.replay_dir;
    auto replay = http::ReplayTransport::Load(folder);
    if (!replay) {
      return std::unexpected(replay.error().WithContext(
          "source " + source.name + ": replay needs recordings in " + folder.string()));
    }
    return http::HttpClient::WithTransport(std::shared_ptr<http::Transport>(std::move(*replay)),
                                           options);
  }
  http::CurlOptions curl;
  curl.user_agent = project.http.user_agent;
  curl.verify_tls = project.http.verify_tls;
  if (source.record && source.replay_dir) {
    DATABOX_ASSIGN_OR_RETURN(auto live, http::CurlTransport::Make(curl));
    auto recorder = std::make_shared<http::RecordingTransport>(
        std::shared_ptr<http::Transport>(std::move(live)), RecordedCassette(source));
    return http::HttpClient::WithTransport(std::move(recorder), options);
  }
  return http::HttpClient::Make(options, curl);
}

}  // namespace

Result<http::HttpClient> MakeSourceClient(const registry::ProjectSettings& project,
                                          const registry::Source& source,
                                          http::RetryTiming* timing) {
  http::ClientOptions options = SourceClientOptions(project, source);
  options.timing = timing;
  return MakeClientWith(project, source, std::move(options));
}

Result<http::HttpClient> MakeFileClient(const registry::ProjectSettings& project,
                                        const registry::Source& source) {
  // The download checks its one redirect itself (replayed or recorded too).
  http::ClientOptions options = SourceClientOptions(project, source);
  options.redirects.follow = false;
  return MakeClientWith(project, source, std::move(options));
}

source::TransportMaker MakeSourceTransports(const registry::ProjectSettings& project,
                                            const registry::Source& source) {
  if (source.replay()) {
    struct Shared {
      std::mutex mutex;
      std::shared_ptr<http::Transport> replay;
    };
    auto shared = std::make_shared<Shared>();
    const auto folder = *source.replay_dir;
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
  return
      [curl, policy = SourceRedirectPolicy(source)]() -> Result<std::shared_ptr<http::Transport>> {
        DATABOX_ASSIGN_OR_RETURN(auto transport, http::CurlTransport::Make(curl));
        return std::make_shared<http::RedirectTransport>(std::move(transport), policy);
      };
}

}  // namespace databox::platform
