//! Datasets for machine learning (`batchgen dataset-ml`): maze-dataset's tokens and array
//! layouts, canonical forms for deduplication up to symmetry, external-memory deduplication,
//! leak-free splits and the dataset card. The command that drives them is
//! `src/cmd/dataset_ml.rs`; the user's page is `src/ml/README.md`.

#[cfg(feature = "cli")]
pub mod canon;
#[cfg(feature = "cli")]
pub mod card;
#[cfg(feature = "cli")]
pub mod dedup;
#[cfg(feature = "cli")]
pub mod numpy_rng;
pub mod pixels;
#[cfg(feature = "cli")]
pub mod split;
#[cfg(feature = "cli")]
pub mod tokens;
