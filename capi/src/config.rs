//! The solver's configuration (fixed at init: it decides the memory layout) and the limits
//! of one search (given to every solve call).

use core::ffi::c_void;

use proofnum_core::Progress;
use proofnum_core::dfpn::MAX_STACK_DEPTH;
use proofnum_core::{DfpnConfig, Epsilon, Limits, PnsConfig, Table};

use crate::boundary::{self, Arg, SizedStruct};
use crate::error::Error;
use crate::fail;
use crate::status::pn_status;

/// "No limit", for the limits in [`pn_limits`].
pub const PN_UNLIMITED: u64 = u64::MAX;
/// The smallest `table_bytes`: a header, one bucket of four entries and alignment slack.
pub const PN_TABLE_MIN_BYTES: usize = 191;
/// The largest `max_depth`.
pub const PN_MAX_DEPTH_LIMIT: u32 = 65534;
/// Default transposition table size: 1 MiB, 16 384 buckets of four entries.
pub const PN_DEFAULT_TABLE_BYTES: usize = 1 << 20;
/// Default deepest line, in plies: enough for most board games; a deeper line stops the
/// search with `PN_STATUS_DEPTH_LIMIT`.
pub const PN_DEFAULT_MAX_DEPTH: u32 = 128;
/// Default most moves in a position; more stops the search with `PN_STATUS_TOO_MANY_MOVES`.
pub const PN_DEFAULT_MAX_MOVES: u32 = 64;
/// Default size of the verification memo (`verify_memo_entries`): 65 536 entries, 512 KiB,
/// which remember up to 24 576 positions (two entries a position, a quarter kept free). Every
/// confirmed answer walks its whole proof, and a walk whose memo is too small for the proof's
/// positions walks each transposition again: in Connect Four, whose proofs are full of
/// transpositions, the walks of a 4096-entry memo visited several times the positions of one
/// that holds the proof. This size holds the proofs of what a default 1 MiB table solves, at
/// half the table's memory. Each walk clears its memo first, so a caller running many tiny
/// searches (a few hundred positions each) saves that time with a smaller one.
pub const PN_DEFAULT_VERIFY_MEMO_ENTRIES: usize = 1 << 16;
/// `pn_config.confirm`: every solved answer is confirmed before it is reported (the default).
pub const PN_CONFIRM: usize = 1;
/// `pn_config.confirm`: answers are reported as the search found them, unconfirmed.
pub const PN_CONFIRM_OFF: usize = 0;
/// Default node capacity of the PNS arena (`arena_nodes` of 0 means this): 1 048 576 nodes,
/// 20 bytes each (a 16-byte node and its move), so 20 MiB.
pub const PN_DEFAULT_ARENA_NODES: usize = 1 << 20;
/// Default size of PN²'s second-level region (`second_level_nodes` of 0 with
/// `PN_ENGINE_PN2` means this): 65 536 nodes (1.25 MiB).
pub const PN_DEFAULT_SECOND_LEVEL_NODES: usize = 1 << 16;
/// The most moves a position may have with `PN_ENGINE_PNS` or `PN_ENGINE_PN2` (child blocks
/// record their length in 15 bits).
pub const PN_PNS_MAX_MOVES: u32 = 32767;
/// The most nodes a PNS arena region (`arena_nodes`, `second_level_nodes`) may have: node
/// indices are 32-bit, with one value reserved for "none".
pub const PN_PNS_MAX_NODES: usize = u32::MAX as usize - 1;
/// The most worker threads `threads` may ask for (more is `PN_STATUS_INVALID_ARGUMENT`);
/// 0, one per core, is capped here too.
pub const PN_MAX_THREADS: u32 = 1024;

const _: () = assert!(PN_TABLE_MIN_BYTES == Table::MIN_BYTES);
const _: () = assert!(PN_MAX_DEPTH_LIMIT as usize == MAX_STACK_DEPTH);
const _: () = assert!(PN_MAX_DEPTH_LIMIT as usize <= proofnum_core::pns::MAX_PATH_DEPTH);
const _: () = assert!(PN_PNS_MAX_MOVES as usize == proofnum_core::pns::MAX_MOVES);

