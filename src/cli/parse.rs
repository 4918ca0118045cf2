//! The command line's own value parsers: years, empties, depths, windows, seconds.

use finale::search::Window;
use std::time::Duration;

/// Years A-B, or one year.
pub(crate) fn parse_years(s: &str) -> Result<(u16, u16), String> {
    let bad = || format!("expected years A-B or one year, with A <= B, got '{s}'");
    let (a, b) = s.split_once('-').unwrap_or((s, s));
    let a: u16 = a.trim().parse().map_err(|_| bad())?;
    let b: u16 = b.trim().parse().map_err(|_| bad())?;
    if a > b {
        return Err(bad());
    }
    Ok((a, b))
}

/// A sync interval: 0 or more seconds.
pub(crate) fn parse_fsync_every(s: &str) -> Result<f64, String> {
    s.parse::<f64>()
        .ok()
        .filter(|v| (0.0..1e9).contains(v))
        .ok_or_else(|| format!("expected seconds (0 or more), got '{s}'"))
}

pub(crate) fn parse_depth(s: &str) -> Result<u32, String> {
    let max = finale::commands::MAX_PERFT_DEPTH;
    s.parse()
        .ok()
        .filter(|&d| d <= max)
        .ok_or_else(|| format!("depth must be 0..={max}"))
}

/// Depth of `finale eval`: an evaluated search without a table grows fast, so 0..=12.
pub(crate) fn parse_eval_depth(s: &str) -> Result<u32, String> {
    s.parse()
        .ok()
        .filter(|&d| d <= 12)
        .ok_or_else(|| format!("depth must be 0..=12, got '{s}'"))
}

/// A `--moves` sequence: at least one move. An empty one (a variable that expanded to
/// nothing) would ask for the start position, 60 empties, which no exact solve finishes.
pub(crate) fn parse_move_sequence(s: &str) -> Result<String, String> {
    if s.trim().is_empty() {
        return Err("no moves given (expected a sequence such as f5d6c3d3c4)".into());
    }
    Ok(s.to_string())
}

/// A range of empty squares for generated positions: each must have a legal move, which a
/// full board (0 empties) never has, so 1..=60.
pub(crate) fn parse_empties(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("expected A-B or N with 1 <= A <= B <= 60, got '{s}'");
    let (a, b) = s.split_once('-').unwrap_or((s, s));
    let a: u32 = a.trim().parse().map_err(|_| bad())?;
    let b: u32 = b.trim().parse().map_err(|_| bad())?;
    if a == 0 {
        return Err(format!(
            "{s}: a position with a legal move has at least 1 empty square"
        ));
    }
    if a > b || b > 60 {
        return Err(bad());
    }
    Ok((a, b))
}

/// A `--window A,B`.
pub(crate) fn parse_window(s: &str) -> Result<Window, String> {
    Window::parse(s).map_err(|e| e.to_string())
}

pub(crate) fn parse_seconds(s: &str) -> Result<Duration, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("expected seconds, got '{s}'"))?;
    if !(v > 0.0 && v < 1e9) {
        return Err(format!(
            "{s}: the limit must be more than 0 and less than 1e9 seconds"
        ));
    }
    Ok(Duration::from_secs_f64(v))
}

/// A node count: a whole number, in digits (`8000000000`), with a power of ten
/// (`8e9`) or with a suffix K, M, G or T (`8G`: 8 000 000 000, the units the output
/// prints nodes in).
pub(crate) fn parse_nodes(s: &str) -> Result<u64, String> {
    let bad = || format!("expected a node count such as 8000000000, 8e9 or 8G, got '{s}'");
    let t = s.trim();
    let (digits, scale) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() && !t.contains(['e', 'E']) => {
            let scale = match c.to_ascii_uppercase() {
                'K' => 1e3,
                'M' => 1e6,
                'G' => 1e9,
                'T' => 1e12,
                _ => return Err(bad()),
            };
            (&t[..i], scale)
        }
        _ => (t, 1.0),
    };
    let v: f64 = digits.parse().map_err(|_| bad())?;
    let n = v * scale;
    if !(1.0..1e19).contains(&n) || n.fract() != 0.0 {
        return Err(format!(
            "{s}: the node count must be a whole number from 1 to below 1e19"
        ));
    }
    Ok(n as u64)
}

#[cfg(test)]
mod tests {
    use super::parse_nodes;

    #[test]
    fn node_counts_read_in_digits_powers_and_units() {
        for (s, n) in [
            ("8000000000", 8_000_000_000),
            ("8e9", 8_000_000_000),
            ("8G", 8_000_000_000),
            ("12g", 12_000_000_000),
            ("1.5M", 1_500_000),
            ("65536", 65_536),
            ("2T", 2_000_000_000_000),
            ("1", 1),
        ] {
            assert_eq!(parse_nodes(s), Ok(n), "{s}");
        }
        for s in [
            "0", "-5", "1.5", "8X", "G", "", "nan", "inf", "1e20", "8e9G",
        ] {
            assert!(parse_nodes(s).is_err(), "{s}");
        }
    }
}
