//! The smallest program a game builds on the core: regenerate one level from a row's identity
//! and print it. `benches/core_size.sh` builds it without default features and measures its
//! stripped size (it lives under `benches/` because it exists to be measured).

use batchgen::{Ends, MazeId, Size};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let algo = args.next().unwrap_or_else(|| "wilson".into());
    let index = args.next().map_or(Ok(0), |i| i.parse())?;
    let algo = algo.parse()?;
    let id = MazeId::new(algo, Size::new(16, 8, 1), 42, index, Ends::Diameter);
    let level = id.level()?;
    println!("{id}");
    print!("{level}");
    println!("solution: {} steps", level.metrics().solution_length);
    Ok(())
}
