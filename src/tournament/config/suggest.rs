//! "Did you mean ...?": the known name closest to a misspelt one.
//!
//! A newcomer's typo (`hole`, `round-robbin`, `randm`) is one or two edits
//! from the name meant; naming it turns an error into its fix. Distance is
//! the optimal string alignment distance (Levenshtein with adjacent
//! transpositions), compared without case.

/// The optimal string alignment distance between `a` and `b`: insertions,
/// deletions, substitutions and swaps of two adjacent characters, each 1.
// Source: Damerau 1964; the restricted ("optimal string alignment") form of
// Boytsov 2011, "Indexing methods for approximate dictionary searching".
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().flat_map(char::to_lowercase).collect();
    let b: Vec<char> = b.chars().flat_map(char::to_lowercase).collect();
    // Three rows of the dynamic programme: i - 2, i - 1 and i.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut last: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut row = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            row[j] = (last[j] + 1).min(row[j - 1] + 1).min(last[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                row[j] = row[j].min(before[j - 2] + 1);
            }
        }
        before = std::mem::replace(&mut last, row);
    }
    last[b.len()]
}

/// The candidate closest to `name`, if one is close enough to be the name
/// meant: at most a third of `name`'s length away (at least 1 edit). Ties go
/// to the first candidate given.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let most = (name.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (distance(name, c), c))
        .filter(|&(d, _)| d <= most)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_count_edits_and_adjacent_swaps() {
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("sede", "seed"), 1);
        assert_eq!(distance("round-robbin", "round-robin"), 1);
        assert_eq!(distance("II", "ii"), 0);
    }

    #[test]
    fn the_closest_name_is_suggested_only_when_close() {
        let keys = ["variants", "holes", "seeds", "rounds"];
        assert_eq!(closest("variant", keys), Some("variants"));
        assert_eq!(closest("hole", keys), Some("holes"));
        assert_eq!(
            closest("random_ply", ["random_plies", "book"]),
            Some("random_plies")
        );
        assert_eq!(closest("randm", ["greedy", "random"]), Some("random"));
        assert_eq!(closest("colour", keys), None);
    }
}
