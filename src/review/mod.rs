//! The review model: nodes, the status service, consolidation, rounds and the verdict.
//! Pure: data in, data out, no IO.
