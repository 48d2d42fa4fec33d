/** A line (or, for ATIF, a step or a linked file) that could not be read. */
export interface MalformedLine {
  /** 1-based line number in its file (ATIF: the step id). */
  readonly line: number;
  readonly problem: string;
  /** The file it is in, when the session was read from several. */
  readonly file?: string | undefined;
}
