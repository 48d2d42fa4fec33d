/**
 * A check's `checkout` must name a checkout the fixture holds: the
 * repository's own (".") or one of the recipe scenario's worktrees, as the
 * recipe spells its `path`. Anything else (a typo, a worktree the session
 * would make) is refused when the scenario loads, not at run time.
 */
import type { CheckNode } from '../score/check-schema.js';
import { leavesOf } from '../score/check-schema.js';
import type { CompiledScenario } from '../score/load-scenario.js';

export interface CheckoutProblem {
  readonly field: string;
  readonly problem: string;
  readonly fix: string;
}

/** The first check naming a checkout the fixture scenario does not hold, as a problem. */
export function unknownCheckoutProblem(
  compiled: Pick<CompiledScenario, 'pre' | 'post' | 'observe'>,
  worktrees: readonly { readonly path: string }[] | undefined,
): CheckoutProblem | undefined {
  const known = ['.', ...(worktrees ?? []).map((worktree) => worktree.path)];
  const lists: [string, readonly CheckNode[]][] = [
    ['checks.pre', compiled.pre],
    ['checks.post', compiled.post],
    [
      'observe',
      compiled.observe.flatMap((observation) =>
        observation.kind === 'check' ? [observation.node] : [],
      ),
    ],
  ];
  for (const [field, nodes] of lists) {
    for (const root of nodes) {
      for (const leaf of leavesOf(root)) {
        const checkout = leaf.params.checkout;
        if (typeof checkout !== 'string' || known.includes(checkout)) continue;
        return {
          field: `${field} ${leaf.id}: checkout`,
          problem: `names checkout "${checkout}", which the fixture scenario does not hold (its checkouts: ${known.map((name) => `"${name}"`).join(', ')})`,
          fix:
            known.length === 1
              ? 'drop checkout, or add the worktree to the recipe scenario'
              : `name one of ${known.map((name) => `"${name}"`).join(', ')}; a worktree the session makes is checked with command-succeeds (git -C <path> …)`,
        };
      }
    }
  }
  return undefined;
}
