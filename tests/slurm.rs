//! `scripts/slurm-batch.sh` run by a real Slurm, as docs/batch-and-clusters.md tells a user
//! to run it. The test starts a one-node cluster of its own on this machine (munged,
//! slurmctld and slurmd, each with its files in a temporary directory), submits the script
//! as a 4-task job array over a seeded set of positions, requeues one task with `scontrol
//! requeue` while it is solving, and has Slurm merge the shards after the array, as the
//! script's comment says (`--dependency=afterok`). It proves that under Slurm:
//!
//! - the script's `#SBATCH` lines are accepted, and it is what makes a task requeueable
//!   (the cluster's `JobRequeue=0` would refuse the requeue otherwise), with a log that
//!   keeps both runs of a requeued task (`--open-mode=append`);
//! - the array's tasks take disjoint shards that together cover the input;
//! - a requeued task resumes its own CSV: its second run skips every row the first wrote,
//!   and the two runs together solve each position of the shard once;
//! - the merge job runs once every task is done, the requeued one included, and `finale
//!   merge` exits 0 there (no conflict), holding every position once with the scores of a
//!   one-process `finale batch` of the same set.
//!
//! Ignored, saying why, where Slurm is not installed or the test does not run as root
//! (build.rs, `no_slurm`); CI installs Slurm and always runs it (.ci/run).

mod common;

use common::csv_rows::rows;
use std::collections::{HashMap, HashSet};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_finale");
/// Tasks of the job array (`--array=0-3`), hence shards.
const TASKS: u64 = 4;
/// What the test runs of Slurm and munge (as build.rs looks for them).
const SLURM_TOOLS: [&str; 8] = [
    "munged",
    "slurmctld",
    "slurmd",
    "sbatch",
    "squeue",
    "scontrol",
    "scancel",
    "sinfo",
];
/// The seeded set: 40 positions of 20-21 empties, about 35 s on one thread in all, so that
/// a task is still solving when it is requeued but the test takes about a minute.
const GENERATE: [&str; 6] = ["--seed", "67", "--count", "40", "--empties", "20-21"];

