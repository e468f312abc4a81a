//! The C ABI driven by a fuzzed game whose callbacks misbehave on the input's say.
//!
//! The input gives a game graph (as in the `oracle` target), a configuration (any values,
//! invalid ones included), a repetition rule (or garbage), an optional missing callback, and a
//! plan of faults: at chosen callback calls, a callback returns an error, writes an
//! out-of-range side or outcome, writes no move count, reports more moves than the buffer
//! holds, or lists moves the position does not have (a lie). The target calls
//! `pn_solver_memory_requirements`, `pn_solver_init`, `pn_solve_value`, `pn_solve`,
//! `pn_verify`, `pn_principal_variation` and, on some inputs, `pn_solve_value_parallel`.
//!
//! Properties: no panic and no undefined behaviour (libFuzzer's build checks memory with its
//! sanitizer); every status is a documented `pn_status`, never `PN_STATUS_INTERNAL_ERROR`;
//! the first misbehaviour of a call decides its status (`CALLBACK_FAILED`,
//! `CALLBACK_INVALID`, `TOO_MANY_MOVES`); without one, the call succeeds or ends on a limit
//! its settings allow, and every answer agrees with brute force: the value, each attacker's
//! proof or disproof, `pn_verify` (the true claim verifies, the false one is refuted), and the
//! principal variation is a line of legal moves. After a lie, only the first two hold.
//!
//! On the input's say (read last, so that older inputs mean what they meant), the game
//! also declares dominance with the trivial classes, true of every game: each position its
//! own class (`class_hash` is its hash) with one material (0), so `material_at_least` answers
//! 1. Its faults: an error from any of the three, `material_at_least` writing garbage or
//! nothing (`CALLBACK_INVALID`); with `PN_REPETITION_BY_POSITION` the three are
//! `INVALID_ARGUMENT`.
#![no_main]

use core::ffi::{c_int, c_void};
use core::ptr::null_mut;
use std::mem::size_of;

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use proofnum::{Player, Value};
use proofnum_capi::config::{PN_UNLIMITED, pn_config_init};
use proofnum_capi::game::pn_repetition;
use proofnum_capi::parallel::pn_solve_value_parallel;
use proofnum_capi::proof::{pn_principal_variation, pn_verify};
use proofnum_capi::result::pn_result;
use proofnum_capi::{
    pn_config, pn_game, pn_limits, pn_outcome, pn_solve, pn_solve_value, pn_solver, pn_solver_init,
    pn_solver_memory_requirements, pn_status,
};
use proofnum_fuzz::attacker_wins;
use proofnum_fuzz::graph::{Graph, MAX_CHILDREN, Rule};

/// The deepest line of these graphs (24 plies without cycles, 11 with) fits in this.
const DEEP_ENOUGH: u32 = 32;
/// Larger solvers are not worth an execution.
const MAX_SOLVER_BYTES: usize = 8 << 20;
/// Callback calls within which faults are planned.
const FAULT_HORIZON: u32 = 400;

/// How a callback misbehaves at a planned call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    /// Return a non-zero code.
    Fail,
    /// Write an out-of-range side, outcome or repetition value (others: fail).
    Garbage(u32),
    /// Return 0 without writing the value (a hash or estimate then fails instead).
    Silent,
    /// `generate_moves`: report more moves than the buffer holds (others: fail).
    Overflow(u32),
    /// `generate_moves`: list moves from the input instead of the position's (others: fail).
    Lie(u32),
}

/// A misbehaviour the library must report, as the status it must report it with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    Failed,
    Invalid,
    TooMany,
}

impl Event {
    fn status(self) -> pn_status {
        match self {
            Event::Failed => pn_status::CallbackFailed,
            Event::Invalid => pn_status::CallbackInvalid,
            Event::TooMany => pn_status::TooManyMoves,
        }
    }
}

