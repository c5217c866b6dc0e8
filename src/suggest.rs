//! "Did you mean …?": the closest of a list of known names to a misspelt one, shared by every
//! message that names something unknown (generators, filter columns, summary metrics).

/// The edit distance (insertions, deletions, substitutions, adjacent swaps) between `a` and `b`.
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // Three rows of the optimal-string-alignment table.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                cur[j] = cur[j].min(before[j - 2] + 1);
            }
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
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
    }
}
