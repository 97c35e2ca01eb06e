// The HTTP clients of sources, built from the registry's [project.http] and the source's
// overrides: live (libcurl) or, in replay mode, answered from <replay>/<source name>/.
#pragma once

#include <filesystem>

#include "common/error.h"
#include "http/client.h"
#include "registry/model.h"
#include "source/network.h"

namespace databox::platform {

//! Client options (timeouts, retries, backoff) for `source` under `project`.
http::ClientOptions SourceClientOptions(const registry::ProjectSettings& project,
                                        const registry::Source& source);

//! Where `databox run --record` writes the responses of `source`: <its replay
//! folder>/recorded.yaml.
std::filesystem::path RecordedCassette(const registry::Source& source);

//! A client for `source`. Record mode (Source::record, rest_json sources): live, every exchange
//! written, redacted, into RecordedCassette(source). Replay mode: a ReplayTransport over
//! <replay_dir>/<source name>/ (kNotFound when that folder holds no recording). `timing` (not
//! owned) replaces the real retry clock and sleep when set.
Result<http::HttpClient> MakeSourceClient(const registry::ProjectSettings& project,
                                          const registry::Source& source,
                                          http::RetryTiming* timing = nullptr);

//! The HTTP client of a file source: the source's timeouts and retries, redirects not followed
//! (DownloadPinnedFile checks the one redirect itself). Replay mode: answered from
//! <replay>/<source>/ like other sources.
Result<http::HttpClient> MakeFileClient(const registry::ProjectSettings& project,
                                        const registry::Source& source);

//! The transports of one run of a source that fetches in parallel, one per worker
//! (source::TransportMaker).
//! Replay mode: one ReplayTransport over <replay_dir>/<source name>/, loaded on the first call
//! and shared (it is thread-safe); a request it does not hold is a transport error, which the
//! source retries like one. Live: a new libcurl transport per call, TLS verified as
//! [project.http] says, following redirects by the source's redirect_hosts (http/redirects.h).
source::TransportMaker MakeSourceTransports(const registry::ProjectSettings& project,
                                            const registry::Source& source);

}  // namespace databox::platform
