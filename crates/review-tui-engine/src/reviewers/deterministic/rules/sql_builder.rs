//! A SQL query builder, ORM or driver writes SQL text as its job: its compiler turns its
//! caller's table and column names into statements, and it is the code that implements the
//! placeholders a rule about interpolated SQL would point to. There the interpolation is the
//! product, not an injection: the caller's identifiers are the package's input by design, and
//! what the package returns or runs is what its caller asked for.
//!
//! What makes a package one is what its own manifest says it is (a `package.json` that is not
//! `private`, whose `description`, or whose `keywords`, name a SQL dialect together with the
//! role: builder, ORM, driver, connector, client, dialect, adapter), as it said before the
//! change and still says after: a manifest the change adds, or makes say so, proves nothing. Two things keep the finding even there: the
//! line reads input from outside the program (a request, its parameters, query or body, the
//! environment, the command line, the browser's location), which no builder's compiler
//! needs; and code the package runs as a program rather than offers as a library (asked by
//! the scan, as for `library_only`).

use std::sync::LazyLock;

use regex::Regex;

/// A SQL dialect or SQL itself, by name.
static DIALECT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:sql|t-sql|postgres(?:ql)?|mysql|mariadb|sqlite3?|mssql|cockroachdb)\b")
        .expect("valid regex")
});

/// What a package that writes or sends SQL for others is.
static ROLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:query[ -]?builder|querybuilder|builder|orm|driver|connector|client|dialect|adapter)\b",
    )
    .expect("valid regex")
});

/// Input from outside the program: an HTTP request and its parts, the environment, the
/// command line, the browser's address and cookies.
static OUTSIDE_INPUT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        \b(?:req|request)\s*\??\.
        | \.(?:body|params|query|headers|cookies|searchParams)\s*\??[.\[]
        | \bprocess\s*\.\s*(?:env|argv)\b
        | \bargv\b
        | \blocation\s*\.\s*(?:search|hash|href|pathname)\b
        | \bdocument\s*\.\s*cookie\b
        | \bURLSearchParams\b",
    )
    .expect("valid regex")
});

/// Whether the package manifest `manifest` (a `package.json`'s text) says the package builds
/// or drives SQL for others: it is not `private`, and its description, or its keywords, name
/// both a SQL dialect and the role.
pub(super) fn builds_sql(manifest: &str) -> bool {
    let Ok(json) = serde_json::from_str::<serde_json::Value>(manifest) else {
        return false;
    };
    if json.get("private").and_then(|v| v.as_bool()) == Some(true) {
        return false;
    }
    let says = |text: &str| DIALECT.is_match(text) && ROLE.is_match(text);
    let description = json.get("description").and_then(|v| v.as_str());
    let keywords: Vec<&str> = json
        .get("keywords")
        .and_then(|v| v.as_array())
        .map(|words| words.iter().filter_map(|w| w.as_str()).collect())
        .unwrap_or_default();
    description.is_some_and(says) || says(&keywords.join(", "))
}

/// Whether `line` reads input from outside the program, which no builder's compiler takes.
pub(super) fn reads_outside_input(line: &str) -> bool {
    OUTSIDE_INPUT.is_match(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_naming_a_dialect_and_the_role_is_a_sql_builder() {
        for manifest in [
            r#"{"name": "qb", "description": "A SQL query & schema builder for Postgres and SQLite"}"#,
            r#"{"name": "qb", "keywords": ["sql", "query", "builder", "database"]}"#,
            r#"{"name": "pgc", "description": "PostgreSQL client - pure javascript"}"#,
            r#"{"name": "m2", "description": "fast mysql driver"}"#,
            r#"{"name": "o", "description": "A promise-based ORM for Postgres, MySQL and SQLite"}"#,
            r#"{"name": "o", "keywords": ["mysql", "sqlite", "orm"]}"#,
        ] {
            assert!(builds_sql(manifest), "{manifest}");
        }
    }

    #[test]
    fn an_application_or_a_package_of_another_purpose_is_no_sql_builder() {
        for manifest in [
            // An application: nobody else receives its code.
            r#"{"name": "shop", "private": true, "description": "Shop API, a Postgres client"}"#,
            // Uses a database; writes no SQL for others.
            r#"{"name": "shop", "description": "A web shop backed by PostgreSQL"}"#,
            r#"{"name": "gql", "description": "A GraphQL client"}"#,
            r#"{"name": "ui", "keywords": ["react", "builder", "form"]}"#,
            "not json",
        ] {
            assert!(!builds_sql(manifest), "{manifest}");
        }
    }

    #[test]
    fn a_request_the_environment_or_the_command_line_is_outside_input() {
        for line in [
            "await db.query(`SELECT * FROM ${req.params.table}`)",
            "const q = `delete from ${request.body.table}`",
            "sql: `select * from ${ctx.query.table}`",
            "`select * from ${process.env.TABLE}`",
            "`select * from ${new URLSearchParams(location.search).get('t')}`",
        ] {
            assert!(reads_outside_input(line), "{line}");
        }
        for line in [
            "sql: `delete from sqlite_sequence where name = '${table}'`",
            "`delete from ${this.single.only ? 'only ' : ''}${tableName}` +",
            "return this.query({ sql: `delete from ${this.tableName}` })",
        ] {
            assert!(!reads_outside_input(line), "{line}");
        }
    }
}
