// Internal: the parts of the registry parser, sharing one context.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "registry/model.h"
#include "registry/registry.h"
#include "registry/toml_reader_internal.h"

namespace databox::registry::internal {

//! Upper bounds of the timeout (seconds) and retry keys, wherever they appear.
inline constexpr double kMaxTimeoutS = 3600;
inline constexpr int kMaxRetries = 20;

//! What every parsing step needs: where problems go and how secrets resolve.
struct ParseContext {
  Problems& problems;
  std::filesystem::path config_dir;            //!< absolute folder of the config file
  EnvLookup env;                               //!< process environment (or a test fake)
  std::map<std::string, std::string> dot_env;  //!< from <config_dir>/.env
  std::string dot_env_path;                    //!< for hints
};

//! The value of variable `name`: the environment, then the .env file; nullopt when unset or empty.
std::optional<std::string> LookupVariable(const ParseContext& ctx, const std::string& name);

//! The [variables] table (NAME = { min, max } integer ranges) and the lookup of `ctx`, which must
//! outlive the result.
Variables ParseVariables(const toml::table* table, const ParseContext& ctx);

//! Reads a secret field that must be "${ENV_VAR}". A literal value is a problem (and is never
//! echoed). A missing variable is a problem unless `may_be_absent`.
Secret ReadSecret(TableReader& reader, std::string_view key, ParseContext& ctx, bool may_be_absent);

//! Absolute, normalized path: `text` itself if absolute, else relative to the config folder.
std::filesystem::path ResolvePath(const ParseContext& ctx, const std::string& text);

//! Why databox must not write into the folder `path`: it is the filesystem root, inside a system
//! folder (/etc, /usr, ...), a shared top-level folder itself (/home, /tmp, ...) or the user's
//! home folder (symlinks resolved). Empty when the folder may be databox's.
std::string WhyNotOwnFolder(const ParseContext& ctx, const std::filesystem::path& path);

//! WhyNotOwnFolder, and also refuses a state folder that is or holds the registry's folder (the
//! state folder is made owner-only and filled with catalog.sqlite, warehouse/, loads/, ...).
std::string WhyNotStateFolder(const ParseContext& ctx, const std::filesystem::path& path);

//! Problem text for a URL that is not absolute http(s) without user info; empty when fine.
std::string CheckHttpUrl(std::string_view url);

//! Parses [project] (defaults applied when the table is absent).
ProjectSettings ParseProject(const toml::table* project, ParseContext& ctx);

//! A storage location under `key`: s3://bucket/prefix as written, else a local path resolved
//! against the config folder that must be databox's own (`consequence` says why). The location
//! and whether it is s3://; nullopt when absent or not a location (reported).
std::optional<std::pair<std::string, bool>> ReadStoreLocation(TableReader& r, std::string_view key,
                                                              ParseContext& ctx,
                                                              const std::string& consequence);

//! The keys an S3 settings table shares ([project.warehouse.s3], [publish.s3]): endpoint, region,
//! path_style, the key secrets, timeouts and retries.
void ReadS3Settings(TableReader& s, S3Settings& settings, ParseContext& ctx);

//! Reads the optional `s3` sub-table of `r` (named `context`, e.g. "[publish.s3]") into
//! `settings`; reports it as unused unless the `noun` it belongs to ("location", "target") is
//! s3:// (`is_s3`), with `fix` saying how to use it or drop it.
void ReadS3Subtable(TableReader& r, std::string_view context, std::string_view noun, bool is_s3,
                    std::string_view fix, S3Settings& settings, ParseContext& ctx);

//! Parses the top-level [publish] table (docs/publish.md).
PublishSettings ParsePublish(const toml::table& table, ParseContext& ctx);

//! Parses one [[source]] table. `replay` is [project.http] replay; a source that replays may
//! leave its secret unset.
Source ParseSource(const toml::table& table, const std::optional<std::filesystem::path>& replay,
                   ParseContext& ctx);

//! Reads `partition` and `sort` of a resource into `res` (docs/registry.md): each column must be
//! declared in `columns` with a type its transform accepts.
void ParseTableLayout(Resource& res, TableReader& r);

//! Cross-source checks: duplicate source names and duplicate tables.
void CheckSources(const std::vector<Source>& sources, ParseContext& ctx);
//! With a REST catalog's underscore_table_prefix P: a resource or child table named P_... is a
//! problem (the catalog stores databox's _... tables under those names;
//! iceberg/spec/table_names.h).
void CheckReservedTableNames(const std::vector<Source>& sources, const CatalogSettings& catalog,
                             ParseContext& ctx);

}  // namespace databox::registry::internal
