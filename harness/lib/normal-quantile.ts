/** The 97.5th percentile of the standard normal: a 95% two-sided interval. */
export const Z_95 = 1.959963984540054;
