use finale::search::{Mode, Solver, SolverOptions};
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let recs = finale::board::read_obf_file(std::path::Path::new(&path)).unwrap();
    let mut solver = Solver::new(SolverOptions::default());
    let (mut tn, mut tt) = (0u64, 0f64);
    for (i, r) in recs.iter().enumerate() {
        solver.clear();
        let res = solver.solve(r.position.board, Mode::Exact);
        tn += res.nodes; tt += res.time.as_secs_f64();
        println!("{} {} exp {:?} got {} {:?} nodes {} t {:.3} nps {:.1}M pv {}", i+1, r.position.board.empty_count(), r.expected_score(), res.score, res.best_moves, res.nodes, res.time.as_secs_f64(), res.nps()/1e6, res.pv_string());
    }
    println!("total nodes {tn} time {tt:.2} nps {:.1}M", tn as f64/tt/1e6);
}
