#include "refresh/protocol_printer.h"

#include "refresh/protocol.h"

namespace databox::refresh {

void ProtocolPrinter::OnSourceStart(const SourceStart& event) { write_(FormatProtocolLine(event)); }

void ProtocolPrinter::OnSourceFinished(const SourceFinished& event) {
  write_(FormatProtocolLine(SourceEndOf(event)));
}

void ProtocolPrinter::OnPhaseStart(const PhaseStart& event) { write_(FormatProtocolLine(event)); }

void ProtocolPrinter::OnPhaseEnd(const PhaseEnd& event) { write_(FormatProtocolLine(event)); }

}  // namespace databox::refresh
