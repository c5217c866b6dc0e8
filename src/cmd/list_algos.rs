//! `batchgen --list-algos` / `batchgen list-algos`: every generator, its texture in a line, and
//! whether it samples spanning trees uniformly.

use batchgen::Algorithm;

/// Print the generator table to stdout.
pub fn run() -> anyhow::Result<()> {
    let algos = Algorithm::all();
    let width = algos.iter().map(|a| a.name().len()).max().unwrap_or(0);
    println!("{:width$}  {:7}  texture", "algo", "uniform");
    for a in algos {
        let uniform = if a.is_uniform() { "yes" } else { "no" };
        println!("{:width$}  {uniform:7}  {}", a.name(), a.description());
    }
    Ok(())
}
