//! Build script: records the git revision for result files, and enables the AVX-512
//! kernels when the target has the needed features.

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(feature_avx512)");
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let has = |f: &str| features.split(',').any(|x| x == f);
    if has("avx512f") && has("avx512cd") && has("avx512vl") && has("avx512bw") {
        println!("cargo::rustc-cfg=feature_avx512");
    }

    for f in [".git/HEAD", ".git/index"] {
        if Path::new(f).exists() {
            println!("cargo::rerun-if-changed={f}");
        }
    }
    println!("cargo::rerun-if-changed=build.rs");
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
