#include "cli/loaded_tables.h"

#include <string>

#include "cli/output.h"
#include "common/write_disposition.h"

namespace databox::cli {

void PrintLoadedTables(const load::SourceLoadResult& loaded) {
  for (const auto& t : loaded.tables) {
    Out("  " + t.table + "  " + std::string(WriteDispositionName(t.disposition)) +
        "  rows=" + std::to_string(t.rows) +
        "  snapshot=" + (t.snapshot_id ? std::to_string(*t.snapshot_id) : "-") + "\n");
  }
  for (const auto& note : loaded.notes) Out("  note: " + note + "\n");
}

}  // namespace databox::cli