/// Which search `pn_solve` and `pn_solve_value` run (`pn_config.engine`). Every engine
/// answers the same questions with the same table, limits and results; the parallel calls
/// always run the parallel PN-DFPN, whatever the engine. `PN_ENGINE_PNS` and `PN_ENGINE_PN2`
/// need a build with them (`pn_features()` has `PN_FEATURE_PNS`; bare-metal builds leave them
/// out by default, a third of the library's flash): otherwise a config asking for one gives
/// `PN_STATUS_UNSUPPORTED`.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum pn_engine {
    /// Depth-first proof-number search (df-pn with the 1+ε trick) over the table: memory
    /// bounded by the table, the default.
    Dfpn = 0,
    /// Best-first proof-number search (Allis) over a node arena of `arena_nodes` nodes in the
    /// solver's memory. When the arena is full even after freeing solved subtrees, the search
    /// ends with `PN_STATUS_MEMORY_LIMIT`.
    Pns = 1,
    /// PN²: best-first PNS whose new leaves are evaluated by a second PNS of at most
    /// `second_level_nodes` nodes, keeping the first-level tree small.
    Pn2 = 2,
}

impl pn_engine {
    /// The engine with this value, or `InvalidArgument`.
    pub fn from_u32(value: u32) -> Result<pn_engine, pn_status> {
        match value {
            0 => Ok(pn_engine::Dfpn),
            1 => Ok(pn_engine::Pns),
            2 => Ok(pn_engine::Pn2),
            _ => Err(pn_status::InvalidArgument),
        }
    }
}

/// How a solver is built. Start from `pn_config_init` and change what you need; the
/// memory a configuration needs comes from `pn_solver_memory_requirements`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct pn_config {
    /// `sizeof(pn_config)`.
    pub struct_size: usize,
    /// Bytes of the transposition table, at least `PN_TABLE_MIN_BYTES`. More is faster on
    /// hard positions; the table is lossy, so any size gives correct answers.
    pub table_bytes: usize,
    /// Entries (8 bytes each, two a position) of the set of positions the verification walks
    /// remember, so a transposition is walked once: the walks that confirm answers (every
    /// solve call, by default), `pn_verify` and `pn_certify` (where a remembered position is
    /// also written once). 0 works, walking transpositions again; see
    /// `PN_DEFAULT_VERIFY_MEMO_ENTRIES`.
    pub verify_memo_entries: usize,
    /// The deepest line the search may follow, in plies (1 ..= `PN_MAX_DEPTH_LIMIT`).
    pub max_depth: u32,
    /// The most moves a position may have (at least 1). The stack holds `max_depth + 1`
    /// frames of up to `max_moves` children.
    pub max_moves: u32,
    /// ε of the 1+ε trick as `epsilon_numerator / epsilon_denominator`; 1/4 by default
    /// (Pawlewicz and Lew's best value for df-pn); 0/1 gives classic df-pn.
    pub epsilon_numerator: u32,
    /// See `epsilon_numerator`; must not be 0.
    pub epsilon_denominator: u32,
    /// Worker threads of the parallel calls (`std` builds), at most `PN_MAX_THREADS`; 0 means
    /// one per available core. Each thread gets its own copy of the game and its own search
    /// stack (allocated by the call, of the size `max_depth` and `max_moves` give the solver's
    /// own).
    pub threads: u32,
    /// Node capacity of the PNS arena (`PN_ENGINE_PNS` and `PN_ENGINE_PN2`; unused, and no
    /// memory reserved, with df-pn); 0 means `PN_DEFAULT_ARENA_NODES`. At most
    /// `PN_PNS_MAX_NODES`.
    pub arena_nodes: usize,
    /// Nodes of PN²'s second-level region (`PN_ENGINE_PN2` only); 0 means
    /// `PN_DEFAULT_SECOND_LEVEL_NODES`. At most `PN_PNS_MAX_NODES`.
    pub second_level_nodes: usize,
    /// The search of `pn_solve` and `pn_solve_value`, a `pn_engine`: `PN_ENGINE_DFPN` (0, the
    /// default), `PN_ENGINE_PNS` or `PN_ENGINE_PN2`. Whichever engine solved, the principal
    /// variation and `pn_verify` use df-pn over the table, and the parallel calls run the
    /// parallel PN-DFPN.
    pub engine: u32,
    /// `PN_CONFIRM` (1, the default): every solved answer of the solve calls (serial and
    /// parallel) is confirmed before it is reported, by the walk of `pn_verify`, which trusts
    /// no solved table entry and accepts only leaves the game itself scores; a refuted answer
    /// is searched again over new table keys, and one refuted every time is reported as
    /// `PN_STATUS_UNCONFIRMED`, never as an answer. `PN_CONFIRM_OFF` (0) reports answers as
    /// the search found them, for speed: the walk typically adds a few per cent to a search
    /// that keeps its proof in the table. The risk of turning it off: a false match in the
    /// table (two positions whose 64-bit table keys are equal: rare, about once in 10^10
    /// distinct positions for a good 64-bit hash) or two positions the game's `hash` does not
    /// tell apart can make a search report a wrong PROVEN or DISPROVEN, with nothing to warn
    /// of it. Over a table from `pn_table_load` answers are confirmed whatever this says.
    /// Any other value is `PN_STATUS_INVALID_ARGUMENT`. Configs of the earlier versions (a
    /// smaller `struct_size`, without this field) confirm. A `size_t` so that it begins where
    /// the previous version of the struct ended, on every target.
    pub confirm: usize,
}

