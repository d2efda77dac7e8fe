//! A SQL builder, ORM or driver writes SQL text as its job: its own compiler interpolating
//! its caller's table names is the product, not an injection. A request's value, an
//! application, a program the package runs, or a purpose the change itself writes into the
//! manifest keeps the finding.

use super::*;

const RULE: &str = "js/sql-interpolation";

const BUILDER_MANIFEST: &str = r#"{
  "name": "tiny-qb",
  "version": "1.2.0",
  "description": "A SQL query builder for Postgres and SQLite",
  "keywords": ["sql", "query", "builder"],
  "main": "lib/index.js",
  "bin": { "tiny-qb": "bin/cli.js" }
}
"#;

const APP_MANIFEST: &str = r#"{
  "name": "shop",
  "version": "1.0.0",
  "private": true,
  "description": "The shop's API server, on PostgreSQL with the pg client"
}
"#;

const PLAIN_MANIFEST: &str = r#"{
  "name": "tiny-qb",
  "version": "1.2.0",
  "description": "Helpers for the shop",
  "main": "lib/index.js"
}
"#;

/// The change adds `code` as `path` over a base holding `manifest` and an index file.
fn findings(manifest: &str, head_manifest: Option<&str>, path: &str, code: &str) -> Vec<u32> {
    let base = [
        ("package.json", manifest),
        ("lib/index.js", "module.exports = {}\n"),
    ];
    let mut head = vec![(path, code)];
    if let Some(text) = head_manifest {
        head.push(("package.json", text));
    }
    first_lines(&rule_findings(&base, &head, RULE))
}

const COMPILER: &str = "class Compiler {
  truncate() {
    const { table } = this.single
    return {
      sql: `delete from ${this.tableName}`,
      output() {
        return this.query({ sql: `delete from sqlite_sequence where name = '${table}'` })
      },
    }
  }
}

function getTableSql(tableName) {
  return `SELECT name, sql FROM sqlite_master WHERE type=\"table\" AND name=\"${tableName}\"`
}

module.exports = { Compiler, getTableSql }
";

#[test]
fn a_sql_builders_own_compiler_composing_sql_text_is_no_injection() {
    assert_eq!(
        findings(BUILDER_MANIFEST, None, "lib/compiler.js", COMPILER),
        Vec::<u32>::new()
    );
}

#[test]
fn an_application_interpolating_into_sql_is_still_an_injection() {
    assert_eq!(
        findings(APP_MANIFEST, None, "lib/compiler.js", COMPILER),
        [5, 7, 14]
    );
    // A package that says nothing of SQL is no builder either.
    assert_eq!(
        findings(PLAIN_MANIFEST, None, "lib/compiler.js", COMPILER),
        [5, 7, 14]
    );
}

#[test]
fn a_request_value_in_sql_run_right_there_is_an_injection_even_in_a_sql_builder() {
    let handler = "async function drop(req, db) {
  await db.query(`DELETE FROM ${req.params.table}`)
}
module.exports = { drop }
";
    assert_eq!(
        findings(BUILDER_MANIFEST, None, "lib/handler.js", handler),
        [2]
    );
    assert_eq!(findings(APP_MANIFEST, None, "lib/handler.js", handler), [2]);
}

#[test]
fn a_command_the_sql_builder_installs_is_no_compiler() {
    let cli = "const { table } = JSON.parse(fs.readFileSync(0, 'utf8'))\nclient.query(`DELETE FROM ${table}`)\n";
    assert_eq!(findings(BUILDER_MANIFEST, None, "bin/cli.js", cli), [2]);
}

#[test]
fn a_purpose_the_change_itself_writes_into_the_manifest_proves_nothing() {
    assert_eq!(
        findings(
            PLAIN_MANIFEST,
            Some(BUILDER_MANIFEST),
            "lib/compiler.js",
            COMPILER
        ),
        [5, 7, 14]
    );
    // A package the change adds, manifest and all, said nothing before it.
    let base = [("package.json", PLAIN_MANIFEST)];
    let head = [
        ("packages/qb/package.json", BUILDER_MANIFEST),
        ("packages/qb/lib/index.js", "module.exports = {}\n"),
        ("packages/qb/lib/compiler.js", COMPILER),
    ];
    assert_eq!(first_lines(&rule_findings(&base, &head, RULE)), [5, 7, 14]);
}

#[test]
fn a_sql_builder_that_edits_its_own_manifest_is_still_one() {
    // The change adds a dialect to the description and scripts naming dialects: the package
    // said it was a SQL builder before the change, and still does.
    let edited = BUILDER_MANIFEST
        .replace("Postgres and SQLite", "Postgres, SQLite and MSSQL")
        .replace(
            "\"main\"",
            "\"scripts\": { \"test-mssql\": \"DIALECT=mssql mocha\" },\n  \"main\"",
        );
    assert_eq!(
        findings(BUILDER_MANIFEST, Some(&edited), "lib/compiler.js", COMPILER),
        Vec::<u32>::new()
    );
    // A connector is a driver by another name.
    let connector = r#"{"name": "qb-sqlite", "version": "1.0.0", "description": "SQLite Connector for the ORM", "main": "lib/index.js"}"#;
    assert_eq!(
        findings(connector, None, "lib/compiler.js", COMPILER),
        Vec::<u32>::new()
    );
}

/// A template written to a SQL tag is parameterised by the tag, however the tag is written: a
/// method given type arguments, a `/* sql */` comment before the template, the tag on the line
/// above, Prisma's `$queryRaw`. A template passed to a call, or to another tag, is still built
/// text.
#[test]
fn a_template_written_to_a_sql_tag_is_parameterised() {
    let code = "export async function get(db, table, key) {
  const { rows } = await db
    .sql<Row>/* sql */ `SELECT value FROM {${table}} WHERE key = ${key}`;
  await db.sql/* sql */ `DELETE FROM {${table}} WHERE key=${key}`;
  await prisma.$queryRaw`SELECT * FROM users WHERE id = ${key}`;
  await db.sql
    /* sql */ `DELETE FROM logs WHERE key = ${key}`;
  await db.query(`SELECT value FROM kv WHERE key = '${key}'`);
  await db.run(html`SELECT value FROM kv WHERE key = '${key}'`);
  await prisma.$queryRawUnsafe(`SELECT * FROM users WHERE id = ${key}`);
  return rows;
}
";
    let app = APP_MANIFEST;
    assert_eq!(findings(app, None, "src/kv.ts", code), [8, 9, 10]);
}
