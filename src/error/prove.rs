//! What can go wrong in a proof (`crate::prove`), as a type library callers can match;
//! each message is one line naming what and where.

use std::path::PathBuf;
use thiserror::Error;

/// A proof error.
#[derive(Debug, Error)]
pub enum ProveError {
    /// Neither a position nor a work folder that names one.
    #[error("prove: no position given and {} holds none (give an OBF line or --moves)", .0.display())]
    NoPosition(PathBuf),
    /// A work folder made for another proof.
    #[error(
        "{}: this work folder proves {field} {found}, this command asks {asked}; give another --dir",
        path.display()
    )]
    OtherProof {
        /// The folder's description file.
        path: PathBuf,
        /// What differs: `root`, `frontier` or `window`.
        field: &'static str,
        /// The folder's.
        found: String,
        /// The command's.
        asked: String,
    },
    /// A damaged description or leaf file.
    #[error("{}:{line}: {what}", path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        what: String,
    },
    /// Two leaf rows of one position whose bounds cannot both hold.
    #[error(
        "{}:{line}: position {key} proves {lower}..{upper}, but earlier rows prove {known_lower}..{known_upper}: a contradiction (one of them is wrong; re-solve it)",
        path.display()
    )]
    Conflict {
        /// The later row's file.
        path: PathBuf,
        /// Its line.
        line: u64,
        /// The position key, in hex.
        key: String,
        /// Its bounds.
        lower: i32,
        /// Its bounds.
        upper: i32,
        /// What the earlier rows proved.
        known_lower: i32,
        /// What the earlier rows proved.
        known_upper: i32,
    },
    /// A round whose batch ran without solving a leaf it needs (its rows are timeouts or
    /// errors): another run would do the same.
    #[error(
        "{}: {open} leaves still open after their batch ran (timeouts or errors in its rows?); solve them (finale batch) or remove those rows",
        path.display()
    )]
    NoProgress {
        /// The round's leaf file.
        path: PathBuf,
        /// Leaves without a proving row.
        open: usize,
    },
    /// Leaves can be predicted only with the evaluation.
    #[error("prove: predictions need the evaluation, and no weights are loaded")]
    NoEvaluation,
    /// A frontier outside what a leaf solve can take.
    #[error("prove: --frontier {0}: between 1 and 60 empties")]
    Frontier(u32),
    /// A re-solved leaf that disagrees with its rows.
    #[error(
        "check: leaf {key} (window {window}): its rows prove {lower}..{upper}, solved again it gives {again_lower}..{again_upper}"
    )]
    Resolved {
        /// The position key, in hex.
        key: String,
        /// The window solved again.
        window: String,
        /// What its rows prove.
        lower: i32,
        /// What its rows prove.
        upper: i32,
        /// What the new solve proves.
        again_lower: i32,
        /// What the new solve proves.
        again_upper: i32,
    },
}
