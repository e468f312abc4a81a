//! What a certificate's checker meets: the tests of `certificates.rs` and `dominance.rs` share
//! it (apart from `common`, which the distributed crate's tests include without
//! `proofnum-check`).

use proofnum_check::{Certificate, Record};

/// Every record of `cert` reachable from its root (the records a checker meets), by node id.
pub fn reached_records(cert: &Certificate) -> Vec<(u64, Record)> {
    let mut seen = std::collections::HashSet::new();
    let mut todo = vec![cert.root];
    let mut out = Vec::new();
    while let Some(id) = todo.pop() {
        if id == 0 || !seen.insert(id) {
            continue;
        }
        let Some(r) = cert.records.get(&id) else {
            continue;
        };
        match r {
            Record::Or { child, .. } => todo.push(*child),
            Record::And { children } => todo.extend(children),
            Record::Dominated { by } => todo.push(*by),
        }
        out.push((id, r.clone()));
    }
    out.sort_by_key(|(id, _)| *id);
    out
}
