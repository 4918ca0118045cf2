//! Kernel sets, chosen at run time: the same binary runs on any x86-64 and uses AVX-512
//! or AVX2 where the CPU has them.
//!
//! A kernel set is a type ([`Portable`], [`Avx2`], [`Avx512`]) whose functions are
//! inlined into the code that uses them. The search is compiled once per set, each copy
//! with the set's CPU features (`search/kernel_dispatch.rs`), and picks its copy once per search
//! from [`Isa`], never per node. [`Isa::chosen`] is the best set this CPU has, or the
//! one the environment variable `FINALE_KERNELS` forces (`portable`, `avx2`, `avx512`),
//! so that one machine can run every path it supports.

use super::error::KernelsError;
use super::square::Square;

/// Move generation kernels.
pub trait Kernels {
    /// The set this type is.
    const ISA: Isa;
    /// Legal moves of `p` against `o`.
    fn legal_moves(p: u64, o: u64) -> u64;
    /// Discs of `o` flipped when `p` plays on the empty square `sq` (0: illegal there).
    fn flips(p: u64, o: u64, sq: Square) -> u64;
    /// Discs `p` flips by playing `sq`, the only empty square.
    fn count_last_flips(p: u64, sq: Square) -> u32;
}

/// Plain integer code: any CPU.
#[derive(Clone, Copy, Debug)]
pub struct Portable;

/// AVX2 with BMI2, POPCNT and LZCNT (x86-64-v3).
#[derive(Clone, Copy, Debug)]
pub struct Avx2;

/// AVX-512 F, CD, VL and BW, with the AVX2 set's features.
#[derive(Clone, Copy, Debug)]
pub struct Avx512;

impl Kernels for Portable {
    const ISA: Isa = Isa::Portable;
    #[inline(always)]
    fn legal_moves(p: u64, o: u64) -> u64 {
        super::moves::legal_moves(p, o)
    }
    #[inline(always)]
    fn flips(p: u64, o: u64, sq: Square) -> u64 {
        super::moves::flips(p, o, sq)
    }
    #[inline(always)]
    fn count_last_flips(p: u64, sq: Square) -> u32 {
        super::last_flip::count_last_flips(p, sq)
    }
}

#[cfg(target_arch = "x86_64")]
impl Kernels for Avx2 {
    const ISA: Isa = Isa::Avx2;
    #[inline(always)]
    fn legal_moves(p: u64, o: u64) -> u64 {
        // SAFETY: this set is used only where `Isa::Avx2.supported()` (see `Isa`).
        unsafe { super::avx2::legal_moves(p, o) }
    }
    #[inline(always)]
    fn flips(p: u64, o: u64, sq: Square) -> u64 {
        // SAFETY: as above.
        unsafe { super::avx2::flips(p, o, sq) }
    }
    #[inline(always)]
    fn count_last_flips(p: u64, sq: Square) -> u32 {
        // SAFETY: as above; the set includes BMI2.
        unsafe { super::last_flip::count_last_flips_pext(p, sq) }
    }
}

#[cfg(target_arch = "x86_64")]
impl Kernels for Avx512 {
    const ISA: Isa = Isa::Avx512;
    #[inline(always)]
    fn legal_moves(p: u64, o: u64) -> u64 {
        // SAFETY: this set is used only where `Isa::Avx512.supported()` (see `Isa`).
        unsafe { super::avx512::legal_moves(p, o) }
    }
    #[inline(always)]
    fn flips(p: u64, o: u64, sq: Square) -> u64 {
        // SAFETY: as above.
        unsafe { super::avx512::flips(p, o, sq) }
    }
    #[inline(always)]
    fn count_last_flips(p: u64, sq: Square) -> u32 {
        // SAFETY: as above; the set includes BMI2.
        unsafe { super::last_flip::count_last_flips_pext(p, sq) }
    }
}

/// A kernel set, as a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Isa {
    /// [`Portable`].
    Portable,
    /// [`Avx2`].
    Avx2,
    /// [`Avx512`].
    Avx512,
}

/// The environment variable that forces a kernel set.
pub const KERNELS_VAR: &str = "FINALE_KERNELS";

impl Isa {
    /// Every set, slowest first.
    pub const ALL: [Isa; 3] = [Isa::Portable, Isa::Avx2, Isa::Avx512];

