//! One generation's fit, phase by phase from the end of the game backwards: each phase's
//! positions labelled (exact solves near the end, shallow searches with the phases already
//! fitted further from it), fitted together with the phase before's, and measured on the
//! held-out games.

use super::fit::{self, FitRow};
use super::options::{TrainOptions, stopped};
use super::sample_labels::{
    LABEL_HEADER, LabelRow, Labelled, board_string, exact_value, held_out, to_fit_row,
};
use crate::error::{Error, Result};
use crate::eval::mobility::{PER_PHASE_MOBILITY, canonical_indices_with_mobility};
use crate::eval::pattern::{PER_PHASE, PHASES, canonical_indices};
use crate::eval::{Evaluator, UNITS_PER_DISC};
use crate::search::{Solver, SolverOptions, evaluated_value};
use crate::train::self_play::Sample;
use indicatif::ProgressBar;
use rayon::prelude::*;
use std::io::Write;

/// One line of the held-out error table.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorRow {
    /// Empty squares.
    pub empties: u32,
    /// Training positions.
    pub train: usize,
    /// Held-out positions (games numbered 9 mod 10).
    pub test: usize,
    /// `exact` or `depth N`.
    pub label: String,
    /// Mean absolute error of the evaluation on held-out positions, in discs.
    pub test_mae: f64,
    /// Root mean square error on held-out positions, in discs.
    pub test_rmse: f64,
    /// Root mean square error on the training positions, in discs.
    pub train_rmse: f64,
}

/// A labelled position of the phase: its empties, whether it is held out, and the label.
type PhaseRow = (u32, bool, Labelled);

/// The fit as it goes from phase to phase.
pub(super) struct Fitting {
    canon: Vec<u32>,
    /// Weights per phase: with mobility tables or without.
    per_phase: usize,
    /// Whether the rows read the mobility tables.
    mobility: bool,
    /// Whether a phase is fitted on its own rows only (else with the phase before's).
    own_phase: bool,
    /// Every phase's weights, quantized; the phases not fitted yet are zero.
    weights: Vec<i16>,
    /// The last phase's fitted values, the start of the next phase's fit.
    w: Vec<f32>,
    /// The last phase's rows, fitted again with the next phase: twice the data, and
    /// smoother phases.
    previous: Vec<PhaseRow>,
    /// This phase's rows.
    rows: Vec<PhaseRow>,
    /// The weights fitted so far.
    eval: Evaluator,
}

/// What one phase's fit did.
pub(super) struct Fitted {
    /// Positions fitted (this phase's and the one before's, held-out games left out).
    pub positions: usize,
    /// Root mean square error of the fit, in discs.
    pub rmse: f32,
    /// Iterations kept.
    pub iterations: u32,
}

impl Fitting {
    pub(super) fn new(o: &TrainOptions) -> Fitting {
        let (canon, per_phase) = if o.mobility {
            (canonical_indices_with_mobility(), PER_PHASE_MOBILITY)
        } else {
            (canonical_indices(), PER_PHASE)
        };
        let weights = vec![0i16; PHASES * per_phase];
        Fitting {
            canon,
            per_phase,
            mobility: o.mobility,
            own_phase: o.own_phase,
            eval: Evaluator::from_weights(weights.clone()),
            weights,
            w: vec![0f32; per_phase],
            previous: Vec::new(),
            rows: Vec::new(),
        }
    }

    /// Labels the positions of `empties` (one phase): exactly up to
    /// `o.exact_max_empties`, else by a search of `o.label_depth` with the weights fitted
    /// so far. A stopped phase's labels are partial: neither fitted nor written.
    pub(super) fn label(
        &mut self,
        o: &TrainOptions,
        pool: &rayon::ThreadPool,
        bar: &ProgressBar,
        empties: &[u32],
        by_empties: &[Vec<Sample>],
    ) -> Result<()> {
        self.previous = std::mem::take(&mut self.rows);
        bar.reset();
        bar.set_length(
            empties
                .iter()
                .map(|&e| by_empties[e as usize].len() as u64)
                .sum(),
        );
        bar.set_message(format!(
            "positions of empties {}-{} labelled",
            empties[0],
            empties[empties.len() - 1]
        ));
        for &e in empties {
            let list = &by_empties[e as usize];
            let labels = pool.install(|| {
                if e <= o.exact_max_empties {
                    exact_labels(o, bar, list)
                } else {
                    searched_labels(o, bar, &self.eval, list)
                }
            });
            for (s, &label) in list.iter().zip(&labels) {
                self.rows
                    .push((e, held_out(s), Labelled { sample: *s, label }));
            }
        }
        stopped(o)
    }

    /// Fits phase `ph` (`empties`) to its rows and the phase before's, and keeps its
    /// weights, quantized.
    pub(super) fn fit(
        &mut self,
        o: &TrainOptions,
        pool: &rayon::ThreadPool,
        bar: &ProgressBar,
        ph: usize,
        empties: &[u32],
    ) -> Fitted {
        let fit_rows = self.fit_rows(false);
        let valid_rows = self.fit_rows(true);
        bar.set_message(format!(
            "empties {}-{}: fitting {} positions",
            empties[0],
            empties[empties.len() - 1],
            fit_rows.len()
        ));
        let (rmse, iterations) =
            pool.install(|| fit::fit(&mut self.w, &fit_rows, &valid_rows, o.fit));
        let base = ph * self.per_phase;
        for i in 0..self.per_phase {
            let v = (self.w[self.canon[i] as usize] * UNITS_PER_DISC as f32).round();
            self.weights[base + i] = v.clamp(-32767.0, 32767.0) as i16;
        }
        self.eval = Evaluator::from_weights(self.weights.clone());
        Fitted {
            positions: fit_rows.len(),
            rmse,
            iterations,
        }
    }

