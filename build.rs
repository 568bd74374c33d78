//! Build script: records which code a binary was built from, so that the
//! shards of one experiment can be checked to come from the same code
//! (`hoyito run --shard`, `hoyito merge`).
//!
//! The version is the crate version and, where the sources are a git
//! checkout and `git` runs, the commit (`git rev-parse --short=12 HEAD`) with
//! `+dirty` when tracked sources differ from it; elsewhere (a source tarball,
//! no git) the crate version alone. `HOYITO_CODE_VERSION` in the environment
//! overrides both, for packagers.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    println!("cargo:rerun-if-env-changed=HOYITO_CODE_VERSION");
    // A new commit moves HEAD or the branch it names; an edit touches the
    // sources. (Paths that do not exist are simply watched for creation.)
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=Cargo.toml");
    println!("cargo:rerun-if-changed=Cargo.lock");
    for name in ["HEAD", "logs/HEAD"] {
        if let Some(path) = git(&["rev-parse", "--git-path", name]) {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    let crate_version = env!("CARGO_PKG_VERSION");
    let version = match std::env::var("HOYITO_CODE_VERSION") {
        Ok(v) if !v.trim().is_empty() => v.trim().to_string(),
        _ => match git(&["rev-parse", "--short=12", "HEAD"]) {
            Some(commit) if !commit.is_empty() => {
                let dirty = git(&[
                    "status",
                    "--porcelain",
                    "--untracked-files=no",
                    "--",
                    "src",
                    "build.rs",
                    "Cargo.toml",
                    "Cargo.lock",
                ])
                .is_some_and(|s| !s.is_empty());
                let dirty = if dirty { "+dirty" } else { "" };
                format!("{crate_version} (git {commit}{dirty})")
            }
            _ => crate_version.to_string(),
        },
    };
    println!("cargo:rustc-env=HOYITO_CODE_VERSION={version}");
}
