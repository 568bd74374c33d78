//! How much memory the solver may use: the smallest of what the machine has
//! free, what the process's address-space limit leaves, and what its control
//! group allows.
//!
//! Reading only the machine's `MemAvailable` let a build start under `ulimit -v`
//! or in a container with a memory limit and then die on an allocation, after
//! minutes. Linux only: elsewhere nothing is known and nothing is refused up
//! front (allocations of tables still fail as errors, not aborts).
//!
//! Sources: proc(5) for `/proc/meminfo`, `/proc/self/limits` and
//! `/proc/self/status`; the kernel's cgroup v2 documentation (`memory.max`,
//! `memory.current`, `memory.stat`) and cgroup v1 memory controller
//! documentation (`memory.limit_in_bytes`, `memory.usage_in_bytes`).

use std::fmt;
use std::path::Path;

/// Which limit bounds the memory available.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemorySource {
    /// The machine's free memory (`MemAvailable`).
    Machine,
    /// The process's address-space limit (`ulimit -v`, `RLIMIT_AS`).
    AddressSpace,
    /// The control group's limit (`memory.max` or `memory.limit_in_bytes`).
    Cgroup,
}

impl fmt::Display for MemorySource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MemorySource::Machine => "free on the machine, MemAvailable",
            MemorySource::AddressSpace => "under the address-space limit, ulimit -v",
            MemorySource::Cgroup => "under the control group's memory limit",
        })
    }
}

/// Memory the solver may still use, in bytes, and the limit that sets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryBudget {
    /// Bytes available.
    pub bytes: u64,
    /// Which limit is the smallest.
    pub source: MemorySource,
}

/// Address space that each worker thread reserves besides the tables: its
/// stack (2 MiB) and the allocator's per-thread arena (glibc reserves 64 MiB of
/// address space per arena on 64-bit systems, mallopt(3) `M_ARENA_MAX`).
/// Counted against `ulimit -v` only, which limits reservations, not use.
const ADDRESS_SPACE_PER_THREAD: u64 = 66 << 20;

/// The memory the solver may use now, with `threads` worker threads; `None`
/// where no limit can be read.
pub fn memory_budget(threads: usize) -> Option<MemoryBudget> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let machine = read("/proc/meminfo")
        .and_then(|t| mem_available(&t))
        .map(|bytes| (bytes, MemorySource::Machine));
    let address = read("/proc/self/limits")
        .and_then(|t| address_space_limit(&t))
        .map(|limit| {
            let used = read("/proc/self/status")
                .and_then(|t| vm_size(&t))
                .unwrap_or(0);
            let threads = ADDRESS_SPACE_PER_THREAD.saturating_mul(threads as u64);
            let left = limit.saturating_sub(used).saturating_sub(threads);
            (left, MemorySource::AddressSpace)
        });
    let cgroup = cgroup_left().map(|bytes| (bytes, MemorySource::Cgroup));
    [machine, address, cgroup]
        .into_iter()
        .flatten()
        .min_by_key(|&(bytes, _)| bytes)
        .map(|(bytes, source)| MemoryBudget { bytes, source })
}

/// The memory this process holds now (`VmRSS`), in bytes; `None` where it
/// cannot be read.
pub fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status_kb(&status, "VmRSS:").map(|kb| kb.saturating_mul(1024))
}

/// The most memory this process has held (`VmHWM`), in bytes; `None`
/// where it cannot be read.
pub fn peak_resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status_kb(&status, "VmHWM:").map(|kb| kb.saturating_mul(1024))
}

/// A `kB` line of `/proc/self/status`.
fn status_kb(status: &str, key: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// `MemAvailable` of `/proc/meminfo`, in bytes.
fn mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb.saturating_mul(1024))
}

