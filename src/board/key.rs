//! The position key: a stable 64-bit hash of the board and the side to move, written as
//! 16 hex digits. It names a position in batch outputs, resumption and sharding, so it
//! must never change between versions: tests pin it.

use super::{Color, Position};

/// SplitMix64's finaliser: every input bit affects every output bit.
#[inline(always)]
const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The key of `pos`:
/// `mix(mix(black ^ 0x243F6A8885A308D3) ^ rotl(white, 29) ^ side)` with side 0 for black
/// and 1 for white to move, black and white the discs as bitboards (a1 = bit 0).
pub fn position_key(pos: &Position) -> u64 {
    let (black, white) = pos.black_white();
    let side = match pos.side {
        Color::Black => 0,
        Color::White => 1,
    };
    mix(mix(black ^ 0x243F_6A88_85A3_08D3) ^ white.rotate_left(29) ^ side)
}

/// A 64-bit hash of a board (`player`, `opponent`): `mix(mix(player ^ 0x243F6A8885A308D3)
/// ^ opponent)`. For a fixed `player` it is a bijection of `opponent`, and two different
/// `player`s give unrelated inner mixes, so no pattern of squares makes two boards
/// collide: any two differ in it with probability 1 - 2^-64. (A hash like `p * K1 ^ o *
/// K2` has patterns that always collide: multiplication only carries upwards, so h8 taken
/// from one side and a disc that lands in the same top bit added to the other cancel.)
#[inline(always)]
pub const fn board_key(player: u64, opponent: u64) -> u64 {
    mix(mix(player ^ 0x243F_6A88_85A3_08D3) ^ opponent)
}

/// The key of a line that is not a position (a malformed input line a batch records with
/// `--skip-bad`): a hash of its text, so a rerun recognises the line as done.
pub fn line_key(text: &str) -> u64 {
    // FNV-1a, then the position key's mixer.
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for b in text.bytes() {
        h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01B3);
    }
    h ^= h >> 31;
    h.wrapping_mul(0x94D0_49BB_1331_11EB) ^ (h >> 29)
}

/// 16 lower-case hex digits.
pub fn key_hex(key: u64) -> String {
    format!("{key:016x}")
}

/// Parses 16 hex digits back into a key.
pub fn parse_key(text: &str) -> Option<u64> {
    // Exactly 16 hex digits: from_str_radix alone would also take a sign.
    (text.len() == 16 && text.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| u64::from_str_radix(text, 16).ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_is_pinned() {
        // Keys name rows in users' files: a change here breaks every resumption. The
        // value was computed from the formula above by a separate Python script.
        assert_eq!(key_hex(position_key(&Position::START)), "a43d43d1720ee242");
        assert_ne!(
            position_key(&Position::START),
            position_key(&Position::START.pass())
        );
        assert_eq!(parse_key("a43d43d1720ee242"), Some(0xa43d_43d1_720e_e242));
        assert_eq!(parse_key("xyz"), None);
        assert_eq!(parse_key("+43d43d1720ee242"), None);
        assert_eq!(parse_key("-43d43d1720ee242"), None);
    }

    #[test]
    fn board_key_separates_what_a_multiplicative_hash_confuses() {
        // Moving h8 from one side's bits to a5 on the other's cancels in
        // `p * K1 ^ rotl(o, 31) * K2` (both reach only the top bit); in the key it must not.
        let (p, o) = (0x8000_0000_0010_0000u64, 0x0000_0000_0800_0000u64);
        let (p2, o2) = (p ^ 1 << 63, o ^ 1 << 32);
        let weak = |p: u64, o: u64| {
            p.wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ o.rotate_left(31).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        };
        assert_eq!(weak(p, o), weak(p2, o2));
        assert_ne!(board_key(p, o), board_key(p2, o2));
    }

    #[test]
    fn line_key_is_pinned() {
        // Keys of malformed lines name error rows in users' files too. Computed from the
        // formula by a separate Python script.
        assert_eq!(key_hex(line_key("not a position")), "8928df5493bc08c2");
    }
}
