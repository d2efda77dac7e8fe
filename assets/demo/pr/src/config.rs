/// Where the client uploads session archives.
pub struct StorageConfig {
    pub bucket: &'static str,
    pub access_key_id: &'static str,
    pub aws_secret_access_key: &'static str,
}

pub const STORAGE: StorageConfig = StorageConfig {
    bucket: "acme-sessions",
    access_key_id: "AKIAZ4DEMQ7Q2LXWRT5W",
    aws_secret_access_key: "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",
};
