//! "Did you mean …?": the closest of a list of known names to a misspelt one, shared by every
//! message that names something unknown (generators, filter columns, summary metrics).

/// The edit distance (insertions, deletions, substitutions, adjacent swaps) between `a` and `b`:
/// the optimal-string-alignment distance, over characters.
fn distance(a: &str, b: &str) -> usize {
    strsim::osa_distance(a, b)
}

/// The known name closest to `word` (ignoring case), if it is close enough to be a slip: at
/// most a third of the word's length in edits (at least one), or `word` is a prefix of it.
pub fn closest<'a>(word: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let w = word.trim().to_lowercase();
    if w.is_empty() {
        return None;
    }
    let limit = (w.chars().count() / 3).max(1);
    known
        .into_iter()
        .filter_map(|k| {
            let d = distance(&w, &k.to_lowercase());
            let prefix = w.len() >= 3 && k.starts_with(&w);
            (d <= limit || prefix).then_some((d, k))
        })
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slips_are_found_and_strangers_are_not() {
        let names = [
            "wilson",
            "wilson-turn",
            "kruskal",
            "dead_end_share",
            "dead_ends",
        ];
        assert_eq!(closest("wilsn", names), Some("wilson"));
        assert_eq!(closest("Wilson", names), Some("wilson"));
        assert_eq!(closest("kurskal", names), Some("kruskal"));
        assert_eq!(closest("dead_end_shar", names), Some("dead_end_share"));
        assert_eq!(closest("zzz", names), None);
        assert_eq!(closest("", names), None);
        assert_eq!(distance("abc", "acb"), 1);
        assert_eq!(distance("", "abc"), 3);
        // A swap is one edit, but an edit inside a swapped pair is not undone (optimal string
        // alignment, not the unrestricted Damerau distance): "ca" -> "abc" takes 3.
        assert_eq!(distance("ca", "abc"), 3);
        assert_eq!(distance("wilsön", "wilson"), 1);
    }
}
