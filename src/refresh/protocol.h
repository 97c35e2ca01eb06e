// The refresh protocol lines (docs/refresh.md): what a refresh prints on plain output, one line
// per event, `KEY=VALUE` fields separated by single spaces, times in UTC ISO 8601:
//
//   SOURCE_START source=<name> at=<iso>
//   SOURCE_END source=<name> at=<iso> status=<0 ok | 1 failed> seconds=<float, 3 decimals>
//   PHASE_START phase=transform at=<iso>
//   PHASE_END phase=transform at=<iso> status=<0 | 1>
//
// The lines are for other processes (a script reading plain output, the log of `databox serve`'s
// scheduled refresh): inside the process the run's events (refresh/events.h) are values, and
// protocol_printer.h turns them into these lines. FormatProtocolLine is the only writer of these
// lines and ParseProtocolLine the only parser: every line the writer makes parses back to the
// event it was made from, and the parser takes nothing else (keys in this order, no other keys,
// no empty values).
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "common/error.h"
#include "refresh/events.h"

namespace databox::refresh {

//! A source finished loading, as its SOURCE_END line says it (SourceFinished, cut to the fields
//! of the line). The other lines carry the events of events.h as they are.
struct SourceEnd {
  std::string source;
  std::string at;      //!< ISO 8601 UTC
  bool ok = false;     //!< status=0 when true, status=1 when false
  double seconds = 0;  //!< printed with three decimals

  bool operator==(const SourceEnd&) const = default;
};

using ProtocolEvent = std::variant<SourceStart, SourceEnd, PhaseStart, PhaseEnd>;

//! The SOURCE_END line's fields of a finished source: ok when its status is ok.
SourceEnd SourceEndOf(const SourceFinished& event);

//! The line of `event`, without a newline.
std::string FormatProtocolLine(const ProtocolEvent& event);

//! The event of `line` (without its newline). A kData error, quoting the line, when it is not
//! exactly one of the four forms above.
Result<ProtocolEvent> ParseProtocolLine(std::string_view line);

//! Seconds as SOURCE_END prints them: three decimals ("0.880").
std::string SecondsText(double seconds);

}  // namespace databox::refresh