// SAFETY: `#[repr(C)]`, `struct_size: usize` first, and only integer fields; the older sizes
// are offsets of fields (the first version ended with `threads` and its tail padding, which
// is where `arena_nodes` begins, the second with `engine` and its tail padding, where `confirm`
// begins: each version's new fields start on a `usize` boundary so that no field lies in the
// previous version's padding).
unsafe impl SizedStruct for pn_config {
    const OLDER_SIZES: &'static [usize] = &[
        core::mem::offset_of!(pn_config, arena_nodes),
        core::mem::offset_of!(pn_config, confirm),
    ];
}

/// Which searcher the solve calls use, with its settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SerialEngine {
    /// Df-pn only.
    Dfpn,
    /// PNS or PN² over an arena of `nodes` nodes.
    Pns {
        /// First-level nodes of the arena.
        nodes: usize,
        /// The PNS settings (PN²'s second-level region included).
        config: PnsConfig,
        /// That this build has the engines (see [`PnsBuilt`]).
        built: PnsBuilt,
    },
}

/// `()` in builds with the PNS and PN² engines (the `pns` feature), an uninhabited type in
/// the others: there [`SerialEngine::Pns`] cannot exist, so the compiler drops every path
/// that handles it, and with them the engines (a third of a bare-metal program's flash).
#[cfg(feature = "pns")]
pub type PnsBuilt = ();
/// See the other definition.
#[cfg(not(feature = "pns"))]
pub type PnsBuilt = core::convert::Infallible;

/// The engines' token in builds that have them; `Unsupported` in the others.
fn pns_built() -> Result<PnsBuilt, pn_status> {
    #[cfg(feature = "pns")]
    return Ok(());
    #[cfg(not(feature = "pns"))]
    return Err(pn_status::Unsupported);
}

/// A configuration checked for range.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Bytes of the table.
    pub table_bytes: usize,
    /// Entries of the verification memo.
    pub verify_memo_entries: usize,
    /// Deepest line.
    pub max_depth: usize,
    /// Most moves in a position.
    pub max_moves: usize,
    /// The df-pn settings.
    pub dfpn: DfpnConfig,
    /// Worker threads (0: one per core).
    pub threads: u32,
    /// The solve calls' searcher.
    pub engine: SerialEngine,
    /// Whether answers are confirmed before they are reported (over a trusted table; over a
    /// loaded one they always are).
    pub confirm: bool,
}

