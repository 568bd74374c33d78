//! `hoyito solve --start --outcome`: who wins a standard start under perfect
//! play, by proof-number search (see `hoyito::solver::outcome`), with a
//! certificate for every answer; and `hoyito verify-proof`, which checks a
//! certificate with the move generator and the tables alone.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Args;
use hoyito::solver::outcome::certificate::{line_text, play_line};
use hoyito::solver::outcome::checkpoint::{self, StateOf};
use hoyito::solver::outcome::{
    certificate_name, certify, settle_outcome, verify, Answer, Certificate, Limits, Outcome,
    OutcomeSearch, Prover, Verdict,
};
use hoyito::solver::Tablebase;
use hoyito::{Move, Position, Rules, Variant};
use serde_json::json;

/// What `solve --start --outcome` is asked.
pub struct OutcomeRequest<'a> {
    pub variant: Variant,
    pub holes: u8,
    pub seeds: u32,
    pub tables: Option<&'a Path>,
    pub exact_up_to: u32,
    pub memory_mb: Option<u64>,
    pub threshold: Option<i32>,
    pub after: &'a [Move],
    pub certificates: Option<&'a Path>,
    pub checkpoint: Option<&'a Path>,
    pub checkpoint_every: f64,
    pub max_nodes: Option<u64>,
    pub max_seconds: Option<f64>,
    pub json: Option<&'a Path>,
}

/// The tables of `rules`' board up to `exact_up_to` seeds (the layers a game
/// from the start reaches), built into `dir` where missing.
fn load_tables(rules: &Rules, dir: Option<&Path>, exact_up_to: u32) -> Result<(Tablebase, u32)> {
    let mut tb = Tablebase::new(rules.variant, rules.holes)?;
    let exact = super::solve_start::reachable_layer(rules.total_seeds(), exact_up_to);
    let layers = Tablebase::dependencies(exact);
    tb.check_plan(&layers, dir)?;
    super::table_dir::table_dir(dir)?;
    let clock = Instant::now();
    for &k in &layers {
        tb.ensure(k, dir, &|_| {})
            .with_context(|| format!("tables: layer of {k} seeds"))?;
    }
    eprintln!(
        "tables: layers up to {exact} seeds ready [{:.1} s]",
        clock.elapsed().as_secs_f64()
    );
    Ok((tb, exact))
}

