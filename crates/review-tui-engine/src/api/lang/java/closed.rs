//! Java types closed to implementation by an annotation: `@NotExtensible` (Mockito),
//! `@ApiStatus.NonExtendable` (JetBrains), `@DoNotImplement`, `@DoNotSubclass`, OSGi's
//! `@ProviderType`, or a project's own annotation whose documentation says users must not
//! implement or extend what it marks. Users are told not to implement such a type, so its
//! package may add abstract members without breaking them: those members are not required of
//! users' implementations.

use crate::api::Surface;

/// Whether an annotation's name (`ApiStatus.NonExtendable`, `DoNotImplement`) says the type
/// it marks is not for users to implement or extend: a negation (`Not`, `Non`, `No`, `DoNot`)
/// before a word of implementing (`Implement…`, `Extend…`, `Extensible`, `Subclass…`,
/// `Inherit…`), or OSGi's `ProviderType`.
pub(crate) fn by_name(annotation: &str) -> bool {
    let name = annotation.rsplit('.').next().unwrap_or(annotation);
    if name == "ProviderType" {
        return true;
    }
    let words = camel_words(name);
    words.iter().enumerate().any(|(at, word)| {
        matches!(word.as_str(), "not" | "non" | "no")
            && words[at + 1..].iter().any(|w| implementing(w))
    })
}

/// Whether a word is about implementing, extending or subclassing a type.
fn implementing(word: &str) -> bool {
    ["implement", "extend", "extens", "subclass", "inherit"]
        .iter()
        .any(|stem| word.starts_with(stem))
}

/// `NonExtendable` → `non`, `extendable`; `DoNotImplement` → `do`, `not`, `implement`.
fn camel_words(name: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for c in name.chars() {
        if c.is_uppercase() || words.is_empty() || c == '_' {
            words.push(String::new());
        }
        if c != '_'
            && let Some(last) = words.last_mut()
        {
            last.extend(c.to_lowercase());
        }
    }
    words.retain(|w| !w.is_empty());
    words
}

/// Whether `text`, a Java file, declares the annotation `name` (`@interface Name`) with
/// documentation saying users must not implement, extend or subclass what it marks ("Types
/// annotated with this are not intended to be implemented by clients").
pub(crate) fn declared_closing(text: &str, name: &str) -> bool {
    let name = name.rsplit('.').next().unwrap_or(name);
    let declaration = format!("@interface {name}");
    let Some(at) = text.match_indices(&declaration).find_map(|(at, _)| {
        let after = text[at + declaration.len()..].chars().next();
        (!after.is_some_and(|c| c.is_alphanumeric() || c == '_')).then_some(at)
    }) else {
        return false;
    };
    let before = &text[..at];
    let Some(open) = before.rfind("/**") else {
        return false;
    };
    let doc = &before[open..];
    // The documentation is this declaration's only if nothing but annotations and modifiers
    // lies between its end and the declaration.
    let Some(close) = doc.find("*/") else {
        return false;
    };
    let between = &doc[close + 2..];
    if between.contains(';') || between.contains('{') || between.contains('}') {
        return false;
    }
    closing_words(&doc[..close])
}

/// Whether documentation text says users are not to implement, extend or subclass: a
/// negation and a word of implementing in one sentence.
fn closing_words(doc: &str) -> bool {
    let text = doc.replace(['*', '\n', '\r'], " ").to_lowercase();
    text.split(['.', ';', ':']).any(|sentence| {
        let words: Vec<&str> = sentence
            .split(|c: char| !c.is_alphanumeric() && c != '\'')
            .filter(|w| !w.is_empty())
            .collect();
        words.iter().enumerate().any(|(at, word)| {
            matches!(
                *word,
                "not" | "never" | "cannot" | "can't" | "mustn't" | "shouldn't"
            ) && words[at + 1..].iter().take(8).any(|w| implementing(w))
        })
    })
}

