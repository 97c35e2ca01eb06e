#include "load/stream_ingest.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "load/schema_union.h"

namespace databox::load {
namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

constexpr std::size_t kReadChunk = 1u << 20;  //!< bytes read per call

//! One block's normalized output.
struct BlockResult {
  std::string text;  //!< the block's lines, kept until merged (a conflict normalizes them again)
  std::vector<std::vector<normalize::TableBatch>> handovers;
  std::vector<normalize::TableSchema> schemas;  //!< the block normalizer's schemas at the end
  int64_t lines = 0;                            //!< lines in the block, empty ones included
  int64_t records = 0;                          //!< non-empty lines
  std::optional<Error> error;
  double normalize_s = 0;
};

}  // namespace

struct NdjsonBatchStream::Shared {
  std::string path;
  normalize::ResourceHints hints;
  std::string load_id;
  normalize::NormalizerOptions normalizer_options;
  NdjsonStreamOptions options;
  std::FILE* file = nullptr;

  mutable std::mutex mu;  //!< guards everything below except `file` reads (see ReadBlock)
  std::condition_variable changed;
  std::deque<std::vector<normalize::TableBatch>> queue;
  bool done = false;  //!< producers finished (or failed)
  bool stop = false;  //!< consumer gone
  std::optional<Error> error;
  NdjsonStreamStats stats;
  std::string carry;         //!< read bytes after the last block
  std::size_t searched = 0;  //!< ReadBlock: bytes of the block already searched for a line end
  bool eof = false;          //!< the whole file has been read
  std::size_t taken = 0;     //!< blocks cut so far
  std::size_t merged = 0;    //!< blocks merged so far (in order)
  bool merging = false;      //!< a worker is merging finished blocks
  std::map<std::size_t, BlockResult> finished;  //!< normalized, waiting for their turn
  SchemaUnion schemas;                          //!< merged schemas of blocks [0, merged)
  std::vector<std::string> spare;               //!< text buffers of merged blocks, for reuse
  int64_t lines_merged = 0;                     //!< lines of the merged blocks
  std::vector<std::thread> workers;

  ~Shared() {
    if (file != nullptr) std::fclose(file);
  }

  //! Every block has been cut (under mu).
  bool Exhausted() const { return eof && carry.empty(); }

  //! Ends the stream (first call wins); the consumer sees queued hand-overs, then `failure`.
  void Finish(std::optional<Error> failure) {
    if (done) return;
    done = true;
    error = std::move(failure);
    changed.notify_all();
  }

  //! The next block of whole lines (under mu): at least block_bytes long, up to the first line
  //! end after that. nullopt at the end of the file, or on a read error (then the stream is
  //! finished).
  std::optional<std::string> ReadBlock() {
    std::string text;
    if (!spare.empty()) {  // a merged block's buffer: no new pages to fault in
      text = std::move(spare.back());
      spare.pop_back();
      text.clear();
    }
    text.reserve(options.block_bytes + kReadChunk);
    text += carry;
    carry.clear();
    const auto start = Clock::now();
    std::size_t cut = std::string::npos;  // the line end that closes the block
    while (true) {
      if (text.size() >= options.block_bytes) {
        cut = text.find('\n', std::max(options.block_bytes, searched) - 1);
        searched = text.size();
        if (cut != std::string::npos) break;
      }
      if (eof) break;
      const std::size_t old = text.size();
      text.resize(old + kReadChunk);
      const std::size_t got = std::fread(text.data() + old, 1, kReadChunk, file);
      text.resize(old + got);
      stats.bytes += static_cast<int64_t>(got);
      if (got < kReadChunk) {
        if (std::ferror(file)) {
          stats.read_s += Since(start);
          Finish(Error{ErrorKind::kData, "reading " + path + " failed: " + std::strerror(errno)});
          return std::nullopt;
        }
        eof = true;
      }
    }
    stats.read_s += Since(start);
    searched = 0;
    if (cut != std::string::npos) {
      carry.assign(text, cut + 1);
      text.resize(cut + 1);
    }
    if (text.empty()) return std::nullopt;
    return text;
  }

  //! Normalizes one block's lines with a normalizer seeded with `seed`. Line and record numbers
  //! in an error count from `lines_before` / `records_before`.
  BlockResult Normalize(std::string text, std::vector<normalize::TableSchema> seed,
                        int64_t lines_before, std::size_t records_before) const {
    const auto start = Clock::now();
    BlockResult result;
    normalize::NormalizerOptions block_options = normalizer_options;
    block_options.known_tables = std::move(seed);
    block_options.records_before = records_before;
    auto made = normalize::Normalizer::Make(hints, load_id, std::move(block_options));
    if (!made) {
      result.error = made.error();
      result.text = std::move(text);
      return result;
    }
    normalize::Normalizer& normalizer = **made;
    std::size_t begin = 0;
    while (begin < text.size()) {
      const void* nl = std::memchr(text.data() + begin, '\n', text.size() - begin);
      const std::size_t end =
          nl == nullptr ? text.size()
                        : static_cast<std::size_t>(static_cast<const char*>(nl) - text.data());
      ++result.lines;
      const std::string_view line(text.data() + begin, end - begin);
      begin = end + 1;
      if (line.empty()) continue;
      if (auto added = normalizer.AddJsonText(line); !added) {
        result.error =
            added.error().WithContext(path + ":" + std::to_string(lines_before + result.lines));
        break;
      }
      ++result.records;
      if (normalizer.BufferedRows() >= options.flush_rows) {
        result.handovers.push_back(normalizer.Flush());
      }
    }
    if (!result.error) {
      if (normalizer.BufferedRows() > 0) result.handovers.push_back(normalizer.Flush());
      result.schemas = normalizer.Schemas();
    }
    result.text = std::move(text);
    result.normalize_s = Since(start);
    return result;
  }