/// `hoyito solve --start --outcome`.
pub fn solve_outcome(req: OutcomeRequest<'_>) -> Result<()> {
    let rules = Rules::new(req.variant).with_board(req.holes as u32, req.seeds)?;
    let start = play_line(&rules, req.after).map_err(|e| anyhow::anyhow!("--after: {e}"))?;
    if start.is_over() && !req.after.is_empty() {
        bail!(
            "--after: the game is over after the line {}; there is nothing to prove",
            line_text(req.after, ",")
        );
    }
    if let Some(dir) = req.certificates {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot make the certificate directory {}", dir.display()))?;
    }
    let (tb, exact) = load_tables(&rules, req.tables, req.exact_up_to)?;
    let bytes = match req.memory_mb {
        Some(mb) => mb.saturating_mul(1 << 20),
        None => hoyito::solver::memory::memory_budget(1)
            .map(|b| (b.bytes / 2).min(1 << 30))
            .unwrap_or(1 << 30),
    };
    let state_of = StateOf {
        rules,
        tables: exact,
        after: req.after,
    };
    let clock = Instant::now();
    // Run on a thread with a deep stack: the search recurses once a ply.
    let result = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("outcome".into())
            .stack_size(1 << 30)
            .spawn_scoped(scope, || {
                run(&req, &rules, &start, &tb, exact, bytes, state_of, clock)
            })
            .context("cannot start the search thread")?
            .join()
            .map_err(|_| anyhow::anyhow!("the search thread panicked"))?
    })?;
    let seconds = clock.elapsed().as_secs_f64();
    // Proved: the outcome; bounds: some answer settled (a threshold's, or
    // "South does not win" with the draw still open); open: none.
    let (status, outcome_text) = match (result.outcome, req.threshold) {
        (Some(o), None) => ("proved", Some(o.to_string())),
        _ if result.lower.is_some() || result.upper.is_some() => ("bounds", None),
        _ => ("open", None),
    };
    if !req.after.is_empty() {
        println!(
            "root after {} ({} to move)",
            line_text(req.after, " "),
            start.side_to_move()
        );
    }
    println!("status {status}");
    if let Some(o) = &outcome_text {
        if req.after.is_empty() {
            println!("outcome {o} (for South, who moves first)");
        } else {
            println!("outcome {o} (for South, from the root)");
        }
    }
    println!(
        "bounds [{}, {}]",
        result.lower.map_or("?".into(), |v| v.to_string()),
        result.upper.map_or("?".into(), |v| v.to_string())
    );
    for a in &result.answers {
        println!("south margin >= {}: {}", a.target, verdict_text(&a.verdict));
    }
    println!(
        "{} nodes, {seconds:.1} s, table {} of {} slots ({} MB)",
        result.nodes, result.used, result.capacity, result.table_mb
    );
    for c in &result.certificates {
        println!(
            "certificate {} ({} nodes, {} bytes)",
            c.path, c.nodes, c.bytes
        );
    }
    if let Some(path) = req.json {
        let open = result.answers.iter().find_map(|a| match a.verdict {
            Verdict::Open { pn, dn } => Some(json!({"target": a.target, "pn": pn, "dn": dn})),
            _ => None,
        });
        let entry = json!({
            "variant": req.variant.to_string(),
            "holes": req.holes,
            "seeds": 2 * req.holes as u32 * req.seeds,
            "after": line_text(req.after, " "),
            "status": status,
            "outcome": outcome_text,
            "lower": result.lower,
            "upper": result.upper,
            "answers": result.answers.iter().map(|a| json!({
                "question": format!("south margin >= {}", a.target),
                "answer": verdict_text(&a.verdict),
            })).collect::<Vec<_>>(),
            "open": open,
            "method": format!(
                "df-pn proof search (1+epsilon thresholds, transposition table over the game's \
                 graph), leaves: decided margins and exact table values at {exact} seeds or fewer \
                 (hoyito solve --start --outcome)"),
            "exact_up_to": exact,
            "certificates": result.certificates.iter().map(|c| json!({
                "file": c.path, "claim": c.claim, "nodes": c.nodes, "bytes": c.bytes,
                "fnv64": format!("{:016x}", c.fnv),
            })).collect::<Vec<_>>(),
            "nodes": result.nodes,
            "seconds": (seconds * 10.0).round() / 10.0,
            "table_mb": result.table_mb,
            "peak_mb": super::solve_start::peak_mb(),
        });
        super::solve_start::write_text(path, &(serde_json::to_string(&entry)? + "\n"))?;
    }
    Ok(())
}

fn verdict_text(v: &Verdict) -> String {
    match v {
        Verdict::Proved => "proved".into(),
        Verdict::Disproved => "disproved".into(),
        Verdict::Open { pn, dn } => format!("open (pn {pn}, dn {dn})"),
    }
}

struct Written {
    path: String,
    claim: String,
    nodes: usize,
    bytes: usize,
    fnv: u64,
}

struct RunResult {
    outcome: Option<Outcome>,
    answers: Vec<Answer>,
    lower: Option<i32>,
    upper: Option<i32>,
    nodes: u64,
    used: usize,
    capacity: usize,
    table_mb: u64,
    certificates: Vec<Written>,
}