#[test]
#[cfg_attr(
    no_slurm,
    ignore = "Slurm is not installed here or this is not root (apt install slurm-wlm munge, run as root); CI installs it and runs this test"
)]
fn slurm_array_requeues_resumes_and_merges() {
    // CI installs Slurm (.ci/run); elsewhere the build script marks this test ignored
    // when the tools are missing (build.rs, `no_slurm`).
    let path = std::env::var_os("PATH").unwrap_or_default();
    for tool in SLURM_TOOLS {
        assert!(
            std::env::split_paths(&path).any(|d| d.join(tool).is_file()),
            "{tool} is needed for this test, and not on PATH: apt install slurm-wlm munge"
        );
    }
    assert!(
        unsafe { libc::geteuid() } == 0,
        "this test starts slurmd, which must run as root"
    );
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set.obf");
    let generated = finale().arg("generate").args(GENERATE).output().unwrap();
    assert!(generated.status.success(), "finale generate failed");
    std::fs::write(&set, &generated.stdout).unwrap();
    let keys = keys_of_file(&set);
    let shard_size = |t: u64| keys.iter().filter(|&&k| k % TASKS == t).count();

    // The one-process batch to compare with, run beside the cluster.
    let one = dir.path().join("one.csv");
    let mut reference = Reaped(Some(
        finale()
            .arg("batch")
            .arg(&set)
            .arg("--out")
            .arg(&one)
            .args(["--threads", "1", "--hash-mb", "16", "--no-progress"])
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.path().join("one.err")).unwrap())
            .spawn()
            .unwrap(),
    ));

    let cluster = Cluster::start(dir.path());
    let out = dir.path().join("out");
    let job = cluster.submit(&set, &out);
    // The merge, as the script's comment has Slurm run it once the whole array is done.
    let all = out.join("all.csv");
    let merge_job = cluster.submit_merge(&job, &out, &all);

    // Requeue a task that has written a row and still has positions to solve.
    let shard = |t: u64| out.join(format!("shard-{t}.csv"));
    let mut refused = HashSet::new();
    let start = Instant::now();
    let (task, rows_before) = loop {
        let running = (0..TASKS).find(|&t| {
            let n = data_rows(&shard(t));
            n >= 1 && n < shard_size(t) && !refused.contains(&t)
        });
        if let Some(t) = running {
            let rows_before = data_rows(&shard(t));
            let o = cluster
                .command("scontrol")
                .args(["requeue", "Incomplete", &format!("{job}_{t}")])
                .output()
                .unwrap();
            if o.status.success() {
                break (t, rows_before);
            }
            let error = String::from_utf8_lossy(&o.stderr);
            let info = cluster.job_info(&format!("{job}_{t}"));
            assert_ne!(
                field(&info, "JobState"),
                Some("RUNNING"),
                "scontrol refused to requeue running task {t}: {error}{info}"
            );
            // It finished between the look and the requeue: another task will do.
            eprintln!("note: task {t} not requeued, as it has just finished: {error}");
            refused.insert(t);
        }
        if cluster.queue(&job).is_empty() {
            panic!("every task finished before one could be requeued: positions too quick");
        }
        assert!(
            start.elapsed() < Duration::from_secs(600),
            "no task wrote a row in 10 minutes"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let requeued = format!("{job}_{task}");
    eprintln!(
        "requeued task {task} after {rows_before} rows of {}",
        shard_size(task)
    );
    // Slurm holds a requeued job back (squeue reason BeginTime; two minutes with 22.05):
    // start it again at once, as an administrator may.
    let start = Instant::now();
    loop {
        let info = cluster.job_info(&requeued);
        let state = field(&info, "JobState");
        if state == Some("PENDING") {
            cluster.run(
                "scontrol",
                &["update", &format!("JobId={requeued}"), "StartTime=now"],
            );
            break;
        }
        if field(&info, "Restarts") == Some("1") && matches!(state, Some("RUNNING" | "COMPLETED")) {
            break; // started again already (a Slurm that does not hold it back)
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the requeued task never became pending: {info}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }

    let start = Instant::now();
    while !cluster.queue(&job).is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(600),
            "the array did not finish in 10 minutes:\n{}",
            cluster.queue(&job)
        );
        std::thread::sleep(Duration::from_millis(200));
    }

    // Every task completed with exit 0, only the requeued one restarted (once).
    for t in 0..TASKS {
        let info = cluster.job_info(&format!("{job}_{t}"));
        assert_eq!(
            field(&info, "JobState"),
            Some("COMPLETED"),
            "task {t}: {info}"
        );
        assert_eq!(field(&info, "ExitCode"), Some("0:0"), "task {t}: {info}");
        let restarts = if t == task { "1" } else { "0" };
        assert_eq!(field(&info, "Restarts"), Some(restarts), "task {t}: {info}");
    }
    // The requeued task's log holds both runs: the first stopped by the requeue, the
    // second skipping what the first wrote; together they solved each position once.
    let log = std::fs::read_to_string(cluster.task_log(&job, task)).unwrap();
    assert!(
        log.contains("DUE TO JOB REQUEUE"),
        "no requeue in its log:\n{log}"
    );
    let runs = summaries(&log);
    assert_eq!(runs.len(), 2, "two runs in the requeued task's log:\n{log}");
    assert_eq!(runs[0]["already done"], 0, "{log}");
    assert!(runs[0]["solved"] >= rows_before, "{log}");
    assert_eq!(runs[1]["already done"], runs[0]["solved"], "{log}");
    assert_eq!(
        runs[0]["solved"] + runs[1]["solved"],
        shard_size(task),
        "each position of the shard solved once:\n{log}"
    );

    // The shards: each position of the set in exactly one, in the one its key names.
    let mut union = HashSet::new();
    for t in 0..TASKS {
        let path = shard(t);
        assert!(path.is_file(), "shard {t} has no CSV");
        let shard_rows = rows(&path);
        assert_eq!(
            shard_rows.len(),
            shard_size(t),
            "shard {t}: one row a position"
        );
        for r in shard_rows {
            assert_eq!(r["status"], "solved", "shard {t}: {r:?}");
            let key = u64::from_str_radix(&r["key"], 16).unwrap();
            assert_eq!(key % TASKS, t, "shard {t} holds a key of another shard");
            assert!(union.insert(key), "key {} in two shards", r["key"]);
        }
    }
    assert_eq!(union, keys, "the shards cover the set");

    // Merged by Slurm after the array: no conflict (exit 0), every position once, the
    // one-process batch's scores.
    let start = Instant::now();
    while !cluster.queue(&merge_job).is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the merge job did not run after the array:\n{}",
            cluster.queue(&merge_job)
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let info = cluster.job_info(&merge_job);
    let merge_log = std::fs::read_to_string(cluster.merge_log(&merge_job)).unwrap_or_default();
    assert_eq!(
        (field(&info, "JobState"), field(&info, "ExitCode")),
        (Some("COMPLETED"), Some("0:0")),
        "the merge job: {info}\n{merge_log}"
    );
    let status = reference.0.take().unwrap().wait().unwrap();
    assert!(
        status.success(),
        "the one-process batch failed: {}",
        std::fs::read_to_string(dir.path().join("one.err")).unwrap()
    );
    let scores = |path: &Path| -> HashMap<u64, String> {
        let all = rows(path);
        let n = all.len();
        let map: HashMap<u64, String> = all
            .into_iter()
            .map(|r| {
                assert_eq!(r["status"], "solved", "{}: {r:?}", path.display());
                assert_eq!(r["mode"], "exact", "{}: {r:?}", path.display());
                (
                    u64::from_str_radix(&r["key"], 16).unwrap(),
                    r["score"].clone(),
                )
            })
            .collect();
        assert_eq!(map.len(), n, "{}: a position twice", path.display());
        map
    };
    let merged = scores(&all);
    let one = scores(&one);
    assert_eq!(merged.keys().copied().collect::<HashSet<_>>(), keys);
    assert_eq!(merged, one, "the merged scores are the one-process batch's");
}