/// The soft "Max address space" of `/proc/self/limits`, in bytes; `None` when
/// unlimited.
fn address_space_limit(limits: &str) -> Option<u64> {
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    line["Max address space".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// `VmSize` of `/proc/self/status` (address space in use), in bytes.
fn vm_size(status: &str) -> Option<u64> {
    status_kb(status, "VmSize:").map(|kb| kb.saturating_mul(1024))
}

/// A limit file's value: a number of bytes, or `None` for `max` (no limit) or
/// anything unreadable. cgroup v1 writes "no limit" as a number near 2^63,
/// which is then simply never the smallest.
fn limit_value(text: &str) -> Option<u64> {
    text.trim().parse().ok()
}

/// What this process's control group still allows: its limit less its use,
/// not counting the page cache it could drop (`inactive_file`).
fn cgroup_left() -> Option<u64> {
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    // cgroup v2: "0::/path"; v1: "N:memory:/path". The path may not exist
    // inside a container's namespace, whose mount is then the group itself.
    let v2 = own.lines().find_map(|l| l.strip_prefix("0::"));
    let v1 = own
        .lines()
        .find_map(|l| l.split_once(":memory:").map(|(_, p)| p));
    let candidates = [
        v2.map(|p| (format!("/sys/fs/cgroup{p}"), V2)),
        Some(("/sys/fs/cgroup".to_string(), V2)),
        v1.map(|p| (format!("/sys/fs/cgroup/memory{p}"), V1)),
        Some(("/sys/fs/cgroup/memory".to_string(), V1)),
    ];
    candidates
        .into_iter()
        .flatten()
        .find_map(|(dir, files)| group_left(Path::new(&dir), files))
}

/// The file names of one cgroup version: limit, usage, statistics key.
type GroupFiles = (&'static str, &'static str, &'static str);
const V2: GroupFiles = ("memory.max", "memory.current", "inactive_file");
const V1: GroupFiles = (
    "memory.limit_in_bytes",
    "memory.usage_in_bytes",
    "total_inactive_file",
);

fn group_left(dir: &Path, (limit, usage, inactive): GroupFiles) -> Option<u64> {
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
    let limit = limit_value(&read(limit)?)?;
    let used = read(usage).and_then(|t| limit_value(&t)).unwrap_or(0);
    let cache = read("memory.stat")
        .and_then(|t| stat_value(&t, inactive))
        .unwrap_or(0);
    Some(limit.saturating_sub(used.saturating_sub(cache)))
}

/// The value of `key` in a `memory.stat` file.
fn stat_value(stat: &str, key: &str) -> Option<u64> {
    stat.lines().find_map(|l| {
        let (k, v) = l.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok()).flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_files_are_read() {
        let meminfo = "MemTotal:       32000000 kB\nMemAvailable:    2000000 kB\n";
        assert_eq!(mem_available(meminfo), Some(2_048_000_000));
        let limits = "Limit                     Soft Limit           Hard Limit           Units\n\
                      Max stack size            8388608              unlimited            bytes\n\
                      Max address space         1048576000           unlimited            bytes\n";
        assert_eq!(address_space_limit(limits), Some(1_048_576_000));
        let unlimited =
            "Max address space         unlimited            unlimited            bytes\n";
        assert_eq!(address_space_limit(unlimited), None);
        assert_eq!(
            vm_size("Name:\thoyito\nVmSize:\t    3892 kB\n"),
            Some(3_985_408)
        );
        assert_eq!(
            status_kb("VmSize:\t 3892 kB\nVmRSS:\t  1200 kB\n", "VmRSS:"),
            Some(1200)
        );
        assert!(resident_bytes().is_some_and(|b| b > 0));
    }

    #[test]
    fn cgroup_files_are_read() {
        assert_eq!(limit_value("max\n"), None);
        assert_eq!(limit_value("536870912\n"), Some(536_870_912));
        let stat = "anon 100\nfile 900\ninactive_file 400\n";
        assert_eq!(stat_value(stat, "inactive_file"), Some(400));
        assert_eq!(stat_value(stat, "file"), Some(900));
        assert_eq!(stat_value(stat, "total_inactive_file"), None);
    }

    #[test]
    fn a_group_limit_less_its_working_set_is_left() {
        let dir = std::env::temp_dir().join(format!("hoyito-cgroup-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        std::fs::write(dir.join("memory.max"), "1000\n").expect("writable");
        std::fs::write(dir.join("memory.current"), "700\n").expect("writable");
        std::fs::write(dir.join("memory.stat"), "inactive_file 200\n").expect("writable");
        // 1000 - (700 - 200) = 500.
        assert_eq!(group_left(&dir, V2), Some(500));
        std::fs::write(dir.join("memory.max"), "max\n").expect("writable");
        assert_eq!(group_left(&dir, V2), None);
        std::fs::remove_dir_all(&dir).expect("cleaned up");
    }
}
