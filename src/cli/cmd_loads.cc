// `databox loads [SOURCE]` and `databox loads remove SOURCE LOAD_ID`: the load packages in
// <state_dir>/loads (docs/load_package.md) as a list, and the removal of one of them under the
// source's lock. Reads the registry only for state_dir and the source names: no catalog,
// storage or network is touched.
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/load_list.h"
#include "cli/output.h"
#include "common/edit_distance.h"
#include "common/exit_code.h"
#include "load/load_package.h"
#include "load/source_lock.h"
#include "registry/registry.h"

namespace databox::cli {
namespace {

//! What `databox loads [remove]` parsed.
struct LoadsArgs {
  std::string source;  //!< empty: every source
  bool json = false;
  std::string load_id;         //!< remove
  CLI::App* remove = nullptr;  //!< chosen when parsed()
};

//! Whether `name` is a source of the registry or has packages on disk (a source removed from
//! the registry keeps its packages until they are removed). When not, prints why on stderr.
bool KnownSource(const registry::Registry& registry, const std::filesystem::path& loads_dir,
                 const std::string& command, const std::string& name) {
  std::vector<std::string> names = load::PackageSources(loads_dir);
  for (const std::string& known : names) {
    if (known == name) return true;
  }
  if (registry.FindSource(name) != nullptr) return true;
  for (const auto& source : registry.sources) names.push_back(source.name);
  Err(command + ": unknown source '" + name + "'" + DidYouMean(name, names) +
      "; `databox sources` lists them\n");
  return false;
}

ExitCode List(const registry::Registry& registry, const LoadsArgs& args) {
  const std::filesystem::path loads_dir = load::LoadsDir(registry.project.state_dir);
  std::vector<std::string> sources;
  if (args.source.empty()) {
    sources = load::PackageSources(loads_dir);
  } else {
    if (!KnownSource(registry, loads_dir, "databox loads", args.source)) return ExitCode::kUsage;
    sources.push_back(args.source);
  }
  std::vector<load::PackageSummary> packages;
  for (const std::string& source : sources) {
    for (auto& package : load::ListPackages(loads_dir, source)) {
      packages.push_back(std::move(package));
    }
  }
  const std::string empty = "no load packages" +
                            (args.source.empty() ? "" : " of source " + args.source) + " in " +
                            loads_dir.string() + "\n";
  Out(args.json ? LoadListJson(packages).dump(2) + "\n" : FormatLoadList(packages, empty));
  return ExitCode::kOk;
}

ExitCode Remove(const registry::Registry& registry, const LoadsArgs& args) {
  const std::string command = "databox loads remove";
  const std::filesystem::path& state_dir = registry.project.state_dir;
  const std::filesystem::path loads_dir = load::LoadsDir(state_dir);
  if (!KnownSource(registry, loads_dir, command, args.source)) return ExitCode::kUsage;
  // Held while the package goes: no load of this source reads or writes it meanwhile.
  auto lock = load::SourceLock::Acquire(load::SourceLocksDir(state_dir), args.source);
  if (!lock) {
    Err(command + ": " + lock.error().message + "\n");
    return ExitCode::kRunFailed;
  }
  if (auto removed = load::RemovePackage(loads_dir, args.source, args.load_id); !removed) {
    Err(command + ": " + removed.error().message + "\n");
    return ExitCode::kRunFailed;
  }
  Out("removed load package " + args.load_id + " of source " + args.source + "\n");
  return ExitCode::kOk;
}

ExitCode Loads(const GlobalOptions& global, const LoadsArgs& args) {
  const bool removing = args.remove->parsed();
  auto loaded = registry::LoadRegistry(global.config_path);
  if (!loaded) {
    Err(std::string(removing ? "databox loads remove" : "databox loads") + ": " +
        loaded.error().message + "\n");
    return ExitCode::kUsage;
  }
  return removing ? Remove(*loaded, args) : List(*loaded, args);
}

}  // namespace

Command LoadsCommand() {
  return Command{
      "loads", "List the load packages of the sources, or remove one",
      "Lists the load packages in <state_dir>/loads (docs/load_package.md), newest first per\n"
      "source: source, load id, state (extracting, extracted, committed, failed), when it\n"
      "was created (the load id's time) and last changed (UTC), whether `databox run SOURCE\n"
      "--resume` would take it, its size on disk and, for a failed one, its error (cut; whole\n"
      "in --json). A load keeps the newest [project] keep_load_packages packages per source.\n"
      "Exit 2 for an unknown source.",
      [](CLI::App& app) -> Runner {
        auto args = std::make_shared<LoadsArgs>();
        app.require_subcommand(0, 1);
        app.add_option("SOURCE", args->source, "list only this source's packages");
        app.add_flag("--json", args->json, "machine-readable output");
        args->remove = app.add_subcommand("remove", "Remove one load package of a source");
        args->remove->footer(
            "Takes the source's lock first: refuses (exit 1), naming the process, while a\n"
            "`databox run` or `databox refresh` loads that source. Exit 1 when the source has\n"
            "no package LOAD_ID (the closest id is named), 2 for an unknown source. Removing\n"
            "the package --resume would take means the next run fetches again.");
        args->remove->add_option("SOURCE", args->source, "the source, e.g. noaa")->required();
        args->remove->add_option("LOAD_ID", args->load_id, "the id `databox loads` lists")
            ->required();
        return [args](const GlobalOptions& global) { return Loads(global, *args); };
      }};
}

}  // namespace databox::cli
