#include "platform/source_kinds.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>

#include "source/kinds.h"
#include "source/rest_json_kind.h"
#include "sources/avonet/avonet_kind.h"
#include "sources/usfws/usfws_kind.h"

namespace databox::platform {
namespace {

//! Registers `kind`; a kind registered twice is a programming error of this file.
void Register(std::unique_ptr<const source::Kind> kind) {
  if (Status registered = source::RegisterKind(std::move(kind)); !registered) {
    std::fprintf(stderr, "databox: %s\n", registered.error().message.c_str());
    std::abort();
  }
}

}  // namespace

void RegisterSourceKinds() {
  static std::once_flag once;
  std::call_once(once, [] {
    // In this order `databox run --help` lists the options the kinds own.
    Register(std::make_unique<source::RestJsonKind>());
    Register(std::make_unique<source::AvonetKind>());
    Register(std::make_unique<source::UsfwsKind>());
  });
}

std::vector<const source::Kind*> SourceKinds() {
  RegisterSourceKinds();
  return source::RegisteredKinds();
}

}  // namespace databox::platform
