//! Pattern evaluation: for now only the file that carries its trained weights.

pub mod weights_file;
