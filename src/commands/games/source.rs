//! One file of games, read whole: WTHOR (by its `.wtb` name, or a NUL byte in its first 16
//! bytes, which text never has) or lines of moves; and what its output lines need to know
//! of it once its games are read.

use super::options::GamesOptions;
use crate::error::{Error, GamesError, Result};
use crate::games::text;
use crate::games::{Damaged, Game, Header, Names, WthorFile};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// A file's games, read.
pub(super) enum Content {
    /// A WTHOR file, its header checked.
    Wthor(WthorFile),
    /// Lines of moves (bytes that are not UTF-8 read as U+FFFD, hence damage).
    Text(String),
}

/// What the output needs of a file: its name, year, P3 and names.
pub(super) struct FileInfo {
    /// The file, as given.
    pub(super) path: PathBuf,
    /// Whether it is lines of moves (its games are numbered by line).
    pub(super) is_text: bool,
    /// The header's year (WTHOR only).
    pub(super) year: Option<u16>,
    /// P3 (WTHOR only).
    pub(super) depth: Option<u8>,
    /// The players and tournaments beside it (empty for text).
    pub(super) names: Rc<Names>,
}

/// Reads `path` and tells its kind; a WTHOR header that is not one is an error.
pub(super) fn read(path: &Path) -> Result<Content> {
    let bytes = std::fs::read(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let named_wtb = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("wtb"));
    if !named_wtb && !bytes.iter().take(16).any(|&b| b == 0) {
        return Ok(Content::Text(String::from_utf8_lossy(&bytes).into_owned()));
    }
    let file = WthorFile::parse(bytes).map_err(|error| GamesError::Header {
        path: path.to_path_buf(),
        error,
    })?;
    Ok(Content::Wthor(file))
}

impl Content {
    /// Every game of the file, damaged ones included.
    pub(super) fn games(
        &self,
    ) -> Box<dyn Iterator<Item = std::result::Result<Game, Damaged>> + '_> {
        match self {
            Content::Wthor(file) => Box::new(file.games()),
            Content::Text(text) => Box::new(text::games(text)),
        }
    }

    /// The header, for a WTHOR file.
    pub(super) fn header(&self) -> Option<&Header> {
        match self {
            Content::Wthor(file) => Some(&file.header),
            Content::Text(_) => None,
        }
    }
}

/// The names of each directory, read once.
#[derive(Default)]
pub(super) struct NamesCache(HashMap<PathBuf, Rc<Names>>);

impl NamesCache {
    /// The names for the WTHOR file `path`: from `--names DIR`, else beside it.
    pub(super) fn of(&mut self, options: &GamesOptions, path: &Path) -> Result<Rc<Names>> {
        let dir = match &options.names {
            Some(dir) => dir.clone(),
            None => crate::durable::dir_of(path).to_path_buf(),
        };
        if let Some(names) = self.0.get(&dir) {
            return Ok(Rc::clone(names));
        }
        let names = Rc::new(Names::read(&dir).map_err(GamesError::from)?);
        self.0.insert(dir, Rc::clone(&names));
        Ok(names)
    }
}

/// The file's facts for the output, after checking that the options can be served on
/// it: a year and a depth for lines of moves, names for a name filter.
pub(super) fn info(
    options: &GamesOptions,
    path: &Path,
    content: &Content,
    cache: &mut NamesCache,
) -> Result<FileInfo> {
    let Some(header) = content.header() else {
        return text_info(options, path);
    };
    let names = cache.of(options, path)?;
    let need = [
        (
            &options.player,
            names.players.is_none(),
            "--player",
            "WTHOR.JOU",
            "players",
        ),
        (
            &options.tournament,
            names.tournaments.is_none(),
            "--tournament",
            "WTHOR.TRN",
            "tournaments",
        ),
    ];
    for (filter, missing, flag, file, what) in need {
        if filter.is_some() && missing {
            let path = path.to_path_buf();
            return Err(match &options.names {
                Some(dir) => GamesError::NoNamesIn {
                    flag,
                    dir: dir.clone(),
                    path,
                    file,
                    what,
                },
                None => GamesError::NoNames {
                    flag,
                    path,
                    file,
                    what,
                },
            }
            .into());
        }
    }
    Ok(FileInfo {
        path: path.to_path_buf(),
        is_text: false,
        year: Some(header.year),
        depth: Some(header.depth),
        names,
    })
}

/// The facts of a file of lines of moves, which has no year, depth or names to filter by.
fn text_info(options: &GamesOptions, path: &Path) -> Result<FileInfo> {
    let path = path.to_path_buf();
    if options.years.is_some() {
        return Err(GamesError::TextYear { path }.into());
    }
    if options.empties.is_none() {
        return Err(GamesError::TextDepth { path }.into());
    }
    for (filter, flag, what) in [
        (&options.player, "--player", "player"),
        (&options.tournament, "--tournament", "tournament"),
    ] {
        if filter.is_some() {
            return Err(GamesError::TextNames { flag, path, what }.into());
        }
    }
    Ok(FileInfo {
        path,
        is_text: true,
        year: None,
        depth: None,
        names: Rc::new(Names::default()),
    })
}
