//! `batchgen explore FILE|GLOB|DIR/`: serve a local page over metrics files (linked histograms,
//! brushing into an `--accept` expression, live pass rates, a gallery of the mazes that pass)
//! and its JSON API, on loopback unless told otherwise. It reads the files and writes nothing;
//! Ctrl-C stops it (exit 130).

use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;

use batchgen::explore::data::Table;
use batchgen::summary::{inputs, SummaryError};

use super::{Interrupted, UsageError};

/// Flags of `batchgen explore`.
#[derive(clap::Args, Debug)]
pub struct ExploreArgs {
    /// Metrics files, glob patterns (e.g. 'runs/*.parquet') or folders (searched recursively,
    /// e.g. a hive-partitioned dataset), as for `batchgen summary`.
    #[arg(required = true, value_name = "FILE")]
    pub inputs: Vec<PathBuf>,
    /// Port to listen on (default: a free one, chosen by the system).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16))]
    pub port: Option<u16>,
    /// Address to listen on (default 127.0.0.1). An address other than loopback needs
    /// --allow-remote: anyone who can reach it can read the files' rows.
    #[arg(long, value_name = "ADDR", value_parser = clap::value_parser!(IpAddr))]
    pub host: Option<IpAddr>,
    /// Allow a --host that is not a loopback address, and requests addressed to any host name.
    ///
    /// Without it, only requests whose Host header names localhost, a loopback address or the
    /// bound address are answered (403 otherwise), so a web page elsewhere cannot read the rows
    /// through the user's browser by pointing its own name at this address (DNS rebinding).
    #[arg(long)]
    pub allow_remote: bool,
    /// Open the page in the default browser (xdg-open / open).
    #[arg(long)]
    pub open: bool,
}

/// Run `batchgen explore`.
pub fn run(args: &ExploreArgs) -> anyhow::Result<()> {
    let host = args.host.unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
    if !host.is_loopback() && !args.allow_remote {
        return Err(UsageError::flag(
            "--host",
            &host.to_string(),
            "not a loopback address; add --allow-remote to serve the files' rows to the network",
        )
        .into());
    }
    let usage = |e: SummaryError| match e {
        SummaryError::Read { .. } => anyhow::Error::new(e),
        other => anyhow::Error::new(UsageError(other.to_string())),
    };
    // The paths as given (not necessarily UTF-8), as `summary` takes them.
    let files = inputs::resolve(&args.inputs).map_err(usage)?;
    let addr = SocketAddr::new(host, args.port.unwrap_or(0));
    let listener = TcpListener::bind(addr).map_err(|e| {
        let flag = if args.port.is_some() {
            "--port"
        } else {
            "--host"
        };
        let value = match args.port {
            Some(p) => p.to_string(),
            None => host.to_string(),
        };
        UsageError::flag(flag, &value, format!("cannot listen on {addr}: {e}"))
    })?;
    let mut table = Table::open(&files).map_err(usage)?;
    // The printed `batchgen levels` command names the inputs as they were given.
    // (A name that is not UTF-8 is shown with U+FFFD where its bytes were: such a command
    // names a file only its shell spelling could, which the page cannot print.)
    table.inputs = args
        .inputs
        .iter()
        .map(|p| std::path::Path::new(p).to_string_lossy().into_owned())
        .collect();
    let url = format!("http://{}/", listener.local_addr()?);
    crate::outln!(
        "batchgen explore: {} rows of {} file(s) at {url}  (Ctrl-C stops)",
        table.rows,
        files.len()
    )?;
    if args.open {
        let opener = if cfg!(target_os = "macos") {
            "open"
        } else {
            "xdg-open"
        };
        if std::process::Command::new(opener)
            .arg(&url)
            .spawn()
            .is_err()
        {
            crate::errln!("could not start {opener}; open {url} yourself")?;
        }
    }
    batchgen::interrupt::install().context("installing the SIGINT/SIGTERM handlers")?;
    let hosts = batchgen::explore::server::HostPolicy {
        any: args.allow_remote,
        bound: host,
    };
    batchgen::explore::server::serve(
        Arc::new(table),
        listener,
        hosts,
        batchgen::interrupt::stop_flag(),
    )
    .context("serving")?;
    let sig = batchgen::interrupt::received().unwrap_or(batchgen::interrupt::SIGINT);
    Err(Interrupted {
        signal: sig,
        message: format!("stopped by {}", batchgen::interrupt::name(sig)),
    }
    .into())
}
