//! Items a private module's file defines under one name that the crate re-exports under
//! another (`pub use terminal::{Options as TerminalOptions}`): users know them by the alias
//! only, so the file's surface keys them by it. The module's own name is not API: renaming
//! `Options` to `TerminalOptions` inside the module, the alias dropped, changes nothing.

use std::collections::BTreeMap;

use crate::api::Surface;

/// Keys `surface`'s top-level items (and their members) by the name `public_name` gives
/// them, where it gives one.
pub(crate) fn by_public_names(surface: &mut Surface, public_name: &dyn Fn(&str) -> Option<String>) {
    let mut renames: BTreeMap<String, String> = BTreeMap::new();
    for key in surface.items.keys() {
        let top = key.split("::").next().unwrap_or(key);
        if let Some(alias) = public_name(top) {
            renames.insert(top.to_string(), alias);
        }
    }
    if renames.is_empty() {
        return;
    }
    let rename = |key: &str| -> String {
        let (top, rest) = match key.split_once("::") {
            Some((top, rest)) => (top, Some(rest)),
            None => (key, None),
        };
        match (renames.get(top), rest) {
            (Some(alias), Some(rest)) => format!("{alias}::{rest}"),
            (Some(alias), None) => alias.clone(),
            (None, _) => key.to_string(),
        }
    };
    surface.items = std::mem::take(&mut surface.items)
        .into_iter()
        .map(|(key, mut item)| {
            item.family = rename(&item.family);
            item.parent = item.parent.as_deref().map(rename);
            (rename(&key), item)
        })
        .collect();
    surface.hidden = std::mem::take(&mut surface.hidden)
        .iter()
        .map(|key| rename(key))
        .collect();
    surface.in_macro = std::mem::take(&mut surface.in_macro)
        .into_iter()
        .map(|(key, macros)| (rename(&key), macros))
        .collect();
    surface.impl_macros = std::mem::take(&mut surface.impl_macros)
        .into_iter()
        .map(|(key, calls)| (rename(&key), calls))
        .collect();
}
