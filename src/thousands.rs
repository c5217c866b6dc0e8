//! Whole numbers for people: digits grouped by thousands with commas (`5040` → `5,040`), as
//! every report and progress line prints counts.

/// `n` with a comma between each group of three digits (`-1234567` → `-1,234,567`).
pub fn thousands(n: impl ToString) -> String {
    let s = n.to_string();
    let (sign, digits) = s.strip_prefix('-').map_or(("", s.as_str()), |d| ("-", d));
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    out.push_str(sign);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::thousands;

    #[test]
    fn groups_of_three() {
        assert_eq!(thousands(0u64), "0");
        assert_eq!(thousands(999u32), "999");
        assert_eq!(thousands(5040u64), "5,040");
        assert_eq!(thousands(1_234_567u64), "1,234,567");
        assert_eq!(thousands(-1_234_567i64), "-1,234,567");
        assert_eq!(thousands(u64::MAX), "18,446,744,073,709,551,615");
    }
}
