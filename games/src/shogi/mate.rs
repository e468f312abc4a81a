//! Mate length (placeholder).
