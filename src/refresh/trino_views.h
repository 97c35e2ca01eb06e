// With the Trino gateway ([project.transform] gateway = "trino"), SQLMesh's models read the raw
// tables through the Trino catalog named like [project.analytics] catalog_alias, as they read
// the raw views file with DuckDB: <alias>.raw_<source>.<table> and <alias>.databox.*. Two kinds
// of names there are not Iceberg tables databox wrote, so databox creates them on Trino before
// the transform (StatementClient: Trino stores them as Iceberg views in the REST catalog):
//   <alias>.databox.sources, <alias>.databox.platform_loads  the platform views (platform_health.h)
//       over the raw tables, kept between runs (namespace `databox` is databox's own);
//   <alias>.raw_<source>.<table>  for a table the registry declares but the catalog does not
//       hold yet (an explicit source never loaded): the typed empty placeholder of the raw
//       views file, dropped again after the transform, so that a later load can create the
//       table (a load running while a transform runs cannot create that table: run it again).
// Types are the placeholders' DuckDB types written the way Trino names them.
#pragma once

#include <string>
#include <vector>

#include "common/error.h"
#include "load/workspace.h"

namespace databox::refresh {

struct TrinoViewStatements {
  std::vector<std::string> before;        //!< run in order before the transform
  std::vector<std::string> after;         //!< run after it, whatever its outcome
  std::vector<std::string> placeholders;  //!< "raw_<source>.<table>" given a placeholder view
};

//! The statements for the workspace's registry and the catalog's current tables.
Result<TrinoViewStatements> MakeTrinoViewStatements(load::Workspace& workspace);

//! A DuckDB type of a placeholder column (PlaceholderColumn) as Trino writes it.
std::string TrinoTypeOf(const std::string& duck_type);

//! Runs `statements` on the registry's Trino coordinator in order, stopping at the first error.
Status RunOnTrino(const registry::Registry& registry, const std::vector<std::string>& statements);

//! kNetwork naming the coordinator when it does not answer or is still starting.
Status CheckTrinoReady(const registry::Registry& registry);

}  // namespace databox::refresh
