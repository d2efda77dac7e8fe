//! .NET projects that build a program: a project file (`*.csproj`, `*.fsproj`, `*.vbproj`)
//! whose `OutputType` is `Exe` or `WinExe` and that is not packed as a tool or a package
//! (`PackAsTool`, `IsPackable`). Nothing references a program's types: its sources (a build
//! script's `build.fs`, a sample console app) carry no API.

use crate::cohort::paths::parent_dir;

const PROJECT_EXTENSIONS: &[&str] = &[".csproj", ".fsproj", ".vbproj"];

/// Whether `path` belongs to a .NET program: the nearest folder at or above it holding a
/// project file holds one that builds a program and no other. `names` lists a folder's files,
/// `read` reads one.
pub(crate) fn in_program(
    path: &str,
    names: &dyn Fn(&str) -> Vec<String>,
    read: &dyn Fn(&str) -> Option<String>,
) -> bool {
    let mut dir = parent_dir(path).to_string();
    loop {
        let projects: Vec<String> = names(&dir)
            .into_iter()
            .filter(|name| {
                let lower = name.to_ascii_lowercase();
                PROJECT_EXTENSIONS.iter().any(|e| lower.ends_with(e))
            })
            .collect();
        if !projects.is_empty() {
            return projects.iter().all(|name| {
                let file = if dir.is_empty() {
                    name.clone()
                } else {
                    format!("{dir}/{name}")
                };
                read(&file).is_some_and(|text| builds_a_program(&text))
            });
        }
        if dir.is_empty() {
            return false;
        }
        dir = parent_dir(&dir).to_string();
    }
}

/// A project file's text declares an executable that is not packed for others to reference.
fn builds_a_program(project: &str) -> bool {
    let property = |name: &str| -> Option<String> {
        let open = format!("<{name}>");
        let start = project.find(&open)? + open.len();
        let end = project[start..].find('<')? + start;
        Some(project[start..end].trim().to_ascii_lowercase())
    };
    let executable = property("OutputType").is_some_and(|t| t == "exe" || t == "winexe");
    let packed = ["PackAsTool", "IsPackable"]
        .iter()
        .any(|p| property(p).is_some_and(|v| v == "true"));
    executable && !packed
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn tree(files: &[(&str, &str)]) -> BTreeMap<String, String> {
        files
            .iter()
            .map(|(p, t)| (p.to_string(), t.to_string()))
            .collect()
    }

    fn check(files: &BTreeMap<String, String>, path: &str) -> bool {
        let names = |dir: &str| -> Vec<String> {
            files
                .keys()
                .filter(|p| parent_dir(p) == dir)
                .map(|p| p.rsplit('/').next().unwrap_or(p).to_string())
                .collect()
        };
        let read = |p: &str| files.get(p).cloned();
        in_program(path, &names, &read)
    }

    const EXE: &str = "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <OutputType>Exe</OutputType>\n  </PropertyGroup>\n</Project>\n";
    const LIBRARY: &str = "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n  </PropertyGroup>\n</Project>\n";
    const TOOL: &str = "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <OutputType>Exe</OutputType>\n    <PackAsTool>true</PackAsTool>\n  </PropertyGroup>\n</Project>\n";

    #[test]
    fn the_sources_of_a_program_project_carry_no_api() {
        let files = tree(&[
            ("build/build.fsproj", EXE),
            ("build/build.fs", "module Build\n"),
            ("src/Lib/Lib.csproj", LIBRARY),
            ("src/Lib/Api/Thing.cs", "public class Thing {}\n"),
            ("samples/App/App.csproj", EXE),
            ("samples/App/Program.cs", "class Program {}\n"),
            ("tool/Tool.csproj", TOOL),
            ("tool/Main.cs", "class Main {}\n"),
            ("mixed/App.csproj", EXE),
            ("mixed/Lib.csproj", LIBRARY),
            ("mixed/Code.cs", "class Code {}\n"),
            ("loose/Code.fs", "module Code\n"),
        ]);
        assert!(check(&files, "build/build.fs"));
        assert!(check(&files, "samples/App/Program.cs"));
        // A library, a packed tool, a folder that also builds a library, and a file no
        // project holds keep their API.
        assert!(!check(&files, "src/Lib/Api/Thing.cs"));
        assert!(!check(&files, "tool/Main.cs"));
        assert!(!check(&files, "mixed/Code.cs"));
        assert!(!check(&files, "loose/Code.fs"));
    }
}