/// The files that may declare the annotation `name` used in the Java file at `path` whose text
/// is `text`: `Name.java` beside it (its own package), or where its `import a.b.Name;` puts
/// it under the source root the file's `package` line gives.
pub(crate) fn annotation_files(path: &str, text: &str, name: &str) -> Vec<String> {
    let simple = name.rsplit('.').next().unwrap_or(name);
    let dir = path.rsplit_once('/').map_or("", |(dir, _)| dir);
    let at = |dir: &str, file: &str| {
        if dir.is_empty() {
            file.to_string()
        } else {
            format!("{dir}/{file}")
        }
    };
    let mut out = vec![at(dir, &format!("{simple}.java"))];
    let statement = |keyword: &'static str| {
        text.lines().map(str::trim).filter_map(move |line| {
            line.strip_prefix(keyword)
                .map(|rest| rest.trim().trim_end_matches(';').trim().to_string())
        })
    };
    let package_dirs = statement("package ")
        .next()
        .unwrap_or_default()
        .replace('.', "/");
    let Some(root) = dir.strip_suffix(&package_dirs) else {
        return out;
    };
    let root = root.trim_end_matches('/');
    for import in statement("import ") {
        if import.rsplit('.').next() == Some(simple) && !import.starts_with("static ") {
            out.push(at(root, &format!("{}.java", import.replace('.', "/"))));
        }
    }
    out
}

/// Marks the members of each type in `surface.annotated` that an annotation `closing` says is
/// closed to implementation as not required of users' implementations.
pub(crate) fn open_by_annotations(surface: &mut Surface, closing: &dyn Fn(&str) -> bool) {
    let closed: Vec<String> = surface
        .annotated
        .iter()
        .filter(|(_, annotations)| annotations.iter().any(|a| closing(a)))
        .map(|(key, _)| key.clone())
        .collect();
    for key in closed {
        for item in surface.items.values_mut() {
            if item.parent.as_deref() == Some(key.as_str()) {
                item.required = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_named_as_closing_a_type() {
        for name in [
            "NotExtensible",
            "ApiStatus.NonExtendable",
            "org.jetbrains.annotations.ApiStatus.NonExtendable",
            "DoNotImplement",
            "DoNotSubclass",
            "NotImplementable",
            "ProviderType",
        ] {
            assert!(by_name(name), "{name}");
        }
        for name in [
            "Override",
            "Deprecated",
            "ApiStatus.Internal",
            "Nonnull",
            "NotNull",
            "ConsumerType",
            "Extensible",
            "FunctionalInterface",
        ] {
            assert!(!by_name(name), "{name}");
        }
    }

    #[test]
    fn a_local_annotation_closes_a_type_when_its_documentation_says_so() {
        let closing = "package a;\n\n/**\n * Types annotated with this are not intended to be\n * implemented or extended by clients: new methods may be added.\n */\n@Retention(RetentionPolicy.CLASS)\n@Documented\npublic @interface Internal {}\n";
        assert!(declared_closing(closing, "Internal"));
        assert!(!declared_closing(closing, "Intern"));
        let open = closing.replace(
            "not intended to be\n * implemented or extended by clients: new methods may be added.",
            "for internal use: they may change without notice.",
        );
        assert!(!declared_closing(&open, "Internal"));
        // Another declaration's documentation is not this one's.
        let elsewhere =
            "/** Not to be implemented. */\nclass A {}\n\npublic @interface Internal {}\n";
        assert!(!declared_closing(elsewhere, "Internal"));
    }

    #[test]
    fn an_annotation_is_declared_beside_the_file_or_where_its_import_says() {
        let text = "package com.acme.api;\n\nimport com.acme.annotations.Internal;\nimport static com.acme.Util.Beta;\n";
        assert_eq!(
            annotation_files("src/main/java/com/acme/api/Session.java", text, "Internal"),
            [
                "src/main/java/com/acme/api/Internal.java",
                "src/main/java/com/acme/annotations/Internal.java"
            ]
        );
        assert_eq!(
            annotation_files("src/main/java/com/acme/api/Session.java", text, "Beta"),
            ["src/main/java/com/acme/api/Beta.java"]
        );
    }
}
