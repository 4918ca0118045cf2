//! `finale`: the command line. Parses the arguments (`cli/args.rs`), runs the subcommand
//! (`cli/commands.rs`) and maps errors to exit codes: 0 success, 1 a wrong answer (or a
//! time limit, or merge conflicts), 2 bad input or I/O failure, 130/143 stopped by
//! SIGINT/SIGTERM. Everything else is in the library.

mod cli;

use clap::Parser;
use cli::args::{Cli, Command};
use cli::commands::*;
use cli::usage::{unknown_solve_flag, usage_error};
use finale::commands;
use std::process::ExitCode;

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if let Some(flag) = unknown_solve_flag(&argv) {
        eprintln!(
            "error: unexpected argument '{flag}' found (see finale {} --help)",
            argv[1]
        );
        return ExitCode::from(2);
    }
    // A forced kernel set this CPU lacks would die on an illegal instruction: refused.
    if let Err(e) = finale::board::kernels::Isa::from_env() {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    // Nothing is read or written before the command's files pass the one guard.
    if let Err(e) = cli::files::files(&cli.command).check() {
        eprintln!("error: {e}");
        return ExitCode::from(2);
    }
    // Not locked for the whole command: solve's pass lines are written from a search
    // thread while the main thread waits.
    let outcome = run(cli.command, &mut std::io::stdout());
    print_account();
    print_span();
    match outcome {
        Ok(code) => code,
        Err(finale::Error::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            // The reader (e.g. `head`) has what it wanted: stop quietly, as if by SIGPIPE.
            ExitCode::from(141)
        }
        Err(finale::Error::Stopped(s)) => {
            eprintln!("error: {s}");
            ExitCode::from(s.exit_code)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Runs one subcommand, writing its report to `stdout`; the exit code of its outcome.
fn run(command: Command, stdout: &mut std::io::Stdout) -> finale::Result<ExitCode> {
    match command {
        Command::Solve(args) => solve(args, stdout),
        Command::Eval(args) => eval(args, stdout),
        Command::Suite(args) => suite(args, stdout),
        Command::Bench { threads } => {
            let t = threads.resolve(1);
            commands::run_bench(t.running, threads.oversubscribe, stdout).map(|_| ExitCode::SUCCESS)
        }
        Command::Batch(args) => batch(args, stdout),
        Command::Prove(args) => prove(args, stdout),
        Command::Calibrate(args) => calibrate(args, stdout),
        Command::Report { files, svg, force } => {
            let stop = on_signals()?;
            commands::run_report(&files, &svg, force, &stop, stdout).map(|()| ExitCode::SUCCESS)
        }
        Command::Compare { files } => {
            commands::run_compare(&files, stdout).map(|_| ExitCode::SUCCESS)
        }
        Command::Merge { inputs, out, force } => {
            let stop = on_signals()?;
            finale::batch::run_merge(&inputs, &out, force, &stop, stdout).map(|m| {
                if m.conflicts > 0 {
                    ExitCode::from(1)
                } else {
                    ExitCode::SUCCESS
                }
            })
        }
        Command::Generate {
            seed,
            count,
            empties,
            play,
            eval,
        } => generate(seed, count, empties, play, eval, stdout),
        Command::Games(a) => games(a),
        Command::Train(a) => train(a, stdout),
        Command::TrainMpc(args) => train_mpc(args, stdout),
        Command::Perft { depth } => commands::run_perft(depth, stdout).map(|_| ExitCode::SUCCESS),
    }
}

/// With the `span` feature: each solve's work, span, splits and parallelism, in the order
/// the solves finished, each pass's own work and span, and the set's, on stderr (read by
/// `scripts/span-table.py`).
fn print_span() {
    let Some(records) = finale::search::measure::span::records() else {
        return;
    };
    if records.is_empty() {
        return;
    }
    eprintln!("span: solve empties work span splits parallelism");
    let (mut work, mut span) = (0, 0);
    for (i, r) in records.iter().enumerate() {
        eprintln!(
            "span: {:>5} {:>7} {:>14} {:>14} {:>10} {:>11.1}",
            i + 1,
            r.empties,
            r.work,
            r.span,
            r.splits,
            r.parallelism()
        );
        let (mut w0, mut s0) = (0, 0);
        for p in &r.passes {
            let (w, s) = (p.work - w0, p.span - s0);
            eprintln!(
                "span-pass: {:>5} {:>7} {:>14} {:>14} {:>11.1}",
                i + 1,
                p.level.to_string(),
                w,
                s,
                w as f64 / s.max(1) as f64
            );
            (w0, s0) = (p.work, p.span);
        }
        (work, span) = (work + r.work, span + r.span);
    }
    let parallelism = work as f64 / span.max(1) as f64;
    eprintln!("span: all {work} {span} {parallelism:.1}");
}

/// With the `account` feature: the nodes of each band of the search, on stderr.
fn print_account() {
    if let Some(counts) = finale::search::measure::account::snapshot() {
        let total: u64 = counts.iter().sum();
        for (name, n) in finale::search::measure::account::BAND_NAMES
            .iter()
            .zip(counts)
        {
            let share = 100.0 * n as f64 / total.max(1) as f64;
            eprintln!("account: {name:<30} {n:>14} nodes {share:5.1} %");
        }
    }
    if let Some(events) = finale::search::measure::account::event_snapshot() {
        let names = finale::search::measure::account::EVENT_NAMES;
        eprintln!(
            "account: empties {}",
            names.map(|s| format!("{s:>14}")).join("")
        );
        for n in 0..65 {
            if events.iter().any(|e| e[n] != 0) {
                let row: String = events.iter().map(|e| format!("{:>14}", e[n])).collect();
                eprintln!("account: {n:>7} {row}");
            }
        }
    }
}
