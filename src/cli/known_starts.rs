//! What the project has already proved about the standard starts
//! (`reports/first-player/exact.json`, built into the binary), so that
//! `hoyito solve --start` can say, before a solve that may take hours, that
//! the answer is known and which command proves it again cheaply.

use hoyito::Variant;
use serde::Deserialize;

/// The entries of `reports/first-player/exact.json` this binary was built with.
const EXACT_JSON: &str = include_str!("../../reports/first-player/exact.json");

/// Where the values come from, for the messages.
pub const EXACT_JSON_PATH: &str = "reports/first-player/exact.json";

#[derive(Debug, Deserialize)]
struct ExactFile {
    start_positions: Vec<KnownStart>,
}

/// One start of `exact.json`: its exact value where known, who wins where
/// proved, and how.
#[derive(Debug, Clone, Deserialize)]
pub struct KnownStart {
    variant: String,
    holes: u8,
    /// South's capture margin under perfect play, where exact.
    margin: Option<i32>,
    /// `reachable-only retrograde analysis ...` or `proof search ...`.
    #[serde(default)]
    method: Option<String>,
    /// The exact table layer of a proof search.
    #[serde(default)]
    exact_up_to: Option<u32>,
    /// The peak memory of the solve that found it, in MB.
    #[serde(default)]
    peak_mb: Option<u64>,
    /// W, D or L for South, where proved.
    #[serde(default)]
    outcome: Option<String>,
}

impl KnownStart {
    /// The entry of the standard start (4 seeds a hole) of `variant` on
    /// 2x`holes`, if the file has one.
    pub fn find(variant: Variant, holes: u8, seeds: u32) -> Option<KnownStart> {
        if seeds != 4 {
            return None;
        }
        let file: ExactFile = serde_json::from_str(EXACT_JSON).ok()?;
        file.start_positions
            .into_iter()
            .find(|e| e.holes == holes && e.variant == variant.to_string())
    }

    /// Whether it was proved by the bounded proof search (`--prove`).
    fn by_proof_search(&self) -> bool {
        self.method
            .as_deref()
            .is_some_and(|m| m.starts_with("proof search"))
    }

    /// The exact-table layer to give `--prove`, where the file says.
    pub fn exact_up_to(&self) -> Option<u32> {
        self.exact_up_to.filter(|_| self.by_proof_search())
    }

    /// What is known, for a person about to solve the start again; `None`
    /// where nothing is proved.
    pub fn pointer(&self, prove_command: &str) -> Option<String> {
        let outcome = |o: &str| match o {
            "W" => "South wins",
            "D" => "a draw",
            _ => "North wins",
        };
        match (self.margin, self.outcome.as_deref()) {
            (Some(margin), _) if self.by_proof_search() => Some(format!(
                "known: {EXACT_JSON_PATH} holds this start's exact value, {margin:+} for South, \
                 proved by proof search{}: `{prove_command}` proves it again",
                self.peak_mb
                    .map(|mb| format!(" in {mb} MB of memory"))
                    .unwrap_or_default()
            )),
            (Some(margin), _) => Some(format!(
                "known: {EXACT_JSON_PATH} holds this start's exact value, {margin:+} for South, \
                 from this very solve"
            )),
            (None, Some(o)) => Some(format!(
                "known: {EXACT_JSON_PATH} holds who wins this start under perfect play, {}, \
                 proved by `hoyito solve --start --outcome`; its exact value is not known",
                outcome(o)
            )),
            (None, None) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_file_reads_and_names_the_proved_starts() {
        let ii6 = KnownStart::find(Variant::Ii, 6, 4).expect("II 2x6 is in exact.json");
        assert_eq!(ii6.margin, Some(-28));
        assert_eq!(ii6.exact_up_to(), Some(20));
        let text = ii6.pointer("CMD").expect("a pointer");
        assert!(text.contains("-28") && text.contains("`CMD`"), "{text}");
        let i6 = KnownStart::find(Variant::I, 6, 4).expect("I 2x6 is in exact.json");
        assert_eq!(i6.exact_up_to(), None);
        assert!(i6.pointer("CMD").expect("a pointer").contains("-8"));
        assert!(KnownStart::find(Variant::I, 6, 3).is_none());
    }
}
