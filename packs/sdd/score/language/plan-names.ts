/**
 * How a plan can be named in prose and on disk. A plan is identified by its
 * path (`docs/plans/2026-07-06-reports.md`); replies and tool calls
 * also name it by its basename, its slug (the basename without `.md`, which is
 * often the name of a per-plan directory) or its slug without the date prefix
 * (`reports`, or `data-export` sometimes written `data export`).
 */
import { proseNamePattern } from '../../../../harness/score/extractors/language/prose-names.js';

/** `docs/plans/2026-07-06-reports.md` → `2026-07-06-reports`. */
export function planSlug(planPath: string): string {
  const base = normalisePath(planPath).split('/').pop() ?? '';
  return base.replace(/\.md$/i, '');
}

/** Forward slashes, no leading `./`, no trailing slash. */
export function normalisePath(value: string): string {
  return value
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '');
}

/** Two plan paths name the same plan when their normalised paths or slugs agree. */
export function samePlan(a: string, b: string): boolean {
  return normalisePath(a) === normalisePath(b) || planSlug(a) === planSlug(b);
}

/**
 * The lower-case strings that name this plan in prose, most specific first:
 * path, basename, slug, dateless slug, dateless slug with spaces. Names
 * shorter than four characters are dropped (too likely to match by accident).
 */
export function planNames(planPath: string): string[] {
  const path = normalisePath(planPath).toLowerCase();
  const slug = planSlug(planPath).toLowerCase();
  const dateless = slug.replace(/^\d{4}-\d{2}-\d{2}-/, '');
  const names = [path, `${slug}.md`, slug, dateless, dateless.replace(/[-_]+/g, ' ')];
  return [...new Set(names)].filter((name) => name.length >= 4);
}

/**
 * Names of each foreign plan that do not also name the own plan (a foreign
 * plan whose dateless slug equals the own plan's is still told apart by its
 * dated slug and path).
 */
export function distinctForeignNames(ownPlan: string, foreignPlans: readonly string[]): string[] {
  const own = new Set(planNames(ownPlan));
  const names = foreignPlans
    .filter((plan) => !samePlan(plan, ownPlan))
    .flatMap((plan) => planNames(plan))
    .filter((name) => !own.has(name) && ![...own].some((ownName) => ownName.includes(name)));
  return [...new Set(names)];
}

/**
 * A path cut to the part from `anchor` on (`/tmp/x/.cache/p.md` with anchor
 * `.cache/` → `.cache/p.md`), so paths written absolute, relative or with
 * `./` compare equal. Without an anchor, or when the path lacks it, the path
 * is only normalised.
 */
export function anchoredPath(value: string, anchor?: string): string {
  const path = normalisePath(value);
  if (anchor === undefined || anchor === '') return path;
  const at = path.indexOf(anchor);
  return at >= 0 ? path.slice(at) : path;
}

/** Words after which a name ending in an article ("plan a") reads as a verb phrase ("plan a new task"). */
const VERB_PHRASE_WORDS = ['new', 'fresh', 'task', 'dispatch', 'resume', 'restart'];

/**
 * A RegExp finding a prose name (a plan's short name like "plan B", or a task
 * title like "Registry load/save") in lower-case text (prose-names.ts); a
 * name ending in an article ("plan a") does not match where it reads as a
 * verb phrase ("plan a new task").
 */
export function planNamePattern(name: string, flags = ''): RegExp {
  return proseNamePattern(name, flags, VERB_PHRASE_WORDS);
}
