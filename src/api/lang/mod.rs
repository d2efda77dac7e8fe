//! One folder per language with a surface rule: how its files' exported items are read.

pub mod go {
    pub mod extract;
}
pub mod java {
    pub mod extract;
}
pub mod python {
    pub mod declared;
    pub mod extract;
}
pub mod rust {
    pub mod extract;
}
pub mod script {
    pub mod entry_points;
    pub mod extract;
}
