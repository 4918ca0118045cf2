//! What `finale games` is asked to do, and the command line that asked it (the output's
//! first line).

use crate::interrupt::Interrupt;
use std::path::PathBuf;

/// The options of `finale games`.
#[derive(Clone, Debug, Default)]
pub struct GamesOptions {
    /// WTHOR `.wtb` files, or text files of one game of moves a line.
    pub files: Vec<PathBuf>,
    /// Only the WTHOR files whose header's year is in `first..=last`.
    pub years: Option<(u16, u16)>,
    /// Positions with these empties; `None`: each game's P3 (its theoretical score's).
    pub empties: Option<(u32, u32)>,
    /// Write a seeded uniform sample of this many of the distinct positions.
    pub sample: Option<usize>,
    /// The sample's seed.
    pub seed: u64,
    /// Only games where either player's name holds this (any case).
    pub player: Option<String>,
    /// Only games whose tournament's name holds this (any case).
    pub tournament: Option<String>,
    /// Where `WTHOR.JOU` and `WTHOR.TRN` are; `None`: beside each `.wtb` file.
    pub names: Option<PathBuf>,
    /// Fail on the first damaged game instead of skipping it.
    pub strict: bool,
    /// The OBF file to write (`-`: standard output).
    pub out: PathBuf,
    /// SIGINT and SIGTERM: the run stops between games, removing its temporary file.
    pub stop: Interrupt,
}

impl GamesOptions {
    /// What a stopped run kept: nothing, the output as it was.
    pub(crate) fn nothing_written(&self) -> String {
        format!("nothing written, {} as it was", self.out.display())
    }

    /// The command line these options spell, as the output's first line gives it.
    pub fn command_line(&self) -> String {
        let mut words = vec!["finale".to_string(), "games".to_string()];
        words.extend(self.files.iter().map(|f| quoted(&f.display().to_string())));
        if let Some((a, b)) = self.years {
            words.push(format!("--years {a}-{b}"));
        }
        if let Some((a, b)) = self.empties {
            words.push(format!("--empties {a}-{b}"));
        }
        if let Some(n) = self.sample {
            words.push(format!("--sample {n} --seed {}", self.seed));
        }
        if let Some(p) = &self.player {
            words.push(format!("--player {}", quoted(p)));
        }
        if let Some(t) = &self.tournament {
            words.push(format!("--tournament {}", quoted(t)));
        }
        if let Some(d) = &self.names {
            words.push(format!("--names {}", quoted(&d.display().to_string())));
        }
        if self.strict {
            words.push("--strict".into());
        }
        words.push(format!("--out {}", quoted(&self.out.display().to_string())));
        words.join(" ")
    }
}

/// `word` as a shell word: single-quoted when it holds anything but plain characters.
fn quoted(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./,:+=@".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_spells_the_options() {
        let o = GamesOptions {
            files: vec!["w/WTH_2010.wtb".into(), "my games.txt".into()],
            empties: Some((20, 24)),
            sample: Some(5),
            seed: 7,
            player: Some("Tastet".into()),
            tournament: Some("l'Open".into()),
            out: "out.obf".into(),
            ..Default::default()
        };
        assert_eq!(
            o.command_line(),
            "finale games w/WTH_2010.wtb 'my games.txt' --empties 20-24 --sample 5 --seed 7 \
             --player Tastet --tournament 'l'\\''Open' --out out.obf"
        );
    }
}
