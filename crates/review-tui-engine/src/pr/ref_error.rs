//! Why a reference a person typed names no pull request. Its own file because every forge's
//! reference parser returns it and the one parser that walks the registry does too.

use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RefError {
    /// No forge recognised the text and it is not a local path. `forms` lists what the
    /// registered forges and a local repository accept.
    #[error("`{given}` is not a pull request reference: use {forms}")]
    Unrecognized { given: String, forms: String },
    #[error("`{given}`: {reason}")]
    Invalid { given: String, reason: String },
    #[error("--base and --head are for a local repository PATH, not for `{given}`")]
    RangeFlagsOnRemote { given: String },
    #[error(
        "`{given}` already names a range: drop --base/--head, or give PATH alone with \
         --base BASE --head HEAD"
    )]
    RangeTwice { given: String },
    #[error(
        "{flag} reviews the checked-out branch with its uncommitted work: drop the head from \
         `{given}` (a base is fine: PATH --base BASE {flag})"
    )]
    HeadWithUncommitted { given: String, flag: &'static str },
    #[error(
        "{flag} reviews the uncommitted work of a local repository, and `{given}` is a pull \
         request on a forge: pass the PATH of its checkout"
    )]
    UncommittedOnRemote { given: String, flag: &'static str },
}
