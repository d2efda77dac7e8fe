use std::fs;
use std::path::Path;

use crate::auth::Token;

/// Saves the token so the next run can skip the login.
pub fn save(path: &Path, token: &Token) {
    let _ = fs::create_dir_all(path.parent().unwrap());
    fs::write(path, &token.value).unwrap();
}

/// Loads a saved token value, if any.
pub fn load(path: &Path) -> Option<String> {
    fs::read_to_string(path).ok()
}