    /// The set's name, as `FINALE_KERNELS` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Isa::Portable => "portable",
            Isa::Avx2 => "avx2",
            Isa::Avx512 => "avx512",
        }
    }

    /// The CPU features the set needs, as `#[target_feature]` names them.
    pub fn features(self) -> &'static [&'static str] {
        match self {
            Isa::Portable => &[],
            Isa::Avx2 => &["avx2", "bmi1", "bmi2", "popcnt", "lzcnt"],
            Isa::Avx512 => &[
                "avx2", "bmi1", "bmi2", "popcnt", "lzcnt", "avx512f", "avx512cd", "avx512vl",
                "avx512bw",
            ],
        }
    }

    /// True when this CPU has every feature of the set.
    pub fn supported(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            match self {
                Isa::Portable => true,
                Isa::Avx2 => {
                    has!("avx2") && has!("bmi1") && has!("bmi2") && has!("popcnt") && has!("lzcnt")
                }
                Isa::Avx512 => {
                    Isa::Avx2.supported()
                        && has!("avx512f")
                        && has!("avx512cd")
                        && has!("avx512vl")
                        && has!("avx512bw")
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self == Isa::Portable
        }
    }

    /// The fastest set this CPU has.
    pub fn detect() -> Isa {
        *Isa::ALL
            .iter()
            .rev()
            .find(|i| i.supported())
            .unwrap_or(&Isa::Portable)
    }

    /// The set `FINALE_KERNELS` asks for (`None` when it is unset or empty), or why it
    /// cannot be had here.
    pub fn from_env() -> Result<Option<Isa>, KernelsError> {
        let Some(v) = std::env::var_os(KERNELS_VAR) else {
            return Ok(None);
        };
        let v = v.to_string_lossy();
        if v.is_empty() {
            return Ok(None);
        }
        let isa = Isa::ALL
            .into_iter()
            .find(|i| i.name() == v)
            .ok_or_else(|| KernelsError::Unknown(v.into_owned()))?;
        if !isa.supported() {
            return Err(KernelsError::Unsupported(isa.name(), Isa::detect().name()));
        }
        Ok(Some(isa))
    }

    /// The set searches use: the one `FINALE_KERNELS` forces if it can be had, else the
    /// fastest this CPU has. Looked up once per process. (The command line refuses a
    /// `FINALE_KERNELS` it cannot follow before it starts, with [`Isa::from_env`]'s error.)
    pub fn chosen() -> Isa {
        static CHOSEN: std::sync::OnceLock<Isa> = std::sync::OnceLock::new();
        *CHOSEN.get_or_init(|| Isa::from_env().ok().flatten().unwrap_or_else(Isa::detect))
    }
}

impl std::fmt::Display for Isa {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::moves::{flips, legal_moves};

    #[test]
    fn the_refusal_names_the_variable_read() {
        let e = KernelsError::Unknown("sse".into()).to_string();
        assert!(e.starts_with(&format!("{KERNELS_VAR}=")), "{e}");
        let e = KernelsError::Unsupported("avx512", "avx2").to_string();
        assert!(e.starts_with(&format!("{KERNELS_VAR}=")), "{e}");
    }

    /// Every kernel set this CPU has gives the portable code's results. A set the CPU
    /// lacks is named on stderr; CI machines of this kind have AVX2 at least.
    #[test]
    fn kernel_sets_match_portable() {
        fn check<K: Kernels>() {
            let mut x = 0x9E37_79B9_7F4A_7C15u64;
            let mut next = || {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            };
            for _ in 0..200_000 {
                let a = next();
                let b = next() & !a;
                let (p, o) = if next() & 1 == 0 {
                    (a & next(), b)
                } else {
                    (a, b & next())
                };
                assert_eq!(K::legal_moves(p, o), legal_moves(p, o), "{p:x} {o:x}");
                let sq = Square::from_index((next() % 64) as u32);
                if (p | o) & sq.bit() == 0 {
                    assert_eq!(K::flips(p, o, sq), flips(p, o, sq), "{p:x} {o:x} {sq}");
                    let full = !sq.bit();
                    assert_eq!(
                        K::count_last_flips(p & full, sq),
                        flips(p & full, !p & full, sq).count_ones(),
                        "{p:x} {sq}"
                    );
                }
            }
        }
        let mut ran = 0;
        for isa in Isa::ALL {
            if !isa.supported() {
                eprintln!("kernel set {isa} not tested: this CPU lacks its features");
                continue;
            }
            match isa {
                Isa::Portable => check::<Portable>(),
                #[cfg(target_arch = "x86_64")]
                Isa::Avx2 => check::<Avx2>(),
                #[cfg(target_arch = "x86_64")]
                Isa::Avx512 => check::<Avx512>(),
                #[allow(unreachable_patterns)]
                _ => unreachable!("supported only on x86-64"),
            }
            ran += 1;
        }
        assert!(ran >= 1);
    }
}
