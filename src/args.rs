//! The command line's names for the run layer's parsers and path checks
//! ([`crate::run::value`], [`crate::run::paths`]), as the subcommands and the fuzz targets use
//! them.

pub use crate::run::paths::{check_out, check_out_dir};
pub use crate::run::value::{
    braid_value, count_value, names_3d, parse_cell, parse_cell3, parse_count, parse_max_candidates,
    parse_size, parse_size3, parse_threads, resolve_ends, resolve_ends_sized, select_3d, ArgError,
    DEFAULT_SEED,
};
