//! Build script: records the git revision for result files, and tells the tests which
//! optional tools and data (GNU parallel, Slurm, Zebra's sources, the WTHOR games) this
//! machine lacks.

use std::path::Path;
use std::process::Command;

fn main() {
    for f in [".git/HEAD", ".git/index"] {
        if Path::new(f).exists() {
            println!("cargo::rerun-if-changed={f}");
        }
    }
    println!("cargo::rerun-if-changed=build.rs");
    optional_tools();
    zebra_peer();
    wthor_games();
    println!("cargo::rustc-env=FINALE_GIT_REV={}", git_rev());
}

/// Short revision, with `-dirty` when the work tree has changes; "unknown" without git.
fn git_rev() -> String {
    let run = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match run(&["rev-parse", "--short=12", "HEAD"]) {
        Some(rev) if !rev.is_empty() => {
            let dirty = run(&["status", "--porcelain"]).is_some_and(|s| !s.is_empty());
            if dirty { format!("{rev}-dirty") } else { rev }
        }
        _ => "unknown".to_string(),
    }
}

/// Sets `cfg(no_gnu_parallel)` where GNU parallel is not on `PATH`, and `cfg(no_slurm)`
/// where Slurm's daemons, its commands and munged are not all on `PATH` or the build does
/// not run as root, so that the tests of `scripts/parallel-batch.sh` and
/// `scripts/slurm-batch.sh` are reported as ignored there, with the reason, instead of
/// failing on a fresh machine. Under CI (`CI` set, as CI services and `.ci/run` do)
/// neither cfg is ever set: there the tests run, and fail if a tool is missing.
fn optional_tools() {
    println!("cargo::rustc-check-cfg=cfg(no_gnu_parallel)");
    println!("cargo::rerun-if-env-changed=PATH");
    println!("cargo::rerun-if-env-changed=CI");
    let path = std::env::var_os("PATH").unwrap_or_default();
    // Installing the tool later changes its directory: looked at again then.
    for dir in std::env::split_paths(&path).filter(|d| d.is_dir()) {
        println!("cargo::rerun-if-changed={}", dir.display());
    }
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
    let on_path = |tool: &str| std::env::split_paths(&path).any(|d| d.join(tool).is_file());
    if !ci && !on_path("parallel") {
        println!("cargo::rustc-cfg=no_gnu_parallel");
    }
    // The Slurm test (tests/slurm.rs) starts a one-node cluster of its own: it needs the
    // daemons and commands it runs (its SLURM_TOOLS), and root, as slurmd runs each job as
    // its user.
    println!("cargo::rustc-check-cfg=cfg(no_slurm)");
    let slurm = [
        "munged",
        "slurmctld",
        "slurmd",
        "sbatch",
        "squeue",
        "scontrol",
        "scancel",
        "sinfo",
    ];
    let slurm_ready = slurm.iter().all(|t| on_path(t)) && is_root();
    if !ci && !slurm_ready {
        println!("cargo::rustc-cfg=no_slurm");
    }
}

/// Whether this build runs as root (user id 0), read from `/proc/self/status` (Linux, the
/// only system Slurm runs on here).
fn is_root() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines()
            .find_map(|l| l.strip_prefix("Uid:"))
            .and_then(|ids| ids.split_whitespace().next())
            == Some("0")
    })
}

/// Sets `cfg(no_zebra_peer)` where Zebra's sources (`../shared/peers/zebra`, beside the
/// crate) are missing, so that the test against the real Zebra is reported as ignored
/// there, with the reason, rather than passing without running.
fn zebra_peer() {
    println!("cargo::rustc-check-cfg=cfg(no_zebra_peer)");
    let peer = Path::new("../shared/peers/zebra");
    println!("cargo::rerun-if-changed=../shared/peers/zebra");
    if !peer.join("solve.sh").is_file() {
        println!("cargo::rustc-cfg=no_zebra_peer");
    }
}

/// Sets `cfg(no_wthor_games)` where the WTHOR database (`../shared/games/wthor`, beside the
/// crate) is missing, so that the tests on the real game files are reported as ignored
/// there, with the reason, rather than passing without running.
fn wthor_games() {
    println!("cargo::rustc-check-cfg=cfg(no_wthor_games)");
    let dir = Path::new("../shared/games/wthor");
    println!("cargo::rerun-if-changed=../shared/games/wthor");
    if !dir.join("WTH_2010.wtb").is_file() {
        println!("cargo::rustc-cfg=no_wthor_games");
    }
}
