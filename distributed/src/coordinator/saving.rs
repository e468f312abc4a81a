//! Rank 0's checkpoints: the tree and its table to the plan's file, and every worker rank
//! asked to write its table beside it ([`crate::checkpoint`] has the files).

use std::time::Instant;

use proofnum::table::SharedTable;
use proofnum::{Game, MoveCodec, Player, Stats};

use super::Coordinator;
use super::search::{Run, WAIT};
use crate::Error;
use crate::checkpoint::{self, Checkpoint, Question, encode_tree};
use crate::link::Link;
use crate::wire::Message;

impl<'l, L: Link> Coordinator<'l, L> {
    /// Waits (at most the rank timeout) until every live rank has answered the last `Save`.
    pub(super) fn await_saved<M>(&mut self, run: &mut Run<'_, '_, M>) {
        let size = self.link.size();
        let mut waiting: Vec<usize> = (1..size).filter(|&r| !self.lost[r]).collect();
        let since = Instant::now();
        while !waiting.is_empty() && since.elapsed() < self.settings.rank_timeout {
            if let Some((rank, words)) = self.link.receive(WAIT) {
                self.heard(run, rank, &words);
                if let Ok(Message::Saved { bytes, .. }) = Message::decode(&words) {
                    run.stats.checkpoints.1 += bytes;
                    waiting.retain(|&r| r != rank);
                }
            }
        }
    }

    /// Writes the tree and the table to the plan's file.
    pub(super) fn checkpoint<G: Game + MoveCodec>(
        &mut self,
        run: &mut Run<'_, '_, G::Move>,
        game: &G,
        attacker: Player,
        question: Question,
        table: &SharedTable<'_>,
        finished: (Stats, u64),
    ) -> Result<(), Error> {
        let Some(plan) = &self.plan else {
            return Ok(());
        };
        let writing = Instant::now();
        // An unused table (no job threads here, nothing shared) is all zeros: not saved.
        let mut bytes = vec![0u8; if self.table_used { table.byte_len() } else { 0 }];
        if self.table_used {
            table.copy_bytes(&mut bytes);
        }
        let checkpoint = Checkpoint {
            label: plan.label.clone(),
            root_hash: game.hash(),
            question,
            attacker,
            finished,
            tree: encode_tree::<G>(&run.scheduler.snapshot()),
            table: bytes,
            // The ranks asked below: a resume expects their files.
            rank_files: Some(
                (1..self.link.size())
                    .filter(|&rank| !self.lost[rank])
                    .map(|rank| rank as u64)
                    .collect(),
            ),
        };
        let path = plan.path.to_string_lossy().into_owned();
        for rank in 1..self.link.size() {
            if !self.lost[rank] {
                let save = Message::Save {
                    epoch: self.epoch,
                    path: path.clone(),
                    stamp: checkpoint::stamp(&plan.label, game.hash()),
                };
                self.send(&mut run.stats, rank, &save);
            }
        }
        let written = checkpoint.write(&plan.path)?;
        run.stats.checkpoints.0 += 1;
        run.stats.checkpoints.1 += written;
        run.last_checkpoint = Instant::now();
        if plan.announce {
            eprintln!(
                "checkpoint: {} ({} tree nodes, {} MID calls so far, {:.1} MB, {:.0} ms)",
                plan.path.display(),
                checkpoint.tree.nodes.len(),
                checkpoint.tree.stats.mid_calls + finished.0.mid_calls,
                written as f64 / 1e6,
                writing.elapsed().as_secs_f64() * 1e3
            );
        }
        Ok(())
    }
}
