// Streaming file ingest: an NDJSON file is read and normalized on a background thread while the
// caller stages the resulting batches (and writes data files) on its own thread. The queue
// between them is bounded, so memory stays bounded whatever the file size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/error.h"
#include "normalize/column_batch.h"
#include "normalize/normalizer.h"

namespace databox::load {

struct NdjsonStreamOptions {
  std::size_t flush_rows = 50'000;  //!< rows buffered in the normalizer before a hand-over
  std::size_t max_queued = 2;       //!< hand-overs waiting for the consumer before reading waits
};

//! What the producer thread did, for progress and benchmarks.
struct NdjsonStreamStats {
  int64_t records = 0;     //!< non-empty lines normalized
  int64_t bytes = 0;       //!< bytes read
  double normalize_s = 0;  //!< seconds parsing + normalizing (simdjson + Normalizer)
  double read_s = 0;       //!< seconds reading the file
  double wait_s = 0;       //!< seconds waiting for the consumer (queue full)
};

//! One NDJSON file through one normalizer. Every non-empty line is a record
//! (Normalizer::AddJsonText). Next() returns the normalizer's batches in order.
class NdjsonBatchStream {
 public:
  //! Opens `path` and starts the producer thread; it owns `normalizer` until the stream ends.
  static Result<std::unique_ptr<NdjsonBatchStream>> Start(
      std::string path, std::unique_ptr<normalize::Normalizer> normalizer,
      NdjsonStreamOptions options = {});

  NdjsonBatchStream(const NdjsonBatchStream&) = delete;
  NdjsonBatchStream& operator=(const NdjsonBatchStream&) = delete;
  //! Stops the producer (if still running) and waits for it.
  ~NdjsonBatchStream();

  //! The next hand-over (one or more tables' batches), or an empty vector once the file is done.
  //! An unreadable file or a record the normalizer rejects is an error naming file and line; the
  //! stream yields nothing after an error.
  Result<std::vector<normalize::TableBatch>> Next();

  //! Schemas of every table, after Next() returned the empty vector.
  std::vector<normalize::TableSchema> Schemas() const;
  //! The producer's counters once it finished (after Next() returned the empty vector); zeros
  //! before.
  NdjsonStreamStats stats() const;

 private:
  struct Shared;
  explicit NdjsonBatchStream(std::unique_ptr<Shared> shared);
  std::unique_ptr<Shared> shared_;
};

}  // namespace databox::load
