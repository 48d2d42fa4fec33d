/**
 * What load-time validation of a check knows, and what it answers. With this
 * a check that could never pass (a value no section could read, a section
 * the contract lacks, a tool no session is offered) is refused when the
 * scenario loads rather than left undecided at every rep.
 */

/** A problem with a check's params: which field, what is wrong, what to do. */
export interface ParamProblem {
  readonly field: string;
  readonly problem: string;
  readonly fix: string;
}

/** What a verb may consult when its params are validated at load. */
export interface ValidationContext {
  /** The report contract's sections, with the kind of value each extracts. */
  readonly sections: Readonly<Record<string, string>>;
  /** Each section's extractor params as written (defaults filled in, placeholders kept), by section. */
  readonly sectionSpecs?: Readonly<Record<string, Readonly<Record<string, unknown>>>> | undefined;
  /**
   * The scenario file's fields, where a pack's verbs find the data their
   * pack adds there. Undefined: checks that need it are not checked.
   */
  readonly scenario?: Readonly<Record<string, unknown>> | undefined;
  /**
   * The tools the scenario's sessions are offered, on either backend, in its
   * stop mode with its tool changes (harness/session/session-tool-table.ts),
   * with the names a transcript may record for them; MCP tools are known by
   * their prefix. `stop` says the stop as errors name it (`stop: report`,
   * `stop at tool`). Undefined: not checked.
   */
  readonly tools?: { readonly stop: string; readonly names: readonly string[] } | undefined;
}