impl pn_config {
    /// The defaults.
    pub(crate) const DEFAULT: pn_config = pn_config {
        struct_size: core::mem::size_of::<pn_config>(),
        table_bytes: PN_DEFAULT_TABLE_BYTES,
        verify_memo_entries: PN_DEFAULT_VERIFY_MEMO_ENTRIES,
        max_depth: PN_DEFAULT_MAX_DEPTH,
        max_moves: PN_DEFAULT_MAX_MOVES,
        epsilon_numerator: 1,
        epsilon_denominator: 4,
        threads: 0,
        arena_nodes: PN_DEFAULT_ARENA_NODES,
        second_level_nodes: PN_DEFAULT_SECOND_LEVEL_NODES,
        engine: pn_engine::Dfpn as u32,
        confirm: PN_CONFIRM,
    };

    /// Whether answers are to be confirmed: as `confirm` says, and always for the versions of
    /// the struct before it (`struct_size` ends before the field).
    fn confirms(&self) -> Result<bool, Error> {
        if self.struct_size <= core::mem::offset_of!(pn_config, confirm) {
            return Ok(true);
        }
        match self.confirm {
            PN_CONFIRM => Ok(true),
            PN_CONFIRM_OFF => Ok(false),
            other => Err(fail!(
                pn_status::InvalidArgument,
                "config.confirm is {other}; expected 1 (PN_CONFIRM) or 0 (PN_CONFIRM_OFF)"
            )),
        }
    }

    /// Checks every field's range; an error names the field, its value and the range allowed.
    pub(crate) fn settings(&self) -> Result<Settings, Error> {
        let invalid = pn_status::InvalidArgument;
        let epsilon =
            Epsilon::new(self.epsilon_numerator, self.epsilon_denominator).ok_or_else(|| {
                fail!(
                    invalid,
                    "config.epsilon_denominator is 0 (epsilon {}/0); expected 1 to {}",
                    self.epsilon_numerator,
                    u32::MAX
                )
            })?;
        if self.table_bytes < PN_TABLE_MIN_BYTES {
            return Err(fail!(
                invalid,
                "config.table_bytes is {}; at least {PN_TABLE_MIN_BYTES} (PN_TABLE_MIN_BYTES) \
                 needed",
                self.table_bytes
            ));
        }
        if !(1..=PN_MAX_DEPTH_LIMIT).contains(&self.max_depth) {
            return Err(fail!(
                invalid,
                "config.max_depth is {}; expected 1 to {PN_MAX_DEPTH_LIMIT} (PN_MAX_DEPTH_LIMIT)",
                self.max_depth
            ));
        }
        // The searcher keeps (max_depth + 1) * max_moves child slots with 32-bit indices.
        let most_moves = u32::MAX as u64 / (self.max_depth as u64 + 1);
        if self.max_moves == 0 || self.max_moves as u64 > most_moves {
            return Err(fail!(
                invalid,
                "config.max_moves is {}; expected 1 to {most_moves} (with config.max_depth {})",
                self.max_moves,
                self.max_depth
            ));
        }
        if self.threads > PN_MAX_THREADS {
            return Err(fail!(
                invalid,
                "config.threads is {}; expected 0 (one per core) to {PN_MAX_THREADS} \
                 (PN_MAX_THREADS)",
                self.threads
            ));
        }
        let or_default = |nodes: usize, default: usize| if nodes == 0 { default } else { nodes };
        let arena_nodes = or_default(self.arena_nodes, PN_DEFAULT_ARENA_NODES);
        let unbuilt = || {
            fail!(
                pn_status::Unsupported,
                "config.engine is {} (PN_ENGINE_PNS or PN_ENGINE_PN2), which this build \
                 leaves out (its pns feature); PN_ENGINE_DFPN (0) is always there",
                self.engine
            )
        };
        let engine = match pn_engine::from_u32(self.engine).map_err(|_| {
            fail!(
                invalid,
                "config.engine is {}; expected 0 (PN_ENGINE_DFPN), 1 (PN_ENGINE_PNS) or 2 \
                 (PN_ENGINE_PN2)",
                self.engine
            )
        })? {
            pn_engine::Dfpn => SerialEngine::Dfpn,
            pn_engine::Pns => SerialEngine::Pns {
                nodes: arena_nodes,
                config: PnsConfig::PNS,
                built: pns_built().map_err(|_| unbuilt())?,
            },
            pn_engine::Pn2 => SerialEngine::Pns {
                nodes: arena_nodes,
                config: PnsConfig::pn2(or_default(
                    self.second_level_nodes,
                    PN_DEFAULT_SECOND_LEVEL_NODES,
                )),
                built: pns_built().map_err(|_| unbuilt())?,
            },
        };
        if let SerialEngine::Pns { nodes, config, .. } = engine {
            if self.max_moves > PN_PNS_MAX_MOVES {
                return Err(fail!(
                    invalid,
                    "config.max_moves is {}; expected 1 to {PN_PNS_MAX_MOVES} \
                     (PN_PNS_MAX_MOVES) with PN_ENGINE_PNS and PN_ENGINE_PN2",
                    self.max_moves
                ));
            }
            if nodes > PN_PNS_MAX_NODES {
                return Err(fail!(
                    invalid,
                    "config.arena_nodes is {nodes}; expected 0 (the default) to \
                     {PN_PNS_MAX_NODES} (PN_PNS_MAX_NODES)"
                ));
            }
            if config.second_level_nodes > PN_PNS_MAX_NODES {
                return Err(fail!(
                    invalid,
                    "config.second_level_nodes is {}; expected 0 (the default) to \
                     {PN_PNS_MAX_NODES} (PN_PNS_MAX_NODES)",
                    config.second_level_nodes
                ));
            }
        }
        Ok(Settings {
            table_bytes: self.table_bytes,
            verify_memo_entries: self.verify_memo_entries,
            max_depth: self.max_depth as usize,
            max_moves: self.max_moves as usize,
            dfpn: DfpnConfig {
                epsilon,
                ..Default::default()
            },
            threads: self.threads,
            engine,
            confirm: self.confirms()?,
        })
    }
}

