/* Prints the size of every struct of include/proofnum.h and the offset of each field, one
 * "struct.field offset" line each ("struct size N" for the size), for ffi-tests/test_python.py
 * to compare with the Python package's ctypes declarations (python/src/proofnum/_abi.py). */
#include <stddef.h>
#include <stdio.h>

#include "proofnum.h"

#define SIZE(type) printf(#type " size %zu\n", sizeof(type))
#define FIELD(type, field) printf(#type "." #field " %zu\n", offsetof(type, field))

int main(void) {
    SIZE(pn_config);
    FIELD(pn_config, struct_size);
    FIELD(pn_config, table_bytes);
    FIELD(pn_config, verify_memo_entries);
    FIELD(pn_config, max_depth);
    FIELD(pn_config, max_moves);
    FIELD(pn_config, epsilon_numerator);
    FIELD(pn_config, epsilon_denominator);
    FIELD(pn_config, threads);
    FIELD(pn_config, arena_nodes);
    FIELD(pn_config, second_level_nodes);
    FIELD(pn_config, engine);
    FIELD(pn_config, confirm);
    SIZE(pn_progress);
    FIELD(pn_progress, struct_size);
    FIELD(pn_progress, mid_calls);
    FIELD(pn_progress, nodes);
    FIELD(pn_progress, max_depth);
    FIELD(pn_progress, elapsed_us);
    FIELD(pn_progress, root_phi);
    FIELD(pn_progress, root_delta);
    SIZE(pn_limits);
    FIELD(pn_limits, struct_size);
    FIELD(pn_limits, max_nodes);
    FIELD(pn_limits, max_time_us);
    FIELD(pn_limits, clock);
    FIELD(pn_limits, clock_ctx);
    FIELD(pn_limits, progress);
    FIELD(pn_limits, progress_ctx);
    SIZE(pn_game);
    FIELD(pn_game, struct_size);
    FIELD(pn_game, ctx);
    FIELD(pn_game, side_to_move);
    FIELD(pn_game, hash);
    FIELD(pn_game, outcome);
    FIELD(pn_game, generate_moves);
    FIELD(pn_game, play);
    FIELD(pn_game, undo);
    FIELD(pn_game, estimate);
    FIELD(pn_game, clone);
    FIELD(pn_game, free);
    FIELD(pn_game, repetition_value);
    FIELD(pn_game, repetition_rule);
    FIELD(pn_game, copy_size);
    FIELD(pn_game, encode);
    FIELD(pn_game, class_hash);
    FIELD(pn_game, material);
    FIELD(pn_game, material_at_least);
    FIELD(pn_game, deferred_moves);
    FIELD(pn_game, encode_class);
    FIELD(pn_game, material_needed);
    FIELD(pn_game, material_join);
    SIZE(pn_stats);
    FIELD(pn_stats, nodes);
    FIELD(pn_stats, mid_calls);
    FIELD(pn_stats, max_depth);
    FIELD(pn_stats, repetitions);
    FIELD(pn_stats, table_probes);
    FIELD(pn_stats, table_hits);
    FIELD(pn_stats, table_stores);
    FIELD(pn_stats, table_drops);
    FIELD(pn_stats, elapsed_us);
    FIELD(pn_stats, jobs);
    FIELD(pn_stats, threads);
    FIELD(pn_stats, worker_idle_per_mille);
    FIELD(pn_stats, confirm_nodes);
    FIELD(pn_stats, refutations);
    SIZE(pn_result);
    FIELD(pn_result, struct_size);
    FIELD(pn_result, status);
    FIELD(pn_result, outcome);
    FIELD(pn_result, has_best_move);
    FIELD(pn_result, best_move);
    FIELD(pn_result, distance);
    FIELD(pn_result, stats);
    SIZE(pn_table_info);
    FIELD(pn_table_info, struct_size);
    FIELD(pn_table_info, saved_bytes);
    FIELD(pn_table_info, entries);
    FIELD(pn_table_info, generation);
    FIELD(pn_table_info, fill_per_mille);
    SIZE(pn_check_limits);
    FIELD(pn_check_limits, struct_size);
    FIELD(pn_check_limits, max_positions);
    FIELD(pn_check_limits, max_moves);
    SIZE(pn_check_report);
    FIELD(pn_check_report, struct_size);
    FIELD(pn_check_report, verdict);
    FIELD(pn_check_report, exact);
    FIELD(pn_check_report, positions);
    FIELD(pn_check_report, records);
    FIELD(pn_check_report, depth);
    FIELD(pn_check_report, offset);
    FIELD(pn_check_report, line_length);
    FIELD(pn_check_report, message_length);
    return 0;
}
