//! `shard.toml`: what a shard's directory holds, so that a merge can check
//! the shards before joining them.
//!
//! A shard directory is an ordinary run directory (its `experiment.toml` is
//! the one the single run writes, so the merge passes it on unchanged) plus
//! this manifest: the slice `K/N`, the games it plans and has written, and a
//! fingerprint of the resolved experiment. Shards of one experiment have
//! equal fingerprints; a shard of another config, seed, roster or build has
//! a different one, and the field that differs names the reason.
//!
//! The fingerprint's hashes are FNV-1a 64 (see [`crate::records::moves_hash`]): they
//! catch accidents (a shard run from an edited config), not forgeries.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::config::experiment::Experiment;
use super::shard::Shard;
use crate::records::moves_hash::{FNV_OFFSET_BASIS, FNV_PRIME};
use crate::records::safe_file::write_atomic;

/// The manifest's file name, inside a shard's directory.
pub const SHARD_FILE: &str = "shard.toml";

/// The code this binary was built from: crate version and git commit (see
/// `build.rs`).
pub const CODE_VERSION: &str = env!("HOYITO_CODE_VERSION");

/// The contents of `shard.toml`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardManifest {
    /// K: this directory's slice, from 0.
    pub shard: u64,
    /// N: the number of slices.
    pub shards: u64,
    /// Games of the slice.
    pub planned_games: u64,
    /// Games written so far.
    pub written_games: u64,
    /// Whether every game of the slice is written.
    pub complete: bool,
    /// What the games were played from.
    pub fingerprint: Fingerprint,
}

/// The resolved experiment in a few comparable fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fingerprint {
    /// The code: crate version and git commit.
    pub code: String,
    /// The master seed.
    pub seed: u64,
    /// Games per pairing, per variant, per board (rounded to pairs).
    pub games: u64,
    /// Hash of the `[rules]` as resolved.
    pub rules: String,
    /// Hash of each agent's resolved spec (what its roster file says).
    pub agents: BTreeMap<String, String>,
    /// Hash of the whole resolved experiment but `threads` (which does not
    /// change the results): config, openings and books, roster.
    pub experiment: String,
}

/// FNV-1a 64 of `bytes`, as 16 hex digits.
fn hash(bytes: &[u8]) -> String {
    let h = bytes.iter().fold(FNV_OFFSET_BASIS, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(FNV_PRIME)
    });
    format!("{h:016x}")
}

impl Fingerprint {
    /// The fingerprint of a checked, resolved experiment run by this binary.
    pub fn of(experiment: &Experiment) -> Fingerprint {
        let mut plain = experiment.clone();
        plain.threads = 0;
        let rules = toml::to_string(&experiment.rules).expect("rules are plain TOML data");
        let agents = experiment
            .roster
            .iter()
            .map(|(name, spec)| {
                let text = toml::to_string(spec).expect("a spec is plain TOML data");
                (name.clone(), hash(text.as_bytes()))
            })
            .collect();
        Fingerprint {
            code: CODE_VERSION.to_string(),
            seed: experiment.seed,
            games: experiment.games,
            rules: hash(rules.as_bytes()),
            agents,
            experiment: hash(plain.to_toml().as_bytes()),
        }
    }

    /// The first way `other` differs from `self`, in words, if it does:
    /// `"its seed 8, not 7"`.
    pub fn difference(&self, other: &Fingerprint) -> Option<String> {
        if other.code != self.code {
            return Some(format!(
                "it was played by code version {}, not {}",
                other.code, self.code
            ));
        }
        if other.seed != self.seed {
            return Some(format!("its seed is {}, not {}", other.seed, self.seed));
        }
        if other.games != self.games {
            return Some(format!(
                "it has {} games per pairing, not {}",
                other.games, self.games
            ));
        }
        if other.rules != self.rules {
            return Some("its [rules] differ".to_string());
        }
        for (name, spec) in &self.agents {
            match other.agents.get(name) {
                None => return Some(format!("agent {name} does not play in it")),
                Some(theirs) if theirs != spec => {
                    return Some(format!(
                        "agent {name} has another spec (its roster file differs)"
                    ))
                }
                Some(_) => {}
            }
        }
        if let Some(name) = other.agents.keys().find(|n| !self.agents.contains_key(*n)) {
            return Some(format!("agent {name} plays in it, and not here"));
        }
        if other.experiment != self.experiment {
            return Some("its experiment (config, openings) differs".to_string());
        }
        None
    }
}