/// The game's context: plain data (a byte copy is a valid copy for `copy_size`).
#[derive(Clone, Copy)]
struct Ctx<'a> {
    graph: &'a Graph,
    /// Faults by callback call number, sorted.
    faults: &'a [(u32, Fault)],
    at: usize,
    calls: u32,
    /// The first misbehaviour in the current call.
    first: Option<Event>,
    /// The first error or out-of-range value in the current call: the adapter keeps it even
    /// when it came after too many moves, which the solver only sees when it next looks.
    first_failure: Option<Event>,
    /// The game has lied about its moves: answers may be wrong from here on.
    lied: bool,
}

impl Ctx<'_> {
    /// Counts a callback call and returns the fault planned for it.
    fn fault(&mut self) -> Option<Fault> {
        let call = self.calls;
        self.calls += 1;
        self.faults
            .iter()
            .find(|(at, _)| *at == call)
            .map(|(_, f)| *f)
    }

    fn event(&mut self, event: Event) {
        self.first.get_or_insert(event);
        if event != Event::TooMany {
            self.first_failure.get_or_insert(event);
        }
    }

    /// Returns the non-zero code of a failing callback.
    fn fail(&mut self) -> c_int {
        self.event(Event::Failed);
        1
    }
}

/// The context behind `ctx`.
///
/// # Safety
/// `ctx` is the `Ctx` the target passed (or a copy of it) and no other reference to it is live.
unsafe fn ctx<'c>(ctx: *mut c_void) -> &'c mut Ctx<'c> {
    // SAFETY: the caller's promise; the library calls each context from one thread at a time.
    unsafe { &mut *(ctx as *mut Ctx<'c>) }
}

unsafe extern "C" fn side_to_move(c: *mut c_void, out: *mut u32) -> c_int {
    // SAFETY: the library passes the game's context and a writable `uint32_t`.
    let (c, out) = unsafe { (ctx(c), &mut *out) };
    match c.fault() {
        None => {
            *out = c.graph.nodes[c.at].mover.index() as u32;
            0
        }
        Some(Fault::Garbage(x)) => {
            *out = 2u32.saturating_add(x);
            c.event(Event::Invalid);
            0
        }
        Some(Fault::Silent) => {
            c.event(Event::Invalid);
            0
        }
        Some(_) => c.fail(),
    }
}

unsafe extern "C" fn hash(c: *mut c_void, out: *mut u64) -> c_int {
    // SAFETY: as in `side_to_move`.
    let (c, out) = unsafe { (ctx(c), &mut *out) };
    match c.fault() {
        None => {
            *out = c.graph.nodes[c.at].hash;
            0
        }
        Some(_) => c.fail(),
    }
}

/// An outcome callback's garbage: `PROVEN`, `DISPROVEN` (outcomes of a search, not of a
/// position) or a value no outcome has.
fn bad_outcome(x: u32) -> u32 {
    match x % 3 {
        0 => pn_outcome::Proven as u32,
        1 => pn_outcome::Disproven as u32,
        _ => (pn_outcome::CannotLose as u32 + 1).saturating_add(x),
    }
}

unsafe extern "C" fn outcome(c: *mut c_void, out: *mut u32) -> c_int {
    // SAFETY: as in `side_to_move`.
    let (c, out) = unsafe { (ctx(c), &mut *out) };
    match c.fault() {
        None => {
            *out = match c.graph.nodes[c.at].outcome {
                proofnum::Outcome::Unknown => pn_outcome::Unknown,
                proofnum::Outcome::Win => pn_outcome::Win,
                proofnum::Outcome::Loss => pn_outcome::Loss,
                proofnum::Outcome::Draw => pn_outcome::Draw,
                proofnum::Outcome::CannotWin => pn_outcome::CannotWin,
                proofnum::Outcome::CannotLose => pn_outcome::CannotLose,
            } as u32;
            0
        }
        Some(Fault::Garbage(x)) => {
            *out = bad_outcome(x);
            c.event(Event::Invalid);
            0
        }
        Some(Fault::Silent) => {
            c.event(Event::Invalid);
            0
        }
        Some(_) => c.fail(),
    }
}

fn encode(from: usize, to: u8) -> u32 {
    (from as u32) << 8 | to as u32
}

unsafe extern "C" fn generate_moves(
    c: *mut c_void,
    moves: *mut u32,
    cap: usize,
    out_n: *mut usize,
) -> c_int {
    // SAFETY: as in `side_to_move`; `moves` holds `cap` writable moves.
    let (c, out_n) = unsafe { (ctx(c), &mut *out_n) };
    let moves = if cap == 0 {
        &mut [][..]
    } else {
        unsafe { core::slice::from_raw_parts_mut(moves, cap) }
    };
    let node = &c.graph.nodes[c.at];
    let children: &[u8] = if node.outcome == proofnum::Outcome::Unknown {
        &node.children
    } else {
        &[]
    };
    match c.fault() {
        None if children.len() > cap => {
            *out_n = children.len();
            c.event(Event::TooMany);
            0
        }
        None => {
            for (slot, &child) in moves.iter_mut().zip(children) {
                *slot = encode(c.at, child);
            }
            *out_n = children.len();
            0
        }
        Some(Fault::Silent) => {
            c.event(Event::Invalid);
            0
        }
        Some(Fault::Overflow(extra)) => {
            *out_n = cap.saturating_add(1 + extra as usize);
            c.event(Event::TooMany);
            0
        }
        Some(Fault::Lie(seed)) => {
            let n = (seed as usize % (cap + 1)).min(MAX_CHILDREN);
            for (i, slot) in moves[..n].iter_mut().enumerate() {
                *slot = seed.rotate_left(i as u32 * 7) % 0x1_0000;
            }
            *out_n = n;
            c.lied = true;
            0
        }
        Some(_) => c.fail(),
    }
}

/// Whether `mv` is a move of the current position.
fn is_move(c: &Ctx<'_>, mv: u32) -> bool {
    let node = &c.graph.nodes[c.at];
    (mv >> 8) as usize == c.at
        && node.outcome == proofnum::Outcome::Unknown
        && node.children.contains(&((mv & 0xFF) as u8))
}

unsafe extern "C" fn play(c: *mut c_void, mv: u32) -> c_int {
    // SAFETY: as in `side_to_move`.
    let c = unsafe { ctx(c) };
    if c.fault().is_some() {
        return c.fail();
    }
    if !is_move(c, mv) {
        // Only a lie (or an earlier failure, after which positions may be out of step)
        // can make the library play a move the position does not have.
        assert!(
            c.lied || c.first.is_some(),
            "the library played {mv:#x}, not a move at {}",
            c.at
        );
        return c.fail();
    }
    c.at = (mv & 0xFF) as usize;
    0
}

unsafe extern "C" fn undo(c: *mut c_void, mv: u32) -> c_int {
    // SAFETY: as in `side_to_move`.
    let c = unsafe { ctx(c) };
    if c.fault().is_some() {
        return c.fail();
    }
    if (mv & 0xFF) as usize != c.at || (mv >> 8) as usize >= c.graph.nodes.len() {
        assert!(
            c.lied || c.first.is_some(),
            "the library undid {mv:#x} at {}",
            c.at
        );
        return c.fail();
    }
    c.at = (mv >> 8) as usize;
    0
}

unsafe extern "C" fn estimate(c: *mut c_void, phi: *mut u32, delta: *mut u32) -> c_int {
    // SAFETY: as in `side_to_move`, with two writable `uint32_t`s.
    let (c, phi, delta) = unsafe { (ctx(c), &mut *phi, &mut *delta) };
    if c.fault().is_some() {
        return c.fail();
    }
    // Any numbers at all: the library clamps them.
    let e = c.graph.nodes[c.at]
        .estimate
        .unwrap_or(proofnum::Numbers::UNIT);
    (*phi, *delta) = (e.phi, e.delta);
    0
}

unsafe extern "C" fn repetition_value(c: *mut c_void, out: *mut u32) -> c_int {
    // SAFETY: as in `side_to_move`.
    let (c, out) = unsafe { (ctx(c), &mut *out) };
    match c.fault() {
        None => {
            *out = match c.graph.nodes[c.at].repetition {
                Value::Win => pn_outcome::Win,
                Value::Loss => pn_outcome::Loss,
                Value::Draw => pn_outcome::Draw,
            } as u32;
            0
        }
        Some(Fault::Garbage(x)) => {
            // UNKNOWN is no value for a repetition either.
            *out = if x % 2 == 0 {
                pn_outcome::Unknown as u32
            } else {
                bad_outcome(x)
            };
            c.event(Event::Invalid);
            0
        }
        Some(Fault::Silent) => {
            c.event(Event::Invalid);
            0
        }
        Some(_) => c.fail(),
    }
}

unsafe extern "C" fn class_hash(c: *mut c_void, out: *mut u64) -> c_int {
    // SAFETY: as in `side_to_move`.
    let (c, out) = unsafe { (ctx(c), &mut *out) };
    match c.fault() {
        None => {
            *out = c.graph.nodes[c.at].hash;
            0
        }
        // No class hash is out of range, and one not written would be a wrong one: fail.
        Some(_) => c.fail(),
    }
}

unsafe extern "C" fn material(c: *mut c_void, out: *mut u32) -> c_int {
    // SAFETY: as in `side_to_move`.
    let (c, out) = unsafe { (ctx(c), &mut *out) };
    match c.fault() {
        None => {
            *out = 0;
            0
        }
        Some(_) => c.fail(),
    }
}

unsafe extern "C" fn material_at_least(
    c: *mut c_void,
    _side: u32,
    a: u32,
    b: u32,
    out: *mut u32,
) -> c_int {
    // SAFETY: as in `side_to_move`.
    let (c, out) = unsafe { (ctx(c), &mut *out) };
    match c.fault() {
        None => {
            *out = (a == b) as u32;
            0
        }
        Some(Fault::Garbage(x)) => {
            *out = 2u32.saturating_add(x);
            c.event(Event::Invalid);
            0
        }
        Some(Fault::Silent) => {
            c.event(Event::Invalid);
            0
        }
        Some(_) => c.fail(),
    }
}

unsafe extern "C" fn clone(c: *mut c_void, out: *mut *mut c_void) -> c_int {
    // SAFETY: as in `side_to_move`; `out` is writable.
    let (c, out) = unsafe { (ctx(c), &mut *out) };
    *out = Box::into_raw(Box::new(*c)).cast();
    0
}

unsafe extern "C" fn free(c: *mut c_void) {
    // SAFETY: `c` is a copy `clone` made with `Box::into_raw`, freed once (the library's
    // promise).
    drop(unsafe { Box::from_raw(c as *mut Ctx<'static>) });
}

/// What the input asks of the library besides the game.
#[derive(Debug)]
struct Plan {
    config: pn_config,
    rule: u32,
    /// A required callback to leave out (0 ..= 6), if any.
    missing: Option<u8>,
    estimates: bool,
    max_nodes: Option<u64>,
    attackers: [u32; 2],
    pv_capacity: usize,
    parallel: Option<bool>,
}

/// The default configuration, as a C caller starts one: `struct_size`, then `pn_config_init`.
fn default_config() -> pn_config {
    // SAFETY: `pn_config` has integer fields only, so all zeros is a valid value.
    let mut config: pn_config = unsafe { std::mem::zeroed() };
    config.struct_size = size_of::<pn_config>();
    // SAFETY: a valid, aligned local of the size it names.
    let status = unsafe { pn_config_init(&mut config) };
    assert_eq!(status, pn_status::Ok);
    config
}

impl Plan {
    fn read(u: &mut Unstructured<'_>) -> Result<Plan> {
        let config = pn_config {
            table_bytes: u.int_in_range(0..=70_000)?,
            verify_memo_entries: u.int_in_range(0..=300)?,
            max_depth: u.int_in_range(0..=40)?,
            max_moves: u.int_in_range(0..=8)?,
            epsilon_numerator: u.int_in_range(0..=5)?,
            epsilon_denominator: u.int_in_range(0..=4)?,
            threads: u.int_in_range(1..=3)?,
            arena_nodes: u.int_in_range(1..=5_000)?,
            second_level_nodes: u.int_in_range(1..=500)?,
            engine: u.int_in_range(0..=3)?,
            // On, off, or garbage.
            confirm: u.int_in_range(0..=2)?,
            ..default_config()
        };
        let missing = u.int_in_range(0..=63u8)?;
        Ok(Plan {
            config,
            rule: u.int_in_range(0..=3)?,
            missing: (missing < 7).then_some(missing),
            estimates: u.arbitrary()?,
            max_nodes: if u.ratio(1, 4)? {
                Some(u.int_in_range(0..=5_000)?)
            } else {
                None
            },
            attackers: [u.int_in_range(0..=2)?, u.int_in_range(0..=2)?],
            pv_capacity: u.int_in_range(0..=30)?,
            parallel: if u.ratio(1, 8)? {
                Some(u.arbitrary()?)
            } else {
                None
            },
        })
    }
}

fn read_faults(u: &mut Unstructured<'_>) -> Result<Vec<(u32, Fault)>> {
    let mut faults = Vec::new();
    for _ in 0..u.int_in_range(0..=3)? {
        let at = u.int_in_range(0..=FAULT_HORIZON)?;
        let fault = match u.int_in_range(0..=4)? {
            0 => Fault::Fail,
            1 => Fault::Garbage(u.arbitrary()?),
            2 => Fault::Silent,
            3 => Fault::Overflow(u.int_in_range(0..=3)?),
            _ => Fault::Lie(u.arbitrary()?),
        };
        faults.push((at, fault));
    }
    Ok(faults)
}

fuzz_target!(|data: &[u8]| {
    let _ = run(data);
});

fn run(data: &[u8]) -> Result<()> {
    let mut u = Unstructured::new(data);
    let rule = match u.int_in_range(0..=2)? {
        0 => Rule::Acyclic,
        1 => Rule::Draw,
        _ => Rule::ByPosition,
    };
    let mut graph = Graph::read(&mut u, rule)?;
    // The C interface scores a position without moves as lost for the side to move.
    graph.no_moves = Value::Loss;
    let plan = Plan::read(&mut u)?;
    let faults = read_faults(&mut u)?;
    // Last, so that inputs from before it read as they did (an exhausted input gives false).
    let dominance: bool = u.arbitrary()?;
    // The C rule: the graph's own, or garbage (3) on the plan's say.
    let c_rule = match (plan.rule, rule) {
        (3, _) => 3,
        (_, Rule::Draw) => pn_repetition::Draw as u32,
        (_, Rule::Acyclic) => pn_repetition::Acyclic as u32,
        (_, Rule::ByPosition) => pn_repetition::ByPosition as u32,
    };
    let mut ctx = Ctx {
        graph: &graph,
        faults: &faults,
        at: 0,
        calls: 0,
        first: None,
        first_failure: None,
        lied: false,
    };
    let mut game = pn_game {
        struct_size: size_of::<pn_game>(),
        ctx: &mut ctx as *mut Ctx<'_> as *mut c_void,
        side_to_move: Some(side_to_move),
        hash: Some(hash),
        outcome: Some(outcome),
        generate_moves: Some(generate_moves),
        play: Some(play),
        undo: Some(undo),
        estimate: if plan.estimates { Some(estimate) } else { None },
        clone: Some(clone),
        free: Some(free),
        repetition_value: Some(repetition_value),
        repetition_rule: c_rule,
        copy_size: 0,
        encode: None,
        class_hash: dominance.then_some(class_hash as _),
        material: dominance.then_some(material as _),
        material_at_least: dominance.then_some(material_at_least as _),
        deferred_moves: None,
        encode_class: None,
        material_needed: None,
        material_join: None,
    };
    match plan.missing {
        Some(0) => game.side_to_move = None,
        Some(1) => game.hash = None,
        Some(2) => game.outcome = None,
        Some(3) => game.generate_moves = None,
        Some(4) => game.play = None,
        Some(5) => game.undo = None,
        Some(6) => game.repetition_value = None,
        _ => {}
    }
    let Some((_memory, solver)) = make_solver(&plan.config) else {
        return Ok(());
    };
    let mut session = Session {
        graph: &graph,
        value: graph.root_value(),
        plan: &plan,
        game,
        solver,
    };
    // The game's own errors come first: the library checks its arguments before calling it.
    let game_error = if c_rule == 3 {
        Some(pn_status::InvalidArgument)
    } else if plan
        .missing
        .is_some_and(|m| m < 6 || rule == Rule::ByPosition)
    {
        Some(pn_status::MissingCallback)
    } else if dominance && rule == Rule::ByPosition {
        Some(pn_status::InvalidArgument)
    } else {
        None
    };
    session.serial_calls(&mut ctx, game_error);
    if let Some(copy_bytes) = plan.parallel
        && game_error.is_none()
        && !ctx.lied
    {
        session.parallel_call(copy_bytes);
    }
    Ok(())
}

/// Builds a solver for `config` in memory of its own, or checks why it cannot be built.
fn make_solver(config: &pn_config) -> Option<(Vec<u64>, *mut pn_solver)> {
    let (mut bytes, mut align) = (0usize, 0usize);
    // SAFETY: valid pointers to a config and two locals.
    let s = unsafe { pn_solver_memory_requirements(config, &mut bytes, &mut align) };
    if s != pn_status::Ok {
        assert!(
            matches!(s, pn_status::InvalidArgument | pn_status::BufferTooSmall),
            "a configuration is refused with a documented status: {s:?} for {config:?}"
        );
        return None;
    }
    if bytes > MAX_SOLVER_BYTES || align > 8 {
        return None;
    }
    let mut memory = vec![0u64; bytes.div_ceil(8)];
    let mut solver = null_mut();
    // SAFETY: the memory is `bytes` long, 8-byte aligned, and lives as long as the solver
    // (returned together).
    let s = unsafe { pn_solver_init(memory.as_mut_ptr().cast(), bytes, config, &mut solver) };
    assert_eq!(
        s,
        pn_status::Ok,
        "init with the memory the requirements asked for"
    );
    Some((memory, solver))
}

/// One solver and one game, and what the oracle says about the game.
struct Session<'a> {
    graph: &'a Graph,
    /// The root's value for its side to move.
    value: Value,
    plan: &'a Plan,
    game: pn_game,
    solver: *mut pn_solver,
}

fn result() -> pn_result {
    pn_result::new(pn_status::Ok, pn_outcome::Unknown)
}

impl Session<'_> {
    fn limits(&self) -> pn_limits {
        pn_limits {
            max_nodes: self.plan.max_nodes.unwrap_or(PN_UNLIMITED),
            ..limits_none()
        }
    }

    /// Whether the configuration lets a consistent game end a search without an answer.
    fn allowed_without_answer(&self, status: pn_status) -> bool {
        let c = &self.plan.config;
        match status {
            pn_status::NodeLimit => self.plan.max_nodes.is_some(),
            pn_status::DepthLimit => c.max_depth < DEEP_ENOUGH,
            pn_status::MemoryLimit => c.engine != 0,
            _ => false,
        }
    }

    /// Checks a call's status against the game's behaviour during the call. Returns true when
    /// the answer must agree with the oracle.
    fn check_status(
        &self,
        status: pn_status,
        ctx: &mut Ctx<'_>,
        game_error: Option<pn_status>,
        what: &str,
    ) -> bool {
        assert!(
            (status as u32) <= pn_status::CertificateInvalid as u32,
            "{what}: an undocumented status {}",
            status as u32
        );
        assert_ne!(
            status,
            pn_status::InternalError,
            "{what}: a caught panic or an impossible state"
        );
        let (first, first_failure) = (ctx.first.take(), ctx.first_failure.take());
        if let Some(e) = game_error {
            assert_eq!(status, e, "{what}: the game's own error");
            return false;
        }
        if let Some(event) = first {
            let later_failure = first_failure.filter(|_| event == Event::TooMany);
            assert!(
                status == event.status() || later_failure.is_some_and(|f| status == f.status()),
                "{what}: {status:?}, but the first misbehaviour was {event:?} (then {later_failure:?})"
            );
            return false;
        }
        if ctx.lied {
            return false;
        }
        assert!(
            status == pn_status::Ok || self.allowed_without_answer(status),
            "{what}: {status:?} from a consistent game under {:?}",
            self.plan
        );
        status == pn_status::Ok
    }

    fn serial_calls(&mut self, ctx: &mut Ctx<'_>, game_error: Option<pn_status>) {
        let root_mover = self.graph.nodes[0].mover;
        let limits = self.limits();

        ctx.at = 0;
        let mut r = result();
        // SAFETY: a live solver, a game whose context outlives the call, valid out-pointers.
        let s = unsafe { pn_solve_value(self.solver, &self.game, &limits, &mut r) };
        if self.check_status(s, ctx, game_error, "pn_solve_value") {
            let want = match self.value {
                Value::Win => pn_outcome::Win,
                Value::Loss => pn_outcome::Loss,
                Value::Draw => pn_outcome::Draw,
            };
            assert_eq!(r.outcome, want as u32, "pn_solve_value's outcome");
            assert_eq!(r.status, 0, "the result's status");
        }

        for attacker in self.plan.attackers {
            ctx.at = 0;
            let mut r = result();
            // SAFETY: as above.
            let s = unsafe { pn_solve(self.solver, &self.game, attacker, &limits, &mut r) };
            let player = match attacker {
                0 => Player::First,
                1 => Player::Second,
                _ => {
                    if game_error.is_none() {
                        assert_eq!(
                            s,
                            pn_status::InvalidArgument,
                            "pn_solve with side {attacker}"
                        );
                    }
                    (ctx.first, ctx.first_failure) = (None, None);
                    continue;
                }
            };
            if !self.check_status(s, ctx, game_error, "pn_solve") {
                continue;
            }
            let wins = attacker_wins(self.value, root_mover, player);
            let (claim, false_claim) = if wins {
                (pn_outcome::Proven, pn_outcome::Disproven)
            } else {
                (pn_outcome::Disproven, pn_outcome::Proven)
            };
            assert_eq!(r.outcome, claim as u32, "pn_solve for attacker {attacker}");
            self.check_verify(ctx, attacker, claim, pn_status::Ok);
            self.check_verify(ctx, attacker, false_claim, pn_status::Refuted);
            self.check_line(ctx, attacker);
        }
    }

    fn check_verify(&self, ctx: &mut Ctx<'_>, attacker: u32, claim: pn_outcome, want: pn_status) {
        ctx.at = 0;
        let mut r = result();
        let limits = limits_none();
        // SAFETY: as in `serial_calls`.
        let s = unsafe {
            pn_verify(
                self.solver,
                &self.game,
                attacker,
                claim as u32,
                &limits,
                &mut r,
            )
        };
        let refuted = s == pn_status::Refuted && ctx.first.is_none() && !ctx.lied;
        if refuted || self.check_status(s, ctx, None, "pn_verify") {
            assert_eq!(s, want, "pn_verify of {claim:?} for attacker {attacker}");
        }
    }

    fn check_line(&self, ctx: &mut Ctx<'_>, attacker: u32) {
        ctx.at = 0;
        let capacity = self.plan.pv_capacity;
        let mut line = vec![0u32; capacity];
        let moves = if capacity == 0 {
            null_mut()
        } else {
            line.as_mut_ptr()
        };
        let mut length = usize::MAX;
        let limits = limits_none();
        // SAFETY: as in `serial_calls`; `moves` is NULL or holds `capacity` moves.
        let s = unsafe {
            pn_principal_variation(
                self.solver,
                &self.game,
                attacker,
                &limits,
                moves,
                capacity,
                &mut length,
            )
        };
        // A position with more moves than `max_moves` met by the search at the step that
        // fills the buffer is reported as a full buffer: the core's walker cuts the line with
        // `Reason::TooManyMoves` in both cases, and the C ABI tells them apart by the length
        // alone (found by this target). Either status cuts the line.
        let too_many_at_full_buffer = s == pn_status::BufferTooSmall
            && length == capacity
            && ctx.first == Some(Event::TooMany)
            && ctx.first_failure.is_none();
        if too_many_at_full_buffer {
            (ctx.first, ctx.first_failure) = (None, None);
        }
        let full = s == pn_status::BufferTooSmall && ctx.first.is_none() && !ctx.lied;
        if full || self.check_status(s, ctx, None, "pn_principal_variation") {
            assert!(length <= capacity, "the line fits its buffer");
            assert!(
                self.graph.is_line(&line[..length]),
                "the line is legal: {:x?}",
                &line[..length]
            );
        }
    }

    /// `pn_solve_value_parallel` on a game without faults, copied by `clone`/`free` or, when
    /// `copy_bytes`, byte for byte.
    fn parallel_call(&mut self, copy_bytes: bool) {
        let mut fresh = Ctx {
            graph: self.graph,
            faults: &[],
            at: 0,
            calls: 0,
            first: None,
            first_failure: None,
            lied: false,
        };
        let mut game = pn_game {
            ctx: &mut fresh as *mut Ctx<'_> as *mut c_void,
            ..self.game
        };
        if copy_bytes {
            (game.clone, game.free, game.copy_size) = (None, None, size_of::<Ctx<'_>>());
        }
        let limits = self.limits();
        let mut r = result();
        // SAFETY: as in `serial_calls`; copies of the context are valid contexts.
        let s = unsafe { pn_solve_value_parallel(self.solver, &game, &limits, &mut r) };
        assert!(
            (s as u32) <= pn_status::CertificateInvalid as u32 && s != pn_status::InternalError,
            "parallel: {s:?}"
        );
        let allowed = s == pn_status::Ok
            || self.allowed_without_answer(s)
            || (s == pn_status::TooManyMoves
                && (self.plan.config.max_moves as usize) < MAX_CHILDREN);
        assert!(
            allowed,
            "parallel: {s:?} from a consistent game under {:?}",
            self.plan
        );
        if s == pn_status::Ok {
            let want = match self.value {
                Value::Win => pn_outcome::Win,
                Value::Loss => pn_outcome::Loss,
                Value::Draw => pn_outcome::Draw,
            };
            assert_eq!(r.outcome, want as u32, "pn_solve_value_parallel's outcome");
        }
    }
}

fn limits_none() -> pn_limits {
    pn_limits {
        struct_size: size_of::<pn_limits>(),
        max_nodes: PN_UNLIMITED,
        max_time_us: PN_UNLIMITED,
        clock: None,
        clock_ctx: null_mut(),
        progress: None,
        progress_ctx: null_mut(),
    }
}