/// `finale`, without the variables that would make a batch a shard of the test's own
/// Slurm job or Kubernetes index, if it runs under one.
fn finale() -> Command {
    let mut c = Command::new(BIN);
    without_slurm_env(&mut c);
    c.env_remove("JOB_COMPLETION_INDEX");
    c
}

fn without_slurm_env(c: &mut Command) {
    for (k, _) in std::env::vars_os() {
        if k.to_string_lossy().starts_with("SLURM_") {
            c.env_remove(k);
        }
    }
}

fn keys_of_file(file: &Path) -> HashSet<u64> {
    let text = std::fs::read_to_string(file).unwrap();
    text.lines()
        .filter_map(|l| finale::board::parse_obf_line(l).unwrap())
        .map(|r| finale::board::key::position_key(&r.position))
        .collect()
}

/// The job id `sbatch --parsable` printed, which must have succeeded.
fn job_id(sbatch: &std::process::Output) -> String {
    assert!(
        sbatch.status.success(),
        "sbatch: {}",
        String::from_utf8_lossy(&sbatch.stderr)
    );
    let stdout = String::from_utf8_lossy(&sbatch.stdout);
    let job = stdout.trim().split(';').next().unwrap().to_string();
    assert!(job.parse::<u64>().is_ok(), "sbatch printed {stdout}");
    job
}

/// Whole rows written to a batch CSV so far (its header not counted; 0 if none yet).
fn data_rows(csv: &Path) -> usize {
    std::fs::read(csv)
        .map(|b| b.iter().filter(|&&c| c == b'\n').count().saturating_sub(1))
        .unwrap_or(0)
}

/// The value of `Name=value` in one line of `scontrol show job -o`.
fn field<'a>(info: &'a str, name: &str) -> Option<&'a str> {
    info.split_whitespace()
        .find_map(|kv| kv.strip_prefix(name)?.strip_prefix('='))
}

/// The counts of each finale batch summary in a task's log, in order.
fn summaries(log: &str) -> Vec<HashMap<&'static str, usize>> {
    let mut runs = Vec::new();
    for line in log.lines() {
        if line.starts_with("read ") {
            runs.push(HashMap::new());
        }
        for name in ["already done", "solved"] {
            if let Some(n) = line.strip_prefix(name)
                && let Some(run) = runs.last_mut()
            {
                run.insert(name, n.trim().parse().unwrap());
            }
        }
    }
    runs
}

/// A child process killed (and reaped) when dropped, as on a failed assertion.
struct Reaped(Option<Child>);

impl Drop for Reaped {
    fn drop(&mut self) {
        if let Some(c) = self.0.take() {
            stop(c);
        }
    }
}

