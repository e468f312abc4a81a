use proofnum_games::chess::{Chess, mate::{solve_mate, MateConfig}};
use proofnum::Player;
fn main() {
    let fen = std::env::args().nth(1).unwrap();
    let mut cfg = MateConfig::default();
    cfg.table_bytes = 16 << 20;
    let mut c = Chess::from_fen(&fen).unwrap();
    let r = solve_mate(&mut c, Player::First, &cfg);
    println!("{:?} {:?} {:?} {}", r.status, r.mate_in, r.exactness, c.san_line(&r.line));
    println!("{}", c.uci_line(&r.line));
}
