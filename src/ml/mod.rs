//! Datasets for machine learning (`batchgen dataset-ml`): maze-dataset's tokens and array
//! layouts, canonical forms for deduplication up to symmetry, external-memory deduplication,
//! leak-free splits and the dataset card. The command that drives them is
//! `src/cmd/dataset_ml.rs`; the user's page is `src/ml/README.md`.

pub mod canon;
pub mod card;
pub mod dedup;
pub mod numpy_rng;
pub mod pixels;
pub mod split;
pub mod tokens;
