// A client of Trino's statement protocol (POST /v1/statement, then GET nextUri until the query
// finished), for the few statements databox runs on a Trino coordinator itself: the platform
// views the SQLMesh models read when Trino is their gateway (refresh/trino_views.h). Results
// are not read: a statement succeeds or fails with Trino's own message. No authentication:
// the coordinator is reached over plain HTTP (or HTTPS) with the X-Trino-User header only.
#pragma once

#include <string>

#include "common/error.h"
#include "http/client.h"

namespace databox::trino {

struct StatementOptions {
  std::string uri;                 //!< coordinator, e.g. http://127.0.0.1:8080
  std::string user = "databox";    //!< X-Trino-User
  std::string source = "databox";  //!< X-Trino-Source, shown in Trino's query list
};

class StatementClient {
 public:
  StatementClient(http::HttpClient& http, StatementOptions options)
      : http_(http), options_(std::move(options)) {}

  //! Runs one statement to its end. kNetwork when the coordinator cannot be reached,
  //! kData with Trino's error name and message when the statement failed.
  Status Execute(const std::string& sql);

  //! GET /v1/info: Status ok when the coordinator answers and has started.
  Status CheckReady();

 private:
  http::HttpClient& http_;
  StatementOptions options_;
};

}  // namespace databox::trino