#[allow(clippy::too_many_arguments)]
fn run(
    req: &OutcomeRequest<'_>,
    rules: &Rules,
    start: &Position,
    tb: &Tablebase,
    exact: u32,
    bytes: u64,
    state_of: StateOf<'_>,
    clock: Instant,
) -> Result<RunResult> {
    // Declared before the prover, whose callbacks borrow them.
    let save_errors = std::cell::RefCell::new(None::<anyhow::Error>);
    let last_nodes = std::cell::Cell::new((0u64, 0f64));
    let mut prover = Prover::new(*rules, tb, exact, bytes);
    if let Some(path) = req.checkpoint {
        if path.exists() {
            let (entries, nodes) = checkpoint::load(path, state_of)?;
            eprintln!(
                "resuming from {}: {} entries, {nodes} nodes searched before",
                path.display(),
                entries.len()
            );
            prover.load(entries, nodes);
        }
    }
    if let Some(path) = req.checkpoint {
        let every = Duration::from_secs_f64(req.checkpoint_every.max(0.01));
        let errors = &save_errors;
        prover.on_checkpoint(every, move |table, nodes| {
            if let Err(e) = checkpoint::save(path, state_of, table, nodes) {
                errors.borrow_mut().get_or_insert(e.into());
            }
        });
    }
    prover.on_progress(Duration::from_secs(5), |p| {
        let (n0, t0) = last_nodes.get();
        let rate = if p.seconds > t0 {
            (p.nodes.saturating_sub(n0)) as f64 / (p.seconds - t0)
        } else {
            0.0
        };
        last_nodes.set((p.nodes, p.seconds));
        eprintln!(
            "{} nodes, {:.0} nodes/s, root pn {} dn {}, table {}/{}, deepest path {} [{:.0} s]",
            p.nodes,
            rate,
            show(p.pn),
            show(p.dn),
            p.used,
            p.capacity,
            p.deepest,
            clock.elapsed().as_secs_f64()
        );
    });
    let limits = Limits {
        nodes: req.max_nodes,
        time: req.max_seconds.map(Duration::from_secs_f64),
    };
    let search = match req.threshold {
        Some(t) => {
            let verdict = ask(&mut prover, start, t, limits);
            OutcomeSearch::new(None, vec![Answer { target: t, verdict }])
        }
        None => settle_outcome(|t| ask(&mut prover, start, t, limits)),
    };
    if let Some(e) = save_errors.borrow_mut().take() {
        return Err(e.context("the checkpoint could not be written"));
    }
    if let Some(path) = req.checkpoint {
        checkpoint::save(path, state_of, &prover.table, prover.nodes)?;
    }
    let mut certificates = Vec::new();
    if let Some(dir) = req.certificates {
        // A loss needs only North's proof of "at least 1" (which implies
        // the first answer's "at least 0").
        let skip = usize::from(search.outcome == Some(Outcome::Loss));
        for answer in search.answers.iter().skip(skip) {
            if matches!(answer.verdict, Verdict::Open { .. }) {
                continue;
            }
            let mut cert = certify(&mut prover, start, answer).with_context(|| {
                format!(
                    "the answer to \"south margin >= {}\" could not be written as a certificate",
                    answer.target
                )
            })?;
            cert.after = req.after.to_vec();
            verify(&cert, tb).map_err(|e| {
                anyhow::anyhow!(
                    "the certificate written failed its own check (a search fault): {e}"
                )
            })?;
            let path = dir.join(certificate_name(&cert));
            cert.save(&path)?;
            let encoded = cert.encode();
            certificates.push(Written {
                path: path.display().to_string(),
                claim: cert.to_string(),
                nodes: cert.nodes.len(),
                bytes: encoded.len(),
                fnv: hoyito::solver::outcome::certificate::fnv64(&encoded),
            });
        }
    }
    Ok(RunResult {
        outcome: search.outcome,
        answers: search.answers,
        lower: search.lower,
        upper: search.upper,
        nodes: prover.nodes,
        used: prover.table.used(),
        capacity: prover.table.capacity(),
        table_mb: prover.table.bytes().div_ceil(1 << 20),
        certificates,
    })
}

fn ask(prover: &mut Prover<'_>, start: &Position, target: i32, limits: Limits) -> Verdict {
    eprintln!("asking: is South's margin at least {target}?");
    let v = prover.prove(start, target, limits);
    eprintln!("south margin >= {target}: {}", verdict_text(&v));
    v
}

fn show(n: u32) -> String {
    if n == hoyito::solver::outcome::transposition::INF {
        "inf".into()
    } else {
        n.to_string()
    }
}

/// Arguments of `hoyito verify-proof`.
#[derive(Debug, Args)]
pub struct VerifyProofArgs {
    /// The certificates (written by `hoyito solve --start --outcome
    /// --certificates DIR`), each checked on its own.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Also join the certificates, each the proof of one move from the same
    /// position (shards made with `solve --outcome --after`), into the proof
    /// of that position's claim: every legal move covered where the
    /// opponent moves, one where the prover moves.
    #[arg(long)]
    join: bool,
    /// Directory of the table files its leaves use (built there if missing).
    #[arg(long = "tables", value_name = "DIR")]
    tables: Option<PathBuf>,
    /// Refuse a certificate of another variant.
    #[arg(long)]
    variant: Option<Variant>,
    /// Refuse a certificate of another board.
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=16))]
    holes: Option<u8>,
}

