// The refresh protocol lines (docs/refresh.md): what a refresh prints on plain output, one line
// per event, `KEY=VALUE` fields separated by single spaces, times in UTC ISO 8601:
//
//   SOURCE_START source=<name> at=<iso>
//   SOURCE_END source=<name> at=<iso> status=<0 ok | 1 failed> seconds=<float, 3 decimals>
//   PHASE_START phase=transform at=<iso>
//   PHASE_END phase=transform at=<iso> status=<0 | 1>
//
// FormatProtocolLine is the only writer of these lines and ParseProtocolLine the only parser:
// every line the writer makes parses back to the event it was made from, and the parser takes
// nothing else (keys in this order, no other keys, no empty values).
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "common/error.h"

namespace databox::refresh {

//! The refresh phases that print PHASE_START / PHASE_END lines.
enum class ProtocolPhase {
  kTransform,  //!< "transform"
};

std::string_view ProtocolPhaseName(ProtocolPhase phase);
//! The phase named `name`; a kData error for any other text.
Result<ProtocolPhase> ParseProtocolPhase(std::string_view name);

//! A source started loading.
struct SourceStart {
  std::string source;
  std::string at;  //!< ISO 8601 UTC

  bool operator==(const SourceStart&) const = default;
};

//! A source finished loading (before inspection: a source that loads and then fails inspection
//! ended ok here).
struct SourceEnd {
  std::string source;
  std::string at;      //!< ISO 8601 UTC
  bool ok = false;     //!< status=0 when true, status=1 when false
  double seconds = 0;  //!< printed with three decimals

  bool operator==(const SourceEnd&) const = default;
};

//! A phase of the refresh started.
struct PhaseStart {
  ProtocolPhase phase = ProtocolPhase::kTransform;
  std::string at;  //!< ISO 8601 UTC

  bool operator==(const PhaseStart&) const = default;
};

//! A phase of the refresh ended.
struct PhaseEnd {
  ProtocolPhase phase = ProtocolPhase::kTransform;
  std::string at;   //!< ISO 8601 UTC
  bool ok = false;  //!< status=0 when true, status=1 when false

  bool operator==(const PhaseEnd&) const = default;
};

using ProtocolEvent = std::variant<SourceStart, SourceEnd, PhaseStart, PhaseEnd>;

//! The line of `event`, without a newline.
std::string FormatProtocolLine(const ProtocolEvent& event);

//! The event of `line` (without its newline). A kData error, quoting the line, when it is not
//! exactly one of the four forms above.
Result<ProtocolEvent> ParseProtocolLine(std::string_view line);

//! Seconds as SOURCE_END prints them: three decimals ("0.880").
std::string SecondsText(double seconds);

}  // namespace databox::refresh
