// How a source reaches the network: makers of HTTP clients and transports that the composition
// root builds from the registry (live, recorded or replayed), called only when extraction needs
// one (never for a resumed package or a local file).
#pragma once

#include <functional>
#include <memory>

#include "common/error.h"
#include "http/client.h"
#include "http/transport.h"

namespace databox::source {

//! Makes the HTTP client a source extracts with.
using ClientMaker = std::function<Result<http::HttpClient>()>;

//! Makes the transport of one worker; called once per worker, from the calling thread.
using TransportMaker = std::function<Result<std::shared_ptr<http::Transport>>()>;

//! The network of one source.
struct Network {
  ClientMaker client;         //!< the source's timeouts and retries
  ClientMaker direct_client;  //!< the same, following no redirect (a download checks its own)
  TransportMaker transports;  //!< one transport per worker of a run that fetches in parallel
  bool replay = false;        //!< answers come from recordings: nothing to wait for
};

}  // namespace databox::source