/// `hoyito verify-proof`.
pub fn verify_proof(args: VerifyProofArgs) -> Result<()> {
    let mut checked = Vec::with_capacity(args.files.len());
    for file in &args.files {
        checked.push(verify_one(&args, file)?);
    }
    if args.join {
        let claim = join(&checked)?;
        println!("joined: {claim}");
    }
    Ok(())
}

/// Checks one certificate file; returns it once it holds.
fn verify_one(args: &VerifyProofArgs, file: &Path) -> Result<(PathBuf, Certificate)> {
    let cert = Certificate::load(file)?;
    let name = file.display();
    if let Some(v) = args.variant {
        if v != cert.variant {
            bail!(
                "{name} is a certificate of Hoyito {}, not of Hoyito {v}",
                cert.variant
            );
        }
    }
    if let Some(h) = args.holes {
        if h != cert.holes {
            bail!(
                "{name} is a certificate of the 2x{} board, not of 2x{h}",
                cert.holes
            );
        }
    }
    let rules = Rules::new(cert.variant).with_board(cert.holes as u32, cert.seeds as u32)?;
    let clock = Instant::now();
    let (tb, exact) = load_tables(&rules, args.tables.as_deref(), cert.tables)?;
    if exact != cert.tables {
        bail!(
            "{name} uses table layers up to {} seeds, which a game from its start does not reach",
            cert.tables
        );
    }
    let report = verify(&cert, &tb).with_context(|| format!("{name} is refused"))?;
    println!(
        "verified: {cert} ({} nodes, {} leaves of which {} from the tables, {} nodes where endless play wins) [{:.1} s]",
        report.nodes,
        report.leaves,
        report.table_leaves,
        report.cycle_nodes,
        clock.elapsed().as_secs_f64()
    );
    Ok((file.to_path_buf(), cert))
}

/// The claim that checked certificates prove together: shards of one
/// position's moves join into that position's claim, level by level from
/// the deepest line up (shards of the replies after move 5 into the claim
/// after 5, which then joins its siblings), until one claim is left.
fn join(certs: &[(PathBuf, Certificate)]) -> Result<Certificate> {
    let (first_path, first) = &certs[0];
    for (path, c) in certs {
        let same_claim = c.variant == first.variant
            && c.holes == first.holes
            && c.seeds == first.seeds
            && c.prover == first.prover
            && c.target == first.target;
        if !same_claim {
            bail!(
                "{} proves \"{c}\", another claim than {}'s \"{first}\"; shards to join \
                 prove one claim",
                path.display(),
                first_path.display()
            );
        }
    }
    let rules = Rules::new(first.variant).with_board(first.holes as u32, first.seeds as u32)?;
    // The lines whose claims hold so far.
    let mut held: std::collections::BTreeSet<Vec<Move>> =
        certs.iter().map(|(_, c)| c.after.clone()).collect();
    while held.len() > 1 {
        let deepest = held.iter().map(Vec::len).max().unwrap_or(0);
        if deepest == 0 {
            break;
        }
        let mut parents: std::collections::BTreeMap<Vec<Move>, Vec<Move>> = Default::default();
        for line in held.iter().filter(|l| l.len() == deepest) {
            let (last, parent) = line.split_last().expect("a line of at least one move");
            parents.entry(parent.to_vec()).or_default().push(*last);
        }
        for (parent_line, covered) in parents {
            let parent = play_line(&rules, &parent_line).map_err(|e| anyhow::anyhow!(e))?;
            let at = if parent_line.is_empty() {
                "the start".to_string()
            } else {
                format!("the position after {}", line_text(&parent_line, " "))
            };
            if parent.side_to_move() != first.prover {
                let missing: Vec<String> = parent
                    .legal_moves(&rules)
                    .iter()
                    .filter(|m| !covered.contains(m))
                    .map(|m| m.to_string())
                    .collect();
                if !missing.is_empty() {
                    bail!(
                        "the shards do not cover every reply at {at}: no certificate for move {} \
                         (each needs its own --after shard)",
                        missing.join(", ")
                    );
                }
            }
            for mv in covered {
                let mut line = parent_line.clone();
                line.push(mv);
                held.remove(&line);
            }
            held.insert(parent_line);
        }
    }
    if held.len() > 1 {
        bail!("the certificates do not join into one claim");
    }
    Ok(Certificate {
        after: held.into_iter().next().unwrap_or_default(),
        nodes: Vec::new(),
        ..first.clone()
    })
}
