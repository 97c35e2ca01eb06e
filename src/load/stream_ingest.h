// Streaming file ingest: an NDJSON file is read and normalized on background threads while the
// caller stages the resulting batches (and writes data files) on its own thread. The queue
// between them is bounded, so memory stays bounded whatever the file size.
//
// The file is cut into blocks of whole lines. Each block is normalized by its own normalizer,
// seeded with the table schemas of the blocks before it (NormalizerOptions::known_tables), so
// several blocks can be normalized at once. Blocks are merged in file order: a block whose seed
// missed a change made by a block normalized at the same time (a new column of another type, a
// variant column) is normalized again from the merged schemas. The batches therefore hold the
// rows, columns and types one normalizer fed every line in order would give; only the root rows'
// generated `_dlt_id`s are drawn in another order.
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
  std::size_t flush_rows = 50'000;  //!< rows buffered in a block's normalizer before a hand-over
  std::size_t max_queued = 2;       //!< hand-overs waiting for the consumer before reading waits
  //! Threads normalizing blocks at once; 0: one per core. With more than one, a
  //! row_id_generator is called from several threads and must be thread-safe.
  std::size_t workers = 1;
  std::size_t block_bytes = 8u << 20;  //!< bytes per block (whole lines: a long line is kept)
  //! The file's name in messages ("<label>:<line>"); empty: its path. For a file decompressed
  //! or converted from another, so that errors name the file the user gave.
  std::string label = {};
};

//! What the producer threads did, for progress and benchmarks (seconds are summed over threads).
struct NdjsonStreamStats {
  int64_t records = 0;       //!< non-empty lines normalized
  int64_t bytes = 0;         //!< bytes read
  double normalize_s = 0;    //!< seconds parsing + normalizing (simdjson + Normalizer)
  double read_s = 0;         //!< seconds reading the file
  double wait_s = 0;         //!< seconds waiting for the consumer (queue full)
  int64_t blocks = 0;        //!< blocks of lines normalized
  int64_t renormalized = 0;  //!< blocks normalized again after their seed missed a change
};

//! One NDJSON file of one resource. Every non-empty line is a record
//! (Normalizer::AddJsonText). Next() returns the batches in file order.
class NdjsonBatchStream {
 public:
  //! Opens `path` and starts the producer threads. `normalizer_options` applies to every block's
  //! normalizer; its known_tables (the Schemas() of an earlier file of the same resource) seed
  //! every block, so the batches continue those tables' columns in their order. Each block's
  //! records_before is set by the stream.
  static Result<std::unique_ptr<NdjsonBatchStream>> Start(
      std::string path, normalize::ResourceHints hints, std::string load_id,
      normalize::NormalizerOptions normalizer_options = {}, NdjsonStreamOptions options = {});

  NdjsonBatchStream(const NdjsonBatchStream&) = delete;
  NdjsonBatchStream& operator=(const NdjsonBatchStream&) = delete;
  //! Stops the producers (if still running) and waits for them.
  ~NdjsonBatchStream();

  //! The next hand-over (one or more tables' batches), or an empty vector once the file is done.
  //! Every batch of a table carries the table's schema as merged so far (columns are only added
  //! at the end). An unreadable file, an invalid normalizer configuration or a record the
  //! normalizer rejects is an error naming file and line; the stream yields nothing after an
  //! error.
  Result<std::vector<normalize::TableBatch>> Next();

  //! Schemas of every table (root first, then in order of creation), after Next() returned the
  //! empty vector.
  std::vector<normalize::TableSchema> Schemas() const;
  //! The producers' counters once they finished (after Next() returned the empty vector); zeros
  //! before.
  NdjsonStreamStats stats() const;

 private:
  struct Shared;
  explicit NdjsonBatchStream(std::unique_ptr<Shared> shared);
  std::unique_ptr<Shared> shared_;
};

}  // namespace databox::load
