#include "source/kinds.h"

#include <algorithm>
#include <mutex>
#include <string>
#include <utility>

namespace databox::source {
namespace {

//! The kind of a registry kind nothing registered: adds nothing, makes nothing.
class Unregistered final : public Kind {
 public:
  explicit Unregistered(registry::SourceKind id) : id_(id) {}
  registry::SourceKind id() const override { return id_; }
  Result<std::unique_ptr<Source>> Make(const registry::Source& source, const SourceInput&,
                                       Network) const override {
    return MakeError(ErrorKind::kInternal,
                     "source " + source.name + ": no source kind " +
                         std::string(registry::ToString(id_)) +
                         " is registered (the composition root registers every kind)");
  }

 private:
  registry::SourceKind id_;
};

//! The registered kinds, and the stand-ins asked for kinds nothing registered. Neither list
//! shrinks, so the references handed out stay valid.
struct Registered {
  std::mutex mutex;
  std::vector<std::unique_ptr<const Kind>> kinds;                 //!< guarded by mutex
  std::vector<std::unique_ptr<const Unregistered>> unregistered;  //!< guarded by mutex
};

Registered& Kinds() {
  static Registered* registered = new Registered;  // never destroyed: lookups may come late
  return *registered;
}

}  // namespace

Status RegisterKind(std::unique_ptr<const Kind> kind) {
  Registered& registered = Kinds();
  std::lock_guard lock(registered.mutex);
  if (std::ranges::any_of(registered.kinds, [&](const auto& k) { return k->id() == kind->id(); })) {
    return MakeError(
        ErrorKind::kInternal,
        "source kind " + std::string(registry::ToString(kind->id())) + " is registered twice");
  }
  registered.kinds.push_back(std::move(kind));
  return Ok();
}

std::vector<const Kind*> RegisteredKinds() {
  Registered& registered = Kinds();
  std::lock_guard lock(registered.mutex);
  std::vector<const Kind*> out;
  for (const auto& kind : registered.kinds) out.push_back(kind.get());
  return out;
}

const Kind& KindOf(const registry::Source& source) {
  Registered& registered = Kinds();
  std::lock_guard lock(registered.mutex);
  for (const auto& kind : registered.kinds) {
    if (kind->id() == source.kind) return *kind;
  }
  for (const auto& kind : registered.unregistered) {
    if (kind->id() == source.kind) return *kind;
  }
  registered.unregistered.push_back(std::make_unique<Unregistered>(source.kind));
  return *registered.unregistered.back();
}

}  // namespace databox::source
