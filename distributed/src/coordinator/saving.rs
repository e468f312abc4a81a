//! Rank 0's checkpoints: the tree and its table to the plan's file, and every worker rank
//! asked to write its table beside it ([`crate::checkpoint`] has the files).

use std::time::Instant;

use proofnum::SharedTable;
use proofnum::{Game, MoveCodec, Player, Stats};

use super::Coordinator;
use super::search::{Run, WAIT};
use crate::Error;
use crate::checkpoint::{self, Checkpoint, Question, encode_tree};
use crate::link::Link;
use crate::wire::Message;

impl<'l, L: Link> Coordinator<'l, L> {
    /// Waits until every live rank has answered the last `Save`, or until `deadline` (at
    /// most the rank timeout from now); returns the ranks that answered with a file written.
    pub(super) fn await_saved<M>(
        &mut self,
        run: &mut Run<'_, '_, M>,
        deadline: Option<Instant>,
    ) -> Vec<u64> {
        let size = self.link.size();
        let mut waiting: Vec<usize> = (1..size).filter(|&r| !self.lost[r]).collect();
        let mut saved = Vec::new();
        let until = deadline.unwrap_or_else(|| Instant::now() + self.settings.rank_timeout);
        while !waiting.is_empty() && Instant::now() < until {
            if let Some((rank, words)) = self.link.receive(WAIT) {
                self.heard(run, rank, &words);
                if let Ok(Message::Saved { bytes, .. }) = Message::decode(&words) {
                    run.stats.checkpoints.1 += bytes;
                    waiting.retain(|&r| r != rank);
                    if bytes > 0 {
                        saved.push(rank as u64);
                    }
                }
            }
        }
        saved.sort_unstable();
        saved
    }

    /// Asks every live worker rank to write its table beside the plan's file; returns them.
    fn ask_ranks_to_save<G: Game, M>(&mut self, run: &mut Run<'_, '_, M>, game: &G) -> Vec<u64> {
        let Some(plan) = &self.plan else {
            return Vec::new();
        };
        let path = plan.path.to_string_lossy().into_owned();
        let stamp = checkpoint::stamp(&plan.label, game.hash());
        let asked: Vec<u64> = (1..self.link.size())
            .filter(|&rank| !self.lost[rank])
            .map(|rank| rank as u64)
            .collect();
        for &rank in &asked {
            let save = Message::Save {
                epoch: self.epoch,
                path: path.clone(),
                stamp,
            };
            self.send(&mut run.stats, rank as usize, &save);
        }
        asked
    }

    /// Writes the tree and the table to the plan's file, and asks every rank to write its
    /// table beside it (their answers come in later).
    pub(super) fn checkpoint<G: Game + MoveCodec>(
        &mut self,
        run: &mut Run<'_, '_, G::Move>,
        game: &G,
        attacker: Player,
        question: Question,
        table: &SharedTable<'_>,
        finished: (Stats, u64),
    ) -> Result<(), Error> {
        // The ranks asked: a resume expects their files.
        let asked = self.ask_ranks_to_save(run, game);
        self.write_checkpoint(run, game, attacker, question, table, finished, asked)
    }

    /// The run is being ended from outside: within [`Signals::grace`](super::Signals::grace),
    /// ask the ranks for their tables, wait for them up to 80% of it (60% when this rank has
    /// job threads, whose table it writes too), and write the checkpoint listing those that
    /// answered. Returns the [`Error::Terminated`] to end the solve with.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn last_checkpoint<G: Game + MoveCodec>(
        &mut self,
        run: &mut Run<'_, '_, G::Move>,
        game: &G,
        attacker: Player,
        question: Question,
        table: &SharedTable<'_>,
        finished: (Stats, u64),
    ) -> Error {
        let grace = self.signals.grace;
        let Some(plan) = &self.plan else {
            return Error::Terminated {
                checkpointed: false,
            };
        };
        if grace.is_zero() {
            return Error::Terminated {
                checkpointed: false,
            };
        }
        let noticed = Instant::now();
        if plan.announce {
            eprintln!(
                "proofnum-mpi: ended from outside (SIGTERM); writing a last checkpoint to {} \
                 within the {:.1} s granted",
                plan.path.display(),
                grace.as_secs_f64()
            );
        }
        // Without job threads of its own, this rank's table holds only solved positions the
        // ranks reported, which their tables hold too: left out, the checkpoint takes
        // milliseconds, and the ranks get more of the time.
        let own_table = self.settings.coordinator_threads > 0;
        let table_used = self.table_used;
        self.table_used &= own_table;
        self.ask_ranks_to_save(run, game);
        let share = if own_table { 0.6 } else { 0.8 };
        let saved = self.await_saved(run, Some(noticed + grace.mul_f64(share)));
        let written = self.write_checkpoint(run, game, attacker, question, table, finished, saved);
        self.table_used = table_used;
        match written {
            Ok(()) => Error::Terminated { checkpointed: true },
            Err(e) => {
                run.stats.checkpoint_failures += 1;
                eprintln!("proofnum-mpi: {e}; the previous checkpoint is kept");
                Error::Terminated {
                    checkpointed: false,
                }
            }
        }
    }

    /// Writes the tree and the table to the plan's file, listing `rank_files` as the ranks
    /// that wrote (or were asked to write) theirs.
    #[allow(clippy::too_many_arguments)]
    fn write_checkpoint<G: Game + MoveCodec>(
        &mut self,
        run: &mut Run<'_, '_, G::Move>,
        game: &G,
        attacker: Player,
        question: Question,
        table: &SharedTable<'_>,
        finished: (Stats, u64),
        rank_files: Vec<u64>,
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
            rank_files: Some(rank_files),
        };
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
