//! Usage errors as one line: clap's own, and an unknown flag written before a position
//! (which clap would take for the position).

use super::args::Cli;
use clap::CommandFactory;
use clap::error::ErrorKind;
use std::process::ExitCode;

/// Help and version go to stdout as usual; every other clap error becomes one line
/// (message plus its indented details, without the usage block) and exit code 2.
pub(crate) fn usage_error(e: clap::Error) -> ExitCode {
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
        || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    {
        let _ = e.print();
        return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
    }
    let text = e.render().to_string();
    let parts: Vec<&str> = text
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    let line = parts.join(" ");
    eprintln!(
        "{}",
        if line.starts_with("error:") {
            line
        } else {
            format!("error: {line}")
        }
    );
    ExitCode::from(2)
}

/// The first word of a position may start with `-` (clap is told so), which would make an
/// unknown flag given before the position read as the position. Finds such a flag: a word
/// that looks like one and is not an option of `solve`.
pub(crate) fn unknown_solve_flag(argv: &[String]) -> Option<String> {
    let sub = argv.get(1).map(String::as_str)?;
    if !matches!(sub, "solve" | "eval") {
        return None;
    }
    let mut cmd = Cli::command();
    cmd.build(); // fills in --help and the number of values of each option
    let solve = cmd.find_subcommand(sub)?;
    let option = |word: &str| {
        let (name, has_value) = match word.split_once('=') {
            Some((n, _)) => (n, true),
            None => (word, false),
        };
        solve.get_arguments().find_map(|a| {
            let long = a
                .get_long()
                .is_some_and(|l| name.strip_prefix("--") == Some(l));
            let short = a
                .get_short()
                .is_some_and(|c| name.len() == 2 && name.strip_prefix('-') == Some(&c.to_string()));
            let takes_value = a.get_num_args().is_some_and(|n| n.takes_values());
            (long || short).then_some(takes_value && !has_value)
        })
    };
    let mut words = argv[2..].iter();
    while let Some(word) = words.next() {
        if word == "--" {
            break;
        }
        match option(word) {
            Some(true) => {
                words.next(); // the option's value, whatever it looks like
            }
            Some(false) => {}
            None if looks_like_flag(word) => return Some(word.clone()),
            None => {}
        }
    }
    None
}

/// `--name`, `-n` or `--name=value` whose name has a letter that cannot occur in a board
/// (boards use `X`, `O`, `-`, `.`, `*`).
pub(crate) fn looks_like_flag(word: &str) -> bool {
    let name = word.trim_start_matches('-');
    let name = name.split_once('=').map_or(name, |(n, _)| n);
    word.starts_with('-')
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        && name.contains(|c: char| !"XxOo-.*".contains(c))
}
