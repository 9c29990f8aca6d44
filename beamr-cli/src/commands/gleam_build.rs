//! Gleam builds for `beamr run`: the directory `gleam build` writes
//! (`build/dev/erlang`) and the one `gleam export erlang-shipment` writes
//! (`build/erlang-shipment`) hold one `PKG/ebin` directory per package.
//! `beamr run DIR` puts every package's `ebin` on the code path and runs
//! the root package as `gleam run` does: through the `PKG@@main` module
//! the Gleam compiler writes for the root package, whose `run(Module)`
//! starts the applications, calls `Module:main()`, prints a failure as
//! Gleam prints it and stops the runtime with status 0 or 1.

use std::path::{Path, PathBuf};

use beamr_core::beam::BeamFile;

/// A Gleam build directory, ready to run.
#[derive(Debug)]
pub struct GleamBuild {
    /// Every package's `ebin`, the root package's first.
    pub ebins: Vec<PathBuf>,
    /// The root package: the one with a `PKG@@main` module.
    pub root: String,
}

impl GleamBuild {
    /// Reads `dir` as a Gleam build: `Ok(None)` when it holds no
    /// `PKG/ebin` directory (it is not one), an error when it is one that
    /// cannot run (no root package, or several and no `gleam.toml` to say
    /// which).
    pub fn detect(dir: &Path) -> Result<Option<GleamBuild>, String> {
        let entries =
            std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        let mut packages: Vec<(String, PathBuf)> = entries
            .flatten()
            .filter_map(|e| {
                let ebin = e.path().join("ebin");
                let name = e.file_name().to_str()?.to_string();
                ebin.is_dir().then_some((name, ebin))
            })
            .collect();
        if packages.is_empty() {
            return Ok(None);
        }
        packages.sort();
        let mut roots: Vec<&str> = packages
            .iter()
            .filter(|(name, ebin)| ebin.join(format!("{name}@@main.beam")).is_file())
            .map(|(name, _)| name.as_str())
            .collect();
        if roots.len() > 1 {
            // build/dev/erlang sits three levels under the project's gleam.toml.
            if let Some(name) = project_name(dir) {
                roots.retain(|r| *r == name);
            }
        }
        let root = match roots.as_slice() {
            [root] => root.to_string(),
            [] => {
                return Err(format!(
                    "{}: a Gleam build with no root package (no PKG/ebin/PKG@@main.beam); \
                     build the project with `gleam build`",
                    dir.display()
                ))
            }
            several => {
                return Err(format!(
                    "{}: several root packages ({}); run the project's own build directory",
                    dir.display(),
                    several.join(", ")
                ))
            }
        };
        let (first, rest): (Vec<_>, Vec<_>) = packages.into_iter().partition(|(n, _)| *n == root);
        let ebins = first
            .into_iter()
            .chain(rest)
            .map(|(_, ebin)| ebin)
            .collect();
        Ok(Some(GleamBuild { ebins, root }))
    }

    /// The Erlang module to run: the Gleam module `-e` names (`a/b` is the
    /// Erlang module `a@b`), else the root package's module of its name.
    /// It must exist and export `main/0`, as `gleam run -m` requires.
    pub fn entry_module(&self, gleam_module: Option<&str>) -> Result<String, String> {
        let gleam_name = gleam_module.unwrap_or(&self.root);
        if gleam_name.is_empty() || gleam_name.contains(':') {
            return Err(format!(
                "-e {gleam_name}: a Gleam build runs a Gleam module's main/0; give the module \
                 as `-e path/to/module`"
            ));
        }
        let module = gleam_name.replace('/', "@");
        let file = self
            .ebins
            .iter()
            .map(|ebin| ebin.join(format!("{module}.beam")))
            .find(|f| f.is_file())
            .ok_or_else(|| format!("no module {gleam_name} in this Gleam build"))?;
        let bytes =
            std::fs::read(&file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let beam = BeamFile::parse(&bytes).map_err(|e| format!("{}: {e}", file.display()))?;
        let has_main = beam
            .exports
            .iter()
            .any(|f| f.arity == 0 && beam.atoms.get(f.function) == Some("main"));
        if !has_main {
            return Err(format!(
                "module {gleam_name} has no public main function (pub fn main())"
            ));
        }
        Ok(module)
    }

    /// The module `gleam run` calls: the root package's `PKG@@main`.
    pub fn runner_module(&self) -> String {
        format!("{}@@main", self.root)
    }
}

/// The `name` of the project whose `build/dev/erlang` (or
/// `build/prod/erlang`) is `dir`, from its `gleam.toml`.
fn project_name(dir: &Path) -> Option<String> {
    let toml = dir.parent()?.parent()?.parent()?.join("gleam.toml");
    let table: toml::Table = std::fs::read_to_string(toml).ok()?.parse().ok()?;
    Some(table.get("name")?.as_str()?.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("beamr-gleam-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_directory_without_package_ebins_is_not_a_gleam_build() {
        let dir = scratch("plain");
        std::fs::write(dir.join("m.beam"), b"").unwrap();
        assert!(GleamBuild::detect(&dir).unwrap().is_none());
    }

    #[test]
    fn the_root_package_is_the_one_with_a_main_module_and_comes_first() {
        let dir = scratch("root");
        for pkg in ["aaa_dep", "app", "zzz_dep"] {
            std::fs::create_dir_all(dir.join(pkg).join("ebin")).unwrap();
        }
        std::fs::write(dir.join("app/ebin/app@@main.beam"), b"").unwrap();
        let build = GleamBuild::detect(&dir).unwrap().unwrap();
        assert_eq!(build.root, "app");
        assert_eq!(build.runner_module(), "app@@main");
        let names: Vec<_> = build
            .ebins
            .iter()
            .map(|e| e.parent().unwrap().file_name().unwrap().to_str().unwrap())
            .collect();
        assert_eq!(names, ["app", "aaa_dep", "zzz_dep"]);
    }

    #[test]
    fn several_root_packages_are_told_apart_by_gleam_toml() {
        let project = scratch("toml");
        std::fs::write(
            project.join("gleam.toml"),
            "name = \"app\"\nversion = \"1.0.0\"\n\n[dependencies]\nother = { path = \"../other\" }\n",
        )
        .unwrap();
        let dir = project.join("build/dev/erlang");
        for pkg in ["app", "other"] {
            std::fs::create_dir_all(dir.join(pkg).join("ebin")).unwrap();
            std::fs::write(dir.join(pkg).join(format!("ebin/{pkg}@@main.beam")), b"").unwrap();
        }
        assert_eq!(GleamBuild::detect(&dir).unwrap().unwrap().root, "app");
    }

    #[test]
    fn a_build_without_a_root_package_is_an_error_that_says_so() {
        let dir = scratch("noroot");
        std::fs::create_dir_all(dir.join("lib/ebin")).unwrap();
        let err = GleamBuild::detect(&dir).unwrap_err();
        assert!(err.contains("no root package"), "{err}");
    }

    #[test]
    fn a_missing_module_is_named() {
        let dir = scratch("nomodule");
        std::fs::create_dir_all(dir.join("app/ebin")).unwrap();
        std::fs::write(dir.join("app/ebin/app@@main.beam"), b"").unwrap();
        let build = GleamBuild::detect(&dir).unwrap().unwrap();
        let err = build.entry_module(Some("app/missing")).unwrap_err();
        assert_eq!(err, "no module app/missing in this Gleam build");
        let err = build.entry_module(Some("app:main")).unwrap_err();
        assert!(err.contains("path/to/module"), "{err}");
    }
}