impl ShardManifest {
    /// The manifest of `shard` of `experiment`, `written` of `planned` games.
    pub fn new(experiment: &Experiment, shard: Shard, planned: u64, written: u64) -> Self {
        ShardManifest {
            shard: shard.index(),
            shards: shard.count(),
            planned_games: planned,
            written_games: written,
            complete: written >= planned,
            fingerprint: Fingerprint::of(experiment),
        }
    }

    /// The slice, if `shard < shards`.
    pub fn slice(&self) -> Option<Shard> {
        Shard::new(self.shard, self.shards).ok()
    }

    /// Reads `dir/shard.toml`; `Ok(None)` when there is none.
    pub fn read(dir: &Path) -> io::Result<Option<ShardManifest>> {
        let path = dir.join(SHARD_FILE);
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(err),
        };
        toml::from_str(&text)
            .map(Some)
            .map_err(|err| io::Error::new(io::ErrorKind::InvalidData, err.message().to_string()))
    }

    /// Writes `dir/shard.toml` atomically.
    pub fn write(&self, dir: &Path) -> io::Result<()> {
        // TOML integers are 64-bit signed: a count beyond `i64::MAX`
        // (`--shard 0/9223372036854775808`) is an error, not a panic.
        let body = toml::to_string(self).map_err(|err| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("cannot record shard {}/{}: {err}", self.shard, self.shards),
            )
        })?;
        let text = format!(
            "# Written by `hoyito run --shard {}/{}`: one slice of the experiment in \
             experiment.toml; join the slices with `hoyito merge`.\n{body}",
            self.shard, self.shards,
        );
        let tmp = dir.join(format!("{SHARD_FILE}.tmp"));
        write_atomic(&tmp, &dir.join(SHARD_FILE), text.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn experiment(seed: u64, depth: u32) -> Experiment {
        let text = format!(
            "name = \"t\"\nseed = {seed}\ngames = 4\n[rules]\nvariants = [\"ii\"]\nholes = [6]\n\
             [tournament]\nformat = \"round-robin\"\nagents = [\"a\", \"b\"]\n\
             [roster.a]\nkind = \"random\"\n[roster.b]\nkind = \"alphabeta\"\ndepth = {depth}\n"
        );
        Experiment::parse(&text, "t.toml").unwrap()
    }

    #[test]
    fn fnv1a_matches_the_published_test_vectors() {
        // draft-eastlake-fnv, FNV-1a 64 test vectors: "" and "a".
        assert_eq!(hash(b""), "cbf29ce484222325");
        assert_eq!(hash(b"a"), "af63dc4c8601ec8c");
    }

    #[test]
    fn fingerprints_differ_by_seed_agent_and_not_by_threads() {
        let base = Fingerprint::of(&experiment(1, 2));
        let mut threads = experiment(1, 2);
        threads.threads = 7;
        assert_eq!(base.difference(&Fingerprint::of(&threads)), None);
        let seed = base.difference(&Fingerprint::of(&experiment(2, 2)));
        assert_eq!(seed.as_deref(), Some("its seed is 2, not 1"));
        let agent = base
            .difference(&Fingerprint::of(&experiment(1, 3)))
            .unwrap();
        assert!(agent.contains("agent b"), "{agent}");
        let mut code = base.clone();
        code.code = "0.0.0".into();
        assert!(base
            .difference(&code)
            .unwrap()
            .contains("code version 0.0.0"));
    }

    #[test]
    fn a_manifest_reads_back_as_written() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(ShardManifest::read(dir.path()).unwrap(), None);
        let shard = Shard::new(1, 3).unwrap();
        let m = ShardManifest::new(&experiment(1, 2), shard, 10, 4);
        assert!(!m.complete);
        m.write(dir.path()).unwrap();
        assert_eq!(ShardManifest::read(dir.path()).unwrap(), Some(m.clone()));
        assert_eq!(m.slice(), Some(shard));
    }

    /// `--shard 0/9223372036854775808` is an error here, not a panic, as
    /// TOML holds no integer beyond `i64::MAX`.
    #[test]
    fn a_count_beyond_toml_integers_is_an_error_not_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let mut m = ShardManifest::new(&experiment(1, 2), Shard::new(0, 2).unwrap(), 10, 4);
        m.shards = 1 << 63;
        let err = m.write(dir.path()).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        assert!(err.to_string().contains("9223372036854775808"), "{err}");
        assert_eq!(ShardManifest::read(dir.path()).unwrap(), None);
    }
}
