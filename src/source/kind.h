// Kind: what differs between the kinds of source, behind one interface (docs/architecture.md,
// "Source kinds"): how a source of the kind is made, the columns its tables have before a load,
// how `--limit` and `--record` apply to it, and the options of `databox run` it owns (their help,
// their checks and their messages). Generic code (load, refresh, cli) asks a source's Kind
// (kinds.h) and never names one; the composition root registers every Kind
// (platform/source_kinds.cc), and each specific kind lives in a folder of its own (src/sources/).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "registry/model.h"
#include "source/source.h"

namespace databox::source {

//! One option of `databox run` that a kind owns.
struct RunOption {
  std::string name;        //!< without the dashes: "targets" is `--targets`
  std::string value_name;  //!< in the help: "FILE"
  std::string help;        //!< its line in `databox run --help`
  //! A whole number in [first, second] (the command line refuses others); none: any text.
  std::optional<std::pair<int, int>> range;
};

class Kind {
 public:
  virtual ~Kind() = default;

  //! The registry kind (`kind = "..."`) this implements.
  virtual registry::SourceKind id() const = 0;
  //! Makes the Source of one load of `source` (of this kind; it must outlive the Source).
  //! `input.options` holds only options of RunOptions(); the kind parses them itself.
  virtual Result<std::unique_ptr<Source>> Make(const registry::Source& source,
                                               const SourceInput& input, Network network) const = 0;
  //! `declared` (a resource of a source of this kind) as loads write its table: with the columns
  //! the kind defines in code typed (Resource::columns, column_order). Unchanged by default.
  virtual registry::Resource DeclaredResource(const registry::Resource& declared) const {
    return declared;
  }
  //! Caps the records of every resource of `source` at `cap` (`--limit`, DATABOX_SMOKE). By
  //! default nothing: the kind publishes whole files or has caps of its own.
  virtual void CapRecords(registry::Source& source, int64_t cap) const {
    (void)source;
    (void)cap;
  }
  //! Whether `databox run --record` can write a source's responses into its replay folder.
  virtual bool RecordsResponses() const { return false; }

  //! The options of `databox run` only this kind takes, in their `databox run --help` order.
  virtual std::vector<RunOption> RunOptions() const { return {}; }
  //! Why any of RunOptions() is refused for a source of another kind (one sentence, without the
  //! command's name), e.g. "--x applies to sources of kind k only".
  virtual std::string ForeignOptionsMessage() const { return ""; }
  //! Checks a `databox run` of `source` with `options` (only RunOptions()) and `resume` before
  //! anything starts: kConfig saying what is wrong (without the command's name). Ok by default.
  virtual Status CheckRun(const registry::Source& source, const KindOptions& options,
                          bool resume) const {
    (void)source;
    (void)options;
    (void)resume;
    return Ok();
  }
  //! What `databox run NAME` needs beyond the name, as a refresh names it for an explicit-only
  //! source, e.g. " --targets FILE"; "" by default.
  virtual std::string RunHint() const { return ""; }
  //! A source of this kind in the example project, named by `databox run --help` ("" for none).
  virtual std::string ExampleSource() const { return ""; }
};

}  // namespace databox::source
