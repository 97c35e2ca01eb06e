// Scope guard for a table a function creates for its own use (CREATE TEMP TABLE ... AS).
#pragma once

#include <string>
#include <utility>

#include "duck/connection.h"

namespace databox::duck {

//! Drops the table `name` (already quoted) when it goes out of scope. A failing DROP is ignored:
//! temp tables go with the connection anyway.
class DropTableOnExit {
 public:
  DropTableOnExit(Connection& conn, std::string name) : conn_(conn), name_(std::move(name)) {}
  DropTableOnExit(const DropTableOnExit&) = delete;
  DropTableOnExit& operator=(const DropTableOnExit&) = delete;
  ~DropTableOnExit() { (void)conn_.Execute("DROP TABLE IF EXISTS " + name_); }

  const std::string& name() const { return name_; }

 private:
  Connection& conn_;
  std::string name_;
};

}  // namespace databox::duck
