//! The output: a seeded sample of the distinct positions, and their OBF lines, each with the
//! theoretical score where known and the game it came from as a comment.

use super::collect::Entry;
use super::options::GamesOptions;
use super::source::FileInfo;
use crate::board::random::SplitMix64;
use crate::durable::{self, Access, Existing, Replacement, Step};
use crate::error::{Error, Result};
use std::io::{BufWriter, Write};
use std::path::Path;

/// The credit line of an output read from WTHOR files.
pub const CREDIT: &str = "% games: WTHOR database, French Othello Federation (FFO)";

/// The indices, in increasing order, of a uniform sample of `n` of `len` entries drawn
/// with SplitMix64 seeded by `seed` (a partial Fisher-Yates shuffle); all of them when
/// `n` is `None` or at least `len`.
pub fn sample(len: usize, n: Option<usize>, seed: u64) -> Vec<usize> {
    let mut chosen: Vec<usize> = (0..len).collect();
    let Some(n) = n.filter(|&n| n < len) else {
        return chosen;
    };
    let mut rng = SplitMix64::new(seed);
    for i in 0..n {
        let j = i + rng.below((len - i) as u64) as usize;
        chosen.swap(i, j);
    }
    chosen.truncate(n);
    chosen.sort_unstable();
    chosen
}

/// The OBF line of `entry` (from the file `info`): the position, its theoretical score
/// alone (`; +12;`) where known, and a comment naming the game.
pub(super) fn line(entry: &Entry, info: &FileInfo) -> String {
    let score = match entry.score {
        Some(s) => format!("; {s:+};"),
        None => String::new(),
    };
    format!("{}{score} % {}", entry.position, comment(entry, info))
}

/// `2010 game 5: BLACK - WHITE, TOURNAMENT` for a WTHOR game (a name the files lack as
/// its number, `#12`), `FILE line 5` for a line of moves.
fn comment(entry: &Entry, info: &FileInfo) -> String {
    match (&entry.record, info.year) {
        (Some(r), Some(year)) => {
            let names = &info.names;
            let or_number = |name: Option<&str>, n: u16| match name {
                Some(name) => name.to_string(),
                None => format!("#{n}"),
            };
            format!(
                "{year} game {}: {} - {}, {}",
                entry.game,
                or_number(names.player(r.black), r.black),
                or_number(names.player(r.white), r.white),
                or_number(names.tournament(r.tournament), r.tournament)
            )
        }
        _ => one_line(&format!("{} line {}", info.path.display(), entry.game)),
    }
}

/// `text` with every control character (a newline would end the comment) as `?`.
pub(super) fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

/// The file that becomes `out` once written whole: created beside it before any work, so
/// that an unwritable place is reported at once.
pub(super) fn create(out: &Path) -> Result<Replacement> {
    Replacement::beside(out, ".finale-games-", Access::Plain).map_err(|source| Error::Write {
        path: out.to_path_buf(),
        source,
    })
}

/// Writes `lines` to `tmp` and renames it over `options.out` once complete and on disk: a
/// full disk, a failure or a stop (`options.stop`) leaves `out` as it was (dropped, `tmp`
/// is removed).
pub(super) fn write(
    mut tmp: Replacement,
    options: &GamesOptions,
    lines: impl Iterator<Item = String>,
) -> Result<()> {
    let out = &options.out;
    let err = |source| Error::Write {
        path: out.to_path_buf(),
        source,
    };
    let stopped = || options.stop.check("games", || options.nothing_written());
    {
        let mut w = BufWriter::new(&mut tmp);
        for line in lines {
            stopped()?;
            writeln!(w, "{line}").map_err(err)?;
        }
        w.flush().map_err(err)?;
    }
    stopped()?;
    tmp.commit(Existing::Replace).map_err(|e| match e.step {
        Step::SyncDir => Error::Write {
            path: durable::dir_of(out).to_path_buf(),
            source: e.source,
        },
        Step::Sync | Step::Rename => err(e.source),
    })
}

/// Writes `lines` to standard output (`--out -`).
pub(super) fn print(lines: impl Iterator<Item = String>) -> Result<()> {
    let mut w = BufWriter::new(std::io::stdout().lock());
    for line in lines {
        writeln!(w, "{line}").map_err(Error::Output)?;
    }
    w.flush().map_err(Error::Output)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_uniform_seeded_and_sorted() {
        assert_eq!(sample(5, None, 1), vec![0, 1, 2, 3, 4]);
        assert_eq!(sample(5, Some(9), 1), vec![0, 1, 2, 3, 4]);
        let a = sample(1000, Some(10), 42);
        assert_eq!(a, sample(1000, Some(10), 42));
        assert_ne!(a, sample(1000, Some(10), 43));
        assert_eq!(a.len(), 10);
        assert!(a.windows(2).all(|w| w[0] < w[1]));
        // Each of 4 entries is drawn in about half of the samples of 2.
        let mut hits = [0u32; 4];
        for seed in 0..4000 {
            for i in sample(4, Some(2), seed) {
                hits[i] += 1;
            }
        }
        assert!(hits.iter().all(|&h| (1800..2200).contains(&h)), "{hits:?}");
    }
}
