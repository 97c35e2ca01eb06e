// The Kind of kind rest_json (docs/sources.md): sources are RestJsonSources over the source's
// client; `--limit` caps every resource's records and `--record` writes the responses. It owns
// no option of `databox run`.
#pragma once

#include <cstdint>
#include <memory>

#include "source/kind.h"

namespace databox::source {

class RestJsonKind final : public Kind {
 public:
  registry::SourceKind id() const override { return registry::SourceKind::kRestJson; }
  Result<std::unique_ptr<Source>> Make(const registry::Source& source, const SourceInput& input,
                                       Network network) const override;
  //! Sets every resource's pagination max_records to at most `cap`.
  void CapRecords(registry::Source& source, int64_t cap) const override;
  bool RecordsResponses() const override { return true; }
};

}  // namespace databox::source
