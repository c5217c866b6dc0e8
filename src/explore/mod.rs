//! `batchgen explore`: a local page over a fixed set of metrics files, to choose `--accept`
//! thresholds while seeing the mazes they keep. The data engine ([`data`]) holds the columns
//! in memory and runs the accept program column-wise ([`filter`]); the JSON API ([`api`]) is a
//! pure function from a request to a response; the server ([`server`]) is a small HTTP/1.1 on
//! `std::net` that serves the API and the page's embedded assets and nothing else.

pub mod api;
pub mod data;
pub mod filter;
pub mod server;
