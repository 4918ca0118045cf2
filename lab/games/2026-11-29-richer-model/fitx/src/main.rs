//! Out-of-tree experiment (issue 49, session 20): would a richer evaluation model learn
//! more from the same positions? Fits one phase (empties LO-HI) of finale's model, or of
//! finale's model plus extra patterns, by the same regularised least squares (conjugate
//! gradients, early-stopped on the held-out games), and measures the error on held-out
//! real positions (2010-2014) that training never saw.
use finale::Board;
use finale::eval::mobility::{MOBILITY_TABLES, PER_PHASE_MOBILITY, canonical_indices_with_mobility, mobility_indices};
use finale::eval::pattern::{FEATURES, PER_PHASE, Symmetry, bias, features};
use rayon::prelude::*;
use std::io::BufRead;

struct Row { idx: Vec<u32>, y: f64 }

/// An extra pattern: squares (a1 = 0) and the symmetries giving its instances.
struct Extra { name: &'static str, squares: &'static [u8], sym: &'static [Symmetry] }
use Symmetry::*;
const CORNERS: &[Symmetry] = &[Id, V, H, VH];
const EDGES: &[Symmetry] = &[Id, V, T, TH];
const EVERY: &[Symmetry] = &[Id, V, H, VH, T, TV, TH, TVH];
const EXTRAS: &[Extra] = &[
    // corner triangle: a1 b1 c1 d1 a2 b2 c2 a3 b3 a4
    Extra { name: "triangle", squares: &[0, 1, 2, 3, 8, 9, 10, 16, 17, 24], sym: CORNERS },
    // edge block: a1 c1 d1 e1 f1 h1 c2 d2 e2 f2
    Extra { name: "edgeblock", squares: &[0, 2, 3, 4, 5, 7, 10, 11, 12, 13], sym: EDGES },
    // corner kite: a1 b1 a2 b2 c2 b3 c3 d3 c4 d4 (the main diagonal's neighbourhood)
    Extra { name: "kite", squares: &[0, 1, 8, 9, 10, 17, 18, 19, 26, 27], sym: CORNERS },
    // 2x4 inner: b2..e2, b3..e3
    Extra { name: "inner2x4", squares: &[9, 10, 11, 12, 17, 18, 19, 20], sym: EVERY },
];

fn ternary(b: &Board, squares: &[u8]) -> u32 {
    let mut v = 0u32;
    for &s in squares.iter().rev() {
        let d = if b.player >> s & 1 != 0 { 1 } else if b.opponent >> s & 1 != 0 { 2 } else { 0 };
        v = v * 3 + d;
    }
    v
}

struct Model { extras: Vec<usize>, narrow: bool, size: usize, offs: Vec<usize>, canon: Vec<u32> }
impl Model {
    fn new(extras: Vec<usize>) -> Model {
        let canon = canonical_indices_with_mobility();
        let mut offs = vec![];
        let mut at = PER_PHASE_MOBILITY;
        for &e in &extras { offs.push(at); at += 3usize.pow(EXTRAS[e].squares.len() as u32); }
        Model { extras, narrow: false, size: at, offs, canon }
    }
    fn indices(&self, b: &Board) -> Vec<u32> {
        let mut f = [0u32; FEATURES];
        features(b, &mut f);
        let mut v: Vec<u32> = f.iter().map(|&x| self.canon[x as usize]).collect();
        v.push(bias(b.empty_count()) as u32);
        for x in mobility_indices(b) { v.push(x + PER_PHASE as u32); }
        let _ = MOBILITY_TABLES;
        for (k, &e) in self.extras.iter().enumerate() {
            for &s in EXTRAS[e].sym {
                let t = Board { player: s.apply(b.player), opponent: s.apply(b.opponent) };
                v.push((self.offs[k] as u32) + ternary(&t, EXTRAS[e].squares));
            }
        }
        v
    }
}

fn board_of(s: &str) -> Board {
    let (mut p, mut o) = (0u64, 0u64);
    for (i, c) in s.bytes().enumerate().take(64) {
        match c { b'X' => p |= 1 << i, b'O' => o |= 1 << i, _ => {} }
    }
    Board { player: p, opponent: o }
}

fn predict(w: &[f64], r: &Row) -> f64 { r.idx.iter().map(|&i| w[i as usize]).sum() }
fn rmse(w: &[f64], rows: &[Row]) -> f64 {
    if rows.is_empty() { return 0.0 }
    (rows.par_iter().map(|r| (r.y - predict(w, r)).powi(2)).sum::<f64>() / rows.len() as f64).sqrt()
}
fn at_times(rows: &[Row], v: &[f64], n: usize) -> Vec<f64> {
    rows.par_chunks(1 << 14).zip(v.par_chunks(1 << 14)).map(|(rs, vs)| {
        let mut g = vec![0f64; n];
        for (r, &x) in rs.iter().zip(vs) { for &i in &r.idx { g[i as usize] += x; } }
        g
    }).reduce(|| vec![0f64; n], |mut a, b| { for (x, y) in a.iter_mut().zip(b) { *x += y; } a })
}
fn dot(a: &[f64], b: &[f64]) -> f64 { a.iter().zip(b).map(|(x, y)| x * y).sum() }

/// CG on (A'A + l2 I) x = A'y, early-stopped on `valid`.
fn fit(n: usize, rows: &[Row], valid: &[Row], l2: f64, iters: u32) -> (Vec<f64>, u32) {
    let mut x = vec![0f64; n];
    let mut used = vec![false; n];
    for r in rows { for &i in &r.idx { used[i as usize] = true; } }
    let res: Vec<f64> = rows.par_iter().map(|r| r.y - predict(&x, r)).collect();
    let mut r = at_times(rows, &res, n);
    for i in 0..n { if !used[i] { r[i] = 0.0 } }
    let mut p = r.clone();
    let mut rs = dot(&r, &r);
    let mut best = (rmse(&x, valid), x.clone(), 0);
    for it in 1..=iters {
        let apr: Vec<f64> = rows.par_iter().map(|row| predict(&p, row)).collect();
        let mut ap = at_times(rows, &apr, n);
        for i in 0..n { if used[i] { ap[i] += l2 * p[i] } }
        let alpha = rs / dot(&p, &ap);
        for i in 0..n { x[i] += alpha * p[i]; r[i] -= alpha * ap[i]; }
        let rn = dot(&r, &r);
        let beta = rn / rs;
        for i in 0..n { p[i] = r[i] + beta * p[i]; }
        rs = rn;
        let v = rmse(&x, valid);
        if v < best.0 { best = (v, x.clone(), it); }
    }
    (best.1, best.2)
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    // fitx DATA.csv LO HI EXTRAS(comma list or -) L2 ITERS REALFRAC HELDOUT.obf...
    let (lo, hi): (u32, u32) = (a[2].parse().unwrap(), a[3].parse().unwrap());
    let extras: Vec<usize> = if a[4] == "-" { vec![] } else {
        a[4].split(',').map(|n| EXTRAS.iter().position(|e| e.name == n).expect("extra")).collect() };
    let l2: f64 = a[5].parse().unwrap();
    let iters: u32 = a[6].parse().unwrap();
    let realfrac: f64 = a[7].parse().unwrap();
    let model = Model::new(extras);
    let _ = model.narrow;
    let f = std::io::BufReader::new(std::fs::File::open(&a[1]).unwrap());
    let (mut train, mut valid) = (vec![], vec![]);
    let (mut tb, mut vb) = (vec![], vec![]);
    for line in f.lines().skip(1) {
        let line = line.unwrap();
        let c: Vec<&str> = line.split(',').collect();
        let e: u32 = c[1].parse().unwrap();
        if e < lo || e > hi { continue }
        let game: u64 = c[0].parse().unwrap();
        // real positions are numbered from 20000 on; keep a fraction of them (learning curve)
        if std::env::var("REAL_ONLY").is_ok() && game < 20000 { continue }
        if std::env::var("SELF_ONLY").is_ok() && game >= 20000 { continue }
        if game >= 20000 && ((game * 2654435761) % 1000) as f64 >= realfrac * 1000.0 { continue }
        let b = board_of(c[2]);
        let row = Row { idx: model.indices(&b), y: c[3].parse().unwrap() };
        if c[4] == "test" { valid.push(row); vb.push(b) } else { train.push(row); tb.push(b) }
    }
    let t = std::time::Instant::now();
    if let Ok(h) = std::env::var("MLP") {
        let mut tests = vec![];
        for path in &a[8..] {
            let (mut rows, mut bs) = (vec![], vec![]);
            for line in std::io::BufReader::new(std::fs::File::open(path).unwrap()).lines() {
                let line = line.unwrap();
                if let Ok(Some(rec)) = finale::board::parse::parse_obf_line(&line) {
                    if let Some(s) = rec.expected_score() {
                        rows.push(Row { idx: model.indices(&rec.position.board), y: s as f64 });
                        bs.push(rec.position.board);
                    }
                }
            }
            tests.push((path.rsplit('/').next().unwrap().to_string(), rows, bs));
        }
        mlp_experiment(&model, &train, &tb, &valid, &vb, &tests, l2, iters, h.parse().unwrap());
        println!("({:.0} s)", t.elapsed().as_secs_f64());
        return;
    }
    let (w, kept) = fit(model.size, &train, &valid, l2, iters);
    print!("extras={} l2={l2} realfrac={realfrac} train={} valid={} kept={kept} train_rmse={:.3} valid_rmse={:.3}",
        a[4], train.len(), valid.len(), rmse(&w, &train), rmse(&w, &valid));
    for path in &a[8..] {
        let mut rows = vec![];
        for line in std::io::BufReader::new(std::fs::File::open(path).unwrap()).lines() {
            let line = line.unwrap();
            if let Ok(Some(rec)) = finale::board::parse::parse_obf_line(&line) {
                if let Some(s) = rec.expected_score() {
                    rows.push(Row { idx: model.indices(&rec.position.board), y: s as f64 });
                }
            }
        }
        print!(" | {} n={} rmse={:.3}", path.rsplit('/').next().unwrap(), rows.len(), rmse(&w, &rows));
    }
    println!(" ({:.0} s)", t.elapsed().as_secs_f64());
}

/// Groups of a row's index list: each base pattern's instances, the bias, each mobility
/// table, each extra pattern's instances.
fn groups(model: &Model) -> Vec<std::ops::Range<usize>> {
    use finale::eval::pattern::PATTERNS;
    let mut g = vec![];
    let mut at = 0;
    for p in PATTERNS.iter() { g.push(at..at + p.instances.len()); at += p.instances.len(); }
    g.push(at..at + 1); at += 1;
    for _ in 0..MOBILITY_TABLES { g.push(at..at + 1); at += 1; }
    for &e in &model.extras { let n = EXTRAS[e].sym.len(); g.push(at..at + n); at += n; }
    g
}

/// Scalar inputs of the second stage: the group sums of a linear fit, and counts.
fn scalars(w: &[f64], r: &Row, b: &Board, gs: &[std::ops::Range<usize>]) -> Vec<f32> {
    use finale::board::moves::legal_moves;
    let mut z: Vec<f32> = gs.iter().map(|g| (r.idx[g.clone()].iter().map(|&i| w[i as usize]).sum::<f64>() / 16.0) as f32).collect();
    z.push((predict(w, r) / 32.0) as f32);
    let empty = !(b.player | b.opponent);
    let near = |d: u64| { let w_ = (d >> 1) & 0x7f7f7f7f7f7f7f7f; let e = (d << 1) & 0xfefefefefefefefe; let row = d | w_ | e; w_ | e | (row << 8) | (row >> 8) };
    let c = |x: u64| x.count_ones() as f32;
    z.push(c(legal_moves(b.player, b.opponent)) / 10.0);
    z.push(c(legal_moves(b.opponent, b.player)) / 10.0);
    z.push(c(b.player & near(empty)) / 10.0);
    z.push(c(b.opponent & near(empty)) / 10.0);
    z.push((c(b.player) - c(b.opponent)) / 16.0);
    const CORNER: u64 = 0x8100000000000081;
    z.push(c(b.player & CORNER) - c(b.opponent & CORNER));
    let mut odd = 0.0;
    for q in [0x0f0f0f0fu64, 0xf0f0f0f0, 0x0f0f0f0f << 32, 0xf0f0f0f0 << 32] { if c(empty & q) as u32 % 2 == 1 { odd += 1.0 } }
    z.push(odd / 2.0);
    z.push((b.empty_count() % 2) as f32);
    z
}

struct Mlp { w1: Vec<f32>, b1: Vec<f32>, w2: Vec<f32>, b2: f32, n: usize, h: usize }
impl Mlp {
    fn new(n: usize, h: usize) -> Mlp {
        let mut s = 12345u64;
        let mut rnd = || { s ^= s << 13; s ^= s >> 7; s ^= s << 17; ((s >> 11) as f64 / (1u64 << 53) as f64 - 0.5) as f32 };
        let sc = (2.0 / n as f32).sqrt();
        Mlp { w1: (0..n * h).map(|_| rnd() * sc * 2.0).collect(), b1: vec![0.0; h], w2: (0..h).map(|_| rnd() * 0.1).collect(), b2: 0.0, n, h }
    }
    fn fwd(&self, z: &[f32], hid: &mut [f32]) -> f32 {
        let mut out = self.b2;
        for j in 0..self.h {
            let mut a = self.b1[j];
            for i in 0..self.n { a += self.w1[j * self.n + i] * z[i]; }
            hid[j] = a.max(0.0);
            out += self.w2[j] * hid[j];
        }
        out
    }
}

/// Cross-fitted linear stage (K folds) plus an MLP on the scalars, trained on the
/// residuals by Adam, early-stopped on `valid`. Returns held-out rmse per file.
fn mlp_experiment(model: &Model, train: &[Row], tb: &[Board], valid: &[Row], vb: &[Board], tests: &[(String, Vec<Row>, Vec<Board>)], l2: f64, iters: u32, hidden: usize) {
    let k = 5;
    let gs = groups(model);
    let mut ztrain: Vec<Vec<f32>> = vec![vec![]; train.len()];
    for f in 0..k {
        let part: Vec<Row> = train.iter().enumerate().filter(|(i, _)| i % k != f).map(|(_, r)| Row { idx: r.idx.clone(), y: r.y }).collect();
        let (w, _) = fit(model.size, &part, valid, l2, iters);
        for i in (f..train.len()).step_by(k) { ztrain[i] = scalars(&w, &train[i], &tb[i], &gs); }
    }
    let (w, _) = fit(model.size, train, valid, l2, iters);
    let zv: Vec<Vec<f32>> = valid.iter().zip(vb).map(|(r, b)| scalars(&w, r, b, &gs)).collect();
    let zt: Vec<Vec<Vec<f32>>> = tests.iter().map(|(_, rows, bs)| rows.iter().zip(bs).map(|(r, b)| scalars(&w, r, b, &gs)).collect()).collect();
    let lin = |r: &Row, w: &[f64]| predict(w, r) as f32;
    let n = ztrain[0].len();
    let mut m = Mlp::new(n, hidden);
    // Adam
    let np = n * hidden + hidden + hidden + 1;
    let (mut mo, mut ve) = (vec![0f32; np], vec![0f32; np]);
    let (lr, b1, b2) = (1e-3f32, 0.9f32, 0.999f32);
    let mut step = 0i32;
    // target: y minus the out-of-fold linear prediction (its scaled value is input n-? : we kept it in z)
    let lin_oof: Vec<f32> = ztrain.iter().map(|z| z[gs.len()] * 32.0).collect();
    let eval_rmse = |m: &Mlp, zs: &[Vec<f32>], rows: &[Row], base: &dyn Fn(usize) -> f32| -> f64 {
        let mut hid = vec![0f32; m.h];
        let se: f64 = zs.iter().enumerate().map(|(i, z)| ((rows[i].y as f32 - base(i) - m.fwd(z, &mut hid)) as f64).powi(2)).sum();
        (se / zs.len() as f64).sqrt()
    };
    let vbase = |i: usize| lin(&valid[i], &w);
    let mut best = (eval_rmse(&m, &zv, valid, &vbase), 0usize, m.w1.clone(), m.b1.clone(), m.w2.clone(), m.b2);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut s = 99u64;
    let mut hid = vec![0f32; hidden];
    let epochs: usize = std::env::var("EPOCHS").map(|e| e.parse().unwrap()).unwrap_or(30);
    for epoch in 1..=epochs {
        for i in (1..order.len()).rev() { s ^= s << 13; s ^= s >> 7; s ^= s << 17; order.swap(i, (s % (i as u64 + 1)) as usize); }
        for batch in order.chunks(256) {
            let mut g = vec![0f32; np];
            for &i in batch {
                let z = &ztrain[i];
                let out = m.fwd(z, &mut hid);
                let err = out - (train[i].y as f32 - lin_oof[i]);
                // grads
                for j in 0..hidden {
                    g[n * hidden + hidden + j] += err * hid[j];
                    if hid[j] > 0.0 {
                        let d = err * m.w2[j];
                        g[n * hidden + j] += d;
                        for q in 0..n { g[j * n + q] += d * z[q]; }
                    }
                }
                g[np - 1] += err;
            }
            step += 1;
            let bs = batch.len() as f32;
            let c1 = 1.0 - b1.powi(step); let c2 = 1.0 - b2.powi(step);
            for p in 0..np {
                let gp = g[p] / bs;
                mo[p] = b1 * mo[p] + (1.0 - b1) * gp;
                ve[p] = b2 * ve[p] + (1.0 - b2) * gp * gp;
                let upd = lr * (mo[p] / c1) / ((ve[p] / c2).sqrt() + 1e-8);
                if p < n * hidden { m.w1[p] -= upd } else if p < n * hidden + hidden { m.b1[p - n * hidden] -= upd } else if p < np - 1 { m.w2[p - n * hidden - hidden] -= upd } else { m.b2 -= upd }
            }
        }
        let v = eval_rmse(&m, &zv, valid, &vbase);
        if v < best.0 { best = (v, epoch, m.w1.clone(), m.b1.clone(), m.w2.clone(), m.b2); }
    }
    let lin_valid = { let se: f64 = valid.iter().map(|r| (r.y - predict(&w, r)).powi(2)).sum(); (se / valid.len() as f64).sqrt() };
    m.w1 = best.2; m.b1 = best.3; m.w2 = best.4; m.b2 = best.5;
    print!("mlp hidden={hidden} epoch={} valid linear={lin_valid:.3} +mlp={:.3}", best.1, best.0);
    for (t, (name, rows, _)) in tests.iter().enumerate() {
        let base = |i: usize| lin(&rows[i], &w);
        let zero = |i: usize| lin(&rows[i], &w) + 0.0 * i as f32;
        let lr_ = { let se: f64 = rows.iter().enumerate().map(|(i, r)| ((r.y as f32 - zero(i)) as f64).powi(2)).sum(); (se / rows.len() as f64).sqrt() };
        print!(" | {name} linear={lr_:.3} +mlp={:.3}", eval_rmse(&m, &zt[t], rows, &base));
    }
    println!();
}
