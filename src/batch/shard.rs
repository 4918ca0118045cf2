//! Sharding a batch over machines by position key: shard `i` of `n` takes the positions
//! whose key is `i` modulo `n`, so shards are disjoint, together cover the input, and do
//! not depend on line order or on which files hold which positions.

use crate::error::{BatchError, Error, Result};

/// One shard of a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, `0..count`.
    pub index: u64,
    /// Number of shards.
    pub count: u64,
}

impl Shard {
    /// The whole input.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// True when the position with `key` belongs to this shard.
    pub fn contains(&self, key: u64) -> bool {
        key % self.count == self.index
    }

    /// Parses `I/N` (`0 <= I < N`).
    pub fn parse(text: &str) -> Result<Shard> {
        let bad = || Error::from(BatchError::BadShard(text.to_string()));
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The shard given on the command line, else the one a cluster scheduler assigns:
    /// Slurm job arrays (`SLURM_ARRAY_TASK_ID` counted from `SLURM_ARRAY_TASK_MIN`, of
    /// `SLURM_ARRAY_TASK_COUNT`), or Kubernetes indexed jobs (`JOB_COMPLETION_INDEX`, with
    /// the count from `--shards N`). `env` looks up a variable. `--shards` beside `--shard`
    /// must give the same count.
    pub fn resolve(
        flag: Option<&str>,
        shards: Option<u64>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Shard> {
        if let Some(text) = flag {
            let shard = Shard::parse(text)?;
            return match shards {
                Some(n) if n != shard.count => Err(BatchError::ShardCounts {
                    shard: text.to_string(),
                    shards: n,
                }
                .into()),
                _ => Ok(shard),
            };
        }
        let num = |name: &str| -> Result<Option<u64>> {
            match env(name) {
                None => Ok(None),
                Some(v) => v.trim().parse().map(Some).map_err(|_| {
                    BatchError::BadEnvironment {
                        name: name.to_string(),
                        value: v.clone(),
                    }
                    .into()
                }),
            }
        };
        if let Some(id) = num("SLURM_ARRAY_TASK_ID")? {
            let count = match num("SLURM_ARRAY_TASK_COUNT")? {
                Some(c) => c,
                None => shards.ok_or(BatchError::SlurmCount)?,
            };
            let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            return Shard::checked(id.wrapping_sub(min), count, "SLURM_ARRAY_TASK_ID");
        }
        if let Some(index) = num("JOB_COMPLETION_INDEX")? {
            let count = shards.ok_or(BatchError::JobCount)?;
            return Shard::checked(index, count, "JOB_COMPLETION_INDEX");
        }
        match shards {
            Some(_) => Err(BatchError::ShardsAlone.into()),
            None => Ok(Shard::ALL),
        }
    }

    fn checked(index: u64, count: u64, origin: &str) -> Result<Shard> {
        if count == 0 || index >= count {
            return Err(BatchError::ShardRange {
                origin: origin.to_string(),
                index,
                count,
            }
            .into());
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn shards_partition_keys() {
        let shards: Vec<Shard> = (0..7).map(|i| Shard { index: i, count: 7 }).collect();
        let mut x = 1u64;
        for _ in 0..10_000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            assert_eq!(shards.iter().filter(|s| s.contains(x)).count(), 1);
        }
    }

    #[test]
    fn parsing_and_environment() {
        assert_eq!(
            Shard::parse("3/10").unwrap(),
            Shard {
                index: 3,
                count: 10
            }
        );
        assert!(Shard::parse("10/10").is_err());
        assert!(Shard::parse("1").is_err());
        assert!(Shard::parse("a/b").is_err());
        assert_eq!(Shard::resolve(None, None, env(&[])).unwrap(), Shard::ALL);
        let slurm = [
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "8"),
        ];
        assert_eq!(
            Shard::resolve(None, None, env(&slurm)).unwrap(),
            Shard { index: 4, count: 8 }
        );
        // The flag wins over the environment.
        assert_eq!(
            Shard::resolve(Some("0/2"), None, env(&slurm)).unwrap(),
            Shard { index: 0, count: 2 }
        );
        let k8s = [("JOB_COMPLETION_INDEX", "2")];
        assert!(Shard::resolve(None, None, env(&k8s)).is_err());
        assert_eq!(
            Shard::resolve(None, Some(3), env(&k8s)).unwrap(),
            Shard { index: 2, count: 3 }
        );
        assert!(Shard::resolve(None, Some(2), env(&k8s)).is_err());
        assert!(Shard::resolve(None, None, env(&[("JOB_COMPLETION_INDEX", "x")])).is_err());
    }

    /// `--shard I/N` with `--shards M`: the same count is accepted, another one refused
    /// rather than one of them silently ignored.
    #[test]
    fn a_shard_count_given_twice_must_agree() {
        assert_eq!(
            Shard::resolve(Some("1/3"), Some(3), env(&[])).unwrap(),
            Shard { index: 1, count: 3 }
        );
        let e = Shard::resolve(Some("1/2"), Some(3), env(&[])).expect_err("conflict");
        assert!(
            matches!(&e, Error::Batch(BatchError::ShardCounts { shard, shards: 3 }) if shard == "1/2"),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "--shard 1/2 and --shards 3 give different shard counts; give one of them"
        );
    }
}