    /// The rows of the phase before (unless each phase is fitted on its own) and this
    /// one, of the held-out games or of the others.
    fn fit_rows(&self, held: bool) -> Vec<FitRow> {
        let previous: &[PhaseRow] = if self.own_phase { &[] } else { &self.previous };
        previous
            .iter()
            .chain(self.rows.iter())
            .filter(|r| r.1 == held)
            .map(|r| to_fit_row(&r.2, &self.canon, self.mobility))
            .collect()
    }

    /// This phase's rows of `e` empties.
    pub(super) fn rows_of(&self, e: u32) -> Vec<&PhaseRow> {
        self.rows.iter().filter(|r| r.0 == e).collect()
    }

    /// The error of the weights fitted so far at `e` empties, on the held-out games and on
    /// the others; `None` without positions there.
    pub(super) fn error_row(&self, o: &TrainOptions, e: u32) -> Option<ErrorRow> {
        let here = self.rows_of(e);
        if here.is_empty() {
            return None;
        }
        let err = |r: &Labelled| {
            (self.eval.evaluate(&r.sample.board) - r.label) as f64 / UNITS_PER_DISC as f64
        };
        let test: Vec<f64> = here.iter().filter(|r| r.1).map(|r| err(&r.2)).collect();
        let train: Vec<f64> = here.iter().filter(|r| !r.1).map(|r| err(&r.2)).collect();
        let rms = |v: &[f64]| {
            if v.is_empty() {
                0.0
            } else {
                (v.iter().map(|x| x * x).sum::<f64>() / v.len() as f64).sqrt()
            }
        };
        Some(ErrorRow {
            empties: e,
            train: train.len(),
            test: test.len(),
            label: if e <= o.exact_max_empties {
                "exact".into()
            } else {
                format!("depth {}", o.label_depth)
            },
            test_mae: if test.is_empty() {
                0.0
            } else {
                test.iter().map(|x| x.abs()).sum::<f64>() / test.len() as f64
            },
            test_rmse: rms(&test),
            train_rmse: rms(&train),
        })
    }

    /// Every phase's weights.
    pub(super) fn into_weights(self) -> Vec<i16> {
        self.weights
    }
}

/// Exact scores of `list` (a known score as it is), in evaluation units (0 for positions
/// left once stopped).
fn exact_labels(o: &TrainOptions, bar: &ProgressBar, list: &[Sample]) -> Vec<i32> {
    let stop = &o.interrupt;
    list.par_iter()
        .map_init(
            || {
                let mut solver = Solver::new(SolverOptions {
                    hash_mb: 4,
                    ..Default::default()
                });
                solver.set_abort(stop.flag());
                solver
            },
            |solver, s| {
                if stop.requested() {
                    return 0;
                }
                bar.inc(1);
                let v = s
                    .known
                    .map_or_else(|| exact_value(solver, s.board), i32::from);
                v * UNITS_PER_DISC
            },
        )
        .collect()
}

/// Values of `list` by a search of `o.label_depth` with `eval`, or their known exact
/// scores (0 once stopped).
fn searched_labels(
    o: &TrainOptions,
    bar: &ProgressBar,
    eval: &Evaluator,
    list: &[Sample],
) -> Vec<i32> {
    let stop = &o.interrupt;
    list.par_iter()
        .map(|s| {
            if stop.requested() {
                return 0;
            }
            bar.inc(1);
            match s.known {
                Some(v) => i32::from(v) * UNITS_PER_DISC,
                None => evaluated_value(eval, s.board, o.label_depth).0,
            }
        })
        .collect()
}

/// `train --data`: every labelled position as CSV, written through the csv crate, one
/// [`LabelRow`] a position; the header even with no row.
pub(super) struct DataOut<'a> {
    writer: Option<csv::Writer<&'a mut dyn Write>>,
}

impl<'a> DataOut<'a> {
    /// Writes the header at once: a run stopped before its first phase ends leaves it.
    pub(super) fn new(data: Option<&'a mut dyn Write>) -> Result<DataOut<'a>> {
        let mut writer = data.map(|d| csv::WriterBuilder::new().has_headers(false).from_writer(d));
        if let Some(d) = writer.as_mut() {
            d.write_record(LABEL_HEADER).map_err(data_err)?;
            d.flush().map_err(Error::Output)?;
        }
        Ok(DataOut { writer })
    }

    /// Writes `rows`.
    pub(super) fn write(&mut self, rows: Vec<&PhaseRow>) -> Result<()> {
        let Some(d) = self.writer.as_mut() else {
            return Ok(());
        };
        for (e, t, l) in rows {
            d.serialize(LabelRow {
                game: l.sample.game,
                empties: *e,
                board: board_string(&l.sample.board),
                // Shortest form, as `{}` prints it (`2`, `-0.5`).
                label: format!("{}", l.label as f64 / UNITS_PER_DISC as f64),
                set: if *t { "test" } else { "train" },
            })
            .map_err(data_err)?;
        }
        Ok(())
    }

    /// Flushes here, not on drop, which would drop a write error (a full disk) unseen.
    pub(super) fn finish(&mut self) -> Result<()> {
        match self.writer.as_mut() {
            Some(d) => d.flush().map_err(Error::Output),
            None => Ok(()),
        }
    }
}

fn data_err(e: csv::Error) -> Error {
    Error::Output(e.into())
}
