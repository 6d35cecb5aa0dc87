//! Which scheduled games a merged results folder still lacks, by shard: `arena merge`'s last check, so a
//! shard that stopped early (or a folder left out) is named, not silently merged.

use std::collections::HashSet;
use std::path::Path;

use crate::config::Format;
use crate::plan::schedule::{schedule, Shard};
use crate::plan::Plan;
use crate::record::GameRecord;

/// The games of one shard (or of the whole schedule) that are not recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    /// The shard the games belong to; `None` when the folders name no shard count.
    pub shard: Option<Shard>,
    /// Their ids (`g0007`), in schedule order.
    pub ids: Vec<String>,
}

/// The shard count named by folders like `<name>.shard-K-of-N` among `sources`, if they agree.
pub fn shard_count(sources: &[impl AsRef<Path>]) -> Option<u32> {
    let counts: HashSet<u32> = sources
        .iter()
        .filter_map(|s| {
            let name = s.as_ref().file_name()?.to_str()?;
            let (_, tail) = name.rsplit_once(".shard-")?;
            let (_, n) = tail.split_once("-of-")?;
            n.parse().ok()
        })
        .collect();
    (counts.len() == 1).then(|| counts.into_iter().next().expect("one count"))
}

/// The games of `plan`'s schedule missing from `games`, grouped by their shard of `count` (one group
/// when `count` is `None`); empty when all are recorded. `None` for formats whose games are not all
/// scheduled in advance: an SPRT stops when it decides, Swiss and knockout rounds are paired from
/// results, a tuning records iterations.
pub fn missing(plan: &Plan, games: &[GameRecord], count: Option<u32>) -> Option<Vec<Missing>> {
    if !matches!(plan.format, Format::RoundRobin | Format::Gauntlet) {
        return None;
    }
    let have: HashSet<&str> = games.iter().map(|g| g.id.as_str()).collect();
    let all = schedule(plan);
    let groups: Vec<Option<Shard>> = match count {
        Some(n) => (1..=n)
            .map(|index| Some(Shard { index, count: n }))
            .collect(),
        None => vec![None],
    };
    let out = groups
        .into_iter()
        .map(|shard| Missing {
            shard,
            ids: all
                .iter()
                .filter(|g| shard.is_none_or(|s| s.contains(g)) && !have.contains(g.id.as_str()))
                .map(|g| g.id.clone())
                .collect(),
        })
        .filter(|m| !m.ids.is_empty())
        .collect();
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shard_count_comes_from_the_folder_names_when_they_agree() {
        assert_eq!(
            shard_count(&["results/c4.shard-1-of-4", "results/c4.shard-3-of-4"]),
            Some(4)
        );
        assert_eq!(shard_count(&["a.shard-1-of-2", "a.shard-1-of-3"]), None);
        assert_eq!(shard_count(&["results/c4", "copy"]), None);
    }
}