/// Fills `*config` with the default configuration, in the version of the struct its
/// `struct_size` names: set `config->struct_size = sizeof(pn_config)` first. The defaults:
/// df-pn, a 1 MiB table, a 65 536-entry (512 KiB) verification memo, lines of up to 128
/// plies, up to 64 moves per position, ε = 1/4, one thread per core for the parallel calls,
/// every answer confirmed (and, for `PN_ENGINE_PNS` or `PN_ENGINE_PN2`, the default arena
/// sizes). Only that version's fields are written (`struct_size` is kept), so a program built
/// against this header keeps working with later libraries, whose struct may have grown: this
/// is the way to start a configuration (there is no function returning one by value, since a
/// struct returned by value cannot grow). `PN_STATUS_NULL_POINTER`, `MISALIGNED` or
/// `BAD_STRUCT_SIZE` otherwise, with nothing written.
///
/// # Safety
/// `config` is NULL, or aligned with its `struct_size` readable and writable for the
/// `struct_size` bytes when that is a size of `pn_config` this library knows.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pn_config_init(config: *mut pn_config) -> pn_status {
    boundary::guard(|| {
        // SAFETY: forwarded from the caller.
        let out = unsafe { boundary::out_struct(config)? };
        out.write(pn_config::DEFAULT);
        Ok(())
    })
}

/// A monotonic clock for time limits: microseconds since any fixed point. It must not fail,
/// unwind or longjmp.
pub type pn_clock_fn = Option<unsafe extern "C" fn(ctx: *mut c_void) -> u64>;

/// A snapshot of a running search, handed to the limits' `progress` callback.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct pn_progress {
    /// `sizeof(pn_progress)`, set by the library: fields are only ever added at the end.
    pub struct_size: usize,
    /// Interior node visits (MID calls) so far.
    pub mid_calls: u64,
    /// Positions evaluated so far.
    pub nodes: u64,
    /// Deepest ply reached so far.
    pub max_depth: u64,
    /// Microseconds since the search began on the limits' clock; 0 without a clock.
    pub elapsed_us: u64,
    /// The root's proof number for its side to move: how many leaves must still be solved to
    /// show it wins (0: it does; `UINT32_MAX`: it does not).
    pub root_phi: u32,
    /// The root's disproof number for its side to move.
    pub root_delta: u32,
}

