//! Why a run was refused: [`RunError`] names the run's fields ([`Field`]), and renders them as
//! the front end that asked calls them ([`Names`]): `count` from Python and in the library's
//! own messages, `--count` on the command line. A reason that mentions another field (`drop
//! size or give 8x8`) holds that field, not its spelling ([`Reason`]).

use std::fmt;

/// A field of a [`super::RunSpec`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Field {
    /// The generators.
    Algo,
    /// The grid size.
    Size,
    /// The mask every maze fills.
    Mask,
    /// Mazes per generator.
    Count,
    /// The master seed.
    Seed,
    /// Worker threads.
    Threads,
    /// The ends rule.
    Ends,
    /// The entrance cell.
    Entrance,
    /// The exit cell.
    Exit,
    /// The filter.
    Accept,
    /// The candidate limit of a filter.
    MaxCandidates,
    /// The braid chance.
    Braid,
    /// The shard.
    Shard,
    /// The metrics output.
    Out,
    /// The maze store output.
    Mazes,
    /// Run random walks expected to take hours.
    NoTimeLimit,
    /// The cell shape (square, hex, triangle, polar).
    Grid,
}

impl Field {
    /// The field's name, as the library and Python call it (`max_candidates`).
    pub fn name(self) -> &'static str {
        match self {
            Field::Algo => "algo",
            Field::Size => "size",
            Field::Mask => "mask",
            Field::Count => "count",
            Field::Seed => "seed",
            Field::Threads => "threads",
            Field::Ends => "ends",
            Field::Entrance => "entrance",
            Field::Exit => "exit",
            Field::Accept => "accept",
            Field::MaxCandidates => "max_candidates",
            Field::Braid => "braid",
            Field::Shard => "shard",
            Field::Out => "out",
            Field::Mazes => "mazes",
            Field::NoTimeLimit => "no_time_limit",
            Field::Grid => "grid",
        }
    }

    /// The command line's flag for the field (`--max-candidates`).
    pub fn flag(self) -> &'static str {
        match self {
            Field::Algo => "--algo",
            Field::Size => "--size",
            Field::Mask => "--mask",
            Field::Count => "--count",
            Field::Seed => "--seed",
            Field::Threads => "--threads",
            Field::Ends => "--ends",
            Field::Entrance => "--entrance",
            Field::Exit => "--exit",
            Field::Accept => "--accept",
            Field::MaxCandidates => "--max-candidates",
            Field::Braid => "--braid",
            Field::Shard => "--shard",
            Field::Out => "--out",
            Field::Mazes => "--mazes",
            Field::NoTimeLimit => "--no-time-limit",
            Field::Grid => "--grid",
        }
    }
}

/// How a message spells the fields it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Names {
    /// `size`, `max_candidates` (the library, Python).
    Fields,
    /// `--size`, `--max-candidates` (the command line).
    Flags,
}

impl Names {
    /// `field` as spelt here.
    pub fn of(self, field: Field) -> &'static str {
        match self {
            Names::Fields => field.name(),
            Names::Flags => field.flag(),
        }
    }
}

/// A piece of a [`Reason`].
#[derive(Clone, Debug, PartialEq)]
enum Piece {
    Text(String),
    Field(Field),
}

/// A reason's text, with the fields it names kept as fields.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Reason(Vec<Piece>);

impl Reason {
    /// A reason starting with `text`.
    pub fn text(text: impl Into<String>) -> Reason {
        Reason(vec![Piece::Text(text.into())])
    }

    /// The reason followed by `field`'s name.
    pub fn field(mut self, field: Field) -> Reason {
        self.0.push(Piece::Field(field));
        self
    }

    /// The reason followed by `text`.
    pub fn then(mut self, text: impl Into<String>) -> Reason {
        self.0.push(Piece::Text(text.into()));
        self
    }

    /// The text, fields spelt as `names` says.
    pub fn render(&self, names: Names) -> String {
        self.0
            .iter()
            .map(|p| match p {
                Piece::Text(t) => t.as_str(),
                Piece::Field(f) => names.of(*f),
            })
            .collect()
    }
}

impl From<String> for Reason {
    fn from(text: String) -> Reason {
        Reason::text(text)
    }
}

impl From<&str> for Reason {
    fn from(text: &str) -> Reason {
        Reason::text(text)
    }
}

/// A run refused before any work.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    /// A field's value does not parse, is out of range or does not fit the other fields.
    #[error("{}", self.message(Names::Fields))]
    Value {
        /// The field.
        field: Field,
        /// Its value, as text.
        value: String,
        /// What is wrong with it.
        why: Reason,
    },
    /// Fields that cannot be combined; the message says which and what to do.
    #[error("{}", self.message(Names::Fields))]
    Conflict(Reason),
}

impl RunError {
    /// A bad `value` of `field`.
    pub fn value(field: Field, value: impl fmt::Display, why: impl Into<Reason>) -> RunError {
        RunError::Value {
            field,
            value: value.to_string(),
            why: why.into(),
        }
    }

    /// A value parser's error for `field` (its name replaced by the field's).
    pub fn of_arg(field: Field, e: ArgError) -> RunError {
        match e {
            ArgError::Value { value, why, .. } => RunError::value(field, value, why),
            ArgError::Conflict(why) => RunError::Conflict(why.into()),
        }
    }

    /// The field the error is about (`None` for a conflict).
    pub fn field(&self) -> Option<Field> {
        match self {
            RunError::Value { field, .. } => Some(*field),
            RunError::Conflict(_) => None,
        }
    }

    /// The error as a value parser's, fields spelt as `names` says.
    pub fn to_arg(&self, names: Names) -> ArgError {
        match self {
            RunError::Value { field, value, why } => {
                ArgError::new(names.of(*field), value, why.render(names))
            }
            RunError::Conflict(why) => ArgError::Conflict(why.render(names)),
        }
    }

    /// The message, fields spelt as `names` says:
    /// `invalid value 'VALUE' for 'FIELD': WHY`, or the conflict's text.
    pub fn message(&self, names: Names) -> String {
        match self {
            RunError::Value { field, value, why } => format!(
                "invalid value '{value}' for '{}': {}",
                names.of(*field),
                why.render(names)
            ),
            RunError::Conflict(why) => why.render(names),
        }
    }
}

/// A bad value for a named option, found before any work.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArgError {
    /// A value that does not parse or is out of range; displayed as
    /// `invalid value 'VALUE' for 'FLAG': WHY`.
    #[error("invalid value '{value}' for '{flag}': {why}")]
    Value {
        /// The flag, e.g. `--size`.
        flag: String,
        /// The text given.
        value: String,
        /// What is wrong with it.
        why: String,
    },
    /// Flags that cannot be combined; the message says which and what to do.
    #[error("{0}")]
    Conflict(String),
}

impl ArgError {
    /// An error for `flag` with `value`.
    pub fn new(flag: &str, value: &str, why: impl std::fmt::Display) -> ArgError {
        ArgError::Value {
            flag: flag.to_string(),
            value: value.to_string(),
            why: why.to_string(),
        }
    }
}
