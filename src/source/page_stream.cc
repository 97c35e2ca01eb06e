#include "source/page_stream.h"

namespace databox::source {

Status PageStream::Enqueue(std::unique_lock<std::mutex>& lock, Item item) {
  changed_.wait(lock, [&] { return cancelled_ || queue_.size() < capacity_; });
  if (cancelled_) {
    return MakeError(ErrorKind::kInternal, "the load stopped reading pages (it failed)");
  }
  queue_.push_back(std::move(item));
  changed_.notify_all();
  return Ok();
}

Status PageStream::Put(const std::string& resource, StoredPage page) {
  std::unique_lock lock(mu_);
  return Enqueue(lock, Item{resource, std::move(page)});
}

Status PageStream::EndResource(const std::string& resource) {
  std::unique_lock lock(mu_);
  return Enqueue(lock, Item{resource, std::nullopt});
}

void PageStream::Close(std::optional<Error> error) {
  std::lock_guard lock(mu_);
  closed_ = true;
  error_ = std::move(error);
  changed_.notify_all();
}

Result<std::optional<StoredPage>> PageStream::Next(const std::string& resource) {
  std::unique_lock lock(mu_);
  changed_.wait(lock, [&] { return !queue_.empty() || closed_; });
  if (queue_.empty()) {
    if (error_) return std::unexpected(*error_);
    return MakeError(ErrorKind::kInternal,
                     "extraction ended without the pages of resource " + resource);
  }
  Item item = std::move(queue_.front());
  queue_.pop_front();
  changed_.notify_all();
  if (item.resource != resource) {
    return MakeError(ErrorKind::kInternal, "extraction handed over resource " + item.resource +
                                               " while " + resource + " was read");
  }
  return std::move(item.page);
}

bool PageStream::Failed() const {
  std::lock_guard lock(mu_);
  return closed_ && error_.has_value();
}

void PageStream::Cancel() {
  std::lock_guard lock(mu_);
  cancelled_ = true;
  queue_.clear();
  changed_.notify_all();
}

}  // namespace databox::source