impl From<&Progress> for pn_progress {
    fn from(p: &Progress) -> pn_progress {
        pn_progress {
            struct_size: core::mem::size_of::<pn_progress>(),
            mid_calls: p.mid_calls,
            nodes: p.nodes,
            max_depth: p.max_depth as u64,
            elapsed_us: p.elapsed_us.unwrap_or(0),
            root_phi: p.root.phi,
            root_delta: p.root.delta,
        }
    }
}

/// Called with a snapshot every 1024 search steps, for progress displays. It must not unwind
/// or longjmp, and may call only `pn_solver_stop` on the solver.
pub type pn_progress_fn =
    Option<unsafe extern "C" fn(ctx: *mut c_void, progress: *const pn_progress)>;

/// The budget of one solve call. Start from `pn_limits_default()` (no limit); passing NULL
/// for the limits means the same.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct pn_limits {
    /// `sizeof(pn_limits)`.
    pub struct_size: usize,
    /// Stop with `PN_STATUS_NODE_LIMIT` after evaluating this many positions;
    /// `PN_UNLIMITED` for no limit.
    pub max_nodes: u64,
    /// Stop with `PN_STATUS_TIME_LIMIT` once `clock` has advanced this many microseconds;
    /// `PN_UNLIMITED` for no limit. A time limit needs a clock, except in the parallel calls,
    /// which measure wall time with the system's monotonic clock.
    pub max_time_us: u64,
    /// The clock for `max_time_us`, polled every 1024 search steps; may be NULL without a
    /// time limit. The parallel calls never call it.
    pub clock: pn_clock_fn,
    /// Passed to `clock`.
    pub clock_ctx: *mut c_void,
    /// Optional progress reports. The parallel calls make them from their worker threads,
    /// one call at a time, at most every 100 ms, with `max_depth` 0.
    pub progress: pn_progress_fn,
    /// Passed to `progress`.
    pub progress_ctx: *mut c_void,
}

// SAFETY: `#[repr(C)]`, `struct_size: usize` first; integers, an optional function pointer
// and a raw pointer are valid for every bit pattern.
unsafe impl SizedStruct for pn_limits {}

impl pn_limits {
    /// No limit.
    pub(crate) const NONE: pn_limits = pn_limits {
        struct_size: core::mem::size_of::<pn_limits>(),
        max_nodes: PN_UNLIMITED,
        max_time_us: PN_UNLIMITED,
        clock: None,
        clock_ctx: core::ptr::null_mut(),
        progress: None,
        progress_ctx: core::ptr::null_mut(),
    };

    /// Reads optional limits from C for a serial search: NULL is no limit, and a time limit
    /// needs a clock.
    ///
    /// # Safety
    /// As [`boundary::read_input`].
    pub(crate) unsafe fn read(ptr: *const pn_limits) -> Result<pn_limits, Error> {
        // SAFETY: forwarded from the caller.
        let limits = unsafe { pn_limits::read_any(ptr)? };
        if limits.max_time_us != PN_UNLIMITED && limits.clock.is_none() {
            return Err(fail!(
                pn_status::InvalidArgument,
                "limits->max_time_us is {} but limits->clock is NULL; a time limit needs a \
                 clock (or max_time_us = PN_UNLIMITED)",
                limits.max_time_us
            ));
        }
        Ok(limits)
    }

    /// Reads optional limits from C, NULL being no limit, without the serial searches' check
    /// that a time limit has a clock.
    ///
    /// # Safety
    /// As [`boundary::read_input`].
    pub(crate) unsafe fn read_any(ptr: *const pn_limits) -> Result<pn_limits, Error> {
        if ptr.is_null() {
            return Ok(pn_limits::NONE);
        }
        // SAFETY: forwarded from the caller, who also makes the first `size_t` readable for
        // the error's message.
        unsafe { boundary::read_input(ptr).struct_arg(ptr, "limits") }
    }

