#include "load/stream_ingest.h"

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

namespace databox::load {
namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

constexpr std::size_t kReadBlock = 8u << 20;  //!< bytes read per call

}  // namespace

struct NdjsonBatchStream::Shared {
  std::string path;
  std::unique_ptr<normalize::Normalizer> normalizer;
  NdjsonStreamOptions options;
  std::FILE* file = nullptr;

  mutable std::mutex mu;
  std::condition_variable changed;
  std::deque<std::vector<normalize::TableBatch>> queue;  //!< guarded by mu
  bool done = false;                                     //!< producer finished; guarded by mu
  bool stop = false;                                     //!< consumer gone; guarded by mu
  std::optional<Error> error;                            //!< guarded by mu
  NdjsonStreamStats stats;                               //!< written by the producer
  std::thread producer;

  ~Shared() {
    if (file != nullptr) std::fclose(file);
  }

  //! Queues a hand-over; false if the consumer stopped.
  bool Push(std::vector<normalize::TableBatch> batches) {
    const auto start = Clock::now();
    std::unique_lock lock(mu);
    changed.wait(lock, [&] { return stop || queue.size() < options.max_queued; });
    stats.wait_s += Since(start);
    if (stop) return false;
    queue.push_back(std::move(batches));
    changed.notify_all();
    return true;
  }

  void Finish(std::optional<Error> failure) {
    std::lock_guard lock(mu);
    done = true;
    error = std::move(failure);
    changed.notify_all();
  }

  void Produce() {
    std::string buffer;
    std::size_t filled = 0;  // bytes of buffer holding unread input
    int64_t line_no = 0;
    bool eof = false;
    while (!eof || filled > 0) {
      if (!eof) {
        if (buffer.size() < filled + kReadBlock) buffer.resize(filled + kReadBlock);
        const auto start = Clock::now();
        const std::size_t got = std::fread(buffer.data() + filled, 1, kReadBlock, file);
        stats.read_s += Since(start);
        if (got < kReadBlock) {
          if (std::ferror(file)) {
            Finish(Error{ErrorKind::kData, "reading " + path + " failed: " + std::strerror(errno)});
            return;
          }
          eof = true;
        }
        filled += got;
        stats.bytes += static_cast<int64_t>(got);
      }
      // Every complete line in the buffer; at the end of the file the rest is a line too.
      auto start = Clock::now();
      std::size_t begin = 0;
      while (begin < filled) {
        const void* nl = std::memchr(buffer.data() + begin, '\n', filled - begin);
        if (nl == nullptr && !eof) break;
        const std::size_t end =
            nl == nullptr ? filled
                          : static_cast<std::size_t>(static_cast<const char*>(nl) - buffer.data());
        ++line_no;
        const std::string_view line(buffer.data() + begin, end - begin);
        begin = end + 1;
        if (line.empty()) continue;
        if (auto added = normalizer->AddJsonText(line); !added) {
          Finish(added.error().WithContext(path + ":" + std::to_string(line_no)));
          return;
        }
        ++stats.records;
        if (normalizer->BufferedRows() >= options.flush_rows) {
          stats.normalize_s += Since(start);
          if (!Push(normalizer->Flush())) return;
          start = Clock::now();
        }
      }
      stats.normalize_s += Since(start);
      begin = std::min(begin, filled);
      std::memmove(buffer.data(), buffer.data() + begin, filled - begin);
      filled -= begin;
    }
    if (normalizer->BufferedRows() > 0 && !Push(normalizer->Flush())) return;
    Finish(std::nullopt);
  }
};

NdjsonBatchStream::NdjsonBatchStream(std::unique_ptr<Shared> shared) : shared_(std::move(shared)) {}

NdjsonBatchStream::~NdjsonBatchStream() {
  {
    std::lock_guard lock(shared_->mu);
    shared_->stop = true;
    shared_->changed.notify_all();
  }
  if (shared_->producer.joinable()) shared_->producer.join();
}

Result<std::unique_ptr<NdjsonBatchStream>> NdjsonBatchStream::Start(
    std::string path, std::unique_ptr<normalize::Normalizer> normalizer,
    NdjsonStreamOptions options) {
  if (options.max_queued == 0) options.max_queued = 1;
  auto shared = std::make_unique<Shared>();
  shared->file = std::fopen(path.c_str(), "rb");
  if (shared->file == nullptr) {
    return MakeError(ErrorKind::kNotFound,
                     "cannot open " + path + ": " + std::strerror(errno) + "; check the path");
  }
  shared->path = std::move(path);
  shared->normalizer = std::move(normalizer);
  shared->options = options;
  Shared* raw = shared.get();
  shared->producer = std::thread([raw] { raw->Produce(); });
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
  return shared_->normalizer->Schemas();
}

NdjsonStreamStats NdjsonBatchStream::stats() const {
  std::lock_guard lock(shared_->mu);
  if (!shared_->done) return {};
  return shared_->stats;
}

}  // namespace databox::load
