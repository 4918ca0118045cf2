//! The bench signature: the node count of `finale bench` must equal the one recorded in
//! bench.signature. A change of search behaviour updates that file in the same commit.

#[test]
fn bench_node_count_matches_signature() {
    let expected: u64 = include_str!("../bench.signature")
        .trim()
        .parse()
        .expect("bench.signature holds one integer");
    let summary = finale::commands::run_bench(1, false, &mut std::io::sink()).expect("bench runs");
    assert_eq!(
        summary.nodes, expected,
        "the search behaviour changed: run `finale bench`, put its node count in \
         bench.signature and say `Bench: N` in the commit message"
    );
}
