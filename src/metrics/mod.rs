//! Game-design metrics: how long games last, how many real decisions they
//! hold, how the lead moves, how balanced the seats are, on every variant and
//! board. Per-game measures are counted during play (`measures`) and streamed
//! to `metrics.csv` ([`file`]); the report aggregates them per pairing and
//! setting with pair-clustered intervals (`aggregate`, `interval`) and
//! compares boards (`compare`).

pub(crate) mod aggregate;
pub(crate) mod compare;
pub(crate) mod file;
pub(crate) mod interval;
pub(crate) mod measures;

pub use aggregate::{pairing_label, BalanceTally, Family, GroupKey, GroupMetrics, Metric};
pub use compare::{compare_boards, BoardComparison};
pub use file::{
    metrics_header, metrics_values, parse_metrics_row, push_metrics_row, MetricsFileError,
    MetricsReader, METRICS_COLUMNS, METRICS_FILE,
};
pub use interval::{Estimate, RatioSums};
pub use measures::{GameMeasures, MeasureRecorder};
