// How a user installs the SQLMesh that `databox transform` / `databox refresh` run: the versions
// the project pins in scripts/requirements.txt (a test keeps them equal), said so that it holds
// outside the repository too.
#pragma once

namespace databox::refresh {

//! The pip command that installs the pinned SQLMesh and the DuckDB it must read our files with.
inline constexpr const char kSqlMeshPipInstall[] = "pip install 'sqlmesh==0.236.4' 'duckdb==1.5.5'";

//! Where the installed `sqlmesh` is looked for, and how to install it there.
inline constexpr const char kSqlMeshInstallHint[] =
    "install SQLMesh into a virtualenv named .venv beside databox.toml (python3 -m venv .venv && "
    ".venv/bin/pip install 'sqlmesh==0.236.4' 'duckdb==1.5.5'), or into $DATABOX_VENV_DIR, or "
    "anywhere on PATH";

}  // namespace databox::refresh
