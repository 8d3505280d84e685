// Small helpers the benchmark sections share: summary statistics, rounding and the text table.

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Nearest-rank percentile (p in 0..100): the smallest sample with at least p% of samples at or below it. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export const round = (n) => Math.round(n * 10) / 10;
export const ratio = (n) => Math.round(n * 100) / 100;
export const mb = (kb) => `${(kb / 1024).toFixed(0)} MB`;

/** Rows of cells, the first row a header: the first column left-aligned, the others right-aligned. */
export function table(rows) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => String(row[column]).length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) =>
          column === 0 ? String(cell).padEnd(widths[column]) : String(cell).padStart(widths[column]),
        )
        .join('   '),
    )
    .join('\n');
}
