// What every load of a source name (a source load, `databox ingest`) does before it starts: take
// the name's lock (source_lock.h) and settle the packages earlier loads left (load_package.h),
// leaving room for the package it is about to create.
#pragma once

#include <string>

#include "common/error.h"
#include "load/load_package.h"
#include "load/source_lock.h"
#include "load/workspace.h"

namespace databox::load {

//! A load's turn: held until the load ends.
struct LoadTurn {
  SourceLock lock;               //!< a second load of the name fails at once (kConflict)
  LoadPackage::Settled settled;  //!< what settling the earlier packages did
};

Result<LoadTurn> TakeLoadTurn(const Workspace& workspace, const std::string& source);

}  // namespace databox::load
