// Pages handed from extraction to the feed while a resource is still being fetched, so that a
// load normalizes the first pages of a resource while the next ones are requested. Extraction
// stores every page in the load package as before (a resumed load reads them from there), then
// hands it over here; the feed takes the pages in the order they were stored. The queue is
// bounded: extraction waits while `capacity` pages are not taken yet, so memory holds a few
// pages whatever the size of the resource.
//
// One thread extracts (Put, EndResource, Close), one feeds (Next, Cancel); the resources come in
// the order both go through them (the source's enabled resources in registry order).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <string>

#include "common/error.h"
#include "source/page_index.h"

namespace databox::source {

//! One page stored by extraction.
struct StoredPage {
  PageEntry entry;
  std::string body;                                 //!< the bytes stored in the page file
  std::chrono::system_clock::time_point loaded_at;  //!< the resource's, as its index says
};

class PageStream {
 public:
  explicit PageStream(std::size_t capacity = 8) : capacity_(capacity < 1 ? 1 : capacity) {}

  //! Extraction: hands over a page of `resource`, waiting while the queue is full. Fails once
  //! the feed gave up (Cancel): extraction stops there.
  Status Put(const std::string& resource, StoredPage page);
  //! Extraction: every page of `resource` was handed over and its index is written.
  Status EndResource(const std::string& resource);
  //! Extraction ended, every resource done (`error` empty) or failed with `error`.
  void Close(std::optional<Error> error);

  //! Feed: the next page of `resource`; nullopt once the resource ended. The extraction's error
  //! when it failed before the resource ended.
  Result<std::optional<StoredPage>> Next(const std::string& resource);
  //! Feed: no more pages are taken (the feed failed); extraction's next Put fails.
  void Cancel();
  //! Whether extraction ended with an error (Close).
  bool Failed() const;

 private:
  struct Item {
    std::string resource;
    std::optional<StoredPage> page;  //!< nullopt: the resource's end
  };
  //! Waits for room (under `lock`); an error once cancelled.
  Status Enqueue(std::unique_lock<std::mutex>& lock, Item item);

  const std::size_t capacity_;
  mutable std::mutex mu_;
  std::condition_variable changed_;
  std::deque<Item> queue_;
  bool closed_ = false;
  bool cancelled_ = false;
  std::optional<Error> error_;
};

}  // namespace databox::source
