// A Transport that sends through another one and writes every exchange into a VCR YAML cassette
// that ReplayTransport reads (`databox run --record`). Nothing secret reaches the file: URLs go
// through RedactUrl (credential query values masked), credential headers are masked, and every
// text passes through Redact (registered secrets masked), so a server that echoes a key does not
// leak it either.
#pragma once

#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/error.h"
#include "http/transport.h"

namespace databox::http {

class RecordingTransport final : public Transport {
 public:
  //! Records what `inner` answers into `cassette` (its folder is created; an existing file is
  //! replaced). The file is rewritten after every response, so an interrupted run keeps what it
  //! received. Bodies are stored decoded: text as `string`, other bytes as `!!binary`, without
  //! the Content-Encoding and Content-Length of the transfer.
  RecordingTransport(std::shared_ptr<Transport> inner, std::filesystem::path cassette)
      : inner_(std::move(inner)), cassette_(std::move(cassette)) {}

  //! Sends through the inner transport; a response that cannot be written is a kIo error (a
  //! recording run must not succeed with a partial cassette). Transport failures are not
  //! recorded.
  Result<Response> Send(const Request& request, const AttemptLimits& limits) override;

 private:
  //! One exchange, already redacted.
  struct Interaction {
    Method method;
    std::string uri;
    std::vector<std::pair<std::string, std::string>> request_headers;
    long status = 0;
    std::vector<std::pair<std::string, std::string>> response_headers;
    std::string body;
  };

  Status Write() const;  //!< requires mutex_

  std::shared_ptr<Transport> inner_;
  std::filesystem::path cassette_;
  std::mutex mutex_;
  std::vector<Interaction> interactions_;  //!< guarded by mutex_
};

}  // namespace databox::http
