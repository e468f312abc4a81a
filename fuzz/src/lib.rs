//! Shared pieces of the fuzz targets: games built from fuzz input and oracles that never use
//! the solver.
//!
//! - [`graph`]: a small game graph (tree, DAG or cyclic) read from the input, and its value by
//!   brute force over paths (exact for every repetition rule), cross-checked by retrograde
//!   analysis under the draw rule.
//! - [`tictactoe`]: tic-tac-toe and its value for every position by negamax.
//!
//! Each target checks its properties itself and panics on a violation, which libFuzzer reports
//! as a crash with the input that caused it.

pub mod graph;
pub mod tictactoe;

use proofnum::{Player, Value};

/// Whether `attacker` forces a win in a position whose value for `mover` is `value`.
pub fn attacker_wins(value: Value, mover: Player, attacker: Player) -> bool {
    if mover == attacker {
        value == Value::Win
    } else {
        value == Value::Loss
    }
}

/// The better of two values for the same side.
pub fn better(a: Value, b: Value) -> Value {
    let rank = |v| match v {
        Value::Loss => 0,
        Value::Draw => 1,
        Value::Win => 2,
    };
    if rank(b) > rank(a) { b } else { a }
}
