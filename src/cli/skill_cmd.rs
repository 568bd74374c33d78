//! `hoyito skill RUN_DIR... --out DIR`: the skill study of ladder runs, what
//! a deeper search is worth on each board (`skill.json`, `skill.md` and the
//! Elo-per-rung chart), drawn from the runs' `games.csv` without playing a
//! game. Each directory's lock is taken shared, so that no study is drawn
//! from a run still writing it.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use hoyito::report::skill_study::{skill_study, write_skill_study};
use hoyito::tournament::lock_shared;

/// Arguments of `hoyito skill`.
#[derive(Debug, Args)]
pub struct SkillArgs {
    /// The ladder runs' directories (`format = "ladder"`), each holding
    /// `games.csv` and `experiment.toml`.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Where to write `skill.json`, `skill.md` and `charts/`.
    #[arg(long, value_name = "PATH", default_value = "reports/skill")]
    out: PathBuf,
}

/// Reads the runs and writes the study.
pub fn skill(args: SkillArgs) -> Result<()> {
    let _locks = args
        .dirs
        .iter()
        .map(|dir| lock_shared(dir))
        .collect::<Result<Vec<_>, _>>()?;
    let study = skill_study(&args.dirs)?;
    let files = write_skill_study(&study, &args.out)?;
    println!("{}", files.json.display());
    println!("{}", files.markdown.display());
    for chart in &files.charts {
        println!("{}", chart.display());
    }
    Ok(())
}
