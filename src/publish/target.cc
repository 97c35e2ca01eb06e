#include "publish/target.h"

#include "common/clock.h"

namespace databox::publish {
namespace {

Error AtTarget(const Layout& layout, const Error& error) {
  return error.WithContext("publish target " + layout.root());
}

}  // namespace

Result<TargetState> InspectTarget(fileio::FileIO& io, const Layout& layout) {
  TargetState state;
  auto marker = io.Exists(layout.Marker());
  if (!marker) return std::unexpected(AtTarget(layout, marker.error()));
  state.has_marker = *marker;
  if (!state.has_marker) {
    // A local folder that does not exist lists empty; a missing bucket is kNotFound.
    auto objects = io.List(layout.root() + "/");
    if (!objects && objects.error().kind == ErrorKind::kNotFound) {
      return MakeError(ErrorKind::kNotFound, "publish target " + layout.root() +
                                                 ": the bucket does not exist; create it or "
                                                 "publish to an existing bucket");
    }
    if (!objects) return std::unexpected(AtTarget(layout, objects.error()));
    if (!objects->empty()) {
      return MakeError(ErrorKind::kConfig,
                       "publish target " + layout.root() + " holds " +
                           std::to_string(objects->size()) + " object(s) (e.g. " +
                           objects->front().location +
                           ") but no .databox-publish marker, so databox publish did not write "
                           "it; nothing was changed: publish to an empty location");
    }
    return state;
  }
  auto pointer = io.ReadTagged(layout.Pointer());
  if (!pointer) {
    if (pointer.error().kind == ErrorKind::kNotFound) return state;
    return std::unexpected(AtTarget(layout, pointer.error()));
  }
  auto parsed = Pointer::FromJson(pointer->bytes, layout.Pointer());
  if (!parsed) {
    return MakeError(ErrorKind::kConfig, parsed.error().message + "; nothing was changed");
  }
  state.pointer = std::move(*parsed);
  state.pointer_tag = std::move(pointer->tag);
  return state;
}

Status ClaimTarget(fileio::FileIO& io, const Layout& layout) {
  const std::string marker =
      std::string("{\"format\": \"") + kFormat + "\", \"created_at\": \"" + NowIso() + "\"}\n";
  Status written = io.WriteNew(layout.Marker(), marker);
  if (!written && written.error().kind != ErrorKind::kAlreadyExists) {
    return std::unexpected(AtTarget(layout, written.error()));
  }
  return Ok();
}

Status MovePointer(fileio::FileIO& io, const Layout& layout, const TargetState& before,
                   const Pointer& next) {
  const std::string text = next.ToJson();
  Status moved = before.pointer ? io.ReplaceIfTag(layout.Pointer(), text, before.pointer_tag)
                                : io.WriteNew(layout.Pointer(), text);
  if (moved) return Ok();
  if (moved.error().kind == ErrorKind::kConflict ||
      moved.error().kind == ErrorKind::kAlreadyExists) {
    return MakeError(ErrorKind::kConflict, "another publish moved " + layout.Pointer() +
                                               " while this one ran; version " +
                                               std::to_string(next.version) +
                                               " was written but is not current: publish again");
  }
  return std::unexpected(AtTarget(layout, moved.error()));
}

}  // namespace databox::publish
