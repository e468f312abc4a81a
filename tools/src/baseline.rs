//! Committed baselines of the worst-case benches (`uttt_suite`, `c4suite pons`,
//! `chesssuite bench`): one line per position with its answer, its MID calls and its median
//! time, and the comparison of a run with a baseline.
//!
//! The file is tab-separated: `id`, `answer`, `mid_calls`, `median_ms`, then optional peer
//! columns (`peer_work`, `peer_ms`: the specialist program's figures where they were
//! measured, `-` where not). Lines starting with `#` are comments: the command that made the
//! file, the machine's load, the peer's command. MID calls are deterministic for a given
//! build, table size and position; times are informative only (medians on a shared machine),
//! so the comparison ranks positions by MID calls and never fails on time.

use std::collections::HashMap;
use std::fmt::Write as _;

/// One position's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The position's name in its suite.
    pub id: String,
    /// What the solver answered (e.g. `win`, `no-win`, `#7`, `unknown`).
    pub answer: String,
    /// MID calls (deterministic).
    pub mid_calls: u64,
    /// Median wall time in milliseconds (informative).
    pub median_ms: f64,
    /// The peer's work measure (MID calls, nodes) where measured.
    pub peer_work: Option<u64>,
    /// The peer's time in milliseconds where measured.
    pub peer_ms: Option<f64>,
}

/// The baseline file's text: `header` lines as comments, then one line per record.
pub fn format(header: &[String], records: &[Record]) -> String {
    let mut out = String::new();
    for line in header {
        let _ = writeln!(out, "# {line}");
    }
    out.push_str("# id\tanswer\tmid_calls\tmedian_ms\tpeer_work\tpeer_ms\n");
    let opt = |v: Option<String>| v.unwrap_or_else(|| "-".into());
    for r in records {
        let _ = writeln!(
            out,
            "{}\t{}\t{}\t{:.3}\t{}\t{}",
            r.id,
            r.answer,
            r.mid_calls,
            r.median_ms,
            opt(r.peer_work.map(|w| w.to_string())),
            opt(r.peer_ms.map(|t| format!("{t:.3}")))
        );
    }
    out
}

/// Reads a baseline file; exits with a message if it is malformed.
pub fn read(path: &str) -> Vec<Record> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("baseline {path}: {e}");
        std::process::exit(2)
    });
    parse(&text).unwrap_or_else(|e| {
        eprintln!("baseline {path}: {e}");
        std::process::exit(2)
    })
}

/// Parses a baseline file's text.
pub fn parse(text: &str) -> Result<Vec<Record>, String> {
    let mut records = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let bad = || format!("line {}: {line:?}", i + 1);
        if f.len() < 4 {
            return Err(bad());
        }
        let peer = |k: usize| f.get(k).filter(|s| **s != "-");
        records.push(Record {
            id: f[0].to_string(),
            answer: f[1].to_string(),
            mid_calls: f[2].parse().map_err(|_| bad())?,
            median_ms: f[3].parse().map_err(|_| bad())?,
            peer_work: peer(4).map(|s| s.parse()).transpose().map_err(|_| bad())?,
            peer_ms: peer(5).map(|s| s.parse()).transpose().map_err(|_| bad())?,
        });
    }
    Ok(records)
}

/// The baseline's peer figures for `id`, if any.
pub fn peer_of(baseline: &[Record], id: &str) -> (Option<u64>, Option<f64>) {
    baseline
        .iter()
        .find(|r| r.id == id)
        .map_or((None, None), |r| (r.peer_work, r.peer_ms))
}

/// Prints how `current` compares with `baseline`: changed answers, the positions whose MID
/// calls grew (largest ratio first), those that shrank, and the totals. Returns the number of
/// changed answers.
pub fn compare(baseline: &[Record], current: &[Record]) -> usize {
    let old: HashMap<&str, &Record> = baseline.iter().map(|r| (r.id.as_str(), r)).collect();
    let mut changed = 0;
    let mut rows: Vec<(f64, &Record, &Record)> = Vec::new();
    let (mut old_total, mut new_total) = (0u64, 0u64);
    for r in current {
        let Some(o) = old.get(r.id.as_str()) else {
            println!("new position (not in the baseline): {}", r.id);
            continue;
        };
        if o.answer != r.answer {
            changed += 1;
            println!(
                "ANSWER CHANGED {}: baseline {}, now {}",
                r.id, o.answer, r.answer
            );
        }
        old_total += o.mid_calls;
        new_total += r.mid_calls;
        let ratio = if r.mid_calls == o.mid_calls {
            1.0
        } else {
            r.mid_calls as f64 / o.mid_calls.max(1) as f64
        };
        rows.push((ratio, o, r));
    }
    rows.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
    let worse: Vec<_> = rows.iter().filter(|(q, ..)| *q > 1.0).collect();
    let better = rows.iter().filter(|(q, ..)| *q < 1.0).count();
    println!(
        "against the baseline: {} positions compared, {} need more MID calls, {} fewer, {} the same",
        rows.len(),
        worse.len(),
        better,
        rows.len() - worse.len() - better
    );
    if !worse.is_empty() {
        println!(
            "{:<28} {:>12} {:>12} {:>8} {:>10} {:>10}",
            "worse", "MID before", "MID now", "ratio", "ms before", "ms now"
        );
        for (q, o, r) in &worse {
            println!(
                "{:<28} {:>12} {:>12} {:>8.3} {:>10.1} {:>10.1}",
                r.id, o.mid_calls, r.mid_calls, q, o.median_ms, r.median_ms
            );
        }
    }
    if let Some((q, o, r)) = rows.last().filter(|(q, ..)| *q < 1.0) {
        println!(
            "most improved: {} ({} -> {} MID calls, ratio {q:.3})",
            r.id, o.mid_calls, r.mid_calls
        );
    }
    println!(
        "total MID calls: baseline {old_total}, now {new_total} (ratio {:.3}); answers changed: {changed}",
        new_total as f64 / old_total.max(1) as f64
    );
    changed
}

/// The median of `v` (0 when empty).
pub fn median(v: &[f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let mut v = v.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// The 1, 5 and 15-minute load averages (Linux's `/proc/loadavg`), or "unknown".
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| "unknown".into())
}
