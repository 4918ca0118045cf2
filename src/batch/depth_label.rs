//! The batch's labelling workers (`--label-depth D`): each position is valued by a search
//! `D` moves deep with the evaluation at its leaves instead of being solved, for training
//! sets labelled by a resumable, shardable run. A finished position is scored exactly.

use super::worker::{Done, Job, Shared};
use crate::eval::{Evaluator, UNITS_PER_DISC};
use crate::results::csv_row::{BatchSource, LabelAnswer, batch_label};
use crate::search::evaluated_value_on;
use crossbeam_channel::{Receiver, Sender};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// One labelling thread: labels positions from `jobs` and sends their rows to the writer
/// until the jobs run out or `stop` is set. A label takes milliseconds, so one in progress
/// at a stop is finished and written.
pub(super) fn labeller(
    shared: &Shared,
    eval: &Evaluator,
    depth: u32,
    jobs: &Receiver<Job>,
    done: &Sender<Done>,
    stop: &AtomicBool,
) {
    while !stop.load(Relaxed) {
        let Ok(job) = jobs.recv() else {
            return;
        };
        if done.send(label_one(shared, eval, depth, &job)).is_err() {
            return;
        }
    }
}

/// The row of `job`'s position labelled by a `depth`-move search.
fn label_one(shared: &Shared, eval: &Evaluator, depth: u32, job: &Job) -> Done {
    let options = shared.options;
    let board = job.record.position.board;
    let start = Instant::now();
    let (units, nodes) = if board.is_game_over() {
        (board.final_score() * UNITS_PER_DISC, 1)
    } else {
        evaluated_value_on(eval, board, depth, options.search.kernels)
    };
    let answer = LabelAnswer {
        mode: options.row_mode(),
        score: rounded_discs(units),
        nodes,
        time: start.elapsed(),
        weights: eval.checksum(),
    };
    let at = BatchSource {
        file: &options.inputs[job.file],
        index: job.index,
        record: &job.record,
    };
    Done {
        fields: batch_label(&at, &answer, shared.info),
        work: crate::progress::work_of(board.empty_count()),
        nodes,
        time: answer.time,
        best_found: Duration::ZERO,
        timed_out: false,
        wrong: false,
        repeats_wrong: Vec::new(),
        bad_line: false,
        table: None,
    }
}

/// `units` of the evaluation as whole discs, the nearest (halves away from zero), within
/// -64..=64.
fn rounded_discs(units: i32) -> i32 {
    let discs = (f64::from(units) / f64::from(UNITS_PER_DISC)).round() as i32;
    discs.clamp(-64, 64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_round_to_the_nearest_disc_within_the_board() {
        let u = UNITS_PER_DISC;
        assert_eq!(rounded_discs(0), 0);
        assert_eq!(rounded_discs(u / 2 - 1), 0);
        assert_eq!(rounded_discs(u / 2), 1);
        assert_eq!(rounded_discs(-u / 2), -1);
        assert_eq!(rounded_discs(3 * u + u / 3), 3);
        assert_eq!(rounded_discs(-70 * u), -64);
        assert_eq!(rounded_discs(99 * u), 64);
    }
}
