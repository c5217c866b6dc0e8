//! `batchgen --list-algos` / `batchgen list-algos [--format table|json]`: every generator, its
//! texture in a line, whether it samples spanning trees uniformly and whether it makes 3D
//! mazes (`--size WxHxD`); as an aligned table or as one JSON document for scripts.

use batchgen::json;
use batchgen::Algorithm;
use serde::Serialize;

/// `list-algos --format json`.
#[derive(Serialize)]
struct List {
    algorithms: Vec<Entry>,
}

/// One generator in [`List`].
#[derive(Serialize)]
struct Entry {
    name: String,
    uniform: bool,
    #[serde(rename = "3d")]
    three_d: bool,
    texture: &'static str,
}

/// Output format of the list.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ListFormat {
    /// An aligned table (`text` is accepted too).
    #[default]
    #[value(alias = "text")]
    Table,
    /// `{"algorithms": [{"name", "uniform", "3d", "texture"}, …]}`.
    Json,
}

/// Flags of `batchgen list-algos`.
#[derive(clap::Args, Debug, Default)]
pub struct ListAlgosArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Table, value_name = "FORMAT")]
    pub format: ListFormat,
}

/// The list as text (the table the README shows) or JSON.
pub fn render(format: ListFormat) -> String {
    let algos = Algorithm::all();
    match format {
        ListFormat::Table => {
            let width = algos.iter().map(|a| a.name().len()).max().unwrap_or(0);
            let yes = |b: bool| if b { "yes" } else { "no" };
            let mut s = format!("{:width$}  {:7}  {:3}  texture\n", "algo", "uniform", "3d");
            for a in algos {
                s += &format!(
                    "{:width$}  {:7}  {:3}  {}\n",
                    a.name(),
                    yes(a.is_uniform()),
                    yes(a.supports_3d()),
                    a.description()
                );
            }
            s
        }
        ListFormat::Json => {
            let algorithms = (algos.iter())
                .map(|a| Entry {
                    name: a.name(),
                    uniform: a.is_uniform(),
                    three_d: a.supports_3d(),
                    texture: a.description(),
                })
                .collect();
            json::pretty(&List { algorithms })
        }
    }
}

/// Print the generator list to stdout.
pub fn run(args: &ListAlgosArgs) -> anyhow::Result<()> {
    super::stdio::out(render(args.format))?;
    Ok(())
}
