//! The `games` command: real games (the WTHOR database of the French Othello Federation
//! (FFO), or lines of moves) read and replayed, and their distinct positions with the
//! empties asked for written as OBF lines, each with the game's theoretical score where the
//! position has its P3 empties. Damaged games are skipped and counted (or, `--strict`,
//! refused); a WTHOR header that is not one is an error.
//!
//! `options.rs` what is asked, `source.rs` one file read, `collect.rs` the positions kept,
//! `output.rs` the sample and the lines, `summary.rs` the counts.

mod collect;
mod options;
mod output;
mod source;
mod summary;

pub use options::GamesOptions;
pub use output::{CREDIT, sample};
pub use summary::GamesSummary;

use crate::durable::guard::is_stdout;
use crate::error::{Error, GamesError, RequestError, Result};
use collect::Collector;
use source::NamesCache;
use std::io::Write;

/// Reads `options.files`, writes the positions to `options.out` (whole or not at all; `-`:
/// standard output) and the summary to `report`; the counts. Stopped by `options.stop`,
/// it writes nothing and removes its temporary file.
pub fn run_games(options: &GamesOptions, report: &mut impl Write) -> Result<GamesSummary> {
    check(options)?;
    let tmp = match is_stdout(&options.out) {
        true => None,
        false => Some(output::create(&options.out)?),
    };
    let mut collector = Collector::new(options);
    let mut infos = Vec::new();
    let mut cache = NamesCache::default();
    let mut any_wthor = false;
    for (i, path) in options.files.iter().enumerate() {
        options.stop.check("games", || options.nothing_written())?;
        let content = source::read(path)?;
        let info = source::info(options, path, &content, &mut cache)?;
        let promised = content.header().map(|h| u64::from(h.games));
        any_wthor |= promised.is_some();
        collector.add_file(i, &info, content.games(), promised)?;
        infos.push(info);
    }
    let Collector {
        entries,
        mut summary,
        ..
    } = collector;
    let chosen = sample(entries.len(), options.sample, options.seed);
    summary.sampled_out = (entries.len() - chosen.len()) as u64;
    summary.written = chosen.len() as u64;
    summary.scored = chosen
        .iter()
        .filter(|&&i| entries[i].score.is_some())
        .count() as u64;
    let mut head = vec![output::one_line(&format!("% {}", options.command_line()))];
    if any_wthor {
        head.push(CREDIT.to_string());
    }
    let lines = chosen.iter().map(|&i| {
        let e = &entries[i];
        output::line(e, &infos[e.file])
    });
    let lines = head.into_iter().chain(lines);
    match tmp {
        Some(tmp) => output::write(tmp, options, lines)?,
        None => output::print(lines)?,
    }
    write!(report, "{summary}").map_err(Error::Output)?;
    Ok(summary)
}

/// Refuses what cannot be served before any work: no file, empties or years out of order.
/// (The files themselves pass the CLI's guard: the output no input, no device.)
fn check(options: &GamesOptions) -> Result<()> {
    if options.files.is_empty() {
        return Err(Error::Read(crate::error::ReadError::Empty(
            "games".into(),
            "no file of games given",
        )));
    }
    if let Some((min, max)) = options.empties
        && (min == 0 || min > max || max > 60)
    {
        return Err(RequestError::Empties { min, max }.into());
    }
    if let Some((first, last)) = options.years
        && first > last
    {
        return Err(GamesError::Years { first, last }.into());
    }
    Ok(())
}
