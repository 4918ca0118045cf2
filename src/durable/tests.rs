use super::*;

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut n: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    n.sort();
    n
}

#[test]
fn a_committed_replacement_is_the_file_and_leaves_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("out.csv");
    std::fs::write(&dest, "old\n").unwrap();
    let mut r = Replacement::beside(&dest, ".x-", Access::Plain).unwrap();
    assert_eq!(r.path().parent(), Some(dir.path()));
    assert!(
        r.path()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with(".x-")
    );
    r.write_all(b"new\n").unwrap();
    r.commit(Existing::Replace).unwrap();
    assert_eq!(std::fs::read_to_string(&dest).unwrap(), "new\n");
    assert_eq!(names(dir.path()), ["out.csv"]);
}

#[test]
fn an_uncommitted_or_failed_replacement_leaves_the_old_file_intact() {
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("w.bin");
    std::fs::write(&dest, "old").unwrap();
    // Dropped part way (an error while writing): the old file stays, the temporary goes.
    let mut r = Replacement::beside(&dest, ".w-", Access::Plain).unwrap();
    r.file_mut().write_all(b"half").unwrap();
    drop(r);
    assert_eq!(std::fs::read_to_string(&dest).unwrap(), "old");
    assert_eq!(names(dir.path()), ["w.bin"]);
    // A write that fails: the device is full.
    let full = Path::new("/dev/full");
    if full.exists() {
        let mut f = std::fs::OpenOptions::new().write(true).open(full).unwrap();
        assert!(write_synced(&mut f, b"x").is_err());
    }
    // A rename that fails: a directory is where the file should go.
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    std::fs::write(sub.join("keep"), "k").unwrap();
    let mut r = Replacement::beside(&sub, ".s-", Access::Plain).unwrap();
    r.write_all(b"new").unwrap();
    let e = r
        .commit(Existing::Replace)
        .expect_err("a directory is not replaced");
    assert_eq!(e.step, Step::Rename);
    assert_eq!(names(dir.path()), ["sub", "w.bin"]);
    assert_eq!(names(&sub), ["keep"]);
}

#[test]
fn refusing_an_existing_file_keeps_it_and_replacing_a_missing_one_creates_it() {
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("m.csv");
    let mut r = Replacement::beside(&dest, ".m-", Access::Plain).unwrap();
    // Appears while the replacement is written.
    std::fs::write(&dest, "theirs").unwrap();
    r.write_all(b"ours").unwrap();
    let e = r
        .commit(Existing::Refuse)
        .expect_err("an existing file is refused");
    assert_eq!(
        (e.step, e.source.kind()),
        (Step::Rename, io::ErrorKind::AlreadyExists)
    );
    assert_eq!(std::fs::read_to_string(&dest).unwrap(), "theirs");
    assert_eq!(names(dir.path()), ["m.csv"]);
    let new = dir.path().join("n.csv");
    let mut r = Replacement::beside(&new, ".n-", Access::Plain).unwrap();
    r.write_all(b"ours").unwrap();
    r.commit(Existing::Refuse).unwrap();
    assert_eq!(std::fs::read_to_string(&new).unwrap(), "ours");
}

#[test]
fn a_plain_replacement_has_a_plain_files_mode_and_a_private_one_the_owners() {
    let dir = tempfile::tempdir().unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    // The reference: a file created plainly, under this process's umask.
    let plain = dir.path().join("plain");
    File::create(&plain).unwrap();
    for (name, access, want) in [
        ("a", Access::Plain, mode(&plain)),
        ("b", Access::Private, 0o600),
    ] {
        let dest = dir.path().join(name);
        Replacement::beside(&dest, ".t-", access)
            .unwrap()
            .commit(Existing::Replace)
            .unwrap();
        assert_eq!(mode(&dest), want, "{access:?}");
    }
}

#[test]
fn a_bare_file_name_is_replaced_in_the_current_directory() {
    assert_eq!(dir_of(Path::new("x.csv")), Path::new("."));
    assert_eq!(dir_of(Path::new("a/b/x.csv")), Path::new("a/b"));
    assert_eq!(dir_of(Path::new("/x.csv")), Path::new("/"));
}

/// `text` written to a file, its torn tail found and dropped: the file's text after.
fn dropped(text: &[u8]) -> (Tail, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rows.csv");
    std::fs::write(&path, text).unwrap();
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .append(true)
        .open(&path)
        .unwrap();
    let tail = torn_tail(&mut file).unwrap();
    tail.drop_torn(&file).unwrap();
    (tail, std::fs::read(&path).unwrap())
}

#[test]
fn a_torn_last_row_is_dropped_and_a_whole_one_kept() {
    let (tail, after) = dropped(b"a,b\n1,2\n3,");
    assert_eq!((tail.whole, tail.len, tail.torn_bytes()), (8, 10, 2));
    assert_eq!(after, b"a,b\n1,2\n");
    let (tail, after) = dropped(b"a,b\n1,2\n");
    assert_eq!(tail.torn_bytes(), 0);
    assert_eq!(after, b"a,b\n1,2\n");
    // No newline at all: all of it is torn.
    assert_eq!(dropped(b"a,b").1, b"");
    assert_eq!(dropped(b"").0, Tail { whole: 0, len: 0 });
}

#[test]
fn a_torn_row_is_found_behind_rows_longer_than_a_read() {
    // The last newline lies several 64 KiB chunks back.
    let mut text = b"head\n".to_vec();
    text.extend(std::iter::repeat_n(b'x', 200_000));
    let (tail, after) = dropped(&text);
    assert_eq!((tail.whole, tail.len), (5, 200_005));
    assert_eq!(after, b"head\n");
    // And one just past a chunk's edge.
    let mut text = vec![b'y'; 65_536];
    text.push(b'\n');
    text.extend(b"torn");
    assert_eq!(dropped(&text).1.len(), 65_537);
}

#[test]
fn only_a_short_or_unended_last_row_is_torn() {
    // (last, fields, columns, newline after) -> torn
    let cases = [
        ((true, 3, 5, true), true),
        ((true, 3, 5, false), true),
        ((true, 5, 5, false), true),
        ((true, 5, 5, true), false),
        ((true, 6, 5, false), false),
        ((false, 3, 5, true), false),
        ((false, 5, 5, false), false),
    ];
    for ((last, fields, columns, newline), torn) in cases {
        assert_eq!(
            is_torn_row(last, fields, columns, newline),
            torn,
            "{last} {fields} {columns} {newline}"
        );
    }
}

#[test]
fn the_last_byte_reader_sees_whether_the_text_ends_in_a_newline() {
    for (text, ends) in [(&b"a\nb\n"[..], true), (b"a\nb", false), (b"", false)] {
        let mut r = LastByte::new(text);
        let mut all = Vec::new();
        r.read_to_end(&mut all).unwrap();
        assert_eq!((all.as_slice(), r.ends_in_newline()), (text, ends));
    }
}

#[test]
fn appended_rows_and_written_files_reach_the_disk() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f");
    let mut f = File::create(&path).unwrap();
    write_synced(&mut f, b"abc\n").unwrap();
    sync_appended(&f).unwrap();
    sync_dir(dir.path()).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"abc\n");
    assert!(sync_dir(&dir.path().join("missing")).is_err());
    cut_back(&f, 2).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"ab");
}
