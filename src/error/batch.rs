//! What can go wrong in a batch, a merge or a shard choice (`crate::batch`), as a type
//! library callers can match; each message is one line naming what and where. Defined
//! here, below the batch, so that [`crate::Error`] can wrap it.

use std::path::PathBuf;
use thiserror::Error;

/// A batch, merge or shard error.
#[derive(Debug, Error)]
pub enum BatchError {
    /// `run_batch` got no input file.
    #[error("batch: no input file given")]
    NoInput,
    /// `run_merge` got no input file.
    #[error("merge: no input file given")]
    NoMergeInput,
    /// Zero worker threads.
    #[error("batch: --threads must be at least 1")]
    NoThreads,
    /// More threads for one position than for the whole batch, or none.
    #[error("batch: --position-threads {per} must be from 1 to --threads ({threads})")]
    PositionThreads {
        /// Threads asked for each position.
        per: usize,
        /// Threads of the whole batch.
        threads: usize,
    },
    /// The directory of saved tables (`--save-tables`) cannot be made.
    #[error("{}: cannot make the directory of saved tables: {source}", path.display())]
    TablesDir {
        /// The directory.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// A position's saved table cannot be loaded; nothing was solved from it.
    #[error("{}: saved table not loaded: {source} (delete it to solve that position from the start)", path.display())]
    TableFile {
        /// The table file.
        path: PathBuf,
        /// Why.
        source: crate::search::TableFileError,
    },
    /// A position's table could not be saved (`--save-tables`); the rows written stay.
    #[error("{}: cannot save the table: {source}", path.display())]
    TableSave {
        /// The table file.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// A selective batch: rows are keyed by position and mode, so a probable answer must
    /// not stand in for an exact one.
    #[error(
        "--selectivity {0}: batch solves exactly only (use solve or suite for probable solves)"
    )]
    Selective(u8),
    /// Labels asked of a search deeper than [`crate::batch::MAX_LABEL_DEPTH`].
    #[error("batch: --label-depth {0}: at most 12 (a search without a table grows fast)")]
    LabelDepth(u32),
    /// A line that gives a window in a label run: labels are depth-limited values, not
    /// solves, and answer no window.
    #[error(
        "{}:{line}: a window line in a label run (--label-depth labels without windows; solve windows with a batch without it)",
        path.display()
    )]
    WindowInLabels {
        /// The input file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
    },
    /// Labels asked for with no evaluation to search with.
    #[error("batch: --label-depth needs the evaluation, and no weights are loaded")]
    NoEvaluation,
    /// Stopped on purpose (the interrupt, or a failure elsewhere that stopped the reader).
    #[error("batch: stopped")]
    Stopped,
    /// The workers' tables together do not fit.
    #[error(
        "batch: {workers} tables (one per position solved at once, --threads {threads}) x --hash-mb {hash_mb}: {why}"
    )]
    Tables {
        /// Worker threads that would run.
        workers: usize,
        /// Threads asked for.
        threads: usize,
        /// Table size of each.
        hash_mb: usize,
        /// Why they do not fit.
        why: String,
    },
    /// A worker thread could not be started.
    #[error(
        "batch: cannot start worker thread {number} of {workers} ({cause}); use fewer --threads"
    )]
    WorkerThread {
        /// 1-based number of the thread.
        number: usize,
        /// Threads asked for.
        workers: usize,
        /// The system's reason.
        cause: std::io::Error,
    },
    /// The reader thread could not be started.
    #[error("batch: cannot start the input reader thread ({0})")]
    ReaderThread(std::io::Error),
    /// Every worker stopped while positions remained.
    #[error("batch: the workers stopped (an input file changed while it was read?)")]
    WorkersStopped,
    /// A worker thread panicked.
    #[error(
        "batch: a worker thread failed (panicked); the rows written are kept, run again to resume"
    )]
    WorkerPanicked,
    /// The reader thread panicked.
    #[error("batch: the input reader panicked")]
    ReaderPanicked,
    /// An input line too long to be OBF.
    #[error("{}:{line}: line longer than {max} bytes; not an OBF file", path.display())]
    LineTooLong {
        /// The input.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// The limit.
        max: usize,
    },
    /// An input that is not a regular file (it is read twice).
    #[error(
        "{}: not a regular file (inputs are read twice: to count, then to solve or write); save it to a file first",
        .0.display()
    )]
    NotRegular(PathBuf),
    /// A resumed output whose rows were made with other settings: another mode or label
    /// depth, other weights, another selectivity.
    #[error(
        "{}:{line}: its {column} is '{found}', this run's is '{run}': an output holds the rows of \
         one mode, depth, weights and selectivity; give a new --out (finale merge joins outputs)",
        path.display()
    )]
    OtherSettings {
        /// The output.
        path: PathBuf,
        /// 1-based line of the first such row.
        line: u64,
        /// The column that differs.
        column: &'static str,
        /// Its value in that row.
        found: String,
        /// This run's.
        run: String,
    },
    /// An existing output with no complete line that is not the start of a batch header.
    #[error("{}:1: not a finale batch CSV (no complete line); not appending to it", .0.display())]
    NotBatchCsv(PathBuf),
    /// An existing output that cannot be resumed from.
    #[error("{}:{line}: {what}; not appending to a file that may be damaged", path.display())]
    Damaged {
        /// The output.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// What is wrong.
        what: String,
    },
    /// The output's path no longer names the file being written.
    #[error(
        "{}: the output was removed or replaced while the batch was writing it ({what}); stopped",
        path.display()
    )]
    OutputReplaced {
        /// The output.
        path: PathBuf,
        /// What is there now.
        what: String,
    },
    /// Another batch holds the output's lock.
    #[error(
        "{}: another finale batch is writing this file (it holds its lock); not writing it too",
        .0.display()
    )]
    Locked(PathBuf),
    /// The output could not be locked.
    #[error("{}: cannot lock the output ({cause})", path.display())]
    Lock {
        /// The output.
        path: PathBuf,
        /// The system's reason.
        cause: std::io::Error,
    },
    /// A merge input whose header is not the batch header.
    #[error("{}:1: not a finale batch CSV (header differs)", .0.display())]
    MergeHeader(PathBuf),
    /// A merge input row holding a value finale never writes (a score out of range, a
    /// key that is not its board's, ...: `batch::row_check`).
    #[error("{}:{line}: bad {column}: {what}", path.display())]
    BadRow {
        /// The input.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// The column.
        column: String,
        /// What is wrong with its value.
        what: String,
    },
    /// A merge input value that is not of its column's type.
    #[error("{}:{line}: bad {column}", path.display())]
    BadValue {
        /// The input.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// The column.
        column: String,
    },
    /// A merged row that could not be written for a reason other than I/O.
    #[error("cannot write {}: {kind}", path.display())]
    MergeWrite {
        /// The output.
        path: PathBuf,
        /// The csv crate's reason.
        kind: String,
    },
    /// `--shard` that is not `I/N` with `I < N`.
    #[error("--shard {0}: expected I/N with 0 <= I < N, e.g. 3/10")]
    BadShard(String),
    /// `--shard I/N` and `--shards M` with `M` other than `N`.
    #[error("--shard {shard} and --shards {shards} give different shard counts; give one of them")]
    ShardCounts {
        /// The `--shard` text.
        shard: String,
        /// The `--shards` count.
        shards: u64,
    },
    /// A scheduler variable that is not a number.
    #[error("environment {name}={value}: not a number")]
    BadEnvironment {
        /// The variable.
        name: String,
        /// Its value.
        value: String,
    },
    /// Slurm's task id without a count.
    #[error("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not: give --shards N")]
    SlurmCount,
    /// Kubernetes' completion index without a count.
    #[error("JOB_COMPLETION_INDEX is set: give the number of shards with --shards N")]
    JobCount,
    /// `--shards` alone.
    #[error("--shards N needs --shard I/N or a scheduler's task index")]
    ShardsAlone,
    /// A scheduler's shard index beyond its count.
    #[error("{origin}: shard {index} of {count} is out of range")]
    ShardRange {
        /// The variable it came from.
        origin: String,
        /// The index.
        index: u64,
        /// The count.
        count: u64,
    },
}
