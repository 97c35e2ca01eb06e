// Source: what the loader sees of a source, whatever its kind. A load asks its Source to
// extract into the load package's folder (docs/load_package.md), then to feed the records of
// each resource to the normalizer, one record at a time. A source that keeps everything it
// extracted in the package can feed a package again without extracting (`databox run S
// --resume`). The generic kind here is REST JSON pages (rest_json_source.h); the specific kinds
// live in folders of their own (src/sources/<kind>/), each behind a Kind (kind.h).
//
// Sources are made per load by a SourceFactory, which the composition root (platform/)
// implements: it knows how to reach the network (live or replayed HTTP clients).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/error.h"
#include "registry/model.h"
#include "source/json_page.h"
#include "source/network.h"
#include "source/page_stream.h"
#include "source/records.h"

namespace databox::source {

//! The load package a source extracts into and feeds from.
struct Package {
  std::string load_id;                //!< dlt-style load id of the load
  std::filesystem::path dir;          //!< the package folder (a file source's download goes here)
  std::filesystem::path extract_dir;  //!< <dir>/extract: raw pages, one folder per resource
  //! When set (a source that StreamsPages()), extraction also hands every stored page to it and
  //! the feed takes the pages from it while extraction goes on, on another thread.
  PageStream* pages = nullptr;
};

//! What a step of a source adds to the load's result.
struct StepReport {
  int64_t requests = 0;            //!< HTTP requests sent
  std::vector<std::string> notes;  //!< skipped-and-reported items (e.g. a failed day)
};

//! Called as extraction moves on (before each resource and after each response): the resource
//! being extracted (the source's name when it is extracted as a whole), the requests sent and
//! the records the responses held so far, over the whole source.
using ExtractProgress =
    std::function<void(const std::string& name, int64_t requests, int64_t records)>;

class Source {
 public:
  virtual ~Source() = default;

  //! Ok when the source can run as asked; else kConfig saying what is missing or not built.
  //! Asked before the load takes its lock or creates its package.
  virtual Status CanRun() const = 0;
  //! Whether a package whose extraction finished can be fed again without extracting.
  virtual bool Resumable() const = 0;
  //! Whether Extract and Feed can run at once, on two threads, over a Package's PageStream.
  virtual bool StreamsPages() const { return false; }
  //! Extracts every enabled resource into `package`. Nothing is fed yet.
  virtual Result<StepReport> Extract(const Package& package, const ExtractProgress& progress) = 0;
  //! The resources Feed gives records of, in registry order (enabled ones only).
  virtual std::vector<const registry::Resource*> Resources() const = 0;
  //! Feeds every record of `resource` (one of Resources()) from what extraction left in
  //! `package` to `sink`; an error from the sink stops the feed and is returned.
  virtual Result<StepReport> Feed(const registry::Resource& resource, const Package& package,
                                  const RecordSink& sink) = 0;
  //! Feed, except that records the source reads from JSON pages may go to `parsed` as simdjson
  //! elements instead of to `sink` (json_page.h: the caller reads them without parsing them
  //! again; the records, their order and the report are the same). By default everything goes
  //! to `sink`.
  virtual Result<StepReport> FeedParsed(const registry::Resource& resource, const Package& package,
                                        const RecordSink& sink, const ElementSink& parsed) {
    (void)parsed;
    return Feed(resource, package, sink);
  }
};

//! Options of `databox run` that a source's kind owns (Kind::RunOptions), by name without the
//! dashes ("file", "targets"), as given. Opaque to everything but the kind, which parses and
//! checks them.
using KindOptions = std::map<std::string, std::string>;

//! The kind option of a local file to read instead of downloading (`--file PATH`), for the
//! kinds that own one.
inline constexpr const char* kLocalFileOption = "file";

//! What one load asks of its source beyond the registry.
struct SourceInput {
  KindOptions options;  //!< only options the source's kind owns
};

//! Makes the Source of one load. Thread-safe: concurrent loads of a refresh share it.
class SourceFactory {
 public:
  virtual ~SourceFactory() = default;
  //! `source` must outlive the Source made.
  virtual Result<std::unique_ptr<Source>> Make(const registry::Source& source,
                                               const SourceInput& input) const = 0;
};

}  // namespace databox::source
