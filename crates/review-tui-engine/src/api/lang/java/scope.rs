//! Which Java files carry an API: not an `internal` or `impl` package, not a module its build
//! never publishes, a package its `module-info.java` exports.

use crate::api::visibility::{Read, Visibility};

/// Java's rule: not in an `internal` or `impl` package, a published module, a package its
/// `module-info.java` exports.
pub(crate) fn scope(dirs: &[&str], read: Read) -> Visibility {
    if dirs.iter().any(|d| *d == "internal" || *d == "impl") {
        return Visibility::NotApi("an internal package");
    }
    if native_extension_of_a_gem(dirs, read) {
        return Visibility::NotApi("a Ruby gem's native extension (its API is the gem's Ruby)");
    }
    if let Some(why) = jvm_unpublished(dirs, read) {
        return Visibility::Unpublished(why);
    }
    java_module(dirs, read)
}

/// Whether a Java file in `dirs` is the source of a Ruby gem's JRuby extension: it sits
/// under an `ext/` folder beside a `Gemfile` (puma's `ext/puma_http11/org/jruby/puma/`).
/// What users call is the gem's Ruby; the extension is how it runs on JRuby.
fn native_extension_of_a_gem(dirs: &[&str], read: Read) -> bool {
    dirs.iter().enumerate().any(|(depth, dir)| {
        *dir == "ext" && {
            let above = dirs[..depth].join("/");
            let at = |file: &str| {
                if above.is_empty() {
                    file.to_string()
                } else {
                    format!("{above}/{file}")
                }
            };
            read(&at("Gemfile")).is_some()
        }
    })
}

/// Why the JVM module holding a file in `dirs` is never published, read from its nearest
/// build file: a Maven module whose `maven-deploy-plugin` is skipped (gson's `extras` and
/// `codegen`: `<skip>true</skip>`, "Currently not deployed") or that sets
/// `maven.deploy.skip`; a Gradle project (its own build file and the root one) that never
/// mentions publishing. As `publish = false` for a Rust crate: nothing in it is a contract.
fn jvm_unpublished(dirs: &[&str], read: Read) -> Option<&'static str> {
    for depth in (0..=dirs.len()).rev() {
        let at = |file: &str| {
            if depth == 0 {
                file.to_string()
            } else {
                format!("{}/{file}", dirs[..depth].join("/"))
            }
        };
        if let Some(pom) = read(&at("pom.xml")) {
            // The parent's pom, one folder up (Maven's default `relativePath`): it may
            // configure the plugin with a property the module overrides.
            let parent = (depth > 0)
                .then(|| {
                    let above = dirs[..depth - 1].join("/");
                    read(&if above.is_empty() {
                        "pom.xml".to_string()
                    } else {
                        format!("{above}/pom.xml")
                    })
                })
                .flatten();
            return maven_deploy_skipped(&pom, parent.as_deref())
                .then_some("its Maven module skips maven-deploy-plugin (never deployed)");
        }
        let gradle = read(&at("build.gradle.kts")).or_else(|| read(&at("build.gradle")));
        if let Some(build) = gradle {
            let root = read("build.gradle.kts")
                .or_else(|| read("build.gradle"))
                .unwrap_or_default();
            let publishes = |text: &str| text.to_ascii_lowercase().contains("publish");
            return (!publishes(&build) && !publishes(&root))
                .then_some("its Gradle project has no publishing");
        }
    }
    None
}

/// Whether a `pom.xml` turns deployment off for its module: `maven.deploy.skip` set to true,
/// or a `maven-deploy-plugin` whose configuration says `<skip>true</skip>`, written in the
/// module or in its `parent` pom, with `${property}` values read from the module's properties
/// over the parent's (gson's parent writes `<skip>${gson.isInternalModule}</skip>` and
/// `extras` sets that property to true: "this module is currently not deployed").
fn maven_deploy_skipped(pom: &str, parent: Option<&str>) -> bool {
    let compact = |text: &str| -> String { text.chars().filter(|c| !c.is_whitespace()).collect() };
    let pom = compact(pom);
    let parent = parent.map(compact).unwrap_or_default();
    let property = |name: &str| -> Option<String> {
        let open = format!("<{name}>");
        let close = format!("</{name}>");
        [&pom, &parent].iter().find_map(|text| {
            let properties = &text[text.find("<properties>")?..];
            let properties = &properties[..properties.find("</properties>")?];
            let start = properties.find(&open)? + open.len();
            let end = start + properties[start..].find(&close)?;
            Some(properties[start..end].to_string())
        })
    };
    // `${a}` resolved through properties, a few steps.
    let value = |raw: &str| -> String {
        let mut current = raw.to_string();
        for _ in 0..4 {
            match current
                .strip_prefix("${")
                .and_then(|rest| rest.strip_suffix('}'))
                .and_then(&property)
            {
                Some(next) => current = next,
                None => break,
            }
        }
        current
    };
    if property("maven.deploy.skip").is_some_and(|v| value(&v) == "true") {
        return true;
    }
    let skip_of = |text: &str| -> Option<String> {
        text.match_indices("<artifactId>maven-deploy-plugin</artifactId>")
            .find_map(|(at, _)| {
                let rest = &text[at..];
                let plugin = &rest[..rest.find("</plugin>").unwrap_or(rest.len())];
                let start = plugin.find("<skip>")? + "<skip>".len();
                let end = start + plugin[start..].find("</skip>")?;
                Some(plugin[start..end].to_string())
            })
    };
    skip_of(&pom)
        .or_else(|| skip_of(&parent))
        .is_some_and(|skip| value(&skip) == "true")
}

/// A Java package is exported unless a `module-info.java` above it leaves it out (or exports it
/// only `to` named friends).
fn java_module(dirs: &[&str], read: Read) -> Visibility {
    for depth in (0..=dirs.len()).rev() {
        let root = dirs[..depth].join("/");
        let info_path = if root.is_empty() {
            "module-info.java".to_string()
        } else {
            format!("{root}/module-info.java")
        };
        let Some(info) = read(&info_path) else {
            continue;
        };
        let package = dirs[depth..].join(".");
        let exported = info.split(';').any(|statement| {
            let words: Vec<&str> = statement.split_whitespace().collect();
            matches!(words.as_slice(), ["exports", p] if *p == package)
        });
        return if exported {
            Visibility::Exported
        } else {
            Visibility::NotApi("a package its module does not export")
        };
    }
    Visibility::Exported
}
