//! beamr: the command-line front end. Runs programs, disassembles `.beam`
//! files, reads and exports traces.
//!
//! This file holds only the clap definitions and the dispatch; each
//! subcommand lives in `commands/<name>.rs`. A failing command prints one
//! line to stderr and exits with status 2.
#![forbid(unsafe_code)]

mod commands;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The beamr command line.
#[derive(Debug, Parser)]
#[command(name = "beamr", version, about = "A Rust runtime for BEAM files")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
enum Command {
    /// Print a module's exports and instructions in `erlc -S` notation.
    Disasm {
        /// The `.beam` file to disassemble.
        file: PathBuf,
    },
    /// Read ring-buffer trace files: dump, stats, tail, export, flame.
    Trace {
        #[command(subcommand)]
        command: commands::trace::TraceCommand,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Disasm { file } => commands::disasm::run(&file),
        Command::Trace { command } => commands::trace::run(command),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("beamr: {message}");
            ExitCode::from(2)
        }
    }
}
