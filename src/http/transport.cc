#include "http/transport.h"

#include <string>

namespace databox::http {

Error ResponseTooLargeError(std::size_t cap) {
  return Error{ErrorKind::kData,
               "response body exceeds the cap of " + std::to_string(cap) +
                   " bytes: raise max_response_bytes or request less data per call"};
}

}  // namespace databox::http
