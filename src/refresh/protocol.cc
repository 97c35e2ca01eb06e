#include "refresh/protocol.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <vector>

namespace databox::refresh {
namespace {

constexpr std::string_view kSourceStart = "SOURCE_START";
constexpr std::string_view kSourceEnd = "SOURCE_END";
constexpr std::string_view kPhaseStart = "PHASE_START";
constexpr std::string_view kPhaseEnd = "PHASE_END";

std::string StatusText(bool ok) { return ok ? "0" : "1"; }

//! The phase a PHASE_START or PHASE_END line names: one after the loads (the transform), never a
//! load's own phase (those are in the run history, not in protocol lines).
Result<load::Phase> ParseLinePhase(std::string_view name) {
  DATABOX_ASSIGN_OR_RETURN(load::Phase phase, load::ParsePhase(name));
  if (phase != load::Phase::kTransform) {
    return MakeError(ErrorKind::kData,
                     "phase '" + std::string(name) + "' is not one of a protocol line: transform");
  }
  return phase;
}

struct LineWriter {
  std::string operator()(const SourceStart& e) const {
    return std::string(kSourceStart) + " source=" + e.source + " at=" + e.at;
  }
  std::string operator()(const SourceEnd& e) const {
    return std::string(kSourceEnd) + " source=" + e.source + " at=" + e.at +
           " status=" + StatusText(e.ok) + " seconds=" + SecondsText(e.seconds);
  }
  std::string operator()(const PhaseStart& e) const {
    return std::string(kPhaseStart) + " phase=" + std::string(load::PhaseName(e.phase)) +
           " at=" + e.at;
  }
  std::string operator()(const PhaseEnd& e) const {
    return std::string(kPhaseEnd) + " phase=" + std::string(load::PhaseName(e.phase)) +
           " at=" + e.at + " status=" + StatusText(e.ok);
  }
};

//! `line` cut at every single space (two spaces in a row give an empty piece).
std::vector<std::string_view> SplitAtSpaces(std::string_view line) {
  std::vector<std::string_view> pieces;
  for (std::size_t start = 0;;) {
    const std::size_t space = line.find(' ', start);
    pieces.push_back(line.substr(start, space == std::string_view::npos ? space : space - start));
    if (space == std::string_view::npos) return pieces;
    start = space + 1;
  }
}

//! The values of `fields` ("key=value" pieces) when their keys are exactly `keys`, in order,
//! and no value is empty.
Result<std::vector<std::string_view>> Values(const std::vector<std::string_view>& fields,
                                             std::initializer_list<std::string_view> keys) {
  std::string expected;
  for (std::string_view key : keys) expected += " " + std::string(key) + "=...";
  if (fields.size() != keys.size()) {
    return MakeError(ErrorKind::kData, "expected the fields" + expected);
  }
  std::vector<std::string_view> values;
  auto key = keys.begin();
  for (std::string_view field : fields) {
    if (!field.starts_with(std::string(*key) + "=") || field.size() == key->size() + 1) {
      return MakeError(ErrorKind::kData,
                       "expected the fields" + expected + ", not '" + std::string(field) + "'");
    }
    values.push_back(field.substr(key->size() + 1));
    ++key;
  }
  return values;
}

Result<bool> ParseStatus(std::string_view text) {
  if (text == "0" || text == "1") return text == "0";
  return MakeError(ErrorKind::kData, "status must be 0 or 1, not '" + std::string(text) + "'");
}

Result<double> ParseSeconds(std::string_view text) {
  double seconds = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seconds);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(seconds)) {
    return MakeError(ErrorKind::kData, "seconds must be a number, not '" + std::string(text) + "'");
  }
  return seconds;
}

//! The event of a line cut into pieces; errors say what is wrong, not which line.
Result<ProtocolEvent> ParsePieces(const std::vector<std::string_view>& pieces) {
  const std::string_view kind = pieces.front();
  const std::vector<std::string_view> fields(pieces.begin() + 1, pieces.end());
  if (kind == kSourceStart) {
    DATABOX_ASSIGN_OR_RETURN(auto v, Values(fields, {"source", "at"}));
    return SourceStart{.source = std::string(v[0]), .at = std::string(v[1])};
  }
  if (kind == kSourceEnd) {
    DATABOX_ASSIGN_OR_RETURN(auto v, Values(fields, {"source", "at", "status", "seconds"}));
    DATABOX_ASSIGN_OR_RETURN(bool ok, ParseStatus(v[2]));
    DATABOX_ASSIGN_OR_RETURN(double seconds, ParseSeconds(v[3]));
    return SourceEnd{
        .source = std::string(v[0]), .at = std::string(v[1]), .ok = ok, .seconds = seconds};
  }
  if (kind == kPhaseStart) {
    DATABOX_ASSIGN_OR_RETURN(auto v, Values(fields, {"phase", "at"}));
    DATABOX_ASSIGN_OR_RETURN(load::Phase phase, ParseLinePhase(v[0]));
    return PhaseStart{.phase = phase, .at = std::string(v[1])};
  }
  if (kind == kPhaseEnd) {
    DATABOX_ASSIGN_OR_RETURN(auto v, Values(fields, {"phase", "at", "status"}));
    DATABOX_ASSIGN_OR_RETURN(load::Phase phase, ParseLinePhase(v[0]));
    DATABOX_ASSIGN_OR_RETURN(bool ok, ParseStatus(v[2]));
    return PhaseEnd{.phase = phase, .at = std::string(v[1]), .ok = ok};
  }
  return MakeError(ErrorKind::kData,
                   "expected SOURCE_START, SOURCE_END, PHASE_START or PHASE_END first");
}

}  // namespace

SourceEnd SourceEndOf(const SourceFinished& event) {
  return SourceEnd{.source = event.run.source,
                   .at = event.at,
                   .ok = event.run.status == SourceStatus::kOk,
                   .seconds = event.run.seconds};
}

std::string FormatProtocolLine(const ProtocolEvent& event) {
  return std::visit(LineWriter{}, event);
}

Result<ProtocolEvent> ParseProtocolLine(std::string_view line) {
  auto event = ParsePieces(SplitAtSpaces(line));
  if (!event) {
    return std::unexpected(event.error().WithContext("refresh protocol line '" + std::string(line) +
                                                     "' (docs/refresh.md)"));
  }
  return event;
}

std::string SecondsText(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", seconds);
  return buf;
}

}  // namespace databox::refresh
