//! The one piece of linear algebra the ratings need: the inverse of a small
//! symmetric positive-definite matrix (the observed information of a
//! Bradley-Terry fit), by Gauss-Jordan elimination with partial pivoting.
//! Tournaments have a handful of agents, so a dependency is not worth it.

/// The inverse of the square matrix `a` (rows of equal length), or `None` when
/// it is singular to working precision.
pub(crate) fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut r = row.clone();
            r.extend((0..n).map(|j| if i == j { 1.0 } else { 0.0 }));
            r
        })
        .collect();
    let scale = a
        .iter()
        .flatten()
        .fold(0.0_f64, |acc, x| acc.max(x.abs()))
        .max(f64::MIN_POSITIVE);
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs()))?;
        if m[pivot][col].abs() <= 1e-12 * scale {
            return None;
        }
        m.swap(col, pivot);
        let p = m[col][col];
        m[col].iter_mut().for_each(|x| *x /= p);
        let pivot_row = m[col].clone();
        for (r, row) in m.iter_mut().enumerate() {
            if r != col {
                let factor = row[col];
                row.iter_mut()
                    .zip(&pivot_row)
                    .for_each(|(x, p)| *x -= factor * p);
            }
        }
    }
    Some(m.into_iter().map(|r| r[n..].to_vec()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverts_and_detects_singular() {
        let inv = invert(&[vec![4.0, 1.0], vec![1.0, 3.0]]).expect("invertible");
        // The inverse of [[4,1],[1,3]] is [[3,-1],[-1,4]] / 11.
        let want = [[3.0 / 11.0, -1.0 / 11.0], [-1.0 / 11.0, 4.0 / 11.0]];
        for (row, want_row) in inv.iter().zip(want) {
            for (x, w) in row.iter().zip(want_row) {
                assert!((x - w).abs() < 1e-12);
            }
        }
        assert!(invert(&[vec![1.0, 2.0], vec![2.0, 4.0]]).is_none());
    }
}
