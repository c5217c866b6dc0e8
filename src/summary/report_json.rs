//! `batchgen summary --format json`: an array with one object per group, each with its row
//! count, the accept filter's pass rate (with `--accept`) and, per metric column in schema
//! order, the mean, standard error and quantiles. Types deriving `Serialize`, printed with the
//! layout every JSON output of the program shares ([`crate::json`]); non-finite
//! numbers are `null`.

use serde::ser::{Serialize, Serializer};

use super::dist::Stat;
use super::{Group, Key, Summary, QUANTILES};

/// One group.
#[derive(serde::Serialize)]
struct GroupDoc<'a> {
    algo: Option<&'a str>,
    size: Option<&'a str>,
    rows: u64,
    #[serde(flatten)]
    accept: Option<Accept<'a>>,
    metrics: Metrics<'a>,
}

/// The accept filter's pass rate in a group.
#[derive(serde::Serialize)]
struct Accept<'a> {
    accept: &'a str,
    passing: u64,
    share: f64,
    candidates_per_accepted: f64,
}

/// The metric columns of a group: an object keyed by column name, in schema order.
struct Metrics<'a>(&'a [(String, Stat)]);

impl Serialize for Metrics<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(name, st)| (name, MetricDoc::of(st))))
    }
}

/// One metric column of a group.
#[derive(serde::Serialize)]
struct MetricDoc {
    mean: f64,
    std_err: f64,
    p5: f64,
    p25: f64,
    p50: f64,
    p75: f64,
    p95: f64,
    exact_quantiles: bool,
    pos_inf: u64,
    neg_inf: u64,
    nan: u64,
}

impl MetricDoc {
    fn of(st: &Stat) -> MetricDoc {
        let q = st.quantiles(&QUANTILES);
        let nonfinite = st.nonfinite();
        MetricDoc {
            mean: st.mean(),
            std_err: st.std_err(),
            p5: q[0],
            p25: q[1],
            p50: q[2],
            p75: q[3],
            p95: q[4],
            exact_quantiles: st.exact(),
            pos_inf: nonfinite.pos_inf,
            neg_inf: nonfinite.neg_inf,
            nan: nonfinite.nan,
        }
    }
}

fn group<'a>(s: &'a Summary, k: &'a Key, g: &'a Group) -> GroupDoc<'a> {
    GroupDoc {
        algo: k.algo.as_deref(),
        size: k.size.as_deref(),
        rows: g.rows,
        accept: s.accept.as_deref().map(|accept| {
            let (share, per) = g.pass_rate();
            Accept {
                accept,
                passing: g.passing,
                share,
                candidates_per_accepted: per,
            }
        }),
        metrics: Metrics(&g.metrics),
    }
}

/// The summary as a JSON document.
pub fn render(s: &Summary) -> String {
    let groups: Vec<GroupDoc<'_>> = s.groups.iter().map(|(k, g)| group(s, k, g)).collect();
    crate::json::pretty(&groups)
}
