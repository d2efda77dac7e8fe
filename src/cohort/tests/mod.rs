//! End-to-end cohort builds on real git repositories in temp dirs.
