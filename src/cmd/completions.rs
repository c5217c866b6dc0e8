//! `batchgen completions SHELL`: a completion script for bash, zsh, fish or PowerShell on
//! stdout, generated from the same clap definitions the binary parses with (clap_complete), so
//! it always knows every subcommand and flag. Install e.g. with
//! `batchgen completions bash > ~/.local/share/bash-completion/completions/batchgen`.

use clap_complete::Shell;

/// Flags of `batchgen completions`.
#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish or powershell.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: CompletionShell,
}

/// The shells a script is generated for.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionShell {
    /// Bash.
    Bash,
    /// Zsh.
    Zsh,
    /// Fish.
    Fish,
    /// PowerShell.
    Powershell,
}

impl CompletionShell {
    fn shell(self) -> Shell {
        match self {
            CompletionShell::Bash => Shell::Bash,
            CompletionShell::Zsh => Shell::Zsh,
            CompletionShell::Fish => Shell::Fish,
            CompletionShell::Powershell => Shell::PowerShell,
        }
    }
}

/// Write the script for `cmd` (the whole command line definition) to stdout.
pub fn run(args: &CompletionsArgs, mut cmd: clap::Command) -> anyhow::Result<()> {
    // Into memory first: clap_complete panics when its writer fails.
    let mut script = Vec::new();
    clap_complete::generate(args.shell.shell(), &mut cmd, "batchgen", &mut script);
    super::stdio::out(script)?;
    Ok(())
}
