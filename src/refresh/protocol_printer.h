// The protocol printer: a subscriber of a run's events (events.h) that writes each one as its
// protocol line (protocol.h) for readers in another process, on plain output.
#pragma once

#include <functional>
#include <string_view>
#include <utility>

#include "refresh/events.h"

namespace databox::refresh {

class ProtocolPrinter final : public RunObserver {
 public:
  //! `write` takes each line without its newline.
  explicit ProtocolPrinter(std::function<void(std::string_view line)> write)
      : write_(std::move(write)) {}

  void OnSourceStart(const SourceStart& event) override;
  void OnSourceFinished(const SourceFinished& event) override;
  void OnPhaseStart(const PhaseStart& event) override;
  void OnPhaseEnd(const PhaseEnd& event) override;

 private:
  std::function<void(std::string_view line)> write_;
};

}  // namespace databox::refresh
