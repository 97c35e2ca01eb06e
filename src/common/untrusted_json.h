// JSON text from outside (response bodies, NDJSON lines, records) parsed into an order-keeping
// nlohmann document with three guarantees the plain parser does not give:
//  - depth: a document nesting arrays and objects deeper than kMaxJsonDepth is refused while it
//    is read (the parse stops there), so no later recursive walk (serializing, normalizing,
//    copying) can exhaust the stack;
//  - numbers: a number beyond a double's range (1e400) is refused with the place it occurs
//    (`results[0].v`), not reported as invalid JSON; an integer literal beyond 64 bits is kept
//    as a string of its exact digits instead of a rounded double (keys must not lose digits);
//  - errors name what is wrong and the byte offset where the parser stopped.
// Everything else (strict UTF-8, a repeated key keeps its first position and its last value)
// is nlohmann's parser, unchanged.
#pragma once

#include <cstddef>
#include <expected>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace databox {

//! Deepest nesting of arrays and objects read (the document's own brackets count: `[[1]]` is 2).
inline constexpr int kMaxJsonDepth = 1024;

//! Why a text was refused.
enum class JsonFaultKind {
  kSyntax,            //!< not JSON (nlohmann's syntax or encoding error)
  kTooDeep,           //!< nested deeper than kMaxJsonDepth
  kNumberOutOfRange,  //!< a number a double cannot hold
};

struct JsonFault {
  JsonFaultKind kind = JsonFaultKind::kSyntax;
  std::size_t offset = 0;  //!< byte offset where the parser stopped
  //! What is wrong and where, a phrase that reads after "the response ..." / "the record ...":
  //! "is not valid JSON (syntax error at byte offset 12)", "nests arrays and objects more than
  //! 1024 levels deep (at byte offset 1030, under results[0].deep)", "holds the number 1e400 at
  //! results[0].v (byte offset 27), which is out of range for a double (about 1.8e308)".
  std::string detail;
};

//! Parses `text` (one whole JSON document) with the guarantees above.
std::expected<nlohmann::ordered_json, JsonFault> ParseUntrustedJson(std::string_view text);

}  // namespace databox
