//! The seed study's 20×20 texture, reproduced with 20,000 mazes per generator: mean dead-end
//! share and mean diameter must agree within 4 standard errors with the reference means
//! (backtracker 0.1054 / 228.75, Kruskal 0.3030 / 81.93, Wilson 0.2904 / 91.97; these refine the
//! seed's 200-maze figures). Runs through the same batch pipeline the binary uses.

use batchgen::batch::{self, Job};
use batchgen::Algorithm;

fn mean_and_se(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

#[test]
fn twenty_by_twenty_texture_matches_reference() {
    let refs = [
        (Algorithm::Backtracker, 0.1054, 228.75),
        (Algorithm::Kruskal, 0.3030, 81.93),
        (Algorithm::Wilson, 0.2904, 91.97),
    ];
    let job = Job::new(refs.iter().map(|r| r.0).collect(), 20, 20, 20_000, 2026);
    let pool = rayon::ThreadPoolBuilder::new().build().unwrap();
    let mut share = vec![Vec::new(); 3];
    let mut diam = vec![Vec::new(); 3];
    batch::run::<()>(&job, &pool, |c| {
        let k = refs.iter().position(|r| r.0 == *c.algo).unwrap();
        share[k].extend(c.rows.iter().map(|r| r.metrics.dead_end_share));
        diam[k].extend(c.rows.iter().map(|r| r.metrics.diameter as f64));
        Ok(())
    })
    .unwrap();
    for (k, (algo, want_share, want_diam)) in refs.iter().enumerate() {
        assert_eq!(share[k].len(), 20_000);
        let (m, se) = mean_and_se(&share[k]);
        assert!(
            (m - want_share).abs() <= 4.0 * se,
            "{}: dead-end share {m:.5} vs {want_share} (se {se:.5})",
            algo.name()
        );
        let (m, se) = mean_and_se(&diam[k]);
        assert!(
            (m - want_diam).abs() <= 4.0 * se,
            "{}: diameter {m:.3} vs {want_diam} (se {se:.3})",
            algo.name()
        );
        eprintln!("{}: share/diameter ok", algo.name());
    }
}