  //! Merges finished blocks in order while the next one is ready (called with `lock` held and
  //! `merging` set by the caller; may unlock to normalize a block again).
  void MergeReady(std::unique_lock<std::mutex>& lock) {
    while (!done) {
      auto it = finished.find(merged);
      if (it == finished.end()) break;
      BlockResult block = std::move(it->second);
      finished.erase(it);
      if (block.error || schemas.Conflict(block.schemas)) {
        // The seed missed a change of a block normalized alongside, or the block failed: only a
        // normalizer seeded with every earlier block decides (and numbers an error exactly).
        auto seed = schemas.tables();
        const int64_t lines_before = lines_merged;
        const auto records_before = static_cast<std::size_t>(stats.records);
        ++stats.renormalized;
        lock.unlock();
        block = Normalize(std::move(block.text), std::move(seed), lines_before, records_before);
        lock.lock();
        stats.normalize_s += block.normalize_s;
        if (done) return;
        if (block.error) return Finish(std::move(block.error));
        if (auto conflict = schemas.Conflict(block.schemas)) {
          return Finish(Error{ErrorKind::kInternal,
                              path + ": a block normalized from the merged schemas still " +
                                  "conflicts with them: " + *conflict});
        }
      }
      schemas.Add(block.schemas);
      for (auto& handover : block.handovers) {
        for (normalize::TableBatch& batch : handover) schemas.Align(batch);
        queue.push_back(std::move(handover));
      }
      stats.records += block.records;
      lines_merged += block.lines;
      if (spare.size() < options.workers) spare.push_back(std::move(block.text));
      ++stats.blocks;
      ++merged;
      changed.notify_all();
    }
    if (!done && Exhausted() && merged == taken) Finish(std::nullopt);
  }

  void Work() {
    std::unique_lock lock(mu);
    while (true) {
      const auto wait = Clock::now();
      changed.wait(
          lock, [&] { return stop || done || Exhausted() || queue.size() < options.max_queued; });
      stats.wait_s += Since(wait);
      if (stop || done) return;
      std::optional<std::string> text;
      if (!Exhausted()) text = ReadBlock();
      if (!text) {
        if (done) return;
        if (!merging) {
          merging = true;
          MergeReady(lock);
          merging = false;
        }
        return;
      }
      const std::size_t index = taken++;
      auto seed = schemas.tables();
      lock.unlock();
      BlockResult block = Normalize(std::move(*text), std::move(seed), 0, 0);
      lock.lock();
      stats.normalize_s += block.normalize_s;
      finished.emplace(index, std::move(block));
      if (!merging) {
        merging = true;
        MergeReady(lock);
        merging = false;
      }
    }
  }
};

NdjsonBatchStream::NdjsonBatchStream(std::unique_ptr<Shared> shared) : shared_(std::move(shared)) {}

NdjsonBatchStream::~NdjsonBatchStream() {
  {
    std::lock_guard lock(shared_->mu);
    shared_->stop = true;
    shared_->changed.notify_all();
  }
  for (std::thread& worker : shared_->workers) worker.join();
}

Result<std::unique_ptr<NdjsonBatchStream>> NdjsonBatchStream::Start(
    std::string path, normalize::ResourceHints hints, std::string load_id,
    normalize::NormalizerOptions normalizer_options, NdjsonStreamOptions options) {
  if (options.max_queued == 0) options.max_queued = 1;
  if (options.block_bytes == 0) options.block_bytes = 1;
  if (options.workers == 0) options.workers = std::max(1u, std::thread::hardware_concurrency());
  // A configuration the normalizer rejects fails here, not on the first block.
  if (auto made = normalize::Normalizer::Make(hints, load_id, normalizer_options); !made) {
    return std::unexpected(made.error());
  }
  auto shared = std::make_unique<Shared>();
  shared->file = std::fopen(path.c_str(), "rb");
  if (shared->file == nullptr) {
    return MakeError(ErrorKind::kNotFound,
                     "cannot open " + path + ": " + std::strerror(errno) + "; check the path");
  }
  shared->path = options.label.empty() ? std::move(path) : options.label;
  shared->hints = std::move(hints);
  shared->load_id = std::move(load_id);
  shared->normalizer_options = std::move(normalizer_options);
  // Tables an earlier input left (known_tables) are where the union starts: every block's
  // seed holds them, so the batches continue their columns in their order.
  shared->schemas.Add(shared->normalizer_options.known_tables);
  shared->options = options;
  Shared* raw = shared.get();
  for (std::size_t i = 0; i < options.workers; ++i) {
    shared->workers.emplace_back([raw] { raw->Work(); });
  }
  return std::unique_ptr<NdjsonBatchStream>(new NdjsonBatchStream(std::move(shared)));
}

Result<std::vector<normalize::TableBatch>> NdjsonBatchStream::Next() {
  std::unique_lock lock(shared_->mu);
  shared_->changed.wait(lock, [&] { return !shared_->queue.empty() || shared_->done; });
  if (!shared_->queue.empty()) {
    auto batches = std::move(shared_->queue.front());
    shared_->queue.pop_front();
    shared_->changed.notify_all();
    return batches;
  }
  if (shared_->error) return std::unexpected(*shared_->error);
  return std::vector<normalize::TableBatch>{};
}

std::vector<normalize::TableSchema> NdjsonBatchStream::Schemas() const {
  std::lock_guard lock(shared_->mu);
  if (!shared_->done) return {};
  return shared_->schemas.tables();
}

NdjsonStreamStats NdjsonBatchStream::stats() const {
  std::lock_guard lock(shared_->mu);
  if (!shared_->done) return {};
  return shared_->stats;
}

}  // namespace databox::load