/// SIGTERM, then SIGKILL after 10 s; reaped either way.
fn stop(mut child: Child) {
    if !matches!(child.try_wait(), Ok(None)) {
        return; // exited and reaped: its id may be another process's by now
    }
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(10) {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// A one-node Slurm cluster on this machine: munged, slurmctld and slurmd, with their
/// configuration, keys, sockets, state, logs and ports of their own in `dir`. Dropped, it
/// cancels the jobs it ran, stops its daemons and kills whatever they left (job steps),
/// also when the test fails, and prints the daemons' logs then.
struct Cluster {
    dir: PathBuf,
    conf: PathBuf,
    host: String,
    daemons: std::cell::RefCell<Vec<(&'static str, Reaped)>>,
    jobs: std::cell::RefCell<Vec<String>>,
}

impl Cluster {
    fn start(dir: &Path) -> Cluster {
        // munged wants every directory above its socket searchable by all.
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o711)).unwrap();
        for sub in ["munge", "state", "spool", "log"] {
            std::fs::create_dir(dir.join(sub)).unwrap();
        }
        std::fs::set_permissions(dir.join("munge"), std::fs::Permissions::from_mode(0o711))
            .unwrap();
        let key = dir.join("munge/munge.key");
        let mut random = vec![0u8; 1024];
        std::io::Read::read_exact(
            &mut std::fs::File::open("/dev/urandom").unwrap(),
            &mut random,
        )
        .unwrap();
        std::fs::write(&key, &random).unwrap();
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o400)).unwrap();
        // slurmctld runs only on the host its configuration names, as `hostname -s` does.
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
        let host = host.trim().split('.').next().unwrap().to_string();
        let cpus = std::thread::available_parallelism().unwrap().get();
        let cluster = Cluster {
            dir: dir.to_path_buf(),
            conf: dir.join("slurm.conf"),
            host,
            daemons: Default::default(),
            jobs: Default::default(),
        };
        let d = dir.display();
        let socket = dir.join("munge/munge.socket");
        cluster.spawn(
            "munged",
            Command::new("munged").arg("--foreground").args([
                format!("--socket={}", socket.display()),
                format!("--key-file={}", key.display()),
                format!("--pid-file={d}/munge/munged.pid"),
                format!("--seed-file={d}/munge/munged.seed"),
                format!("--log-file={d}/log/munged.log"),
            ]),
        );
        cluster.wait_for("munged's socket", || socket.exists());

        // Two free ports, so that nothing else on the machine (a real Slurm) interferes.
        let listeners: Vec<_> = (0..2)
            .map(|_| std::net::TcpListener::bind("127.0.0.1:0").unwrap())
            .collect();
        let port = |i: usize| listeners[i].local_addr().unwrap().port();
        let conf = format!(
            "# A one-node cluster for tests/slurm.rs.
ClusterName=finaletest
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={ctld_port}
SlurmdPort={slurmd_port}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={socket}
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/log/slurmctld.log
SlurmdLogFile={d}/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
SchedulerType=sched/builtin
SlurmdParameters=config_overrides
MpiDefault=none
ReturnToService=2
# Only the script's --requeue makes its tasks requeueable.
JobRequeue=0
KillWait=5
MinJobAge=600
MailProg=/bin/true
NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes={host} Default=YES MaxTime=INFINITE State=UP
",
            host = cluster.host,
            ctld_port = port(0),
            slurmd_port = port(1),
            socket = socket.display(),
        );
        std::fs::write(&cluster.conf, conf).unwrap();
        drop(listeners);
        let conf = cluster.conf.clone();
        cluster.spawn(
            "slurmctld",
            Command::new("slurmctld").arg("-D").arg("-f").arg(&conf),
        );
        let host = cluster.host.clone();
        cluster.spawn(
            "slurmd",
            Command::new("slurmd")
                .arg("-D")
                .arg("-f")
                .arg(&conf)
                .args(["-N", &host]),
        );
        cluster.wait_for("the node to be idle", || {
            cluster
                .command("sinfo")
                .args(["-h", "-N", "-o", "%T"])
                .output()
                .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "idle")
        });
        cluster
    }

    /// Starts a daemon in the foreground, its output into `log/NAME.out`.
    fn spawn(&self, name: &'static str, cmd: &mut Command) {
        let out = std::fs::File::create(self.dir.join(format!("log/{name}.out"))).unwrap();
        without_slurm_env(cmd);
        let child = cmd
            .env("SLURM_CONF", &self.conf)
            .stdin(Stdio::null())
            .stdout(out.try_clone().unwrap())
            .stderr(out)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
        self.daemons.borrow_mut().push((name, Reaped(Some(child))));
    }

    /// Waits up to a minute for `ready`, failing early if a daemon has exited.
    fn wait_for(&self, what: &str, mut ready: impl FnMut() -> bool) {
        let start = Instant::now();
        while !ready() {
            for (name, d) in self.daemons.borrow_mut().iter_mut() {
                if let Some(status) = d.0.as_mut().unwrap().try_wait().unwrap() {
                    panic!("{name} exited ({status}) while waiting for {what}");
                }
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "waited a minute for {what}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// A Slurm command of this cluster.
    fn command(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        without_slurm_env(&mut c);
        c.env("SLURM_CONF", &self.conf);
        c
    }

    /// The standard output of a Slurm command that must succeed.
    fn run(&self, program: &str, args: &[&str]) -> String {
        let o = self.command(program).args(args).output().unwrap();
        assert!(
            o.status.success(),
            "{program} {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8_lossy(&o.stdout).into_owned()
    }

    /// Submits the recipe as a job array, as docs/batch-and-clusters.md has it, with the
    /// resources cut to this node and the log in the temporary directory; its id.
    fn submit(&self, set: &Path, out: &Path) -> String {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/slurm-batch.sh");
        let o = self
            .command("sbatch")
            .args([
                "--parsable",
                "--array=0-3",
                "--cpus-per-task=1",
                "--mem=100M",
            ])
            .args(["--time=10", "--chdir"])
            .arg(&self.dir)
            .arg("--output")
            .arg(self.dir.join("log/finale-batch-%A_%a.log"))
            .arg(script)
            .arg(set)
            .arg(format!("{}/", out.display()))
            .env("FINALE", BIN)
            .env("HASH_MB", "16")
            .output()
            .unwrap();
        let job = job_id(&o);
        self.jobs.borrow_mut().push(job.clone());
        job
    }

    /// What `squeue` lists of `job` (empty once every task has left the queue).
    fn queue(&self, job: &str) -> String {
        self.run("squeue", &["-h", "-j", job, "-o", "%i %T %r"])
            .trim()
            .to_string()
    }

    /// `scontrol show job -o` of one job or array task.
    fn job_info(&self, job: &str) -> String {
        self.run("scontrol", &["show", "job", "-o", job])
            .trim()
            .to_string()
    }

    /// Submits `finale merge OUT/shard-*.csv --out ALL` to run after every task of `job`
    /// has completed with exit 0 (`--dependency=afterok`); its id.
    fn submit_merge(&self, job: &str, out: &Path, all: &Path) -> String {
        let quote = |p: &Path| format!("'{}'", p.display().to_string().replace('\'', r"'\''"));
        let wrap = format!(
            "{} merge {}/shard-*.csv --out {}",
            quote(Path::new(BIN)),
            quote(out),
            quote(all)
        );
        let o = self
            .command("sbatch")
            .args(["--parsable", "--job-name=finale-merge"])
            .arg(format!("--dependency=afterok:{job}"))
            .arg("--chdir")
            .arg(&self.dir)
            .arg("--output")
            .arg(self.dir.join("log/finale-merge-%j.log"))
            .arg("--wrap")
            .arg(wrap)
            .output()
            .unwrap();
        let merge = job_id(&o);
        self.jobs.borrow_mut().push(merge.clone());
        merge
    }

    fn merge_log(&self, job: &str) -> PathBuf {
        self.dir.join(format!("log/finale-merge-{job}.log"))
    }

    fn task_log(&self, job: &str, task: u64) -> PathBuf {
        self.dir.join(format!("log/finale-batch-{job}_{task}.log"))
    }

    /// Processes of this cluster that outlive its daemons (job steps, their tasks): those
    /// whose environment names this cluster's configuration.
    fn leftovers(&self) -> Vec<libc::pid_t> {
        let mark = format!("SLURM_CONF={}", self.conf.display());
        let me = std::process::id() as libc::pid_t;
        std::fs::read_dir("/proc")
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse::<libc::pid_t>().ok())
            .filter(|&pid| pid != me)
            .filter(|pid| {
                std::fs::read(format!("/proc/{pid}/environ"))
                    .is_ok_and(|env| env.split(|&b| b == 0).any(|var| var == mark.as_bytes()))
            })
            .collect()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for job in self.jobs.borrow().iter() {
            let _ = self.command("scancel").arg(job).status();
        }
        if std::thread::panicking() {
            // The daemons' and the tasks' logs, for the failure's reader.
            let mut logs: Vec<PathBuf> = std::fs::read_dir(self.dir.join("log"))
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
                .collect();
            logs.sort();
            for log in logs {
                let text = std::fs::read_to_string(&log).unwrap_or_default();
                let lines: Vec<&str> = text.lines().collect();
                let tail = lines[lines.len().saturating_sub(30)..].join("\n");
                eprintln!("--- the end of {}:\n{tail}", log.display());
            }
        }
        // slurmd and slurmctld first, then what they left, then munged.
        while let Some((name, mut daemon)) = self.daemons.get_mut().pop() {
            if name == "munged" {
                for pid in self.leftovers() {
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                }
            }
            if let Some(c) = daemon.0.take() {
                stop(c);
            }
        }
    }
}
