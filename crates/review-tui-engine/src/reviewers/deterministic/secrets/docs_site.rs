//! A documentation site's search key: DocSearch and Algolia hand the browser a search-only key
//! (`apiKey` beside `appId` and `indexName` in `docusaurus.config.js`, `mkdocs.yml`, a Sphinx
//! `conf.py`, a VitePress config or a script of the site), public by the service's design.
//! Such a key is a note to check it is search-only, not a leak. Only there: the same value in
//! any other file, a key named for writing or administration, or another provider's secret
//! stays a leak, so a real secret cannot hide by standing next to an `indexName`.

use super::hit::SecretHit;

/// A folder that holds a documentation site: `docs/`, `doc/`, `website/`, `site/`,
/// `docs_src/`, `docs-site/`, VitePress's and VuePress's config folders.
fn site_dir(dir: &str) -> bool {
    let dir = dir.to_ascii_lowercase();
    matches!(
        dir.as_str(),
        "docs" | "doc" | "documentation" | "website" | "site" | ".vitepress" | ".vuepress"
    ) || dir
        .strip_prefix("docs")
        .is_some_and(|rest| rest.starts_with(['_', '-']))
}

/// A documentation site's configuration (MkDocs, Docusaurus, VitePress, VuePress, Astro,
/// Jekyll, a Sphinx `conf.py` in a docs folder) or a script or page the site serves (a file
/// for the browser under a site folder).
pub(super) fn docs_site_file(path: &str) -> bool {
    let path = path.replace('\\', "/");
    let mut parts: Vec<&str> = path.split('/').collect();
    let file = parts.pop().unwrap_or_default().to_ascii_lowercase();
    let (stem, extension) = file.rsplit_once('.').unwrap_or((file.as_str(), ""));
    let in_site = parts.iter().any(|dir| site_dir(dir));
    let config = matches!(file.as_str(), "mkdocs.yml" | "mkdocs.yaml" | "_config.yml")
        || matches!(stem, "docusaurus.config" | "astro.config")
        || (stem == "config"
            && parts
                .last()
                .is_some_and(|dir| matches!(*dir, ".vitepress" | ".vuepress")))
        || (file == "conf.py" && in_site);
    // What the site serves or renders for the browser: scripts, the components of the site
    // generators (Vue, Svelte, Astro, MDX pages) and page templates (Nunjucks, Liquid,
    // Handlebars, EJS).
    let browser = matches!(
        extension,
        "js" | "mjs"
            | "cjs"
            | "ts"
            | "mts"
            | "jsx"
            | "tsx"
            | "vue"
            | "svelte"
            | "astro"
            | "mdx"
            | "html"
            | "htm"
            | "njk"
            | "liquid"
            | "hbs"
            | "ejs"
    );
    config || (browser && in_site)
}

/// Lowercase, without `_` and `-`: `ALGOLIA_INDEX_NAME`, `index_name` and `indexName` alike.
fn squashed(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether `text` configures a browser-side search client: an index name beside an
/// application id (DocSearch's `appId`/`indexName`), or a `docsearch(…)`/`algoliasearch(…)`
/// call.
fn configures_search_client(text: &str) -> bool {
    let text = squashed(text);
    (text.contains("indexname") && (text.contains("appid") || text.contains("applicationid")))
        || text.contains("docsearch(")
        || text.contains("algoliasearch(")
}

impl SecretHit {
    /// A search key the documentation site hands its browser-side search client (see the
    /// module's doc): an Algolia rule's or a generic rule's hit, in a docs site's config or
    /// browser asset whose text (`text`, the file at the head) configures a search client, on
    /// a line that names an API or search key and nothing written for admins or writers.
    pub fn docs_search_key(&self, text: &str) -> bool {
        if !(self.source_id.to_ascii_lowercase().contains("algolia") || self.generic()) {
            return false;
        }
        let line = squashed(&self.evidence);
        let names_key = ["apikey", "searchkey", "searchonly"]
            .iter()
            .any(|name| line.contains(name));
        let privileged = ["admin", "write", "secret", "private", "master", "manage"]
            .iter()
            .any(|name| line.contains(name));
        names_key && !privileged && docs_site_file(&self.path) && configures_search_client(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn docs_site_files_are_its_configs_and_browser_assets() {
        for path in [
            "mkdocs.yml",
            "website/docusaurus.config.ts",
            "docs/.vitepress/config.mts",
            "docs/source/conf.py",
            "docs/extra/algolia.js",
            "docs/overrides/main.html",
            "website/src/components/Navbar.astro",
            "docs/src/pages/index.mdx",
            "site/_includes/search.njk",
        ] {
            assert!(docs_site_file(path), "{path}");
        }
        for path in [
            "conf.py",
            "src/config.js",
            "docs/plugins/algolia.py",
            "app/static/search.js",
            "config.mts",
            "src/components/Navbar.astro",
        ] {
            assert!(!docs_site_file(path), "{path}");
        }
    }
}