    /// Runs `body` with these limits as the core's [`Limits`], polling `stop`.
    pub fn with<R>(
        &self,
        stop: &core::sync::atomic::AtomicBool,
        body: impl FnOnce(&mut Limits<'_>) -> R,
    ) -> R {
        let (clock, ctx) = (self.clock, self.clock_ctx);
        let mut tick = move || match clock {
            // SAFETY: the caller of the solve call promised that `clock` may be called with
            // `clock_ctx` from this thread for the duration of the call.
            Some(f) => unsafe { f(ctx) },
            None => 0,
        };
        let mut limits = Limits {
            max_nodes: self.max_nodes,
            max_time_us: self.max_time_us,
            stop: Some(stop),
            clock: None,
            ..Limits::none()
        };
        let (progress, progress_ctx) = (self.progress, self.progress_ctx);
        let mut report = move |p: &Progress| {
            if let Some(f) = progress {
                let snapshot = pn_progress::from(p);
                // SAFETY: the caller of the solve call promised that `progress` may be called
                // with `progress_ctx` from this thread during the call; the snapshot lives
                // across the call.
                unsafe { f(progress_ctx, &snapshot) }
            }
        };
        if clock.is_some() {
            limits.clock = Some(&mut tick);
        }
        if progress.is_some() {
            limits.progress = Some(&mut report);
        }
        body(&mut limits)
    }
}

/// No limit: `PN_UNLIMITED` nodes and time, no clock.
#[unsafe(no_mangle)]
pub extern "C" fn pn_limits_default() -> pn_limits {
    pn_limits::NONE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_init_fills_the_callers_version_of_the_struct() {
        let mut c = pn_config {
            struct_size: core::mem::size_of::<pn_config>(),
            table_bytes: 7,
            ..pn_config::DEFAULT
        };
        // SAFETY: a valid local.
        assert_eq!(unsafe { pn_config_init(&mut c) }, pn_status::Ok);
        assert_eq!(c, pn_config::DEFAULT);
        // A caller of the second version: `confirm` is not its memory and stays as it was.
        let v2 = core::mem::offset_of!(pn_config, confirm);
        let mut old = pn_config {
            struct_size: v2,
            table_bytes: 7,
            confirm: 99,
            ..pn_config::DEFAULT
        };
        // SAFETY: as above.
        assert_eq!(unsafe { pn_config_init(&mut old) }, pn_status::Ok);
        assert_eq!(
            (old.struct_size, old.table_bytes, old.confirm),
            (v2, PN_DEFAULT_TABLE_BYTES, 99)
        );
        old.struct_size = 3;
        // SAFETY: as above; the size is refused before anything is written.
        assert_eq!(
            unsafe { pn_config_init(&mut old) },
            pn_status::BadStructSize
        );
        // SAFETY: NULL is refused.
        assert_eq!(
            unsafe { pn_config_init(core::ptr::null_mut()) },
            pn_status::NullPointer
        );
    }

    #[test]
    fn defaults_are_valid_and_ranges_are_checked() {
        let c = pn_config::DEFAULT;
        let s = c.settings().unwrap();
        assert_eq!(s.dfpn, DfpnConfig::default());
        assert_eq!(s.engine, SerialEngine::Dfpn);
        // A df-pn solver may have more moves than PNS allows: its arena is never built.
        let many = pn_config {
            max_moves: PN_PNS_MAX_MOVES + 1,
            ..c
        };
        assert_eq!(many.settings().unwrap().engine, SerialEngine::Dfpn);
        let pn2 = pn_config {
            engine: pn_engine::Pn2 as u32,
            arena_nodes: 0,
            second_level_nodes: 0,
            ..c
        };
        #[cfg(feature = "pns")]
        assert_eq!(
            pn2.settings().unwrap().engine,
            SerialEngine::Pns {
                nodes: PN_DEFAULT_ARENA_NODES,
                config: PnsConfig::pn2(PN_DEFAULT_SECOND_LEVEL_NODES),
                built: (),
            },
            "0 means the defaults"
        );
        // Without the engines, any PNS or PN² config is unsupported, in range or not.
        #[cfg(not(feature = "pns"))]
        assert_eq!(
            pn2.settings().err().map(|e| e.status),
            Some(pn_status::Unsupported)
        );
        let pns_out_of_range = if cfg!(feature = "pns") {
            pn_status::InvalidArgument
        } else {
            pn_status::Unsupported
        };
        for bad in [
            pn_config {
                epsilon_denominator: 0,
                ..c
            },
            pn_config { max_moves: 0, ..c },
            pn_config { max_depth: 0, ..c },
            pn_config {
                max_depth: PN_MAX_DEPTH_LIMIT + 1,
                ..c
            },
            pn_config {
                table_bytes: PN_TABLE_MIN_BYTES - 1,
                ..c
            },
            pn_config { engine: 3, ..c },
            pn_config { confirm: 2, ..c },
        ] {
            assert_eq!(
                bad.settings().err().map(|e| e.status),
                Some(pn_status::InvalidArgument)
            );
        }
        for bad in [
            pn_config {
                engine: pn_engine::Pns as u32,
                max_moves: PN_PNS_MAX_MOVES + 1,
                ..c
            },
            pn_config {
                engine: pn_engine::Pn2 as u32,
                second_level_nodes: PN_PNS_MAX_NODES + 1,
                ..c
            },
        ] {
            assert_eq!(
                bad.settings().err().map(|e| e.status),
                Some(pns_out_of_range)
            );
        }
    }

    #[test]
    fn an_earlier_versions_config_is_dfpn_and_confirms() {
        // A caller of the first version (up to `threads`) or the second (up to `engine`):
        // pn_config_init fills its fields only, and read back, the fields beyond its
        // `struct_size` read as zero, which is df-pn with the default arenas and, for
        // `confirm`, "confirm" (zero is "off" only where the caller could write it).
        for size in [
            core::mem::offset_of!(pn_config, arena_nodes),
            core::mem::offset_of!(pn_config, confirm),
        ] {
            let mut c = pn_config {
                struct_size: size,
                arena_nodes: 5,
                second_level_nodes: 5,
                engine: pn_engine::Pn2 as u32,
                confirm: PN_CONFIRM_OFF,
                ..pn_config::DEFAULT
            };
            // SAFETY: a valid local, larger than the size it names.
            assert_eq!(unsafe { pn_config_init(&mut c) }, pn_status::Ok);
            // SAFETY: as above; `read_input` reads only `struct_size` bytes.
            let read = unsafe { boundary::read_input(&c as *const pn_config) }.unwrap();
            let settings = read.settings().unwrap();
            assert_eq!(read.struct_size, size);
            assert_eq!(read.confirm, 0, "beyond the caller's struct: read as zero");
            assert!(
                settings.confirm,
                "an earlier version's answers are confirmed"
            );
            if size == core::mem::offset_of!(pn_config, arena_nodes) {
                assert_eq!((read.engine, read.arena_nodes), (0, 0));
                assert_eq!(settings.engine, SerialEngine::Dfpn);
            } else {
                assert_eq!(read.arena_nodes, PN_DEFAULT_ARENA_NODES, "written by init");
            }
        }
        let off = pn_config {
            confirm: PN_CONFIRM_OFF,
            ..pn_config::DEFAULT
        };
        assert!(!off.settings().unwrap().confirm);
        assert!(pn_config::DEFAULT.settings().unwrap().confirm);
    }

    #[test]
    fn a_time_limit_needs_a_clock() {
        let l = pn_limits {
            max_time_us: 5,
            ..pn_limits::NONE
        };
        // SAFETY: a valid pointer to a local.
        assert_eq!(
            unsafe { pn_limits::read(&l) }.err().map(|e| e.status),
            Some(pn_status::InvalidArgument)
        );
        // SAFETY: NULL means no limit.
        let none = unsafe { pn_limits::read(core::ptr::null()) }.unwrap();
        assert_eq!(none.max_nodes, PN_UNLIMITED);
    }
}
