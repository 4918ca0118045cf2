//! Shared test support. Each integration test binary compiles this module on its own
//! and uses only part of it, hence the blanket `dead_code` allowance.
#![allow(dead_code)]

pub mod csv_rows;
pub mod reference;
pub mod run;
