//! The rays of the board: for each square and direction, the squares up to the edge. Shared
//! by the portable flips (moves.rs) and the vector kernels (avx2.rs, avx512.rs).

/// Squares from each square to the board edge in each of the 8 directions, the square
/// itself excluded. Directions 0-3 increase the index (+1, +7, +8, +9), 4-7 decrease it.
pub(crate) const RAYS: [[u64; 64]; 8] = build_rays();

const fn build_rays() -> [[u64; 64]; 8] {
    // (column step, row step) for +1, +7, +8, +9, -1, -7, -8, -9.
    const STEPS: [(i32, i32); 8] = [
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
        (-1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
    ];
    let mut rays = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let (dc, dr) = STEPS[d];
            let mut c = (sq % 8) as i32 + dc;
            let mut r = (sq / 8) as i32 + dr;
            let mut ray = 0u64;
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                ray |= 1u64 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            rays[d][sq] = ray;
            sq += 1;
        }
        d += 1;
    }
    rays
}
