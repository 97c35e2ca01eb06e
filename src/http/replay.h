// A Transport that answers from recorded HTTP interactions (VCR YAML cassettes), never from
// the network. The format is described in fixtures/recordings/README.md.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/error.h"
#include "http/transport.h"

namespace databox::http {

//! Matching: the method and the URL, where the query is compared as a sorted multiset of
//! decoded (name, value) pairs and credential parameters (key, token, api_key, ...; see
//! IsCredentialParamName) are ignored with their values. Scheme and host compare
//! case-insensitively; the path exactly. Headers and request bodies are not compared.
//!
//! When several interactions match one request they are served in recorded order, then the
//! last one repeats for every further request. Loading a folder reads every *.yaml below it
//! (sorted by path); a response identical (status and body) to one already recorded for the
//! same request in another file is skipped, so copies of a cassette replay like one.
//!
//! A request that matches nothing is a kNotFound error listing the closest recorded URLs.
//! Bodies are served decoded; a `!!binary` body with Content-Encoding gzip or deflate is
//! inflated. Thread-safe: one transport may serve several clients.
class ReplayTransport final : public Transport {
 public:
  //! Reads one cassette file or every *.yaml file under a folder. kNotFound when the path
  //! does not exist or holds no interaction, kData when a file is not a readable cassette.
  static Result<std::unique_ptr<ReplayTransport>> Load(const std::filesystem::path& path);

  Result<Response> Send(const Request& request, const AttemptLimits& limits) override;

  //! Distinct requests (method + normalized URL) the recording can answer.
  std::size_t request_count() const { return entries_.size(); }

 private:
  //! Every recorded response for one normalized request.
  struct Entry {
    std::string key;                  //!< MatchKey() of the recorded request
    std::string display;              //!< "GET <redacted url>" for messages
    std::vector<Response> responses;  //!< in recorded order
    std::vector<std::string> files;   //!< cassette of each response
    std::size_t served = 0;           //!< responses already served; guarded by mutex_
  };

  explicit ReplayTransport(std::string source) : source_(std::move(source)) {}
  Status LoadFile(const std::filesystem::path& file);
  void Add(std::string key, std::string display, Response response, const std::string& file);

  std::string source_;  //!< the path given to Load, for messages
  std::vector<Entry> entries_;
  std::mutex mutex_;
};

//! The normalized form of a request used for matching: "METHOD scheme://host/path?sorted".
std::string ReplayMatchKey(Method method, std::string_view url);

}  // namespace databox::http
