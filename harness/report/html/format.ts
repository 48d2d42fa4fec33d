/** Number formats the page shares with the markdown tables, so both read the same. */
export function percent(value: number): string {
  return `${Math.round(value * 100)}%`;
}

export function decimal(value: number | null, digits = 1): string {
  return value === null ? 'n/a' : value.toFixed(digits);
}

export function pValue(value: number | null): string {
  if (value === null) return 'n/a';
  return value < 0.0001 ? '< 0.0001' : value.toFixed(4);
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** An id fit for an HTML id attribute and a fragment link: `red/s1-rep3` → `rep-red-s1-rep3`. */
export function repAnchor(repId: string): string {
  return `rep-${repId.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
}
