// The HTTP client of one source, built from the registry's [project.http] and the source's
// overrides: live (libcurl) or, in replay mode, answered from <replay>/<source name>/.
#pragma once

#include "common/error.h"
#include "http/client.h"
#include "registry/model.h"

namespace databox::source {

//! Client options (timeouts, retries, backoff) for `source` under `project`.
http::ClientOptions SourceClientOptions(const registry::ProjectSettings& project,
                                        const registry::Source& source);

//! A client for `source`. Replay mode: a ReplayTransport over <replay_dir>/<source name>/
//! (kNotFound when that folder holds no recording). `timing` (not owned) replaces the real
//! retry clock and sleep when set.
Result<http::HttpClient> MakeSourceClient(const registry::ProjectSettings& project,
                                          const registry::Source& source,
                                          http::RetryTiming* timing = nullptr);

}  // namespace databox::source
